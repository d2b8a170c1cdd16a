-- Step 9: gigs carry how many roles they have, how many of those are open and how many invitations to them are
-- pending (SPEC §11), kept by triggers: every write (the API's, the worker's expiries, a script's) keeps them
-- true, and a list filters and sorts on them through an index. The counts start from what is stored.
ALTER TABLE "gigs" ADD COLUMN "role_count" BIGINT NOT NULL DEFAULT 0;
ALTER TABLE "gigs" ADD COLUMN "open_role_count" BIGINT NOT NULL DEFAULT 0;
ALTER TABLE "gigs" ADD COLUMN "pending_invitation_count" BIGINT NOT NULL DEFAULT 0;
CREATE INDEX "gig_role_count_id" ON "gigs" ("role_count", "id");
CREATE INDEX "gig_open_role_count_id" ON "gigs" ("open_role_count", "id");
CREATE INDEX "gig_pending_invitation_count_id" ON "gigs" ("pending_invitation_count", "id");

-- Every gig's counts from what is stored: here, and after rows are loaded with their counts as they were (a copy
-- of an office: its roles and invitations, inserted, counted once more).
CREATE FUNCTION "band_count_gigs"() RETURNS void LANGUAGE sql AS $$
  UPDATE "gigs" SET "role_count" = c."roles", "open_role_count" = c."open", "pending_invitation_count" = c."pending"
    FROM (SELECT g."id",
                 (SELECT COUNT(*) FROM "gig_roles" r WHERE r."gig_id" = g."id") AS "roles",
                 (SELECT COUNT(*) FROM "gig_roles" r WHERE r."gig_id" = g."id" AND r."status" = 'open') AS "open",
                 (SELECT COUNT(*) FROM "gig_role_invitations" i JOIN "gig_roles" r ON r."id" = i."gig_role_id"
                   WHERE r."gig_id" = g."id" AND i."status" = 'pending') AS "pending"
            FROM "gigs" g) c
   WHERE c."id" = "gigs"."id" AND ("gigs"."role_count", "gigs"."open_role_count", "gigs"."pending_invitation_count")
         IS DISTINCT FROM (c."roles", c."open", c."pending");
$$;
SELECT "band_count_gigs"();

-- The counts a gig gains or loses with one role (`sign` 1 or -1), its pending invitations included.
CREATE FUNCTION "gig_counts_move"("of_gig" VARCHAR, "of_role" VARCHAR, "role_status" VARCHAR, "sign" INTEGER)
RETURNS void
LANGUAGE sql AS $$
  UPDATE "gigs" SET "role_count" = "role_count" + "sign",
         "open_role_count" = "open_role_count" + "sign" * ("role_status" = 'open')::INTEGER,
         "pending_invitation_count" = "pending_invitation_count" + "sign" * (
           SELECT COUNT(*) FROM "gig_role_invitations" i WHERE i."gig_role_id" = "of_role" AND i."status" = 'pending')
   WHERE "id" = "of_gig";
$$;

CREATE FUNCTION "gig_role_counted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "gigs" SET "role_count" = "role_count" + 1, "open_role_count" = "open_role_count" + (NEW."status" = 'open')::INTEGER
   WHERE "id" = NEW."gig_id";
  RETURN NULL;
END $$;
CREATE TRIGGER "gig_role_counted" AFTER INSERT ON "gig_roles" FOR EACH ROW EXECUTE FUNCTION "gig_role_counted"();

-- A role's pending invitations leave its gig's count with it (none, while references keep a role with
-- invitations from being deleted; the trigger does not rely on that).
CREATE FUNCTION "gig_role_uncounted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "gig_counts_move"(OLD."gig_id", OLD."id", OLD."status", -1);
  RETURN NULL;
END $$;
CREATE TRIGGER "gig_role_uncounted" AFTER DELETE ON "gig_roles" FOR EACH ROW EXECUTE FUNCTION "gig_role_uncounted"();

CREATE FUNCTION "gig_role_recounted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "gig_counts_move"(OLD."gig_id", OLD."id", OLD."status", -1);
  PERFORM "gig_counts_move"(NEW."gig_id", NEW."id", NEW."status", 1);
  RETURN NULL;
END $$;
CREATE TRIGGER "gig_role_recounted" AFTER UPDATE OF "gig_id", "status" ON "gig_roles" FOR EACH ROW
  WHEN (OLD."gig_id" IS DISTINCT FROM NEW."gig_id" OR OLD."status" IS DISTINCT FROM NEW."status")
  EXECUTE FUNCTION "gig_role_recounted"();

-- The pending invitations of a role's gig move by `change`.
CREATE FUNCTION "gig_pending_move"("of_role" VARCHAR, "change" INTEGER) RETURNS void LANGUAGE sql AS $$
  UPDATE "gigs" SET "pending_invitation_count" = "pending_invitation_count" + "change"
   WHERE "change" <> 0 AND "id" = (SELECT r."gig_id" FROM "gig_roles" r WHERE r."id" = "of_role");
$$;

CREATE FUNCTION "invitation_counted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "gig_pending_move"(NEW."gig_role_id", 1);
  RETURN NULL;
END $$;
CREATE TRIGGER "invitation_counted" AFTER INSERT ON "gig_role_invitations" FOR EACH ROW
  WHEN (NEW."status" = 'pending') EXECUTE FUNCTION "invitation_counted"();

CREATE FUNCTION "invitation_uncounted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "gig_pending_move"(OLD."gig_role_id", -1);
  RETURN NULL;
END $$;
CREATE TRIGGER "invitation_uncounted" AFTER DELETE ON "gig_role_invitations" FOR EACH ROW
  WHEN (OLD."status" = 'pending') EXECUTE FUNCTION "invitation_uncounted"();

CREATE FUNCTION "invitation_recounted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "gig_pending_move"(OLD."gig_role_id", -(OLD."status" = 'pending')::INTEGER);
  PERFORM "gig_pending_move"(NEW."gig_role_id", (NEW."status" = 'pending')::INTEGER);
  RETURN NULL;
END $$;
CREATE TRIGGER "invitation_recounted" AFTER UPDATE OF "gig_role_id", "status" ON "gig_role_invitations" FOR EACH ROW
  WHEN (OLD."gig_role_id" IS DISTINCT FROM NEW."gig_role_id" OR OLD."status" IS DISTINCT FROM NEW."status")
  EXECUTE FUNCTION "invitation_recounted"();
