"""SPEC §6: numbered schema steps on PRAGMA user_version, backups before migrating, newer databases refused,
and the steps kept equal to what models.py declares."""

import sqlite3
from pathlib import Path

import peewee
import pytest

from app import create_app
from dialects import dialect
from domain.errors import ConfigError
from models import MODELS, AccessRole, Event, db
from storage import migrations
from tests.support import postgresql, postgresql_server
from tests.support.database import execute, nth_id, structure


@pytest.fixture
def fresh(tmp_path):
    """An app on a database that has no tables yet (a file that does not exist yet, on SQLite); on PostgreSQL the
    copies taken before migrating go to the folder `backups` of the test's."""
    app = create_app({"DB": postgresql.location(tmp_path), "BACKUP_DIR": str(tmp_path / "backups")})
    yield app
    db.close()


def test_a_new_database_gets_every_step_and_the_default_roles(fresh, tmp_path):
    with fresh.app_context():
        assert migrations.upgrade() == (0, len(migrations.steps()))
        assert migrations.schema_version() == len(migrations.steps())
        assert {r.name: r.grants for r in AccessRole.select()} == {
            name: grants for name, (grants, _) in migrations.DEFAULT_ROLES.items()
        }
        assert migrations.upgrade() == (len(migrations.steps()), len(migrations.steps()))
    assert list(tmp_path.glob("*.bak")) == []  # nothing to back up in a new database


@pytest.mark.sqlite_only  # on PostgreSQL: tests/test_postgresql_schema.py
def test_the_steps_build_exactly_the_schema_models_declare(fresh, tmp_path):
    with fresh.app_context():
        migrations.upgrade()
        migrated = structure(db.connection())
    db.close()
    db.init(str(tmp_path / "declared.db"))
    db.create_tables(MODELS)
    assert structure(db.connection()) == migrated


@pytest.mark.sqlite_only  # reads the backup file with sqlite3
def test_a_pending_step_runs_after_a_backup_and_keeps_the_data(fresh, tmp_path):
    with fresh.app_context():
        migrations.upgrade()
        AccessRole.create(name="keeper", grants=[])
        last = len(migrations.steps())
        extra = migrations.Step(last + 1, "motto", lambda d: d.execute_sql("ALTER TABLE teams ADD COLUMN motto TEXT"))
        assert migrations.upgrade([*migrations.steps(), extra]) == (last, last + 1)
        assert migrations.schema_version() == last + 1
        assert "motto" in [c.name for c in db.get_columns("teams")]
        assert AccessRole.get_or_none(name="keeper") is not None
    [backup] = tmp_path.glob(f"band.db.v{last}-*.bak")
    copy = sqlite3.connect(backup)
    assert copy.execute("PRAGMA user_version").fetchone()[0] == last
    assert copy.execute("SELECT COUNT(*) FROM access_roles WHERE name = 'keeper'").fetchone()[0] == 1
    copy.close()


def motto_step():
    return migrations.Step(
        len(migrations.steps()) + 1, "motto", lambda d: d.execute_sql("ALTER TABLE teams ADD COLUMN motto TEXT")
    )


@pytest.mark.postgresql_only  # a database that is no file here: its copy goes to BAND_BACKUP_DIR (on SQLite, above)
def test_a_pending_step_on_postgresql_runs_after_a_backup_into_the_backup_folder(fresh, tmp_path):
    folder = tmp_path / "backups"
    with fresh.app_context():
        migrations.upgrade()
        AccessRole.create(name="keeper", grants=[])
        last = len(migrations.steps())
        assert migrations.upgrade([*migrations.steps(), motto_step()]) == (last, last + 1)
        assert "motto" in [c.name for c in db.get_columns("teams")]
        name = db.database
    [backup] = folder.glob(f"{name}.v{last}-*.bak")
    assert oct(backup.stat().st_mode & 0o777) == "0o600" and oct(folder.stat().st_mode & 0o777) == "0o700"
    assert dialect.inspect_file(backup) == (last, [], {})
    assert any("\tkeeper\t" in row for row in postgresql_server.archive_rows(backup, "access_roles"))
    assert list(Path.cwd().glob(f"{name}*")) == []  # nothing left in the working folder


