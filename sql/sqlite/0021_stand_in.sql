-- Step 21: a stand-in for the step of another branch of issue 36 (merged in its place).
SELECT 1;
