-- Step 20: a stand-in for the step of another branch of issue 36 (its own step replaces this one at the merge).
SELECT 1;