@pytest.mark.postgresql_only  # on SQLite the copy is always written beside the file
def test_a_postgresql_database_to_migrate_without_a_backup_folder_is_refused_unchanged(tmp_path):
    app = create_app({"DB": postgresql.location(tmp_path), "BACKUP_DIR": ""})
    with app.app_context():
        migrations.upgrade()
        behind = len(migrations.steps()) - 1
        dialect.set_schema_version(behind)
        result = app.test_cli_runner().invoke(args=["init-db"])
    assert result.exit_code == 1
    assert f"is at schema version {behind} and needs migrating, after a backup: set BAND_BACKUP_DIR" in result.output
    with app.app_context():
        assert migrations.schema_version() == behind
    db.close()


def test_a_failing_step_leaves_the_database_as_it_was(fresh):
    def broken(database):
        database.execute_sql("ALTER TABLE teams ADD COLUMN motto TEXT")
        database.execute_sql("THIS IS NOT SQL")

    with fresh.app_context():
        migrations.upgrade()
        last = len(migrations.steps())
        with pytest.raises(peewee.DatabaseError):
            migrations.upgrade([*migrations.steps(), migrations.Step(last + 1, "broken", broken)])
        assert migrations.schema_version() == last
        assert "motto" not in [c.name for c in db.get_columns("teams")]


def test_a_database_newer_than_the_code_is_refused(fresh):
    with fresh.app_context():
        migrations.upgrade()
        dialect.set_schema_version(99)
        with pytest.raises(ConfigError, match="schema version 99, newer than this code knows"):
            migrations.upgrade()
    with fresh.app_context():  # as `app.py init-db` runs it
        result = fresh.test_cli_runner().invoke(args=["init-db"])
    assert result.exit_code == 1 and "newer than this code knows" in result.output


def test_sql_steps_split_into_complete_statements():
    assert dialect.statements("CREATE TABLE a (x TEXT DEFAULT ';');\n-- note\nCREATE INDEX i ON a (x);\n") == [
        "CREATE TABLE a (x TEXT DEFAULT ';');",
        "-- note\nCREATE INDEX i ON a (x);",
    ]


def version_one(tmp_path):
    """A database as step 1 left it (the schema as it first shipped), with its default roles."""
    app = create_app({"DB": postgresql.location(tmp_path), "BACKUP_DIR": str(tmp_path / "backups")})
    with app.app_context():
        migrations.upgrade(migrations.steps()[:1])
    db.close()
    return app


def test_old_status_kinds_become_the_five_kinds(tmp_path):
    app = version_one(tmp_path)
    with app.app_context():
        for name, kind in [
            ("Completed", "closed"),
            ("Called off", "closed"),
            ("Inquiry", "tentative"),
            ("Hold", "tentative"),
        ]:
            execute(
                "INSERT INTO gig_statuses (id, created_at, updated_at, name, kind, is_default) "
                "VALUES (?, '', '', ?, ?, FALSE)",
                (f"00000000-0000-4000-8000-{len(name):012d}", name, kind),
            )
        migrations.upgrade()
        kinds = dict(execute("SELECT name, kind FROM gig_statuses").fetchall())
    db.close()
    assert kinds == {"Completed": "completed", "Called off": "cancelled", "Inquiry": "inquiry", "Hold": "tentative"}


def test_times_stored_with_other_digits_become_ascii(tmp_path):
    app = version_one(tmp_path)
    with app.app_context():
        execute(
            "INSERT INTO gigs (id, created_at, updated_at, gig_date, title, start_time, end_time, load_in_time, "
            "custom_fields) VALUES ('00000000-0000-4000-8000-000000000001', '', '', '2027-06-12', 'Odd', '1５:00', "
            "'２３:３０', '9９:00', '{}')"
        )
        migrations.upgrade()
        times = execute("SELECT start_time, end_time, load_in_time FROM gigs").fetchone()
    db.close()
    assert times == ("15:00", "23:30", None)


OLD_STAFF_GRANTS = ["gigs.view", "catalog.view", "staffing.view", "people.view"]


def before_step(tmp_path, step, staff_grants, description="Musicians and crew."):
    """A database as the steps before `step` left it, its staff access role holding `staff_grants`."""
    app = create_app({"DB": postgresql.location(tmp_path), "BACKUP_DIR": str(tmp_path / "backups")})
    with app.app_context():
        migrations.upgrade(migrations.steps()[: step - 1])
        AccessRole.update(grants=staff_grants, description=description).where(AccessRole.name == "staff").execute()
    return app


