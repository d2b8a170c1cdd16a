-- Step 17: document numbers (SPEC §15): the last number each series (quotes, contracts, invoices with their credit
-- notes) gave in each calendar year, taken and raised in the issuing transaction (domain/document_numbers.py).
CREATE TABLE "document_numbers" (
  "series" VARCHAR(20) NOT NULL,
  "year" INTEGER NOT NULL,
  "last" INTEGER NOT NULL,
  PRIMARY KEY ("series", "year")
);
