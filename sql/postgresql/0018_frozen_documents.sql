-- Step 18: a sent or issued document's PDF (SPEC §15), made once in the transaction that sends or issues it and
-- served byte for byte forever (domain/sales/frozen.py): one row per quote, contract or invoice, by kind and id.
CREATE TABLE "frozen_documents" (
  "kind" VARCHAR(10) COLLATE "C" NOT NULL,
  "record_id" VARCHAR(36) COLLATE "C" NOT NULL,
  "sha256" VARCHAR(64) COLLATE "C" NOT NULL,
  "frozen_at" VARCHAR(27) COLLATE "C" NOT NULL,
  "data" BYTEA NOT NULL,
  PRIMARY KEY ("kind", "record_id")
);
