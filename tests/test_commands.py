"""SPEC §6 commands, through Flask's CLI runner on a temporary database."""

import hashlib
import os
import re
import shutil
import sqlite3
from pathlib import Path

import pytest

from dialects import dialect
from models import AccessRole, Setting, Token, User
from storage import migrations, writer
from tests.support import PROJECT
from tests.support.database import rows_in_backup
from tests.support.served import Service

EXAMPLE = PROJECT / "band.db.example"


@pytest.fixture
def cli(app):
    runner = app.test_cli_runner()
    return lambda *args: runner.invoke(args=list(args))


def test_init_db_reports_the_schema_version(cli):
    result = cli("init-db")
    assert result.exit_code == 0 and f"schema version {len(migrations.steps())}" in result.output


def test_each_installation_keeps_a_secret_key_of_its_own_and_the_example_none(tmp_path):
    keys = []
    for name in ("one.db", "two.db"):
        shutil.copy(EXAMPLE, tmp_path / name)
        Service(tmp_path, BAND_DB=str(tmp_path / name)).run("init-db")
        with sqlite3.connect(tmp_path / name) as c:
            keys += c.execute("SELECT value FROM settings WHERE key = 'secret_key'").fetchall()
    assert len(keys) == 2 and keys[0] != keys[1]
    with sqlite3.connect(EXAMPLE) as c:
        assert c.execute("SELECT count(*) FROM settings WHERE key = 'secret_key'").fetchone() == (0,)


def test_create_user_adds_then_updates_a_user(cli):
    result = cli("create-user", "Ada@Example.com", "--name", "Ada", "--role", "office", "--role", "crew")
    assert result.exit_code == 0, result.output
    user = User.get(User.email == "ada@example.com")
    assert (user.name, user.roles, user.active) == ("Ada", ["office", "crew"], True)
    User.update(active=False).execute()
    assert cli("create-user", "ada@example.com", "--name", "Ada L.").exit_code == 0
    user = User.get(User.email == "ada@example.com")
    assert (user.name, user.roles, user.active) == ("Ada L.", ["office", "crew"], True)  # roles kept, reactivated
    assert cli("create-user", "ada@example.com", "--name", "Ada", "--role", "viewer").exit_code == 0
    assert User.get(User.email == "ada@example.com").roles == ["viewer"]
    assert User.select().count() == 1


def test_create_user_with_an_unknown_role_fails_and_changes_nothing(cli):
    result = cli("create-user", "bob@example.com", "--name", "Bob", "--role", "boss")
    assert result.exit_code != 0 and "no access role named boss" in result.output
    assert User.select().count() == 0


def test_create_user_needs_a_name(cli):
    assert cli("create-user", "bob@example.com").exit_code != 0


def test_create_api_key_prints_a_working_key(cli, anon):
    cli("create-user", "ops@example.com", "--name", "Ops", "--role", "admin")
    result = cli("create-api-key", "ops@example.com", "--label", "backup script", "--days", "7")
    assert result.exit_code == 0, result.output
    key = result.output.strip()
    me = anon.with_token(key).get("/me").get_json()["data"]
    assert me["email"] == "ops@example.com" and me["token"]["label"] == "backup script"
    assert Token.get().prefix == key[:12]
    assert cli("create-api-key", "nobody@example.com", "--label", "x").exit_code != 0


def test_backup_writes_a_consistent_copy_that_check_passes(cli, tmp_path):
    AccessRole.create(name="extra", grants=["gigs.view"])
    target = tmp_path / "copy.db"
    result = cli("backup", str(target))
    assert result.exit_code == 0, result.output
    assert result.output.strip().endswith(f"to {target}")
    assert oct(target.stat().st_mode & 0o777) == "0o600"
    assert rows_in_backup(target, "access_roles") == 6
    assert cli("check", str(target)).output.splitlines()[-1] == f"ok: {target} can be restored or served"
    assert cli("backup", str(target)).exit_code != 0  # never overwrites


@pytest.fixture
def good_backup(cli, tmp_path):
    """A backup made with `app.py backup`, alone in a folder of its own."""
    (tmp_path / "backups").mkdir()
    target = tmp_path / "backups" / "band.db"
    assert cli("backup", str(target)).exit_code == 0
    return target


@pytest.fixture
def check(cli):
    """check(path) -> (exit code, output), asserting the command ended by itself: no exception, no traceback."""

    def run(path):
        result = cli("check", str(path))
        assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
        assert "Traceback" not in result.output
        return result.exit_code, result.output

    return run


