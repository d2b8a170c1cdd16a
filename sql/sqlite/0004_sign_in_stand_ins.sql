-- Step 4: a sign-in link's user may be null: every /auth/link request writes a row, a usable link or a spent
-- one that stands in for it, so that timing tells no known address from another (SPEC §2.3).
CREATE TABLE "sign_in_links_new" (
  "id" VARCHAR(36) NOT NULL PRIMARY KEY,
  "user_id" VARCHAR(36),
  "token_hash" VARCHAR(64) NOT NULL,
  "expires_at" VARCHAR(27) NOT NULL,
  "used_at" VARCHAR(27),
  "created_at" VARCHAR(27) NOT NULL,
  FOREIGN KEY ("user_id") REFERENCES "users" ("id") ON DELETE CASCADE
);
INSERT INTO "sign_in_links_new" SELECT "id", "user_id", "token_hash", "expires_at", "used_at", "created_at"
  FROM "sign_in_links";
DROP TABLE "sign_in_links";
ALTER TABLE "sign_in_links_new" RENAME TO "sign_in_links";
CREATE INDEX "signinlink_user_id" ON "sign_in_links" ("user_id");
CREATE UNIQUE INDEX "signinlink_token_hash" ON "sign_in_links" ("token_hash");
CREATE INDEX "signinlink_created_at" ON "sign_in_links" ("created_at");
