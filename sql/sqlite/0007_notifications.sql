-- Step 7: notifications (SPEC §9): who is told what on which channel, each channel with its state; a user's
-- choice of channels; devices take the `unifiedpush` platform (the column is rebuilt wider); pending invitations
-- by their expiry, for the worker's looks.
CREATE TABLE "notifications" (
  "id" VARCHAR(36) NOT NULL PRIMARY KEY,
  "created_at" VARCHAR(27) NOT NULL,
  "updated_at" VARCHAR(27) NOT NULL,
  "type" VARCHAR(20) NOT NULL,
  "recipient_user_id" VARCHAR(36),
  "staff_member_id" VARCHAR(36),
  "title" VARCHAR(200) NOT NULL,
  "body" TEXT NOT NULL,
  "summary" VARCHAR(300) NOT NULL,
  "data" TEXT NOT NULL,
  "topic" VARCHAR(200),
  "due_at" VARCHAR(27) NOT NULL,
  "read_at" VARCHAR(27),
  "email_to" VARCHAR(254),
  "email_state" VARCHAR(7) NOT NULL,
  "email_attempts" INTEGER NOT NULL,
  "email_next_at" VARCHAR(27),
  "email_error" TEXT,
  "push_state" VARCHAR(7) NOT NULL,
  "push_attempts" INTEGER NOT NULL,
  "push_next_at" VARCHAR(27),
  "push_error" TEXT,
  "push_devices" TEXT,
  "claimed_until" VARCHAR(27),
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
  "user_id" VARCHAR(36) NOT NULL PRIMARY KEY,
  "email" INTEGER NOT NULL,
  "push" INTEGER NOT NULL,
  "office_digest" INTEGER NOT NULL,
  FOREIGN KEY ("user_id") REFERENCES "users" ("id") ON DELETE CASCADE
);
CREATE TABLE "devices_new" (
  "id" VARCHAR(36) NOT NULL PRIMARY KEY,
  "created_at" VARCHAR(27) NOT NULL,
  "updated_at" VARCHAR(27) NOT NULL,
  "user_id" VARCHAR(36) NOT NULL,
  "token" TEXT NOT NULL,
  "platform" VARCHAR(11) NOT NULL,
  "environment" VARCHAR(10) NOT NULL,
  "app_version" VARCHAR(50) NOT NULL,
  "label" VARCHAR(100),
  FOREIGN KEY ("user_id") REFERENCES "users" ("id") ON DELETE CASCADE
);
INSERT INTO "devices_new" SELECT "id", "created_at", "updated_at", "user_id", "token", "platform", "environment",
  "app_version", "label" FROM "devices";
DROP TABLE "devices";
ALTER TABLE "devices_new" RENAME TO "devices";
CREATE INDEX "device_user_id" ON "devices" ("user_id");
CREATE UNIQUE INDEX "device_token" ON "devices" ("token");
CREATE INDEX "gigroleinvitation_status_expires_at" ON "gig_role_invitations" ("status", "expires_at");