def sha256(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


def altered(source, script):
    """A copy of the SQLite file `source` changed by the SQL `script`, run with foreign keys off as any SQLite
    client could."""
    target = source.with_name("altered.db")
    shutil.copy(source, target)
    connection = sqlite3.connect(target)
    connection.executescript(script)
    connection.close()
    return target


def test_check_passes_a_good_backup_and_leaves_it_as_it_was(check, good_backup):
    before, files = sha256(good_backup), sorted(good_backup.parent.iterdir())
    code, output = check(good_backup)
    assert code == 0, output
    assert output.splitlines() == [
        "integrity: ok",
        "foreign keys: ok",
        f"schema version: {len(migrations.steps())}, this code's",
        f"ok: {good_backup} can be restored or served",
    ]
    assert sha256(good_backup) == before
    assert sorted(good_backup.parent.iterdir()) == files  # no -wal or -shm left beside the backup


@pytest.mark.sqlite_only  # a pg_dump archive is one snapshot of a database that enforces its references
def test_check_fails_a_broken_reference_naming_its_table(check, good_backup):
    broken = altered(
        good_backup,
        "INSERT INTO tokens (id, user_id, kind, token_hash, prefix, expires_at, created_at) "
        "VALUES ('t1', 'nobody', 'api_key', 'h', 'bok_', '2099-01-01T00:00:00.000000Z', '2027-01-01T00:00:00.000000Z')",
    )
    before = sha256(broken)
    code, output = check(broken)
    assert code == 1
    assert "foreign keys: 1 row(s) of tokens point at nothing in users" in output
    assert output.splitlines()[-1] == f"error: {broken} cannot be restored: broken references in tokens"
    assert sha256(broken) == before


@pytest.mark.sqlite_only  # SQLite's write-ahead log beside a live database file
def test_check_reads_what_the_live_databases_wal_holds(check, app):
    AccessRole.create(name="extra", grants=["gigs.view"])  # the service's connection stays open, as a server's
    live = app.config["DB"]
    with sqlite3.connect(live) as connection:
        connection.execute(
            "INSERT INTO tokens (id, user_id, kind, token_hash, prefix, expires_at, created_at) VALUES "
            "('t1', 'nobody', 'api_key', 'h', 'bok_', '2099-01-01T00:00:00.000000Z', '2027-01-01T00:00:00.000000Z')"
        )
    connection.close()
    assert Path(f"{live}-wal").stat().st_size > 0  # the row is in the WAL, not yet in the file
    code, output = check(live)
    assert code == 1 and "broken references in tokens" in output


def test_check_fails_a_corrupted_copy(check, good_backup):
    data = bytearray(good_backup.read_bytes())
    middle = len(data) // 2 // 4096 * 4096
    data[middle : middle + 4096] = bytes(range(256)) * 16
    good_backup.write_bytes(data)
    code, output = check(good_backup)
    assert code == 1
    assert output.splitlines()[-1].startswith(f"error: {good_backup} ")
    assert "corrupt" in output.splitlines()[-1], output


@pytest.mark.postgresql_only  # SQLite's check reads every page already (PRAGMA integrity_check, above)
def test_check_reads_every_block_of_an_archive_and_fails_a_damaged_one(cli, check, tmp_path):
    with writer.transaction():  # a large block of data (random text compresses little) after the archive's list
        Setting.create(key="ballast", value=os.urandom(1024 * 1024).hex())
    backup = tmp_path / "big.db"
    assert cli("backup", str(backup)).exit_code == 0
    data = bytearray(backup.read_bytes())
    middle = len(data) // 2
    data[middle : middle + 4096] = bytes(range(256)) * 16
    backup.write_bytes(data)
    code, output = check(backup)
    assert code == 1
    # pg_restore's own words, which depend on where the damage fell ("pg_restore: error: ...", "out of memory")
    assert re.fullmatch(r"integrity: it cannot be read whole \(.+\)", output.splitlines()[0]), output
    assert output.splitlines()[-1] == f"error: {backup} cannot be restored: corrupt"


@pytest.mark.sqlite_only  # a pg_dump archive holds no index contents: restoring builds them
def test_check_fails_an_index_that_disagrees_with_its_table(cli, check, good_backup):
    cli("create-user", "ada@example.com", "--name", "Ada")
    with_a_user = good_backup.with_name("with-a-user.db")
    cli("backup", str(with_a_user))
    damaged = altered(
        with_a_user,
        "PRAGMA writable_schema = ON; "
        """UPDATE sqlite_schema SET sql = replace(sql, '("email")', '("name")') WHERE name = 'user_email';""",
    )
    code, output = check(damaged)
    assert code == 1
    assert "integrity: row 1 missing from index user_email" in output
    assert output.splitlines()[-1] == f"error: {damaged} cannot be restored: corrupt"


def backup_at_version(cli, tmp_path, version):
    """A backup, made with `app.py backup`, of the database set to schema `version`."""
    with writer.transaction():
        dialect.set_schema_version(version)
    target = tmp_path / f"v{version}.db"
    assert cli("backup", str(target)).exit_code == 0
    return target


def test_check_fails_a_database_newer_than_the_code(cli, check, tmp_path):
    latest = len(migrations.steps())
    newer = backup_at_version(cli, tmp_path, latest + 1)
    code, output = check(newer)
    assert code == 1
    assert f"schema version: {latest + 1}, newer than this code knows ({latest})" in output
    assert (
        output.splitlines()[-1]
        == f"error: {newer} cannot be restored: schema version {latest + 1} is newer than the code"
    )


def test_check_passes_an_older_database_that_start_will_migrate(cli, check, tmp_path):
    latest = len(migrations.steps())
    older = backup_at_version(cli, tmp_path, latest - 1)
    code, output = check(older)
    assert code == 0, output
    assert f"schema version: {latest - 1}, older than this code's {latest}: restorable, it will be migrated" in output


NOT_A_COPY = {"sqlite": "is not a SQLite database", "postgresql": "is not a pg_dump archive"}
# An empty file is an empty database to SQLite, and too short to be an archive to pg_restore.
EMPTY = {
    "sqlite": "{path} cannot be restored: no Band Office schema",
    "postgresql": "{path} is not a pg_dump archive: it cannot be restored",
}


@pytest.mark.parametrize(
    "name, content, reason",
    [
        ("missing.db", None, "{path}: no such file"),
        ("notes.txt", "not a database\n" * 200, f"{{path}} {NOT_A_COPY[dialect.NAME]}: it cannot be restored"),
        ("empty.db", "", EMPTY[dialect.NAME]),
    ],
)
def test_check_fails_cleanly_on_what_is_no_band_office_database(check, tmp_path, name, content, reason):
    path = tmp_path / name
    if content is not None:
        path.write_text(content)
    code, output = check(path)
    assert code == 1
    assert output.splitlines()[-1] == "error: " + reason.format(path=path)
    assert not (tmp_path / "missing.db").exists()
