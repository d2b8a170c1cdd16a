-- Step 9: gigs carry how many roles they have, how many of those are open and how many invitations to them are
-- pending (SPEC §11), kept by triggers: every write (the API's, the worker's expiries, a script's) keeps them
-- true, and a list filters and sorts on them through an index. The counts start from what is stored.
ALTER TABLE "gigs" ADD COLUMN "role_count" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "gigs" ADD COLUMN "open_role_count" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "gigs" ADD COLUMN "pending_invitation_count" INTEGER NOT NULL DEFAULT 0;
CREATE INDEX "gig_role_count_id" ON "gigs" ("role_count", "id");
CREATE INDEX "gig_open_role_count_id" ON "gigs" ("open_role_count", "id");
CREATE INDEX "gig_pending_invitation_count_id" ON "gigs" ("pending_invitation_count", "id");

UPDATE "gigs" SET "role_count" = c."roles", "open_role_count" = c."open"
  FROM (SELECT "gig_id", COUNT(*) AS "roles", SUM("status" = 'open') AS "open" FROM "gig_roles" GROUP BY "gig_id") c
 WHERE c."gig_id" = "gigs"."id";
UPDATE "gigs" SET "pending_invitation_count" = c."pending"
  FROM (SELECT r."gig_id", COUNT(*) AS "pending" FROM "gig_role_invitations" i JOIN "gig_roles" r ON r."id" = i."gig_role_id"
         WHERE i."status" = 'pending' GROUP BY r."gig_id") c
 WHERE c."gig_id" = "gigs"."id";

CREATE TRIGGER "gig_role_counted" AFTER INSERT ON "gig_roles" BEGIN
  UPDATE "gigs" SET "role_count" = "role_count" + 1, "open_role_count" = "open_role_count" + (new."status" = 'open')
   WHERE "id" = new."gig_id";
END;

-- A role's pending invitations leave its gig's count with it (none, while references keep a role with
-- invitations from being deleted; the trigger does not rely on that).
-- `+"status"` (here and below): a role's invitations are found by the role's index, never by walking every
-- pending invitation.
CREATE TRIGGER "gig_role_uncounted" AFTER DELETE ON "gig_roles" BEGIN
  UPDATE "gigs" SET "role_count" = "role_count" - 1, "open_role_count" = "open_role_count" - (old."status" = 'open'),
         "pending_invitation_count" = "pending_invitation_count" - (
           SELECT COUNT(*) FROM "gig_role_invitations" WHERE "gig_role_id" = old."id" AND +"status" = 'pending')
   WHERE "id" = old."gig_id";
END;

CREATE TRIGGER "gig_role_recounted" AFTER UPDATE OF "gig_id", "status" ON "gig_roles" BEGIN
  UPDATE "gigs" SET "role_count" = "role_count" - 1, "open_role_count" = "open_role_count" - (old."status" = 'open'),
         "pending_invitation_count" = "pending_invitation_count" - (
           SELECT COUNT(*) FROM "gig_role_invitations" WHERE "gig_role_id" = old."id" AND +"status" = 'pending')
   WHERE "id" = old."gig_id";
  UPDATE "gigs" SET "role_count" = "role_count" + 1, "open_role_count" = "open_role_count" + (new."status" = 'open'),
         "pending_invitation_count" = "pending_invitation_count" + (
           SELECT COUNT(*) FROM "gig_role_invitations" WHERE "gig_role_id" = new."id" AND +"status" = 'pending')
   WHERE "id" = new."gig_id";
END;

CREATE TRIGGER "invitation_counted" AFTER INSERT ON "gig_role_invitations" WHEN new."status" = 'pending' BEGIN
  UPDATE "gigs" SET "pending_invitation_count" = "pending_invitation_count" + 1
   WHERE "id" = (SELECT "gig_id" FROM "gig_roles" WHERE "id" = new."gig_role_id");
END;

CREATE TRIGGER "invitation_uncounted" AFTER DELETE ON "gig_role_invitations" WHEN old."status" = 'pending' BEGIN
  UPDATE "gigs" SET "pending_invitation_count" = "pending_invitation_count" - 1
   WHERE "id" = (SELECT "gig_id" FROM "gig_roles" WHERE "id" = old."gig_role_id");
END;

CREATE TRIGGER "invitation_recounted" AFTER UPDATE OF "gig_role_id", "status" ON "gig_role_invitations" BEGIN
  UPDATE "gigs" SET "pending_invitation_count" = "pending_invitation_count" - (old."status" = 'pending')
   WHERE "id" = (SELECT "gig_id" FROM "gig_roles" WHERE "id" = old."gig_role_id");
  UPDATE "gigs" SET "pending_invitation_count" = "pending_invitation_count" + (new."status" = 'pending')
   WHERE "id" = (SELECT "gig_id" FROM "gig_roles" WHERE "id" = new."gig_role_id");
END;
