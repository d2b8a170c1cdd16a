"""Demo databases as `python app.py demo PATH` writes them (SPEC §6), for the tests that read them: the band's season
and a booking agency's, written once a module by an app on a database of its own, read through a read-only
connection or served by an app on a copy. On PostgreSQL a demo is a new database of the test server."""

import sqlite3

import pytest

from app import create_app
from tests.support import PROJECT, postgresql
from tests.support.database import release_database

EXAMPLE = PROJECT / "band.db.example"
USERS = {f"{role}@band.example": [role] for role in ("admin", "office", "staff", "crew", "viewer")}
AGENCY_GIGS = 300


def read_only(location):
    """A connection that reads the database at `location` (a SQLite file, or a PostgreSQL database's URL)."""
    if postgresql.on_postgresql():
        import psycopg

        return psycopg.connect(location, autocommit=True, options="-c default_transaction_read_only=on")
    return sqlite3.connect(f"file:{location}?mode=ro", uri=True)


def rows(connection, sql):
    return connection.execute(sql).fetchall()


def count(connection, sql):
    return connection.execute(f"SELECT COUNT(*) FROM ({sql}) AS counted").fetchone()[0]


def app_on(location):
    """The app on the database at `location`, with the read budget a busy machine needs."""
    return create_app({"DB": location, **postgresql.busy_machine_budget()})


def write_demo(template_db, folder, *options):
    """A demo database written by the command of an app on a database of its own; its location."""
    app = app_on(postgresql.location(folder, template=template_db, kept=True))
    target = postgresql.new_location(folder, "demo")
    result = app.test_cli_runner().invoke(args=["demo", target, *options])
    release_database()
    assert result.exit_code == 0, result.output
    return target


@pytest.fixture(scope="module")
def demo_db(template_db, tmp_path_factory):
    """One demo database for the module: the example band's season."""
    return write_demo(template_db, tmp_path_factory.mktemp("demo"))


@pytest.fixture(scope="module")
def agency_db(template_db, tmp_path_factory):
    """A booking agency's demo database, for the same rules at a larger scale."""
    return write_demo(template_db, tmp_path_factory.mktemp("agency"), "--gigs", str(AGENCY_GIGS))


@pytest.fixture(params=["demo_db", "agency_db"])
def demo(request):
    """Either demo database: the band's season or the agency's."""
    connection = read_only(request.getfixturevalue(request.param))
    yield connection
    connection.close()


@pytest.fixture(params=["demo_db", "agency_db"])
def served(request, tmp_path):
    """The app on a copy of either demo database."""
    app = app_on(postgresql.location(tmp_path, template=request.getfixturevalue(request.param)))
    yield app
    release_database()
