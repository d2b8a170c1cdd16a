-- Step 4: a sign-in link's user may be null: every /auth/link request writes a row, a usable link or a spent
-- one that stands in for it, so that timing tells no known address from another (SPEC §2.3).
ALTER TABLE "sign_in_links" ALTER COLUMN "user_id" DROP NOT NULL;
