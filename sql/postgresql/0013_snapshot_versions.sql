-- Step 13: no change counter any more. Writers now run side by side at SERIALIZABLE (SPEC §14), and one row that
-- every writing transaction updated as it commits made any two of them conflict (the second to commit failed).
-- What tells a process that the database changed is now the snapshot PostgreSQL takes (`pg_current_snapshot()`:
-- the same snapshot sees the same commits), which moves as each transaction that wrote ends (dialects/postgresql/).
DO $$
DECLARE
  found RECORD;
BEGIN
  FOR found IN SELECT t.tgname, c.relname FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
                WHERE NOT t.tgisinternal AND c.relnamespace = current_schema()::regnamespace
                  AND t.tgname = c.relname || '_changed' LOOP
    EXECUTE 'DROP TRIGGER ' || quote_ident(found.tgname) || ' ON ' || quote_ident(found.relname);
  END LOOP;
END $$;
DROP FUNCTION "band_count_changes_of"(TEXT);
DROP FUNCTION "band_count_change"();
DROP TABLE "change_counter";

-- A table that never holds a row, for its lock alone: every SERIALIZABLE writer takes it in ROW SHARE mode (no
-- writer waits for another), and one that has lost to concurrent ones several times in EXCLUSIVE mode, before its
-- first statement: it waits for the writers under way to end, the next wait for it, and it cannot lose again.
CREATE TABLE "write_turns" ("never" BOOLEAN CHECK (FALSE));