def test_the_staff_role_with_its_shipped_grants_reads_the_catalogue_only(tmp_path, caplog):
    caplog.set_level("INFO", logger="band.migrations")
    app = before_step(tmp_path, 8, OLD_STAFF_GRANTS)
    with app.app_context():
        migrations.upgrade()
        staff = AccessRole.get(AccessRole.name == "staff")
    db.close()
    assert (staff.grants, staff.description) == migrations.DEFAULT_ROLES["staff"]
    assert "the staff access role now reads the catalogue only" in caplog.text
    with app.app_context():
        [event] = Event.select().where(Event.subject_id == staff.id)
    db.close()
    assert (event.type, event.actor_user_id, event.subject_group) == ("access_role.updated", None, "admin")
    assert event.changes["grants"] == {"from": OLD_STAFF_GRANTS, "to": ["catalog.view"]}
    assert event.data["grants"] == ["catalog.view"] and event.data["updated_at"] == staff.updated_at


def test_a_staff_role_the_office_changed_is_left_as_it_is_and_the_log_says_so(tmp_path, caplog):
    caplog.set_level("INFO", logger="band.migrations")
    changed = ["gigs.view", "catalog.view", "staffing.*"]
    app = before_step(tmp_path, 8, changed, description="Our players")
    with app.app_context():
        migrations.upgrade()
        staff = AccessRole.get(AccessRole.name == "staff")
    db.close()
    assert (staff.grants, staff.description) == (changed, "Our players")
    [warning] = [record for record in caplog.records if "staff access role" in record.getMessage()]
    assert warning.levelname == "WARNING" and "left as it is" in warning.getMessage()
    assert "changed from its defaults (catalog.view, gigs.view, staffing.*)" in warning.getMessage()


def test_a_new_database_says_nothing_of_the_staff_role(fresh, caplog):
    caplog.set_level("INFO", logger="band.migrations")
    with fresh.app_context():
        migrations.upgrade()
    assert "staff access role" not in caplog.text


GIG_SQL = "INSERT INTO gigs (id, created_at, updated_at, gig_date, title, custom_fields) VALUES (?, '', '', ?, ?, '{}')"
PRODUCT_SQL = "INSERT INTO products (id, created_at, updated_at, name, active) VALUES (?, '', '', ?, TRUE)"
GIG_PRODUCT_SQL = "INSERT INTO gig_products (id, created_at, updated_at, gig_id, product_id) VALUES (?, '', '', ?, ?)"
ROLE_SQL = (
    "INSERT INTO gig_roles (id, created_at, updated_at, gig_id, role_id, gig_product_id, status) "
    "VALUES (?, '', '', ?, ?, ?, 'open')"
)


def test_gig_roles_carry_their_gigs_date_and_product_from_step_12_on_whatever_writes_them(tmp_path):
    """Step 12 copies the gig's date and the gig product's product onto the roles there are; its triggers keep them
    for a role written by any means, moved to another gig or gig product, or whose gig or gig product changes."""
    app = create_app({"DB": postgresql.location(tmp_path), "BACKUP_DIR": str(tmp_path / "backups")})
    with app.app_context():
        migrations.upgrade(migrations.steps()[:11])
        execute("INSERT INTO roles (id, created_at, updated_at, name) VALUES (?, '', '', 'Bass')", (nth_id(9),))
        execute(GIG_SQL, (nth_id(1), "2027-06-12", "June"))
        execute(GIG_SQL, (nth_id(2), "2027-07-03", "July"))
        for product, name in ((nth_id(5), "Party"), (nth_id(6), "Ceremony")):
            execute(PRODUCT_SQL, (product, name))
        execute(GIG_PRODUCT_SQL, (nth_id(21), nth_id(1), nth_id(5)))
        execute(GIG_PRODUCT_SQL, (nth_id(22), nth_id(2), nth_id(6)))
        execute(ROLE_SQL, (nth_id(11), nth_id(1), nth_id(9), nth_id(21)))
        migrations.upgrade()

        def copies():
            return {row[0]: row[1:] for row in execute("SELECT id, gig_date, product_id FROM gig_roles")}

        assert copies() == {nth_id(11): ("2027-06-12", nth_id(5))}
        execute(ROLE_SQL, (nth_id(12), nth_id(2), nth_id(9), None))
        assert copies() == {nth_id(11): ("2027-06-12", nth_id(5)), nth_id(12): ("2027-07-03", None)}
        execute("UPDATE gig_roles SET gig_id = ?, gig_product_id = ? WHERE id = ?", (nth_id(2), nth_id(22), nth_id(11)))
        execute("UPDATE gigs SET gig_date = '2027-08-01' WHERE id = ?", (nth_id(2),))
        execute("UPDATE gig_products SET product_id = ? WHERE id = ?", (nth_id(5), nth_id(22)))
        assert copies() == {nth_id(11): ("2027-08-01", nth_id(5)), nth_id(12): ("2027-08-01", None)}
    db.close()


