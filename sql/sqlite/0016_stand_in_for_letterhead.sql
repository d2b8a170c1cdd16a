-- Step 16: a stand-in on the contract-text branch for the office-letterhead branch's step 16 (the merge takes theirs).
SELECT 1;
