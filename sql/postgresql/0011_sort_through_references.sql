-- Step 11: a list sorted through a reference (`GET /gig-equipment?sort=gig.title`) pages without sorting its rows
-- (SPEC §2.3: a request costs at most 50 ms of CPU). The busy tables' (column, id) indexes become unique, as they
-- are (on SQLite that lets the planner walk the referenced records in order), each one's rows by the new
-- (reference, id) indexes of the big lists of a gig's parts; so are staff members by name and equipment by name.
-- As sql/sqlite/0011_sort_through_references.sql, but for the notes and message indexes step 1 did not make.
DROP INDEX "gig_created_at_id";
CREATE UNIQUE INDEX "gig_created_at_id" ON "gigs" ("created_at", "id");
DROP INDEX "gig_updated_at_id";
CREATE UNIQUE INDEX "gig_updated_at_id" ON "gigs" ("updated_at", "id");
DROP INDEX "gig_gig_date_id";
CREATE UNIQUE INDEX "gig_gig_date_id" ON "gigs" ("gig_date", "id");
DROP INDEX "gig_title_id";
CREATE UNIQUE INDEX "gig_title_id" ON "gigs" ("title", "id");
DROP INDEX "gig_gig_status_id_id";
CREATE UNIQUE INDEX "gig_gig_status_id_id" ON "gigs" ("gig_status_id", "id");
DROP INDEX "gig_gig_type_id_id";
CREATE UNIQUE INDEX "gig_gig_type_id_id" ON "gigs" ("gig_type_id", "id");
DROP INDEX "gig_venue_id_id";
CREATE UNIQUE INDEX "gig_venue_id_id" ON "gigs" ("venue_id", "id");
DROP INDEX "gig_start_time_id";
CREATE UNIQUE INDEX "gig_start_time_id" ON "gigs" ("start_time", "id");
DROP INDEX "gig_end_time_id";
CREATE UNIQUE INDEX "gig_end_time_id" ON "gigs" ("end_time", "id");
DROP INDEX "gig_load_in_time_id";
CREATE UNIQUE INDEX "gig_load_in_time_id" ON "gigs" ("load_in_time", "id");
DROP INDEX "gig_guest_count_id";
CREATE UNIQUE INDEX "gig_guest_count_id" ON "gigs" ("guest_count", "id");
DROP INDEX "gig_role_count_id";
CREATE UNIQUE INDEX "gig_role_count_id" ON "gigs" ("role_count", "id");
DROP INDEX "gig_open_role_count_id";
CREATE UNIQUE INDEX "gig_open_role_count_id" ON "gigs" ("open_role_count", "id");
DROP INDEX "gig_pending_invitation_count_id";
CREATE UNIQUE INDEX "gig_pending_invitation_count_id" ON "gigs" ("pending_invitation_count", "id");
DROP INDEX "gigrole_created_at_id";
CREATE UNIQUE INDEX "gigrole_created_at_id" ON "gig_roles" ("created_at", "id");
DROP INDEX "gigrole_updated_at_id";
CREATE UNIQUE INDEX "gigrole_updated_at_id" ON "gig_roles" ("updated_at", "id");
DROP INDEX "gigrole_gig_id_id";
CREATE UNIQUE INDEX "gigrole_gig_id_id" ON "gig_roles" ("gig_id", "id");
DROP INDEX "gigrole_role_id_id";
CREATE UNIQUE INDEX "gigrole_role_id_id" ON "gig_roles" ("role_id", "id");
DROP INDEX "gigrole_gig_product_id_id";
CREATE UNIQUE INDEX "gigrole_gig_product_id_id" ON "gig_roles" ("gig_product_id", "id");
DROP INDEX "gigrole_staff_member_id_id";
CREATE UNIQUE INDEX "gigrole_staff_member_id_id" ON "gig_roles" ("staff_member_id", "id");
DROP INDEX "gigrole_call_time_id";
CREATE UNIQUE INDEX "gigrole_call_time_id" ON "gig_roles" ("call_time", "id");
DROP INDEX "gigrole_pay_cents_id";
CREATE UNIQUE INDEX "gigrole_pay_cents_id" ON "gig_roles" ("pay_cents", "id");
DROP INDEX "gigrole_status_id";
CREATE UNIQUE INDEX "gigrole_status_id" ON "gig_roles" ("status", "id");
DROP INDEX "gigroleinvitation_created_at_id";
CREATE UNIQUE INDEX "gigroleinvitation_created_at_id" ON "gig_role_invitations" ("created_at", "id");
DROP INDEX "gigroleinvitation_updated_at_id";
CREATE UNIQUE INDEX "gigroleinvitation_updated_at_id" ON "gig_role_invitations" ("updated_at", "id");
DROP INDEX "gigroleinvitation_gig_role_id_id";
CREATE UNIQUE INDEX "gigroleinvitation_gig_role_id_id" ON "gig_role_invitations" ("gig_role_id", "id");
DROP INDEX "gigroleinvitation_staff_member_id_id";
CREATE UNIQUE INDEX "gigroleinvitation_staff_member_id_id" ON "gig_role_invitations" ("staff_member_id", "id");
DROP INDEX "gigroleinvitation_expires_at_id";
CREATE UNIQUE INDEX "gigroleinvitation_expires_at_id" ON "gig_role_invitations" ("expires_at", "id");
DROP INDEX "gigroleinvitation_status_id";
CREATE UNIQUE INDEX "gigroleinvitation_status_id" ON "gig_role_invitations" ("status", "id");
DROP INDEX "gigroleinvitation_responded_at_id";
CREATE UNIQUE INDEX "gigroleinvitation_responded_at_id" ON "gig_role_invitations" ("responded_at", "id");
CREATE INDEX "gigequipment_gig_id_id" ON "gig_equipment" ("gig_id", "id");
CREATE INDEX "gigsong_gig_id_id" ON "gig_songs" ("gig_id", "id");
CREATE INDEX "gigmoment_gig_id_id" ON "gig_moments" ("gig_id", "id");
CREATE INDEX "gigproduct_gig_id_id" ON "gig_products" ("gig_id", "id");
CREATE INDEX "gigequipment_equipment_id_id" ON "gig_equipment" ("equipment_id", "id");
CREATE UNIQUE INDEX "staffmember_last_name_id" ON "staff_members" ("last_name", "id");
CREATE UNIQUE INDEX "staffmember_first_name_id" ON "staff_members" ("first_name", "id");
CREATE UNIQUE INDEX "equipment_name_id" ON "equipment" ("name", "id");
-- The pending invitations in the default order: a walk of their own, not of every invitation since the first.
CREATE INDEX "gigroleinvitation_status_created_at_id" ON "gig_role_invitations" ("status", "created_at", "id");
-- What the planner knows of the new indexes, without which it may choose one of them where it should not: the
-- schema's own tables (a bare ANALYZE also reads the server's shared catalogs, and waits for their locks while another
-- database of the server is being filled, by `copy-to` say).
DO $$
DECLARE
  found RECORD;
BEGIN
  FOR found IN SELECT "tablename" FROM pg_tables WHERE "schemaname" = current_schema() LOOP
    EXECUTE 'ANALYZE ' || quote_ident(found."tablename");
  END LOOP;
END $$;
