"""SPEC §2.3: the files the service writes (the database and its WAL, backups, migration copies, `file:` mail) are
readable by the service's user alone, 0600, in directories it creates 0700, even when it is started with a
permissive umask; each made by the real command that writes it."""

import json
import os
import stat

import pytest

from app import create_app
from models import db
from storage import migrations
from tests.support import postgresql
from tests.support.served import Service
from tests.support.waiting import wait_for


@pytest.fixture(autouse=True)
def permissive_umask():
    """The commands run as the test's children, with the umask most systems give: 0644 files, 0755 directories."""
    previous = os.umask(0o022)
    yield
    os.umask(previous)


def mode(path):
    return stat.S_IMODE(path.stat().st_mode)


def run(service, *args):
    result = service.run(*args)
    assert result.returncode == 0, result.stdout + result.stderr
    return result


@pytest.mark.sqlite_only  # PostgreSQL's files are its server's (the service writes none of them)
def test_init_db_makes_a_database_its_user_alone_reads(tmp_path):
    run(Service(tmp_path), "init-db")
    assert mode(tmp_path / "band.db") == 0o600


@pytest.mark.sqlite_only  # a database file; PostgreSQL's migration copy: tests/test_migrations.py
def test_a_database_an_earlier_version_left_readable_is_narrowed_and_its_migration_copy_is_private(tmp_path):
    path = tmp_path / "band.db"
    with create_app({"DB": str(path)}).app_context():
        migrations.upgrade(migrations.steps()[:-1])
    db.close()
    assert mode(path) == 0o644
    run(Service(tmp_path), "init-db")
    [copy] = tmp_path.glob("band.db.v*.bak")
    assert mode(path) == 0o600 and mode(copy) == 0o600


def test_a_backup_is_private(tmp_path):
    service = Service(tmp_path)
    run(service, "init-db")
    run(service, "backup", str(tmp_path / "copy.db"))
    assert mode(tmp_path / "copy.db") == 0o600


def test_a_served_office_keeps_its_database_daily_backups_and_mail_private(tmp_path):
    backups, mail = tmp_path / "backups" / "daily", tmp_path / "mail" / "out"
    env = {"BAND_BACKUP_DIR": str(backups), "BAND_BACKUP_TIME": "00:00", "BAND_MAIL_URL": f"file:{mail}"}
    service = Service(tmp_path, BAND_WORKER_INTERVAL="0.2", **env).start()  # serve makes the database
    try:
        files = ("band.db", "band.db-wal", "band.db-shm")
        database = [] if postgresql.on_postgresql() else [tmp_path / name for name in files]  # else the server's
        wait_for(lambda: all(path.exists() for path in database))
        assert [mode(path) for path in database] == [0o600] * len(database)
        [backup] = wait_for(lambda: list(backups.glob("band-*.db")))
        assert mode(backup) == 0o600 and mode(backups) == mode(backups.parent) == 0o700
        run(service, "create-user", "sam@example.com", "--name", "Sam")
        body = json.dumps({"email": "sam@example.com"}).encode()
        status, _, _ = service.request("POST", "/auth/link", body, {"Content-Type": "application/json"})
        assert status == 200
        [message] = wait_for(lambda: list(mail.glob("*.eml")))
        assert mode(message) == 0o600 and mode(mail) == mode(mail.parent) == 0o700
    finally:
        service.stop()


@pytest.mark.sqlite_only  # on PostgreSQL the demo is a database of the server's
def test_a_demo_database_is_private_from_the_start(tmp_path):
    run(Service(tmp_path), "demo", str(tmp_path / "demo.db"))
    assert mode(tmp_path / "demo.db") == 0o600
    assert not list(tmp_path.glob("demo.db-*"))  # no journal left beside it, of whatever mode
