-- Step 21: the couple's wishes (SPEC §16): a time and a note they propose for a gig moment, the song wishes they
-- add (marked theirs, with a link), and their notes to the band in a table of their own.
ALTER TABLE "gig_moments" ADD COLUMN "proposed_time" VARCHAR(5) COLLATE "C";
ALTER TABLE "gig_moments" ADD COLUMN "proposed_note" TEXT COLLATE "C";
ALTER TABLE "gig_songs" ADD COLUMN "link" VARCHAR(2000) COLLATE "C";
ALTER TABLE "gig_songs" ADD COLUMN "from_client" BOOLEAN NOT NULL DEFAULT false;
CREATE TABLE "client_notes" (
  "id" VARCHAR(36) COLLATE "C" NOT NULL PRIMARY KEY,
  "created_at" VARCHAR(27) COLLATE "C" NOT NULL,
  "updated_at" VARCHAR(27) COLLATE "C" NOT NULL,
  "gig_id" VARCHAR(36) COLLATE "C" NOT NULL,
  "contact_id" VARCHAR(36) COLLATE "C",
  "body" TEXT COLLATE "C" NOT NULL,
  FOREIGN KEY ("gig_id") REFERENCES "gigs" ("id") ON DELETE RESTRICT,
  FOREIGN KEY ("contact_id") REFERENCES "contacts" ("id") ON DELETE SET NULL
);
CREATE INDEX "clientnote_gig_id" ON "client_notes" ("gig_id");
CREATE INDEX "clientnote_contact_id" ON "client_notes" ("contact_id");
