-- Step 25: a gig role carries its gig's status too, copied as step 12 copies its date (whatever writes the role or
-- moves it, or changes its gig's status), so that a pay sheet tells a cancelled gig's roles by the index it walks
-- instead of looking each role's gig up among the cancelled ones (a third of the all-time sheet's work). The status,
-- not whether it is cancelled: a status whose kind changes moves no role. A second index holds a member's roles by
-- what prices them (role, product, own pay), so that a sheet of most of the gigs counts them by kind in one walk,
-- with no sort of every role.
ALTER TABLE "gig_roles" ADD COLUMN "gig_status_id" VARCHAR(36);
UPDATE "gig_roles" SET "gig_status_id" = (SELECT "gig_status_id" FROM "gigs" WHERE "gigs"."id" = "gig_roles"."gig_id");
DROP INDEX "gigrole_staff_member_id_gig_date";
CREATE INDEX "gigrole_staff_member_id_gig_date"
  ON "gig_roles" ("staff_member_id", "gig_date", "gig_id", "gig_status_id", "role_id", "product_id", "pay_cents");
CREATE INDEX "gigrole_staff_member_id_role_id"
  ON "gig_roles" ("staff_member_id", "role_id", "product_id", "pay_cents", "gig_date", "gig_status_id");

DROP TRIGGER "gig_role_copied";
CREATE TRIGGER "gig_role_copied" AFTER INSERT ON "gig_roles" BEGIN
  UPDATE "gig_roles" SET "gig_date" = (SELECT "gig_date" FROM "gigs" WHERE "id" = new."gig_id"),
         "gig_status_id" = (SELECT "gig_status_id" FROM "gigs" WHERE "id" = new."gig_id"),
         "product_id" = (SELECT "product_id" FROM "gig_products" WHERE "id" = new."gig_product_id")
   WHERE "id" = new."id";
END;

DROP TRIGGER "gig_role_copied_again";
CREATE TRIGGER "gig_role_copied_again" AFTER UPDATE OF "gig_id", "gig_product_id" ON "gig_roles" BEGIN
  UPDATE "gig_roles" SET "gig_date" = (SELECT "gig_date" FROM "gigs" WHERE "id" = new."gig_id"),
         "gig_status_id" = (SELECT "gig_status_id" FROM "gigs" WHERE "id" = new."gig_id"),
         "product_id" = (SELECT "product_id" FROM "gig_products" WHERE "id" = new."gig_product_id")
   WHERE "id" = new."id";
END;

CREATE TRIGGER "gig_roles_of_the_gigs_status" AFTER UPDATE OF "gig_status_id" ON "gigs" BEGIN
  UPDATE "gig_roles" SET "gig_status_id" = new."gig_status_id" WHERE "gig_id" = new."id";
END;

-- What the planner knows of the new indexes.
ANALYZE "gig_roles";
