-- Step 1: the schema as it first shipped, as sql/sqlite/0001_initial.sql has it (tests/test_postgresql_schema.py
-- holds every step's tables, columns, indexes and triggers to SQLite's). Values are stored in the form the API
-- speaks, as on SQLite: ids, dates, times and timestamps as text (a timestamp `2027-06-12T14:03:27.123456Z`, so
-- that text order is time order and the dialect's NOW compares with it), JSON as its text (read back as written).
-- Text is compared and sorted by code point (COLLATE "C", SQLite's order, whatever the database's locale; lower()
-- on such a column folds ASCII only: fold with an ICU collation, as the search functions of step 10 do).
-- Integers are BIGINT (SQLite's are 64 bits, and the API takes any up to 2^53 - 1); booleans are BOOLEAN.

CREATE TABLE "access_roles" (
  "id" VARCHAR(36) COLLATE "C" NOT NULL PRIMARY KEY,
  "created_at" VARCHAR(27) COLLATE "C" NOT NULL,
  "updated_at" VARCHAR(27) COLLATE "C" NOT NULL,
  "name" VARCHAR(40) COLLATE "C" NOT NULL,
  "grants" TEXT COLLATE "C" NOT NULL,
  "description" TEXT COLLATE "C"
);
CREATE UNIQUE INDEX "accessrole_name" ON "access_roles" ("name");
CREATE TABLE "gig_statuses" (
  "id" VARCHAR(36) COLLATE "C" NOT NULL PRIMARY KEY,
  "created_at" VARCHAR(27) COLLATE "C" NOT NULL,
  "updated_at" VARCHAR(27) COLLATE "C" NOT NULL,
  "name" VARCHAR(200) COLLATE "C" NOT NULL,
  "kind" VARCHAR(9) COLLATE "C" NOT NULL,
  "position" BIGINT,
  "color" VARCHAR(7) COLLATE "C",
  "is_default" BOOLEAN NOT NULL
);
CREATE UNIQUE INDEX "gigstatus_name" ON "gig_statuses" ("name");
CREATE TABLE "gig_types" (
  "id" VARCHAR(36) COLLATE "C" NOT NULL PRIMARY KEY,
  "created_at" VARCHAR(27) COLLATE "C" NOT NULL,
  "updated_at" VARCHAR(27) COLLATE "C" NOT NULL,
  "name" VARCHAR(200) COLLATE "C" NOT NULL,
  "description" TEXT COLLATE "C"
);
CREATE UNIQUE INDEX "gigtype_name" ON "gig_types" ("name");
CREATE TABLE "venues" (
  "id" VARCHAR(36) COLLATE "C" NOT NULL PRIMARY KEY,
  "created_at" VARCHAR(27) COLLATE "C" NOT NULL,
  "updated_at" VARCHAR(27) COLLATE "C" NOT NULL,
  "name" VARCHAR(200) COLLATE "C" NOT NULL,
  "address_line1" VARCHAR(200) COLLATE "C",
  "address_line2" VARCHAR(200) COLLATE "C",
  "city" VARCHAR(200) COLLATE "C",
  "region" VARCHAR(200) COLLATE "C",
  "postal_code" VARCHAR(200) COLLATE "C",
  "country" VARCHAR(2) COLLATE "C",
  "timezone" VARCHAR(64) COLLATE "C",
  "phone" VARCHAR(50) COLLATE "C",
  "email" VARCHAR(254) COLLATE "C",
  "website" VARCHAR(2000) COLLATE "C",
  "notes" TEXT COLLATE "C",
  "load_in_notes" TEXT COLLATE "C",
  "custom_fields" TEXT COLLATE "C" NOT NULL
);
CREATE TABLE "gigs" (
  "id" VARCHAR(36) COLLATE "C" NOT NULL PRIMARY KEY,
  "created_at" VARCHAR(27) COLLATE "C" NOT NULL,
  "updated_at" VARCHAR(27) COLLATE "C" NOT NULL,
  "gig_date" VARCHAR(10) COLLATE "C" NOT NULL,
  "title" VARCHAR(200) COLLATE "C" NOT NULL,
  "gig_status_id" VARCHAR(36) COLLATE "C",
  "gig_type_id" VARCHAR(36) COLLATE "C",
  "venue_id" VARCHAR(36) COLLATE "C",
  "start_time" VARCHAR(5) COLLATE "C",
  "end_time" VARCHAR(5) COLLATE "C",
  "load_in_time" VARCHAR(5) COLLATE "C",
  "guest_count" BIGINT,
  "notes" TEXT COLLATE "C",
  "custom_fields" TEXT COLLATE "C" NOT NULL,
  FOREIGN KEY ("gig_status_id") REFERENCES "gig_statuses" ("id") ON DELETE RESTRICT,
  FOREIGN KEY ("gig_type_id") REFERENCES "gig_types" ("id") ON DELETE RESTRICT,
  FOREIGN KEY ("venue_id") REFERENCES "venues" ("id") ON DELETE RESTRICT
);
CREATE INDEX "gig_gig_date_start_time_id" ON "gigs" ("gig_date", "start_time", "id");
CREATE INDEX "gig_gig_status_id_gig_date_id" ON "gigs" ("gig_status_id", "gig_date", "id");
CREATE INDEX "gig_created_at_id" ON "gigs" ("created_at", "id");
CREATE INDEX "gig_updated_at_id" ON "gigs" ("updated_at", "id");
CREATE INDEX "gig_gig_date_id" ON "gigs" ("gig_date", "id");
CREATE INDEX "gig_title_id" ON "gigs" ("title", "id");
CREATE INDEX "gig_gig_status_id_id" ON "gigs" ("gig_status_id", "id");
CREATE INDEX "gig_gig_type_id_id" ON "gigs" ("gig_type_id", "id");
CREATE INDEX "gig_venue_id_id" ON "gigs" ("venue_id", "id");
CREATE INDEX "gig_start_time_id" ON "gigs" ("start_time", "id");
CREATE INDEX "gig_end_time_id" ON "gigs" ("end_time", "id");
CREATE INDEX "gig_load_in_time_id" ON "gigs" ("load_in_time", "id");
CREATE INDEX "gig_guest_count_id" ON "gigs" ("guest_count", "id");
-- No "gig_notes_id": see the end of this step.
CREATE TABLE "attachments" (
  "id" VARCHAR(36) COLLATE "C" NOT NULL PRIMARY KEY,
  "created_at" VARCHAR(27) COLLATE "C" NOT NULL,
  "updated_at" VARCHAR(27) COLLATE "C" NOT NULL,
  "gig_id" VARCHAR(36) COLLATE "C" NOT NULL,
  "filename" VARCHAR(255) COLLATE "C" NOT NULL,
  "content_type" VARCHAR(255) COLLATE "C" NOT NULL,
  "size_bytes" BIGINT NOT NULL,
  "sha256" VARCHAR(64) COLLATE "C" NOT NULL,
  "description" TEXT COLLATE "C",
  FOREIGN KEY ("gig_id") REFERENCES "gigs" ("id") ON DELETE RESTRICT
);
CREATE INDEX "attachment_gig_id" ON "attachments" ("gig_id");
CREATE TABLE "attachment_contents" (
  "attachment_id" VARCHAR(36) COLLATE "C" NOT NULL PRIMARY KEY,
  "data" BYTEA NOT NULL,
  FOREIGN KEY ("attachment_id") REFERENCES "attachments" ("id") ON DELETE CASCADE
);
-- Stored uncompressed out of the row, so that a read of a slice (a download in chunks) reads only its pages.
ALTER TABLE "attachment_contents" ALTER COLUMN "data" SET STORAGE EXTERNAL;
CREATE TABLE "contacts" (
  "id" VARCHAR(36) COLLATE "C" NOT NULL PRIMARY KEY,
  "created_at" VARCHAR(27) COLLATE "C" NOT NULL,
  "updated_at" VARCHAR(27) COLLATE "C" NOT NULL,
  "first_name" VARCHAR(100) COLLATE "C" NOT NULL,
  "last_name" VARCHAR(100) COLLATE "C",
  "email" VARCHAR(254) COLLATE "C",
  "phone" VARCHAR(50) COLLATE "C",
  "company" VARCHAR(200) COLLATE "C",
  "notes" TEXT COLLATE "C",
  "custom_fields" TEXT COLLATE "C" NOT NULL
);
CREATE TABLE "custom_fields" (
  "id" VARCHAR(36) COLLATE "C" NOT NULL PRIMARY KEY,
  "created_at" VARCHAR(27) COLLATE "C" NOT NULL,
  "updated_at" VARCHAR(27) COLLATE "C" NOT NULL,
  "resource" VARCHAR(13) COLLATE "C" NOT NULL,
  "key" VARCHAR(40) COLLATE "C" NOT NULL,
  "label" VARCHAR(100) COLLATE "C" NOT NULL,
  "field_type" VARCHAR(7) COLLATE "C" NOT NULL,
  "options" TEXT COLLATE "C",
  "required" BOOLEAN NOT NULL,
  "position" BIGINT
);
CREATE UNIQUE INDEX "customfield_resource_key" ON "custom_fields" ("resource", "key");
CREATE TABLE "users" (
  "id" VARCHAR(36) COLLATE "C" NOT NULL PRIMARY KEY,
  "created_at" VARCHAR(27) COLLATE "C" NOT NULL,
  "updated_at" VARCHAR(27) COLLATE "C" NOT NULL,
  "email" VARCHAR(254) COLLATE "C" NOT NULL,
  "name" VARCHAR(200) COLLATE "C" NOT NULL,
  "roles" TEXT COLLATE "C" NOT NULL,
  "active" BOOLEAN NOT NULL
);
CREATE UNIQUE INDEX "user_email" ON "users" ("email");
CREATE TABLE "devices" (
  "id" VARCHAR(36) COLLATE "C" NOT NULL PRIMARY KEY,
  "created_at" VARCHAR(27) COLLATE "C" NOT NULL,
  "updated_at" VARCHAR(27) COLLATE "C" NOT NULL,
  "user_id" VARCHAR(36) COLLATE "C" NOT NULL,
  "token" TEXT COLLATE "C" NOT NULL,
  "platform" VARCHAR(7) COLLATE "C" NOT NULL,
  "environment" VARCHAR(10) COLLATE "C" NOT NULL,
  "app_version" VARCHAR(50) COLLATE "C" NOT NULL,
  "label" VARCHAR(100) COLLATE "C",
  FOREIGN KEY ("user_id") REFERENCES "users" ("id") ON DELETE CASCADE
);
CREATE INDEX "device_user_id" ON "devices" ("user_id");
CREATE UNIQUE INDEX "device_token" ON "devices" ("token");
CREATE TABLE "ensembles" (
  "id" VARCHAR(36) COLLATE "C" NOT NULL PRIMARY KEY,
  "created_at" VARCHAR(27) COLLATE "C" NOT NULL,
  "updated_at" VARCHAR(27) COLLATE "C" NOT NULL,
  "name" VARCHAR(200) COLLATE "C" NOT NULL,
  "description" TEXT COLLATE "C",
  "active" BOOLEAN NOT NULL
);
CREATE UNIQUE INDEX "ensemble_name" ON "ensembles" ("name");
CREATE TABLE "teams" (
  "id" VARCHAR(36) COLLATE "C" NOT NULL PRIMARY KEY,
  "created_at" VARCHAR(27) COLLATE "C" NOT NULL,
  "updated_at" VARCHAR(27) COLLATE "C" NOT NULL,
  "name" VARCHAR(200) COLLATE "C" NOT NULL,
  "description" TEXT COLLATE "C"
);
CREATE UNIQUE INDEX "team_name" ON "teams" ("name");
CREATE TABLE "roles" (
  "id" VARCHAR(36) COLLATE "C" NOT NULL PRIMARY KEY,
  "created_at" VARCHAR(27) COLLATE "C" NOT NULL,
  "updated_at" VARCHAR(27) COLLATE "C" NOT NULL,
  "name" VARCHAR(200) COLLATE "C" NOT NULL,
  "team_id" VARCHAR(36) COLLATE "C",
  "description" TEXT COLLATE "C",
  "position" BIGINT,
  FOREIGN KEY ("team_id") REFERENCES "teams" ("id") ON DELETE RESTRICT
);
CREATE UNIQUE INDEX "role_name" ON "roles" ("name");
CREATE INDEX "role_team_id" ON "roles" ("team_id");
CREATE TABLE "ensemble_roles" (
  "id" VARCHAR(36) COLLATE "C" NOT NULL PRIMARY KEY,
  "created_at" VARCHAR(27) COLLATE "C" NOT NULL,
  "updated_at" VARCHAR(27) COLLATE "C" NOT NULL,
  "ensemble_id" VARCHAR(36) COLLATE "C" NOT NULL,
  "role_id" VARCHAR(36) COLLATE "C" NOT NULL,
  "quantity" BIGINT NOT NULL,
  FOREIGN KEY ("ensemble_id") REFERENCES "ensembles" ("id") ON DELETE RESTRICT,
  FOREIGN KEY ("role_id") REFERENCES "roles" ("id") ON DELETE RESTRICT
);
CREATE INDEX "ensemblerole_ensemble_id" ON "ensemble_roles" ("ensemble_id");
CREATE INDEX "ensemblerole_role_id" ON "ensemble_roles" ("role_id");
CREATE UNIQUE INDEX "ensemblerole_ensemble_id_role_id" ON "ensemble_roles" ("ensemble_id", "role_id");
CREATE TABLE "equipment_types" (
  "id" VARCHAR(36) COLLATE "C" NOT NULL PRIMARY KEY,
  "created_at" VARCHAR(27) COLLATE "C" NOT NULL,
  "updated_at" VARCHAR(27) COLLATE "C" NOT NULL,
  "name" VARCHAR(200) COLLATE "C" NOT NULL,
  "description" TEXT COLLATE "C"
);
CREATE UNIQUE INDEX "equipmenttype_name" ON "equipment_types" ("name");
CREATE TABLE "equipment" (
  "id" VARCHAR(36) COLLATE "C" NOT NULL PRIMARY KEY,
  "created_at" VARCHAR(27) COLLATE "C" NOT NULL,
  "updated_at" VARCHAR(27) COLLATE "C" NOT NULL,
  "equipment_type_id" VARCHAR(36) COLLATE "C" NOT NULL,
  "name" VARCHAR(200) COLLATE "C" NOT NULL,
  "serial_number" VARCHAR(100) COLLATE "C",
  "status" VARCHAR(9) COLLATE "C" NOT NULL,
  "purchased_on" VARCHAR(10) COLLATE "C",
  "notes" TEXT COLLATE "C",
  "custom_fields" TEXT COLLATE "C" NOT NULL,
  FOREIGN KEY ("equipment_type_id") REFERENCES "equipment_types" ("id") ON DELETE RESTRICT
);
CREATE INDEX "equipment_equipment_type_id" ON "equipment" ("equipment_type_id");
CREATE UNIQUE INDEX "equipment_serial_number" ON "equipment" ("serial_number");
CREATE TABLE "equipment_issues" (
  "id" VARCHAR(36) COLLATE "C" NOT NULL PRIMARY KEY,
  "created_at" VARCHAR(27) COLLATE "C" NOT NULL,
  "updated_at" VARCHAR(27) COLLATE "C" NOT NULL,
  "equipment_id" VARCHAR(36) COLLATE "C" NOT NULL,
  "title" VARCHAR(200) COLLATE "C" NOT NULL,
  "description" TEXT COLLATE "C",
  "severity" VARCHAR(6) COLLATE "C" NOT NULL,
  "status" VARCHAR(8) COLLATE "C" NOT NULL,
  "reported_by_user_id" VARCHAR(36) COLLATE "C",
  "resolved_at" VARCHAR(27) COLLATE "C",
  FOREIGN KEY ("equipment_id") REFERENCES "equipment" ("id") ON DELETE RESTRICT,
  FOREIGN KEY ("reported_by_user_id") REFERENCES "users" ("id") ON DELETE SET NULL
);
CREATE INDEX "equipmentissue_equipment_id" ON "equipment_issues" ("equipment_id");
CREATE INDEX "equipmentissue_reported_by_user_id" ON "equipment_issues" ("reported_by_user_id");
CREATE TABLE "gig_contacts" (
  "id" VARCHAR(36) COLLATE "C" NOT NULL PRIMARY KEY,
  "created_at" VARCHAR(27) COLLATE "C" NOT NULL,
  "updated_at" VARCHAR(27) COLLATE "C" NOT NULL,
  "gig_id" VARCHAR(36) COLLATE "C" NOT NULL,
  "contact_id" VARCHAR(36) COLLATE "C" NOT NULL,
  "relationship" VARCHAR(100) COLLATE "C",
  "is_primary" BOOLEAN NOT NULL,
  FOREIGN KEY ("gig_id") REFERENCES "gigs" ("id") ON DELETE RESTRICT,
  FOREIGN KEY ("contact_id") REFERENCES "contacts" ("id") ON DELETE RESTRICT
);
CREATE INDEX "gigcontact_gig_id" ON "gig_contacts" ("gig_id");
CREATE INDEX "gigcontact_contact_id" ON "gig_contacts" ("contact_id");
CREATE UNIQUE INDEX "gigcontact_gig_id_contact_id" ON "gig_contacts" ("gig_id", "contact_id");
CREATE TABLE "gig_equipment" (
  "id" VARCHAR(36) COLLATE "C" NOT NULL PRIMARY KEY,
  "created_at" VARCHAR(27) COLLATE "C" NOT NULL,
  "updated_at" VARCHAR(27) COLLATE "C" NOT NULL,
  "gig_id" VARCHAR(36) COLLATE "C" NOT NULL,
  "equipment_id" VARCHAR(36) COLLATE "C" NOT NULL,
  "notes" TEXT COLLATE "C",
  FOREIGN KEY ("gig_id") REFERENCES "gigs" ("id") ON DELETE RESTRICT,
  FOREIGN KEY ("equipment_id") REFERENCES "equipment" ("id") ON DELETE RESTRICT
);
CREATE INDEX "gigequipment_gig_id" ON "gig_equipment" ("gig_id");
CREATE INDEX "gigequipment_equipment_id" ON "gig_equipment" ("equipment_id");
CREATE UNIQUE INDEX "gigequipment_gig_id_equipment_id" ON "gig_equipment" ("gig_id", "equipment_id");
CREATE TABLE "moments" (
  "id" VARCHAR(36) COLLATE "C" NOT NULL PRIMARY KEY,
  "created_at" VARCHAR(27) COLLATE "C" NOT NULL,
  "updated_at" VARCHAR(27) COLLATE "C" NOT NULL,
  "name" VARCHAR(200) COLLATE "C" NOT NULL,
  "description" TEXT COLLATE "C",
  "position" BIGINT
);
CREATE UNIQUE INDEX "moment_name" ON "moments" ("name");
CREATE TABLE "products" (
  "id" VARCHAR(36) COLLATE "C" NOT NULL PRIMARY KEY,
  "created_at" VARCHAR(27) COLLATE "C" NOT NULL,
  "updated_at" VARCHAR(27) COLLATE "C" NOT NULL,
  "name" VARCHAR(200) COLLATE "C" NOT NULL,
  "description" TEXT COLLATE "C",
  "default_duration_minutes" BIGINT,
  "active" BOOLEAN NOT NULL,
  "position" BIGINT
);
CREATE UNIQUE INDEX "product_name" ON "products" ("name");
CREATE TABLE "gig_products" (
  "id" VARCHAR(36) COLLATE "C" NOT NULL PRIMARY KEY,
  "created_at" VARCHAR(27) COLLATE "C" NOT NULL,
  "updated_at" VARCHAR(27) COLLATE "C" NOT NULL,
  "gig_id" VARCHAR(36) COLLATE "C" NOT NULL,
  "product_id" VARCHAR(36) COLLATE "C" NOT NULL,
  "ensemble_id" VARCHAR(36) COLLATE "C",
  "start_time" VARCHAR(5) COLLATE "C",
  "end_time" VARCHAR(5) COLLATE "C",
  "price_cents" BIGINT,
  "notes" TEXT COLLATE "C",
  "position" BIGINT,
  FOREIGN KEY ("gig_id") REFERENCES "gigs" ("id") ON DELETE RESTRICT,
  FOREIGN KEY ("product_id") REFERENCES "products" ("id") ON DELETE RESTRICT,
  FOREIGN KEY ("ensemble_id") REFERENCES "ensembles" ("id") ON DELETE RESTRICT
);
CREATE INDEX "gigproduct_gig_id" ON "gig_products" ("gig_id");
CREATE INDEX "gigproduct_product_id" ON "gig_products" ("product_id");
CREATE INDEX "gigproduct_ensemble_id" ON "gig_products" ("ensemble_id");
CREATE TABLE "gig_moments" (
  "id" VARCHAR(36) COLLATE "C" NOT NULL PRIMARY KEY,
  "created_at" VARCHAR(27) COLLATE "C" NOT NULL,
  "updated_at" VARCHAR(27) COLLATE "C" NOT NULL,
  "gig_id" VARCHAR(36) COLLATE "C" NOT NULL,
  "moment_id" VARCHAR(36) COLLATE "C",
  "name" VARCHAR(200) COLLATE "C" NOT NULL,
  "time" VARCHAR(5) COLLATE "C",
  "gig_product_id" VARCHAR(36) COLLATE "C",
  "notes" TEXT COLLATE "C",
  "position" BIGINT,
  FOREIGN KEY ("gig_id") REFERENCES "gigs" ("id") ON DELETE RESTRICT,
  FOREIGN KEY ("moment_id") REFERENCES "moments" ("id") ON DELETE RESTRICT,
  FOREIGN KEY ("gig_product_id") REFERENCES "gig_products" ("id") ON DELETE RESTRICT
);
CREATE INDEX "gigmoment_gig_id" ON "gig_moments" ("gig_id");
CREATE INDEX "gigmoment_moment_id" ON "gig_moments" ("moment_id");
CREATE INDEX "gigmoment_gig_product_id" ON "gig_moments" ("gig_product_id");
CREATE TABLE "staff_members" (
  "id" VARCHAR(36) COLLATE "C" NOT NULL PRIMARY KEY,
  "created_at" VARCHAR(27) COLLATE "C" NOT NULL,
  "updated_at" VARCHAR(27) COLLATE "C" NOT NULL,
  "first_name" VARCHAR(100) COLLATE "C" NOT NULL,
  "last_name" VARCHAR(100) COLLATE "C" NOT NULL,
  "email" VARCHAR(254) COLLATE "C",
  "phone" VARCHAR(50) COLLATE "C",
  "user_id" VARCHAR(36) COLLATE "C",
  "active" BOOLEAN NOT NULL,
  "notes" TEXT COLLATE "C",
  "custom_fields" TEXT COLLATE "C" NOT NULL,
  "calendar_version" BIGINT NOT NULL,
  FOREIGN KEY ("user_id") REFERENCES "users" ("id") ON DELETE RESTRICT
);
CREATE UNIQUE INDEX "staffmember_email" ON "staff_members" ("email");
CREATE UNIQUE INDEX "staffmember_user_id" ON "staff_members" ("user_id");
CREATE INDEX "staffmember_last_name_first_name" ON "staff_members" ("last_name", "first_name");
CREATE TABLE "gig_roles" (
  "id" VARCHAR(36) COLLATE "C" NOT NULL PRIMARY KEY,
  "created_at" VARCHAR(27) COLLATE "C" NOT NULL,
  "updated_at" VARCHAR(27) COLLATE "C" NOT NULL,
  "gig_id" VARCHAR(36) COLLATE "C" NOT NULL,
  "role_id" VARCHAR(36) COLLATE "C" NOT NULL,
  "gig_product_id" VARCHAR(36) COLLATE "C",
  "staff_member_id" VARCHAR(36) COLLATE "C",
  "call_time" VARCHAR(5) COLLATE "C",
  "pay_cents" BIGINT,
  "notes" TEXT COLLATE "C",
  "status" VARCHAR(6) COLLATE "C" NOT NULL,
  FOREIGN KEY ("gig_id") REFERENCES "gigs" ("id") ON DELETE RESTRICT,
  FOREIGN KEY ("role_id") REFERENCES "roles" ("id") ON DELETE RESTRICT,
  FOREIGN KEY ("gig_product_id") REFERENCES "gig_products" ("id") ON DELETE RESTRICT,
  FOREIGN KEY ("staff_member_id") REFERENCES "staff_members" ("id") ON DELETE RESTRICT
);
CREATE INDEX "gigrole_created_at_id" ON "gig_roles" ("created_at", "id");
CREATE INDEX "gigrole_updated_at_id" ON "gig_roles" ("updated_at", "id");
CREATE INDEX "gigrole_gig_id_id" ON "gig_roles" ("gig_id", "id");
CREATE INDEX "gigrole_role_id_id" ON "gig_roles" ("role_id", "id");
CREATE INDEX "gigrole_gig_product_id_id" ON "gig_roles" ("gig_product_id", "id");
CREATE INDEX "gigrole_staff_member_id_id" ON "gig_roles" ("staff_member_id", "id");
CREATE INDEX "gigrole_call_time_id" ON "gig_roles" ("call_time", "id");
CREATE INDEX "gigrole_pay_cents_id" ON "gig_roles" ("pay_cents", "id");
-- No "gigrole_notes_id": see the end of this step.
CREATE INDEX "gigrole_status_id" ON "gig_roles" ("status", "id");
CREATE TABLE "gig_role_invitations" (
  "id" VARCHAR(36) COLLATE "C" NOT NULL PRIMARY KEY,
  "created_at" VARCHAR(27) COLLATE "C" NOT NULL,
  "updated_at" VARCHAR(27) COLLATE "C" NOT NULL,
  "gig_role_id" VARCHAR(36) COLLATE "C" NOT NULL,
  "staff_member_id" VARCHAR(36) COLLATE "C" NOT NULL,
  "message" TEXT COLLATE "C",
  "expires_at" VARCHAR(27) COLLATE "C" NOT NULL,
  "status" VARCHAR(9) COLLATE "C" NOT NULL,
  "responded_at" VARCHAR(27) COLLATE "C",
  FOREIGN KEY ("gig_role_id") REFERENCES "gig_roles" ("id") ON DELETE RESTRICT,
  FOREIGN KEY ("staff_member_id") REFERENCES "staff_members" ("id") ON DELETE RESTRICT
);
CREATE INDEX "gigroleinvitation_created_at_id" ON "gig_role_invitations" ("created_at", "id");
CREATE INDEX "gigroleinvitation_updated_at_id" ON "gig_role_invitations" ("updated_at", "id");
CREATE INDEX "gigroleinvitation_gig_role_id_id" ON "gig_role_invitations" ("gig_role_id", "id");
CREATE INDEX "gigroleinvitation_staff_member_id_id" ON "gig_role_invitations" ("staff_member_id", "id");
-- No "gigroleinvitation_message_id": see the end of this step.
CREATE INDEX "gigroleinvitation_expires_at_id" ON "gig_role_invitations" ("expires_at", "id");
CREATE INDEX "gigroleinvitation_status_id" ON "gig_role_invitations" ("status", "id");
CREATE INDEX "gigroleinvitation_responded_at_id" ON "gig_role_invitations" ("responded_at", "id");
CREATE TABLE "songs" (
  "id" VARCHAR(36) COLLATE "C" NOT NULL PRIMARY KEY,
  "created_at" VARCHAR(27) COLLATE "C" NOT NULL,
  "updated_at" VARCHAR(27) COLLATE "C" NOT NULL,
  "title" VARCHAR(200) COLLATE "C" NOT NULL,
  "artist" VARCHAR(200) COLLATE "C",
  "musical_key" VARCHAR(10) COLLATE "C",
  "tempo_bpm" BIGINT,
  "duration_seconds" BIGINT,
  "genre" VARCHAR(100) COLLATE "C",
  "notes" TEXT COLLATE "C",
  "active" BOOLEAN NOT NULL
);
CREATE UNIQUE INDEX "songs_title_artist" ON "songs" ("title", coalesce("artist", ''));
CREATE TABLE "gig_songs" (
  "id" VARCHAR(36) COLLATE "C" NOT NULL PRIMARY KEY,
  "created_at" VARCHAR(27) COLLATE "C" NOT NULL,
  "updated_at" VARCHAR(27) COLLATE "C" NOT NULL,
  "gig_id" VARCHAR(36) COLLATE "C" NOT NULL,
  "song_id" VARCHAR(36) COLLATE "C",
  "title" VARCHAR(200) COLLATE "C" NOT NULL,
  "artist" VARCHAR(200) COLLATE "C",
  "kind" VARCHAR(11) COLLATE "C" NOT NULL,
  "gig_moment_id" VARCHAR(36) COLLATE "C",
  "notes" TEXT COLLATE "C",
  "position" BIGINT,
  FOREIGN KEY ("gig_id") REFERENCES "gigs" ("id") ON DELETE RESTRICT,
  FOREIGN KEY ("song_id") REFERENCES "songs" ("id") ON DELETE RESTRICT,
  FOREIGN KEY ("gig_moment_id") REFERENCES "gig_moments" ("id") ON DELETE RESTRICT
);
CREATE INDEX "gigsong_gig_id" ON "gig_songs" ("gig_id");
CREATE INDEX "gigsong_song_id" ON "gig_songs" ("song_id");
CREATE INDEX "gigsong_gig_moment_id" ON "gig_songs" ("gig_moment_id");
CREATE TABLE "prices" (
  "id" VARCHAR(36) COLLATE "C" NOT NULL PRIMARY KEY,
  "created_at" VARCHAR(27) COLLATE "C" NOT NULL,
  "updated_at" VARCHAR(27) COLLATE "C" NOT NULL,
  "product_id" VARCHAR(36) COLLATE "C" NOT NULL,
  "ensemble_id" VARCHAR(36) COLLATE "C",
  "amount_cents" BIGINT NOT NULL,
  "currency" VARCHAR(3) COLLATE "C" NOT NULL,
  "valid_from" VARCHAR(10) COLLATE "C",
  "valid_to" VARCHAR(10) COLLATE "C",
  "label" VARCHAR(100) COLLATE "C",
  FOREIGN KEY ("product_id") REFERENCES "products" ("id") ON DELETE RESTRICT,
  FOREIGN KEY ("ensemble_id") REFERENCES "ensembles" ("id") ON DELETE RESTRICT
);
CREATE INDEX "price_product_id" ON "prices" ("product_id");
CREATE INDEX "price_ensemble_id" ON "prices" ("ensemble_id");
CREATE TABLE "product_ensembles" (
  "id" VARCHAR(36) COLLATE "C" NOT NULL PRIMARY KEY,
  "created_at" VARCHAR(27) COLLATE "C" NOT NULL,
  "updated_at" VARCHAR(27) COLLATE "C" NOT NULL,
  "product_id" VARCHAR(36) COLLATE "C" NOT NULL,
  "ensemble_id" VARCHAR(36) COLLATE "C" NOT NULL,
  "is_default" BOOLEAN NOT NULL,
  FOREIGN KEY ("product_id") REFERENCES "products" ("id") ON DELETE RESTRICT,
  FOREIGN KEY ("ensemble_id") REFERENCES "ensembles" ("id") ON DELETE RESTRICT
);
CREATE INDEX "productensemble_product_id" ON "product_ensembles" ("product_id");
CREATE INDEX "productensemble_ensemble_id" ON "product_ensembles" ("ensemble_id");
CREATE UNIQUE INDEX "productensemble_product_id_ensemble_id" ON "product_ensembles" ("product_id", "ensemble_id");
CREATE TABLE "product_equipment" (
  "id" VARCHAR(36) COLLATE "C" NOT NULL PRIMARY KEY,
  "created_at" VARCHAR(27) COLLATE "C" NOT NULL,
  "updated_at" VARCHAR(27) COLLATE "C" NOT NULL,
  "product_id" VARCHAR(36) COLLATE "C" NOT NULL,
  "equipment_type_id" VARCHAR(36) COLLATE "C" NOT NULL,
  "quantity" BIGINT NOT NULL,
  FOREIGN KEY ("product_id") REFERENCES "products" ("id") ON DELETE RESTRICT,
  FOREIGN KEY ("equipment_type_id") REFERENCES "equipment_types" ("id") ON DELETE RESTRICT
);
CREATE INDEX "productequipment_product_id" ON "product_equipment" ("product_id");
CREATE INDEX "productequipment_equipment_type_id" ON "product_equipment" ("equipment_type_id");
CREATE UNIQUE INDEX "productequipment_product_id_equipment_type_id" ON "product_equipment" ("product_id", "equipment_type_id");
CREATE TABLE "rates" (
  "id" VARCHAR(36) COLLATE "C" NOT NULL PRIMARY KEY,
  "created_at" VARCHAR(27) COLLATE "C" NOT NULL,
  "updated_at" VARCHAR(27) COLLATE "C" NOT NULL,
  "role_id" VARCHAR(36) COLLATE "C" NOT NULL,
  "product_id" VARCHAR(36) COLLATE "C",
  "amount_cents" BIGINT NOT NULL,
  "currency" VARCHAR(3) COLLATE "C" NOT NULL,
  FOREIGN KEY ("role_id") REFERENCES "roles" ("id") ON DELETE RESTRICT,
  FOREIGN KEY ("product_id") REFERENCES "products" ("id") ON DELETE RESTRICT
);
CREATE INDEX "rate_role_id" ON "rates" ("role_id");
CREATE INDEX "rate_product_id" ON "rates" ("product_id");
CREATE UNIQUE INDEX "rates_role_product" ON "rates" ("role_id", coalesce("product_id", ''));
CREATE TABLE "settings" (
  "key" VARCHAR(100) COLLATE "C" NOT NULL PRIMARY KEY,
  "value" TEXT COLLATE "C" NOT NULL
);
CREATE TABLE "sign_in_links" (
  "id" VARCHAR(36) COLLATE "C" NOT NULL PRIMARY KEY,
  "user_id" VARCHAR(36) COLLATE "C" NOT NULL,
  "token_hash" VARCHAR(64) COLLATE "C" NOT NULL,
  "expires_at" VARCHAR(27) COLLATE "C" NOT NULL,
  "used_at" VARCHAR(27) COLLATE "C",
  "created_at" VARCHAR(27) COLLATE "C" NOT NULL,
  FOREIGN KEY ("user_id") REFERENCES "users" ("id") ON DELETE CASCADE
);
CREATE INDEX "signinlink_user_id" ON "sign_in_links" ("user_id");
CREATE UNIQUE INDEX "signinlink_token_hash" ON "sign_in_links" ("token_hash");
CREATE INDEX "signinlink_created_at" ON "sign_in_links" ("created_at");
CREATE TABLE "staff_member_blockouts" (
  "id" VARCHAR(36) COLLATE "C" NOT NULL PRIMARY KEY,
  "created_at" VARCHAR(27) COLLATE "C" NOT NULL,
  "updated_at" VARCHAR(27) COLLATE "C" NOT NULL,
  "staff_member_id" VARCHAR(36) COLLATE "C" NOT NULL,
  "start_date" VARCHAR(10) COLLATE "C" NOT NULL,
  "end_date" VARCHAR(10) COLLATE "C" NOT NULL,
  "reason" VARCHAR(200) COLLATE "C",
  FOREIGN KEY ("staff_member_id") REFERENCES "staff_members" ("id") ON DELETE RESTRICT
);
CREATE INDEX "staffmemberblockout_staff_member_id" ON "staff_member_blockouts" ("staff_member_id");
CREATE INDEX "staffmemberblockout_start_date_id" ON "staff_member_blockouts" ("start_date", "id");
CREATE TABLE "staff_member_product_rates" (
  "id" VARCHAR(36) COLLATE "C" NOT NULL PRIMARY KEY,
  "created_at" VARCHAR(27) COLLATE "C" NOT NULL,
  "updated_at" VARCHAR(27) COLLATE "C" NOT NULL,
  "staff_member_id" VARCHAR(36) COLLATE "C" NOT NULL,
  "product_id" VARCHAR(36) COLLATE "C" NOT NULL,
  "amount_cents" BIGINT NOT NULL,
  "currency" VARCHAR(3) COLLATE "C" NOT NULL,
  FOREIGN KEY ("staff_member_id") REFERENCES "staff_members" ("id") ON DELETE RESTRICT,
  FOREIGN KEY ("product_id") REFERENCES "products" ("id") ON DELETE RESTRICT
);
CREATE INDEX "staffmemberproductrate_staff_member_id" ON "staff_member_product_rates" ("staff_member_id");
CREATE INDEX "staffmemberproductrate_product_id" ON "staff_member_product_rates" ("product_id");
CREATE UNIQUE INDEX "staffmemberproductrate_staff_member_id_product_id" ON "staff_member_product_rates" ("staff_member_id", "product_id");
CREATE TABLE "staff_member_roles" (
  "id" VARCHAR(36) COLLATE "C" NOT NULL PRIMARY KEY,
  "created_at" VARCHAR(27) COLLATE "C" NOT NULL,
  "updated_at" VARCHAR(27) COLLATE "C" NOT NULL,
  "staff_member_id" VARCHAR(36) COLLATE "C" NOT NULL,
  "role_id" VARCHAR(36) COLLATE "C" NOT NULL,
  "is_primary" BOOLEAN NOT NULL,
  FOREIGN KEY ("staff_member_id") REFERENCES "staff_members" ("id") ON DELETE RESTRICT,
  FOREIGN KEY ("role_id") REFERENCES "roles" ("id") ON DELETE RESTRICT
);
CREATE INDEX "staffmemberrole_staff_member_id" ON "staff_member_roles" ("staff_member_id");
CREATE INDEX "staffmemberrole_role_id" ON "staff_member_roles" ("role_id");
CREATE UNIQUE INDEX "staffmemberrole_staff_member_id_role_id" ON "staff_member_roles" ("staff_member_id", "role_id");
CREATE TABLE "tokens" (
  "id" VARCHAR(36) COLLATE "C" NOT NULL PRIMARY KEY,
  "user_id" VARCHAR(36) COLLATE "C" NOT NULL,
  "kind" VARCHAR(7) COLLATE "C" NOT NULL,
  "token_hash" VARCHAR(64) COLLATE "C" NOT NULL,
  "prefix" VARCHAR(12) COLLATE "C" NOT NULL,
  "label" VARCHAR(100) COLLATE "C",
  "expires_at" VARCHAR(27) COLLATE "C" NOT NULL,
  "revoked_at" VARCHAR(27) COLLATE "C",
  "last_used_at" VARCHAR(27) COLLATE "C",
  "created_at" VARCHAR(27) COLLATE "C" NOT NULL,
  FOREIGN KEY ("user_id") REFERENCES "users" ("id") ON DELETE CASCADE
);
CREATE INDEX "token_user_id" ON "tokens" ("user_id");
CREATE UNIQUE INDEX "token_token_hash" ON "tokens" ("token_hash");

-- Not kept: the (notes, id) indexes "gig_notes_id" and "gigrole_notes_id" and the (message, id) index
-- "gigroleinvitation_message_id". A B-tree entry holds at most 2704 bytes, and notes and messages take up to
-- 100 000 characters (SQLite's indexes have no such bound): such a list sorts its rows instead.

-- What tells every process that the database changed (the dialect's ChangeWatch, SPEC §14, where SQLite has
-- `data_version`): a version bumped once by every transaction that writes a row of any table, as it commits (a
-- deferred trigger: the lock on the one row is held from the commit's start to its end, never while a transaction
-- works, so writers neither queue behind each other's work nor deadlock on it).
CREATE TABLE "change_counter" (
  "id" INTEGER NOT NULL PRIMARY KEY CHECK ("id" = 1),
  "version" BIGINT NOT NULL
);
INSERT INTO "change_counter" ("id", "version") VALUES (1, 0);

CREATE FUNCTION "band_count_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('band.change_counted', true) IS DISTINCT FROM 'yes' THEN
    UPDATE "change_counter" SET "version" = "version" + 1 WHERE "id" = 1;
    PERFORM set_config('band.change_counted', 'yes', true);  -- until this transaction ends
  END IF;
  RETURN NULL;
END $$;

-- The change counter's trigger on a table (each later step gives its new tables theirs).
CREATE FUNCTION "band_count_changes_of"("table_name" TEXT) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE 'CREATE CONSTRAINT TRIGGER ' || quote_ident(table_name || '_changed') || ' AFTER INSERT OR UPDATE OR DELETE ON '
    || quote_ident(table_name) || ' DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "band_count_change"()';
END $$;

SELECT "band_count_changes_of"("table_name"::text) FROM information_schema.tables
 WHERE "table_schema" = current_schema() AND "table_type" = 'BASE TABLE' AND "table_name" <> 'change_counter'
 ORDER BY "table_name";