STATUS_SQL = (
    "INSERT INTO gig_statuses (id, created_at, updated_at, name, kind, is_default) VALUES (?, '', '', ?, ?, FALSE)"
)


def test_gig_roles_carry_their_gigs_status_from_step_25_on_whatever_writes_them(tmp_path):
    """Step 25 copies the gig's status onto the roles there are (for the pay sheets, SPEC §5.5); its triggers keep it
    for a role written by any means or moved to another gig, and when its gig's status changes."""
    app = create_app({"DB": postgresql.location(tmp_path), "BACKUP_DIR": str(tmp_path / "backups")})
    with app.app_context():
        migrations.upgrade(migrations.steps()[:24])
        execute("INSERT INTO roles (id, created_at, updated_at, name) VALUES (?, '', '', 'Bass')", (nth_id(9),))
        execute(STATUS_SQL, (nth_id(31), "Booked", "confirmed"))
        execute(STATUS_SQL, (nth_id(32), "Called off", "cancelled"))
        execute(GIG_SQL, (nth_id(1), "2027-06-12", "June"))
        execute(GIG_SQL, (nth_id(2), "2027-07-03", "July"))
        execute("UPDATE gigs SET gig_status_id = ? WHERE id = ?", (nth_id(31), nth_id(1)))
        execute(ROLE_SQL, (nth_id(11), nth_id(1), nth_id(9), None))
        migrations.upgrade()

        def copies():
            return dict(execute("SELECT id, gig_status_id FROM gig_roles").fetchall())

        assert copies() == {nth_id(11): nth_id(31)}
        execute(ROLE_SQL, (nth_id(12), nth_id(2), nth_id(9), None))
        assert copies() == {nth_id(11): nth_id(31), nth_id(12): None}
        execute("UPDATE gigs SET gig_status_id = ? WHERE id = ?", (nth_id(32), nth_id(2)))
        assert copies() == {nth_id(11): nth_id(31), nth_id(12): nth_id(32)}
        execute("UPDATE gig_roles SET gig_id = ? WHERE id = ?", (nth_id(2), nth_id(11)))
        execute("UPDATE gigs SET gig_status_id = NULL WHERE id = ?", (nth_id(1),))
        assert copies() == {nth_id(11): nth_id(32), nth_id(12): nth_id(32)}
    db.close()


def test_the_shipped_office_and_viewer_roles_get_sales_from_step_15_unless_the_office_changed_them(tmp_path):
    shipped = ("gigs", "catalog", "staffing", "production", "people", "pay")
    app = create_app({"DB": postgresql.location(tmp_path), "BACKUP_DIR": str(tmp_path / "backups")})
    with app.app_context():
        migrations.upgrade(migrations.steps()[:14])
        AccessRole.update(grants=[f"{g}.*" for g in shipped]).where(AccessRole.name == "office").execute()
        AccessRole.update(grants=["gigs.view"]).where(AccessRole.name == "viewer").execute()
        migrations.upgrade()
        grants = {role.name: role.grants for role in AccessRole.select()}
        [event] = Event.select().where(Event.type == "access_role.updated")
    db.close()
    assert grants["office"] == [*(f"{g}.*" for g in shipped), "sales.*"]
    assert grants["viewer"] == ["gigs.view"]
    assert (event.data["name"], event.changes["grants"]["to"][-1], event.actor_user_id) == ("office", "sales.*", None)
