-- Step 18: a sent or issued document's PDF (SPEC §15), made once in the transaction that sends or issues it and
-- served byte for byte forever (domain/sales/frozen.py): one row per quote, contract or invoice, by kind and id.
CREATE TABLE "frozen_documents" (
  "kind" VARCHAR(10) NOT NULL,
  "record_id" VARCHAR(36) NOT NULL,
  "sha256" VARCHAR(64) NOT NULL,
  "frozen_at" VARCHAR(27) NOT NULL,
  "data" BLOB NOT NULL,
  PRIMARY KEY ("kind", "record_id")
);
