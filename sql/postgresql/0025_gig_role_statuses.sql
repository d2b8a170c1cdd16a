-- Step 25: a gig role carries its gig's status too, copied as step 12 copies its date, so that a pay sheet tells a
-- cancelled gig's roles by the index it walks; and a second index of a member's roles by what prices them. As
-- sql/sqlite/0025_gig_role_statuses.sql, the role's copies set before it is written rather than by a second write.
ALTER TABLE "gig_roles" ADD COLUMN "gig_status_id" VARCHAR(36) COLLATE "C";
UPDATE "gig_roles" SET "gig_status_id" = (SELECT "gig_status_id" FROM "gigs" WHERE "gigs"."id" = "gig_roles"."gig_id");
-- The change counter's triggers of the rows just written run now: a table with trigger events pending takes no index.
SET CONSTRAINTS ALL IMMEDIATE;
DROP INDEX "gigrole_staff_member_id_gig_date";
CREATE INDEX "gigrole_staff_member_id_gig_date"
  ON "gig_roles" ("staff_member_id", "gig_date", "gig_id", "gig_status_id", "role_id", "product_id", "pay_cents");
CREATE INDEX "gigrole_staff_member_id_role_id"
  ON "gig_roles" ("staff_member_id", "role_id", "product_id", "pay_cents", "gig_date", "gig_status_id");

CREATE OR REPLACE FUNCTION "gig_role_copied"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW."gig_date" := (SELECT g."gig_date" FROM "gigs" g WHERE g."id" = NEW."gig_id");
  NEW."gig_status_id" := (SELECT g."gig_status_id" FROM "gigs" g WHERE g."id" = NEW."gig_id");
  NEW."product_id" := (SELECT p."product_id" FROM "gig_products" p WHERE p."id" = NEW."gig_product_id");
  RETURN NEW;
END $$;

CREATE FUNCTION "gig_roles_of_the_gigs_status"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "gig_roles" SET "gig_status_id" = NEW."gig_status_id" WHERE "gig_id" = NEW."id";
  RETURN NULL;
END $$;

CREATE TRIGGER "gig_roles_of_the_gigs_status" AFTER UPDATE OF "gig_status_id" ON "gigs" FOR EACH ROW
  WHEN (OLD."gig_status_id" IS DISTINCT FROM NEW."gig_status_id") EXECUTE FUNCTION "gig_roles_of_the_gigs_status"();

-- What the planner knows of the new indexes.
ANALYZE "gig_roles";
