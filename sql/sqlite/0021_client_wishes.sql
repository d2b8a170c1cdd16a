-- Step 21: the couple's wishes (SPEC §16): a time and a note they propose for a gig moment, the song wishes they
-- add (marked theirs, with a link), and their notes to the band in a table of their own.
ALTER TABLE "gig_moments" ADD COLUMN "proposed_time" VARCHAR(5);
ALTER TABLE "gig_moments" ADD COLUMN "proposed_note" TEXT;
ALTER TABLE "gig_songs" ADD COLUMN "link" VARCHAR(2000);
ALTER TABLE "gig_songs" ADD COLUMN "from_client" INTEGER NOT NULL DEFAULT false;
CREATE TABLE "client_notes" (
  "id" VARCHAR(36) NOT NULL PRIMARY KEY,
  "created_at" VARCHAR(27) NOT NULL,
  "updated_at" VARCHAR(27) NOT NULL,
  "gig_id" VARCHAR(36) NOT NULL,
  "contact_id" VARCHAR(36),
  "body" TEXT NOT NULL,
  FOREIGN KEY ("gig_id") REFERENCES "gigs" ("id") ON DELETE RESTRICT,
  FOREIGN KEY ("contact_id") REFERENCES "contacts" ("id") ON DELETE SET NULL
);
CREATE INDEX "clientnote_gig_id" ON "client_notes" ("gig_id");
CREATE INDEX "clientnote_contact_id" ON "client_notes" ("contact_id");
