-- Step 19: the client's links (SPEC §16): one per gig contact, by its token's hash; deleted with the gig contact.
CREATE TABLE "client_links" (
  "id" VARCHAR(36) COLLATE "C" NOT NULL PRIMARY KEY,
  "gig_contact_id" VARCHAR(36) COLLATE "C" NOT NULL,
  "token_hash" VARCHAR(64) COLLATE "C" NOT NULL,
  "expires_at" VARCHAR(27) COLLATE "C" NOT NULL,
  "created_at" VARCHAR(27) COLLATE "C" NOT NULL,
  FOREIGN KEY ("gig_contact_id") REFERENCES "gig_contacts" ("id") ON DELETE CASCADE
);
CREATE UNIQUE INDEX "clientlink_gig_contact_id" ON "client_links" ("gig_contact_id");
CREATE UNIQUE INDEX "clientlink_token_hash" ON "client_links" ("token_hash");
