"""SPEC §6 commands, through Flask's CLI runner on a temporary database."""

import sqlite3

import pytest

import migrations
from models import AccessRole, Token, User


@pytest.fixture
def cli(app):
    runner = app.test_cli_runner()
    return lambda *args: runner.invoke(args=list(args))


def test_init_db_reports_the_schema_version(cli):
    result = cli("init-db")
    assert result.exit_code == 0 and f"schema version {len(migrations.steps())}" in result.output


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


def test_backup_writes_a_consistent_copy(cli, tmp_path):
    AccessRole.create(name="extra", grants=["gigs.view"])
    target = tmp_path / "copy.db"
    result = cli("backup", str(target))
    assert result.exit_code == 0, result.output
    copy = sqlite3.connect(target)
    assert copy.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert copy.execute("SELECT COUNT(*) FROM access_roles").fetchone()[0] == 6
    copy.close()
    assert cli("backup", str(target)).exit_code != 0  # never overwrites
