-- Step 1: the schema as it first shipped. A test keeps the steps equal to models.py.

CREATE TABLE "access_roles" (
  "id" VARCHAR(36) NOT NULL PRIMARY KEY,
  "created_at" VARCHAR(27) NOT NULL,
  "updated_at" VARCHAR(27) NOT NULL,
  "name" VARCHAR(40) NOT NULL,
  "grants" TEXT NOT NULL,
  "description" TEXT
);
CREATE UNIQUE INDEX "accessrole_name" ON "access_roles" ("name");
CREATE TABLE "gig_statuses" (
  "id" VARCHAR(36) NOT NULL PRIMARY KEY,
  "created_at" VARCHAR(27) NOT NULL,
  "updated_at" VARCHAR(27) NOT NULL,
  "name" VARCHAR(200) NOT NULL,
  "kind" VARCHAR(9) NOT NULL,
  "position" INTEGER,
  "color" VARCHAR(7),
  "is_default" INTEGER NOT NULL
);
CREATE UNIQUE INDEX "gigstatus_name" ON "gig_statuses" ("name");
CREATE TABLE "gig_types" (
  "id" VARCHAR(36) NOT NULL PRIMARY KEY,
  "created_at" VARCHAR(27) NOT NULL,
  "updated_at" VARCHAR(27) NOT NULL,
  "name" VARCHAR(200) NOT NULL,
  "description" TEXT
);
CREATE UNIQUE INDEX "gigtype_name" ON "gig_types" ("name");
CREATE TABLE "venues" (
  "id" VARCHAR(36) NOT NULL PRIMARY KEY,
  "created_at" VARCHAR(27) NOT NULL,
  "updated_at" VARCHAR(27) NOT NULL,
  "name" VARCHAR(200) NOT NULL,
  "address_line1" VARCHAR(200),
  "address_line2" VARCHAR(200),
  "city" VARCHAR(200),
  "region" VARCHAR(200),
  "postal_code" VARCHAR(200),
  "country" VARCHAR(2),
  "timezone" VARCHAR(64),
  "phone" VARCHAR(50),
  "email" VARCHAR(254),
  "website" VARCHAR(2000),
  "notes" TEXT,
  "load_in_notes" TEXT,
  "custom_fields" TEXT NOT NULL
);
CREATE TABLE "gigs" (
  "id" VARCHAR(36) NOT NULL PRIMARY KEY,
  "created_at" VARCHAR(27) NOT NULL,
  "updated_at" VARCHAR(27) NOT NULL,
  "gig_date" VARCHAR(10) NOT NULL,
  "title" VARCHAR(200) NOT NULL,
  "gig_status_id" VARCHAR(36),
  "gig_type_id" VARCHAR(36),
  "venue_id" VARCHAR(36),
  "start_time" VARCHAR(5),
  "end_time" VARCHAR(5),
  "load_in_time" VARCHAR(5),
  "guest_count" INTEGER,
  "notes" TEXT,
  "custom_fields" TEXT NOT NULL,
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
CREATE INDEX "gig_notes_id" ON "gigs" ("notes", "id");
CREATE TABLE "attachments" (
  "id" VARCHAR(36) NOT NULL PRIMARY KEY,
  "created_at" VARCHAR(27) NOT NULL,
  "updated_at" VARCHAR(27) NOT NULL,
  "gig_id" VARCHAR(36) NOT NULL,
  "filename" VARCHAR(255) NOT NULL,
  "content_type" VARCHAR(255) NOT NULL,
  "size_bytes" INTEGER NOT NULL,
  "sha256" VARCHAR(64) NOT NULL,
  "description" TEXT,
  FOREIGN KEY ("gig_id") REFERENCES "gigs" ("id") ON DELETE RESTRICT
);
CREATE INDEX "attachment_gig_id" ON "attachments" ("gig_id");
CREATE TABLE "attachment_contents" (
  "attachment_id" VARCHAR(36) NOT NULL PRIMARY KEY,
  "data" BLOB NOT NULL,
  FOREIGN KEY ("attachment_id") REFERENCES "attachments" ("id") ON DELETE CASCADE
);
CREATE TABLE "contacts" (
  "id" VARCHAR(36) NOT NULL PRIMARY KEY,
  "created_at" VARCHAR(27) NOT NULL,
  "updated_at" VARCHAR(27) NOT NULL,
  "first_name" VARCHAR(100) NOT NULL,
  "last_name" VARCHAR(100),
  "email" VARCHAR(254),
  "phone" VARCHAR(50),
  "company" VARCHAR(200),
  "notes" TEXT,
  "custom_fields" TEXT NOT NULL
);
CREATE TABLE "custom_fields" (
  "id" VARCHAR(36) NOT NULL PRIMARY KEY,
  "created_at" VARCHAR(27) NOT NULL,
  "updated_at" VARCHAR(27) NOT NULL,
  "resource" VARCHAR(13) NOT NULL,
  "key" VARCHAR(40) NOT NULL,
  "label" VARCHAR(100) NOT NULL,
  "field_type" VARCHAR(7) NOT NULL,
  "options" TEXT,
  "required" INTEGER NOT NULL,
  "position" INTEGER
);
CREATE UNIQUE INDEX "customfield_resource_key" ON "custom_fields" ("resource", "key");
CREATE TABLE "users" (
  "id" VARCHAR(36) NOT NULL PRIMARY KEY,
  "created_at" VARCHAR(27) NOT NULL,
  "updated_at" VARCHAR(27) NOT NULL,
  "email" VARCHAR(254) NOT NULL,
  "name" VARCHAR(200) NOT NULL,
  "roles" TEXT NOT NULL,
  "active" INTEGER NOT NULL
);
CREATE UNIQUE INDEX "user_email" ON "users" ("email");
CREATE TABLE "devices" (
  "id" VARCHAR(36) NOT NULL PRIMARY KEY,
  "created_at" VARCHAR(27) NOT NULL,
  "updated_at" VARCHAR(27) NOT NULL,
  "user_id" VARCHAR(36) NOT NULL,
  "token" TEXT NOT NULL,
  "platform" VARCHAR(7) NOT NULL,
  "environment" VARCHAR(10) NOT NULL,
  "app_version" VARCHAR(50) NOT NULL,
  "label" VARCHAR(100),
  FOREIGN KEY ("user_id") REFERENCES "users" ("id") ON DELETE CASCADE
);
CREATE INDEX "device_user_id" ON "devices" ("user_id");
CREATE UNIQUE INDEX "device_token" ON "devices" ("token");
CREATE TABLE "ensembles" (
  "id" VARCHAR(36) NOT NULL PRIMARY KEY,
  "created_at" VARCHAR(27) NOT NULL,
  "updated_at" VARCHAR(27) NOT NULL,
  "name" VARCHAR(200) NOT NULL,
  "description" TEXT,
  "active" INTEGER NOT NULL
);
CREATE UNIQUE INDEX "ensemble_name" ON "ensembles" ("name");
CREATE TABLE "teams" (
  "id" VARCHAR(36) NOT NULL PRIMARY KEY,
  "created_at" VARCHAR(27) NOT NULL,
  "updated_at" VARCHAR(27) NOT NULL,
  "name" VARCHAR(200) NOT NULL,
  "description" TEXT
);
CREATE UNIQUE INDEX "team_name" ON "teams" ("name");
CREATE TABLE "roles" (
  "id" VARCHAR(36) NOT NULL PRIMARY KEY,
  "created_at" VARCHAR(27) NOT NULL,
  "updated_at" VARCHAR(27) NOT NULL,
  "name" VARCHAR(200) NOT NULL,
  "team_id" VARCHAR(36),
  "description" TEXT,
  "position" INTEGER,
  FOREIGN KEY ("team_id") REFERENCES "teams" ("id") ON DELETE RESTRICT
);
CREATE UNIQUE INDEX "role_name" ON "roles" ("name");
CREATE INDEX "role_team_id" ON "roles" ("team_id");
CREATE TABLE "ensemble_roles" (
  "id" VARCHAR(36) NOT NULL PRIMARY KEY,
  "created_at" VARCHAR(27) NOT NULL,
  "updated_at" VARCHAR(27) NOT NULL,
  "ensemble_id" VARCHAR(36) NOT NULL,
  "role_id" VARCHAR(36) NOT NULL,
  "quantity" INTEGER NOT NULL,
  FOREIGN KEY ("ensemble_id") REFERENCES "ensembles" ("id") ON DELETE RESTRICT,
  FOREIGN KEY ("role_id") REFERENCES "roles" ("id") ON DELETE RESTRICT
);
CREATE INDEX "ensemblerole_ensemble_id" ON "ensemble_roles" ("ensemble_id");
CREATE INDEX "ensemblerole_role_id" ON "ensemble_roles" ("role_id");
CREATE UNIQUE INDEX "ensemblerole_ensemble_id_role_id" ON "ensemble_roles" ("ensemble_id", "role_id");
CREATE TABLE "equipment_types" (
  "id" VARCHAR(36) NOT NULL PRIMARY KEY,
  "created_at" VARCHAR(27) NOT NULL,
  "updated_at" VARCHAR(27) NOT NULL,
  "name" VARCHAR(200) NOT NULL,
  "description" TEXT
);
CREATE UNIQUE INDEX "equipmenttype_name" ON "equipment_types" ("name");
CREATE TABLE "equipment" (
  "id" VARCHAR(36) NOT NULL PRIMARY KEY,
  "created_at" VARCHAR(27) NOT NULL,
  "updated_at" VARCHAR(27) NOT NULL,
  "equipment_type_id" VARCHAR(36) NOT NULL,
  "name" VARCHAR(200) NOT NULL,
  "serial_number" VARCHAR(100),
  "status" VARCHAR(9) NOT NULL,
  "purchased_on" VARCHAR(10),
  "notes" TEXT,
  "custom_fields" TEXT NOT NULL,
  FOREIGN KEY ("equipment_type_id") REFERENCES "equipment_types" ("id") ON DELETE RESTRICT
);
CREATE INDEX "equipment_equipment_type_id" ON "equipment" ("equipment_type_id");
CREATE UNIQUE INDEX "equipment_serial_number" ON "equipment" ("serial_number");
CREATE TABLE "equipment_issues" (
  "id" VARCHAR(36) NOT NULL PRIMARY KEY,
  "created_at" VARCHAR(27) NOT NULL,
  "updated_at" VARCHAR(27) NOT NULL,
  "equipment_id" VARCHAR(36) NOT NULL,
  "title" VARCHAR(200) NOT NULL,
  "description" TEXT,
  "severity" VARCHAR(6) NOT NULL,
  "status" VARCHAR(8) NOT NULL,
  "reported_by_user_id" VARCHAR(36),
  "resolved_at" VARCHAR(27),
  FOREIGN KEY ("equipment_id") REFERENCES "equipment" ("id") ON DELETE RESTRICT,
  FOREIGN KEY ("reported_by_user_id") REFERENCES "users" ("id") ON DELETE SET NULL
);
CREATE INDEX "equipmentissue_equipment_id" ON "equipment_issues" ("equipment_id");
CREATE INDEX "equipmentissue_reported_by_user_id" ON "equipment_issues" ("reported_by_user_id");
CREATE TABLE "gig_contacts" (
  "id" VARCHAR(36) NOT NULL PRIMARY KEY,
  "created_at" VARCHAR(27) NOT NULL,
  "updated_at" VARCHAR(27) NOT NULL,
  "gig_id" VARCHAR(36) NOT NULL,
  "contact_id" VARCHAR(36) NOT NULL,
  "relationship" VARCHAR(100),
  "is_primary" INTEGER NOT NULL,
  FOREIGN KEY ("gig_id") REFERENCES "gigs" ("id") ON DELETE RESTRICT,
  FOREIGN KEY ("contact_id") REFERENCES "contacts" ("id") ON DELETE RESTRICT
);
CREATE INDEX "gigcontact_gig_id" ON "gig_contacts" ("gig_id");
CREATE INDEX "gigcontact_contact_id" ON "gig_contacts" ("contact_id");
CREATE UNIQUE INDEX "gigcontact_gig_id_contact_id" ON "gig_contacts" ("gig_id", "contact_id");
CREATE TABLE "gig_equipment" (
  "id" VARCHAR(36) NOT NULL PRIMARY KEY,
  "created_at" VARCHAR(27) NOT NULL,
  "updated_at" VARCHAR(27) NOT NULL,
  "gig_id" VARCHAR(36) NOT NULL,
  "equipment_id" VARCHAR(36) NOT NULL,
  "notes" TEXT,
  FOREIGN KEY ("gig_id") REFERENCES "gigs" ("id") ON DELETE RESTRICT,
  FOREIGN KEY ("equipment_id") REFERENCES "equipment" ("id") ON DELETE RESTRICT
);
CREATE INDEX "gigequipment_gig_id" ON "gig_equipment" ("gig_id");
CREATE INDEX "gigequipment_equipment_id" ON "gig_equipment" ("equipment_id");
CREATE UNIQUE INDEX "gigequipment_gig_id_equipment_id" ON "gig_equipment" ("gig_id", "equipment_id");
CREATE TABLE "moments" (
  "id" VARCHAR(36) NOT NULL PRIMARY KEY,
  "created_at" VARCHAR(27) NOT NULL,
  "updated_at" VARCHAR(27) NOT NULL,
  "name" VARCHAR(200) NOT NULL,
  "description" TEXT,
  "position" INTEGER
);
CREATE UNIQUE INDEX "moment_name" ON "moments" ("name");
CREATE TABLE "products" (
  "id" VARCHAR(36) NOT NULL PRIMARY KEY,
  "created_at" VARCHAR(27) NOT NULL,
  "updated_at" VARCHAR(27) NOT NULL,
  "name" VARCHAR(200) NOT NULL,
  "description" TEXT,
  "default_duration_minutes" INTEGER,
  "active" INTEGER NOT NULL,
  "position" INTEGER
);
CREATE UNIQUE INDEX "product_name" ON "products" ("name");
CREATE TABLE "gig_products" (
  "id" VARCHAR(36) NOT NULL PRIMARY KEY,
  "created_at" VARCHAR(27) NOT NULL,
  "updated_at" VARCHAR(27) NOT NULL,
  "gig_id" VARCHAR(36) NOT NULL,
  "product_id" VARCHAR(36) NOT NULL,
  "ensemble_id" VARCHAR(36),
  "start_time" VARCHAR(5),
  "end_time" VARCHAR(5),
  "price_cents" INTEGER,
  "notes" TEXT,
  "position" INTEGER,
  FOREIGN KEY ("gig_id") REFERENCES "gigs" ("id") ON DELETE RESTRICT,
  FOREIGN KEY ("product_id") REFERENCES "products" ("id") ON DELETE RESTRICT,
  FOREIGN KEY ("ensemble_id") REFERENCES "ensembles" ("id") ON DELETE RESTRICT
);
CREATE INDEX "gigproduct_gig_id" ON "gig_products" ("gig_id");
CREATE INDEX "gigproduct_product_id" ON "gig_products" ("product_id");
CREATE INDEX "gigproduct_ensemble_id" ON "gig_products" ("ensemble_id");
CREATE TABLE "gig_moments" (
  "id" VARCHAR(36) NOT NULL PRIMARY KEY,
  "created_at" VARCHAR(27) NOT NULL,
  "updated_at" VARCHAR(27) NOT NULL,
  "gig_id" VARCHAR(36) NOT NULL,
  "moment_id" VARCHAR(36),
  "name" VARCHAR(200) NOT NULL,
  "time" VARCHAR(5),
  "gig_product_id" VARCHAR(36),
  "notes" TEXT,
  "position" INTEGER,
  FOREIGN KEY ("gig_id") REFERENCES "gigs" ("id") ON DELETE RESTRICT,
  FOREIGN KEY ("moment_id") REFERENCES "moments" ("id") ON DELETE RESTRICT,
  FOREIGN KEY ("gig_product_id") REFERENCES "gig_products" ("id") ON DELETE RESTRICT
);
CREATE INDEX "gigmoment_gig_id" ON "gig_moments" ("gig_id");
CREATE INDEX "gigmoment_moment_id" ON "gig_moments" ("moment_id");
CREATE INDEX "gigmoment_gig_product_id" ON "gig_moments" ("gig_product_id");
CREATE TABLE "staff_members" (
  "id" VARCHAR(36) NOT NULL PRIMARY KEY,
  "created_at" VARCHAR(27) NOT NULL,
  "updated_at" VARCHAR(27) NOT NULL,
  "first_name" VARCHAR(100) NOT NULL,
  "last_name" VARCHAR(100) NOT NULL,
  "email" VARCHAR(254),
  "phone" VARCHAR(50),
  "user_id" VARCHAR(36),
  "active" INTEGER NOT NULL,
  "notes" TEXT,
  "custom_fields" TEXT NOT NULL,
  "calendar_version" INTEGER NOT NULL,
  FOREIGN KEY ("user_id") REFERENCES "users" ("id") ON DELETE RESTRICT
);
CREATE UNIQUE INDEX "staffmember_email" ON "staff_members" ("email");
CREATE UNIQUE INDEX "staffmember_user_id" ON "staff_members" ("user_id");
CREATE INDEX "staffmember_last_name_first_name" ON "staff_members" ("last_name", "first_name");
CREATE TABLE "gig_roles" (
  "id" VARCHAR(36) NOT NULL PRIMARY KEY,
  "created_at" VARCHAR(27) NOT NULL,
  "updated_at" VARCHAR(27) NOT NULL,
  "gig_id" VARCHAR(36) NOT NULL,
  "role_id" VARCHAR(36) NOT NULL,
  "gig_product_id" VARCHAR(36),
  "staff_member_id" VARCHAR(36),
  "call_time" VARCHAR(5),
  "pay_cents" INTEGER,
  "notes" TEXT,
  "status" VARCHAR(6) NOT NULL,
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
CREATE INDEX "gigrole_notes_id" ON "gig_roles" ("notes", "id");
CREATE INDEX "gigrole_status_id" ON "gig_roles" ("status", "id");
CREATE TABLE "gig_role_invitations" (
  "id" VARCHAR(36) NOT NULL PRIMARY KEY,
  "created_at" VARCHAR(27) NOT NULL,
  "updated_at" VARCHAR(27) NOT NULL,
  "gig_role_id" VARCHAR(36) NOT NULL,
  "staff_member_id" VARCHAR(36) NOT NULL,
  "message" TEXT,
  "expires_at" VARCHAR(27) NOT NULL,
  "status" VARCHAR(9) NOT NULL,
  "responded_at" VARCHAR(27),
  FOREIGN KEY ("gig_role_id") REFERENCES "gig_roles" ("id") ON DELETE RESTRICT,
  FOREIGN KEY ("staff_member_id") REFERENCES "staff_members" ("id") ON DELETE RESTRICT
);
CREATE INDEX "gigroleinvitation_created_at_id" ON "gig_role_invitations" ("created_at", "id");
CREATE INDEX "gigroleinvitation_updated_at_id" ON "gig_role_invitations" ("updated_at", "id");
CREATE INDEX "gigroleinvitation_gig_role_id_id" ON "gig_role_invitations" ("gig_role_id", "id");
CREATE INDEX "gigroleinvitation_staff_member_id_id" ON "gig_role_invitations" ("staff_member_id", "id");
CREATE INDEX "gigroleinvitation_message_id" ON "gig_role_invitations" ("message", "id");
CREATE INDEX "gigroleinvitation_expires_at_id" ON "gig_role_invitations" ("expires_at", "id");
CREATE INDEX "gigroleinvitation_status_id" ON "gig_role_invitations" ("status", "id");
CREATE INDEX "gigroleinvitation_responded_at_id" ON "gig_role_invitations" ("responded_at", "id");
CREATE TABLE "songs" (
  "id" VARCHAR(36) NOT NULL PRIMARY KEY,
  "created_at" VARCHAR(27) NOT NULL,
  "updated_at" VARCHAR(27) NOT NULL,
  "title" VARCHAR(200) NOT NULL,
  "artist" VARCHAR(200),
  "musical_key" VARCHAR(10),
  "tempo_bpm" INTEGER,
  "duration_seconds" INTEGER,
  "genre" VARCHAR(100),
  "notes" TEXT,
  "active" INTEGER NOT NULL
);
CREATE UNIQUE INDEX "songs_title_artist" ON "songs" ("title", ifnull("artist", ''));
CREATE TABLE "gig_songs" (
  "id" VARCHAR(36) NOT NULL PRIMARY KEY,
  "created_at" VARCHAR(27) NOT NULL,
  "updated_at" VARCHAR(27) NOT NULL,
  "gig_id" VARCHAR(36) NOT NULL,
  "song_id" VARCHAR(36),
  "title" VARCHAR(200) NOT NULL,
  "artist" VARCHAR(200),
  "kind" VARCHAR(11) NOT NULL,
  "gig_moment_id" VARCHAR(36),
  "notes" TEXT,
  "position" INTEGER,
  FOREIGN KEY ("gig_id") REFERENCES "gigs" ("id") ON DELETE RESTRICT,
  FOREIGN KEY ("song_id") REFERENCES "songs" ("id") ON DELETE RESTRICT,
  FOREIGN KEY ("gig_moment_id") REFERENCES "gig_moments" ("id") ON DELETE RESTRICT
);
CREATE INDEX "gigsong_gig_id" ON "gig_songs" ("gig_id");
CREATE INDEX "gigsong_song_id" ON "gig_songs" ("song_id");
CREATE INDEX "gigsong_gig_moment_id" ON "gig_songs" ("gig_moment_id");
CREATE TABLE "prices" (
  "id" VARCHAR(36) NOT NULL PRIMARY KEY,
  "created_at" VARCHAR(27) NOT NULL,
  "updated_at" VARCHAR(27) NOT NULL,
  "product_id" VARCHAR(36) NOT NULL,
  "ensemble_id" VARCHAR(36),
  "amount_cents" INTEGER NOT NULL,
  "currency" VARCHAR(3) NOT NULL,
  "valid_from" VARCHAR(10),
  "valid_to" VARCHAR(10),
  "label" VARCHAR(100),
  FOREIGN KEY ("product_id") REFERENCES "products" ("id") ON DELETE RESTRICT,
  FOREIGN KEY ("ensemble_id") REFERENCES "ensembles" ("id") ON DELETE RESTRICT
);
CREATE INDEX "price_product_id" ON "prices" ("product_id");
CREATE INDEX "price_ensemble_id" ON "prices" ("ensemble_id");
CREATE TABLE "product_ensembles" (
  "id" VARCHAR(36) NOT NULL PRIMARY KEY,
  "created_at" VARCHAR(27) NOT NULL,
  "updated_at" VARCHAR(27) NOT NULL,
  "product_id" VARCHAR(36) NOT NULL,
  "ensemble_id" VARCHAR(36) NOT NULL,
  "is_default" INTEGER NOT NULL,
  FOREIGN KEY ("product_id") REFERENCES "products" ("id") ON DELETE RESTRICT,
  FOREIGN KEY ("ensemble_id") REFERENCES "ensembles" ("id") ON DELETE RESTRICT
);
CREATE INDEX "productensemble_product_id" ON "product_ensembles" ("product_id");
CREATE INDEX "productensemble_ensemble_id" ON "product_ensembles" ("ensemble_id");
CREATE UNIQUE INDEX "productensemble_product_id_ensemble_id" ON "product_ensembles" ("product_id", "ensemble_id");
CREATE TABLE "product_equipment" (
  "id" VARCHAR(36) NOT NULL PRIMARY KEY,
  "created_at" VARCHAR(27) NOT NULL,
  "updated_at" VARCHAR(27) NOT NULL,
  "product_id" VARCHAR(36) NOT NULL,
  "equipment_type_id" VARCHAR(36) NOT NULL,
  "quantity" INTEGER NOT NULL,
  FOREIGN KEY ("product_id") REFERENCES "products" ("id") ON DELETE RESTRICT,
  FOREIGN KEY ("equipment_type_id") REFERENCES "equipment_types" ("id") ON DELETE RESTRICT
);
CREATE INDEX "productequipment_product_id" ON "product_equipment" ("product_id");
CREATE INDEX "productequipment_equipment_type_id" ON "product_equipment" ("equipment_type_id");
CREATE UNIQUE INDEX "productequipment_product_id_equipment_type_id" ON "product_equipment" ("product_id", "equipment_type_id");
CREATE TABLE "rates" (
  "id" VARCHAR(36) NOT NULL PRIMARY KEY,
  "created_at" VARCHAR(27) NOT NULL,
  "updated_at" VARCHAR(27) NOT NULL,
  "role_id" VARCHAR(36) NOT NULL,
  "product_id" VARCHAR(36),
  "amount_cents" INTEGER NOT NULL,
  "currency" VARCHAR(3) NOT NULL,
  FOREIGN KEY ("role_id") REFERENCES "roles" ("id") ON DELETE RESTRICT,
  FOREIGN KEY ("product_id") REFERENCES "products" ("id") ON DELETE RESTRICT
);
CREATE INDEX "rate_role_id" ON "rates" ("role_id");
CREATE INDEX "rate_product_id" ON "rates" ("product_id");
CREATE UNIQUE INDEX "rates_role_product" ON "rates" ("role_id", ifnull("product_id", ''));
CREATE TABLE "settings" (
  "key" VARCHAR(100) NOT NULL PRIMARY KEY,
  "value" TEXT NOT NULL
);
CREATE TABLE "sign_in_links" (
  "id" VARCHAR(36) NOT NULL PRIMARY KEY,
  "user_id" VARCHAR(36) NOT NULL,
  "token_hash" VARCHAR(64) NOT NULL,
  "expires_at" VARCHAR(27) NOT NULL,
  "used_at" VARCHAR(27),
  "created_at" VARCHAR(27) NOT NULL,
  FOREIGN KEY ("user_id") REFERENCES "users" ("id") ON DELETE CASCADE
);
CREATE INDEX "signinlink_user_id" ON "sign_in_links" ("user_id");
CREATE UNIQUE INDEX "signinlink_token_hash" ON "sign_in_links" ("token_hash");
CREATE INDEX "signinlink_created_at" ON "sign_in_links" ("created_at");
CREATE TABLE "staff_member_blockouts" (
  "id" VARCHAR(36) NOT NULL PRIMARY KEY,
  "created_at" VARCHAR(27) NOT NULL,
  "updated_at" VARCHAR(27) NOT NULL,
  "staff_member_id" VARCHAR(36) NOT NULL,
  "start_date" VARCHAR(10) NOT NULL,
  "end_date" VARCHAR(10) NOT NULL,
  "reason" VARCHAR(200),
  FOREIGN KEY ("staff_member_id") REFERENCES "staff_members" ("id") ON DELETE RESTRICT
);
CREATE INDEX "staffmemberblockout_staff_member_id" ON "staff_member_blockouts" ("staff_member_id");
CREATE INDEX "staffmemberblockout_start_date_id" ON "staff_member_blockouts" ("start_date", "id");
CREATE TABLE "staff_member_product_rates" (
  "id" VARCHAR(36) NOT NULL PRIMARY KEY,
  "created_at" VARCHAR(27) NOT NULL,
  "updated_at" VARCHAR(27) NOT NULL,
  "staff_member_id" VARCHAR(36) NOT NULL,
  "product_id" VARCHAR(36) NOT NULL,
  "amount_cents" INTEGER NOT NULL,
  "currency" VARCHAR(3) NOT NULL,
  FOREIGN KEY ("staff_member_id") REFERENCES "staff_members" ("id") ON DELETE RESTRICT,
  FOREIGN KEY ("product_id") REFERENCES "products" ("id") ON DELETE RESTRICT
);
CREATE INDEX "staffmemberproductrate_staff_member_id" ON "staff_member_product_rates" ("staff_member_id");
CREATE INDEX "staffmemberproductrate_product_id" ON "staff_member_product_rates" ("product_id");
CREATE UNIQUE INDEX "staffmemberproductrate_staff_member_id_product_id" ON "staff_member_product_rates" ("staff_member_id", "product_id");
CREATE TABLE "staff_member_roles" (
  "id" VARCHAR(36) NOT NULL PRIMARY KEY,
  "created_at" VARCHAR(27) NOT NULL,
  "updated_at" VARCHAR(27) NOT NULL,
  "staff_member_id" VARCHAR(36) NOT NULL,
  "role_id" VARCHAR(36) NOT NULL,
  "is_primary" INTEGER NOT NULL,
  FOREIGN KEY ("staff_member_id") REFERENCES "staff_members" ("id") ON DELETE RESTRICT,
  FOREIGN KEY ("role_id") REFERENCES "roles" ("id") ON DELETE RESTRICT
);
CREATE INDEX "staffmemberrole_staff_member_id" ON "staff_member_roles" ("staff_member_id");
CREATE INDEX "staffmemberrole_role_id" ON "staff_member_roles" ("role_id");
CREATE UNIQUE INDEX "staffmemberrole_staff_member_id_role_id" ON "staff_member_roles" ("staff_member_id", "role_id");
CREATE TABLE "tokens" (
  "id" VARCHAR(36) NOT NULL PRIMARY KEY,
  "user_id" VARCHAR(36) NOT NULL,
  "kind" VARCHAR(7) NOT NULL,
  "token_hash" VARCHAR(64) NOT NULL,
  "prefix" VARCHAR(12) NOT NULL,
  "label" VARCHAR(100),
  "expires_at" VARCHAR(27) NOT NULL,
  "revoked_at" VARCHAR(27),
  "last_used_at" VARCHAR(27),
  "created_at" VARCHAR(27) NOT NULL,
  FOREIGN KEY ("user_id") REFERENCES "users" ("id") ON DELETE CASCADE
);
CREATE INDEX "token_user_id" ON "tokens" ("user_id");
CREATE UNIQUE INDEX "token_token_hash" ON "tokens" ("token_hash");
