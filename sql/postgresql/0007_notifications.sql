-- Step 7: notifications (SPEC §9): who is told what on which channel, each channel with its state; a user's
-- choice of channels; devices take the `unifiedpush` platform (the column is made wider); pending invitations
-- by their expiry, for the worker's looks.
CREATE TABLE "notifications" (
  "id" VARCHAR(36) COLLATE "C" NOT NULL PRIMARY KEY,
  "created_at" VARCHAR(27) COLLATE "C" NOT NULL,
  "updated_at" VARCHAR(27) COLLATE "C" NOT NULL,
  "type" VARCHAR(20) COLLATE "C" NOT NULL,
  "recipient_user_id" VARCHAR(36) COLLATE "C",
  "staff_member_id" VARCHAR(36) COLLATE "C",
  "title" VARCHAR(200) COLLATE "C" NOT NULL,
  "body" TEXT COLLATE "C" NOT NULL,
  "summary" VARCHAR(300) COLLATE "C" NOT NULL,
  "data" TEXT COLLATE "C" NOT NULL,
  "topic" VARCHAR(200) COLLATE "C",
  "due_at" VARCHAR(27) COLLATE "C" NOT NULL,
  "read_at" VARCHAR(27) COLLATE "C",
  "email_to" VARCHAR(254) COLLATE "C",
  "email_state" VARCHAR(7) COLLATE "C" NOT NULL,
  "email_attempts" BIGINT NOT NULL,
  "email_next_at" VARCHAR(27) COLLATE "C",
  "email_error" TEXT COLLATE "C",
  "push_state" VARCHAR(7) COLLATE "C" NOT NULL,
  "push_attempts" BIGINT NOT NULL,
  "push_next_at" VARCHAR(27) COLLATE "C",
  "push_error" TEXT COLLATE "C",
  "push_devices" TEXT COLLATE "C",
  "claimed_until" VARCHAR(27) COLLATE "C",
  FOREIGN KEY ("recipient_user_id") REFERENCES "users" ("id") ON DELETE CASCADE,
  FOREIGN KEY ("staff_member_id") REFERENCES "staff_members" ("id") ON DELETE CASCADE
);
CREATE INDEX "notification_recipient_user_id_created_at" ON "notifications" ("recipient_user_id", "created_at");
CREATE INDEX "notification_staff_member_id_created_at" ON "notifications" ("staff_member_id", "created_at");
CREATE INDEX "notification_type_created_at" ON "notifications" ("type", "created_at");
CREATE INDEX "notification_created_at" ON "notifications" ("created_at");
CREATE INDEX "notification_topic_due_at" ON "notifications" ("topic", "due_at");
CREATE INDEX "notification_email_state_email_next_at" ON "notifications" ("email_state", "email_next_at");
CREATE INDEX "notification_push_state_push_next_at" ON "notifications" ("push_state", "push_next_at");
CREATE TABLE "notification_settings" (
  "user_id" VARCHAR(36) COLLATE "C" NOT NULL PRIMARY KEY,
  "email" BOOLEAN NOT NULL,
  "push" BOOLEAN NOT NULL,
  "office_digest" BOOLEAN NOT NULL,
  FOREIGN KEY ("user_id") REFERENCES "users" ("id") ON DELETE CASCADE
);
ALTER TABLE "devices" ALTER COLUMN "platform" TYPE VARCHAR(11) COLLATE "C";
CREATE INDEX "gigroleinvitation_status_expires_at" ON "gig_role_invitations" ("status", "expires_at");
SELECT "band_count_changes_of"('notifications');
SELECT "band_count_changes_of"('notification_settings');
