-- Step 20: a contract's drawn signature (SPEC §16), the SVG its client drew on their page; deleted with the contract.
CREATE TABLE "contract_signatures" (
  "contract_id" VARCHAR(36) NOT NULL PRIMARY KEY,
  "svg" TEXT NOT NULL,
  "created_at" VARCHAR(27) NOT NULL,
  FOREIGN KEY ("contract_id") REFERENCES "contracts" ("id") ON DELETE CASCADE
);
