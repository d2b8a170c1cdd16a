-- Step 12: a gig role carries its gig's date and its gig product's product, copied by triggers (whatever writes
-- the role, or moves its gig or changes its gig product), so that a pay sheet walks each member's roles of a period
-- in one index, (staff_member_id, gig_date, ...), holding all it reads of a role. A ten-year sheet of 200 members
-- at 20 000 gigs read 15 000 roles, each with its gig and gig product, row by row. As
-- sql/sqlite/0012_gig_role_dates.sql, the role's copies set before it is written rather than by a second write.
ALTER TABLE "gig_roles" ADD COLUMN "gig_date" VARCHAR(10) COLLATE "C";
ALTER TABLE "gig_roles" ADD COLUMN "product_id" VARCHAR(36) COLLATE "C";
UPDATE "gig_roles" SET "gig_date" = (SELECT "gig_date" FROM "gigs" WHERE "gigs"."id" = "gig_roles"."gig_id"),
       "product_id" = (SELECT "product_id" FROM "gig_products" WHERE "gig_products"."id" = "gig_roles"."gig_product_id");
-- The change counter's triggers of the rows just written run now: a table with trigger events pending takes no index.
SET CONSTRAINTS ALL IMMEDIATE;
CREATE INDEX "gigrole_staff_member_id_gig_date"
  ON "gig_roles" ("staff_member_id", "gig_date", "gig_id", "role_id", "product_id", "pay_cents");

CREATE FUNCTION "gig_role_copied"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW."gig_date" := (SELECT g."gig_date" FROM "gigs" g WHERE g."id" = NEW."gig_id");
  NEW."product_id" := (SELECT p."product_id" FROM "gig_products" p WHERE p."id" = NEW."gig_product_id");
  RETURN NEW;
END $$;

CREATE TRIGGER "gig_role_copied" BEFORE INSERT ON "gig_roles" FOR EACH ROW EXECUTE FUNCTION "gig_role_copied"();

CREATE TRIGGER "gig_role_copied_again" BEFORE UPDATE OF "gig_id", "gig_product_id" ON "gig_roles" FOR EACH ROW
  EXECUTE FUNCTION "gig_role_copied"();

CREATE FUNCTION "gig_roles_dated_with_their_gig"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "gig_roles" SET "gig_date" = NEW."gig_date" WHERE "gig_id" = NEW."id";
  RETURN NULL;
END $$;

CREATE TRIGGER "gig_roles_dated_with_their_gig" AFTER UPDATE OF "gig_date" ON "gigs" FOR EACH ROW
  WHEN (OLD."gig_date" IS DISTINCT FROM NEW."gig_date") EXECUTE FUNCTION "gig_roles_dated_with_their_gig"();

CREATE FUNCTION "gig_roles_of_the_gig_products_product"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "gig_roles" SET "product_id" = NEW."product_id" WHERE "gig_product_id" = NEW."id";
  RETURN NULL;
END $$;

CREATE TRIGGER "gig_roles_of_the_gig_products_product" AFTER UPDATE OF "product_id" ON "gig_products" FOR EACH ROW
  WHEN (OLD."product_id" IS DISTINCT FROM NEW."product_id") EXECUTE FUNCTION "gig_roles_of_the_gig_products_product"();

-- What the planner knows of the new index.
ANALYZE "gig_roles";
