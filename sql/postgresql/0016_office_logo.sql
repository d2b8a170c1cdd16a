-- Step 16: the office's logo on its letterhead (SPEC §15), one row apart from its settings; the letterhead's
-- other fields are keys of the settings' JSON row (step 14), which needs no change.
CREATE TABLE "office_logos" (
  "key" VARCHAR(100) COLLATE "C" NOT NULL PRIMARY KEY,
  "media_type" VARCHAR(20) COLLATE "C" NOT NULL,
  "size_bytes" BIGINT NOT NULL,
  "sha256" VARCHAR(64) COLLATE "C" NOT NULL,
  "updated_at" VARCHAR(27) COLLATE "C" NOT NULL,
  "data" BYTEA NOT NULL
);
