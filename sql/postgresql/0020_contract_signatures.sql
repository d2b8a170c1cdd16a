-- Step 20: a contract's drawn signature (SPEC §16), the SVG its client drew on their page; deleted with the contract.
CREATE TABLE "contract_signatures" (
  "contract_id" VARCHAR(36) COLLATE "C" NOT NULL PRIMARY KEY,
  "svg" TEXT COLLATE "C" NOT NULL,
  "created_at" VARCHAR(27) COLLATE "C" NOT NULL,
  FOREIGN KEY ("contract_id") REFERENCES "contracts" ("id") ON DELETE CASCADE
);
