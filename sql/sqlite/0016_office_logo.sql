-- Step 16: the office's logo on its letterhead (SPEC §15), one row apart from its settings; the letterhead's
-- other fields are keys of the settings' JSON row (step 14), which needs no change.
CREATE TABLE "office_logos" (
  "key" VARCHAR(100) NOT NULL PRIMARY KEY,
  "media_type" VARCHAR(20) NOT NULL,
  "size_bytes" INTEGER NOT NULL,
  "sha256" VARCHAR(64) NOT NULL,
  "updated_at" VARCHAR(27) NOT NULL,
  "data" BLOB NOT NULL
);
