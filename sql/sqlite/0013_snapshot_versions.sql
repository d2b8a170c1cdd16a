-- Step 13: nothing on SQLite (PostgreSQL's step of this number drops its change counter; SQLite's `data_version`
-- was always what tells a process that the database changed).
SELECT 1;
