-- A stand-in for the schema (s30-pg-schema translates sql/sqlite/ in full): enough to open and migrate a database.
CREATE TABLE "access_roles" (
  "id" VARCHAR(36) NOT NULL PRIMARY KEY,
  "created_at" VARCHAR(27) NOT NULL,
  "updated_at" VARCHAR(27) NOT NULL,
  "name" VARCHAR(40) NOT NULL,
  "grants" TEXT NOT NULL,
  "description" TEXT
);
CREATE UNIQUE INDEX "accessrole_name" ON "access_roles" ("name");
CREATE TABLE "settings" (
  "key" VARCHAR(100) NOT NULL PRIMARY KEY,
  "value" TEXT NOT NULL
);
-- What ChangeWatch reads: bumped by every statement that writes a table the service reads.
CREATE TABLE "change_counter" ("id" INTEGER PRIMARY KEY, "version" BIGINT NOT NULL);
INSERT INTO "change_counter" VALUES (1, 0);
CREATE FUNCTION "count_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "change_counter" SET "version" = "version" + 1 WHERE "id" = 1;
  RETURN NULL;
END;
$$;
CREATE TRIGGER "access_roles_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "access_roles"
  FOR EACH STATEMENT EXECUTE FUNCTION "count_change"();
CREATE TRIGGER "settings_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "settings"
  FOR EACH STATEMENT EXECUTE FUNCTION "count_change"();
