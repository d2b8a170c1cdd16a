-- Step 17: document numbers (SPEC §15): the last number each series (quotes, contracts, invoices with their credit
-- notes) gave in each calendar year, taken and raised in the issuing transaction (domain/document_numbers.py): the
-- upsert holds the row until that transaction ends, so a concurrent issue waits and a rolled-back one leaves no gap.
CREATE TABLE "document_numbers" (
  "series" VARCHAR(20) COLLATE "C" NOT NULL,
  "year" BIGINT NOT NULL,
  "last" BIGINT NOT NULL,
  PRIMARY KEY ("series", "year")
);
