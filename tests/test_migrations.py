"""SPEC §6: numbered schema steps on PRAGMA user_version, backups before migrating, newer databases refused,
and the steps kept equal to what models.py declares."""

import sqlite3

import peewee
import pytest

import migrations
from app import create_app
from errors import ConfigError
from models import MODELS, AccessRole, db


@pytest.fixture
def fresh(tmp_path):
    """An app on a database file that does not exist yet."""
    app = create_app({"DB": str(tmp_path / "band.db")})
    yield app
    db.close()


def structure(connection):
    """Tables, columns, foreign keys and indexes of a database, in comparable form."""
    tables = [r[0] for r in connection.execute("SELECT name FROM sqlite_master WHERE type='table' ORDER BY name")]
    shape = {}
    for table in tables:
        columns = connection.execute(f'PRAGMA table_info("{table}")').fetchall()
        keys = connection.execute(f'PRAGMA foreign_key_list("{table}")').fetchall()
        indexes = {}
        for _, name, unique, origin, partial in connection.execute(f'PRAGMA index_list("{table}")').fetchall():
            parts = [r[2] for r in connection.execute(f'PRAGMA index_info("{name}")').fetchall()]
            indexes[tuple(parts), unique, partial] = origin
        shape[table] = (
            sorted(columns),
            sorted((k[2], k[3], k[4], k[6]) for k in keys),
            sorted(indexes),
        )
    return shape


def test_a_new_database_gets_every_step_and_the_default_roles(fresh, tmp_path):
    with fresh.app_context():
        assert migrations.upgrade() == (0, len(migrations.steps()))
        assert migrations.schema_version() == len(migrations.steps())
        assert {r.name: r.grants for r in AccessRole.select()} == {
            name: grants for name, (grants, _) in migrations.DEFAULT_ROLES.items()
        }
        assert migrations.upgrade() == (len(migrations.steps()), len(migrations.steps()))
    assert list(tmp_path.glob("*.bak")) == []  # nothing to back up in a new database


def test_the_steps_build_exactly_the_schema_models_declare(fresh, tmp_path):
    with fresh.app_context():
        migrations.upgrade()
        migrated = structure(db.connection())
    db.close()
    db.init(str(tmp_path / "declared.db"))
    db.create_tables(MODELS)
    assert structure(db.connection()) == migrated


def test_a_pending_step_runs_after_a_backup_and_keeps_the_data(fresh, tmp_path):
    with fresh.app_context():
        migrations.upgrade()
        AccessRole.create(name="keeper", grants=[])
        extra = migrations.Step(2, "motto", lambda d: d.execute_sql("ALTER TABLE teams ADD COLUMN motto TEXT"))
        assert migrations.upgrade([*migrations.steps(), extra]) == (1, 2)
        assert migrations.schema_version() == 2
        assert "motto" in [c.name for c in db.get_columns("teams")]
        assert AccessRole.get_or_none(name="keeper") is not None
    [backup] = tmp_path.glob("band.db.v1-*.bak")
    copy = sqlite3.connect(backup)
    assert copy.execute("PRAGMA user_version").fetchone()[0] == 1
    assert copy.execute("SELECT COUNT(*) FROM access_roles WHERE name = 'keeper'").fetchone()[0] == 1
    copy.close()


def test_a_failing_step_leaves_the_database_as_it_was(fresh):
    def broken(database):
        database.execute_sql("ALTER TABLE teams ADD COLUMN motto TEXT")
        database.execute_sql("THIS IS NOT SQL")

    with fresh.app_context():
        migrations.upgrade()
        with pytest.raises(peewee.OperationalError):
            migrations.upgrade([*migrations.steps(), migrations.Step(2, "broken", broken)])
        assert migrations.schema_version() == 1
        assert "motto" not in [c.name for c in db.get_columns("teams")]


def test_a_database_newer_than_the_code_is_refused(fresh):
    with fresh.app_context():
        migrations.upgrade()
        db.execute_sql("PRAGMA user_version = 99")
        with pytest.raises(ConfigError, match="schema version 99, newer than this code knows"):
            migrations.upgrade()
    result = fresh.test_cli_runner().invoke(args=["init-db"])
    assert result.exit_code == 1 and "newer than this code knows" in result.output


def test_sql_steps_split_into_complete_statements():
    assert migrations.statements("CREATE TABLE a (x TEXT DEFAULT ';');\n-- note\nCREATE INDEX i ON a (x);\n") == [
        "CREATE TABLE a (x TEXT DEFAULT ';');",
        "-- note\nCREATE INDEX i ON a (x);",
    ]
