-- Step 18: a stand-in on this branch for the invoicing branch's step 18 (the frozen PDFs), so that the client's links
-- keep their number 19.
SELECT 1;
