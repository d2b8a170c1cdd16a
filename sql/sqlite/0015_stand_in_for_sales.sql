-- Step 15: a stand-in on the contract-text branch for the sales-data branch's step 15 (the merge takes theirs).
SELECT 1;
