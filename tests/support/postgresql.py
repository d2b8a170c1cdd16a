"""The database the tests run on (`pytest --database=postgresql`, else SQLite), and where each test's is: on SQLite a
file in the test's folder; on PostgreSQL a database on a throwaway server (tests/support/postgresql_server.py) made
from a migrated template: the `app` fixture's tests of a process run on one copy, emptied back to the template's rows
after each, and any other database a test makes is a copy of its own, dropped after the test module (the copies are
made ahead, beside the tests: tests/support/database_copies.py)."""

import atexit
import os
import shutil
from urllib.parse import urlsplit

from tests.support.database_copies import Copies, Emptied
from tests.support.postgresql_server import Cluster, create_database, database_url, drop_database

CHOICE = "BAND_TEST_DATABASE"  # sqlite (the default) or postgresql; `pytest --database=...` sets it
SERVER = "BAND_TEST_POSTGRESQL"  # a URL of the PostgreSQL server the tests make databases on (started when unset)


def chosen_database(argv):
    """The database the tests run on: `--database=NAME` (or `--database NAME`) of the command line, else
    BAND_TEST_DATABASE, else sqlite. Read before the project is imported (its dialect follows BAND_DB), so from
    the command line itself; xdist's workers, whose command line is not pytest's, inherit the variable."""
    for i, argument in enumerate(argv):
        if argument.startswith("--database="):
            return argument.split("=", 1)[1]
        if argument == "--database" and i + 1 < len(argv):
            return argv[i + 1]
    return os.environ.get(CHOICE) or "sqlite"


def prepare_server(database):
    """Make `database` this process's and its children's choice; on PostgreSQL, start a cluster unless SERVER
    names one (a parent process, an xdist controller, started it), and point BAND_DB at it so that the project's
    dialect is PostgreSQL's. Answers the cluster started, to be stopped at the end, or None."""
    os.environ[CHOICE] = database
    if database != "postgresql":
        return None
    started = None
    if not os.environ.get(SERVER):
        started = Cluster().start()
        atexit.register(started.stop)  # also when pytest stops before its unconfigure hook (a usage error)
        os.environ[SERVER] = started.url("postgres")
    os.environ["BAND_DB"] = os.environ[SERVER]
    return started


def on_postgresql():
    return os.environ.get(CHOICE) == "postgresql"


def busy_machine_budget():
    """Settings of an app a test makes: on PostgreSQL a read's budget is wall time (statement_timeout), which a busy CI
    machine spends, so 5 s there (the budget's own tests set theirs)."""
    return {"QUERY_BUDGET_MS": 5000} if on_postgresql() else {}


_made = {}  # the databases made for the test under way, by the folder they belong to (see `location`)


def location(tmp_path, template=None, kept=False, emptied=False):
    """BAND_DB of the database of a test's folder `tmp_path`, made if need be (as a copy of `template`, if given):
    on SQLite the file `band.db` in it; on PostgreSQL a database of its own, dropped after the test module unless
    `kept` (a template), or with `emptied` the process's `Emptied` one, given back by `give_back` after the test.
    The test's app and the offices it serves from the folder share it, as they share the file."""
    if not on_postgresql():
        path = tmp_path / "band.db"
        if template and not path.exists():
            shutil.copy(template, path)
        return str(path)
    server = os.environ[SERVER]
    if on_emptied(tmp_path):
        _emptied.shared = True  # asked again, for another process
    if str(tmp_path) not in _made:
        source = template and urlsplit(template).path.lstrip("/")
        if emptied and _emptied is not None and source == _copies.template:
            name, kept = _emptied.take(), True
        elif _copies is not None and source == _copies.template:
            name = _copies.take()
        else:
            worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
            name = f"band_{tmp_path.parent.name}_{worker}_{tmp_path.name}"[:63].lower()
            create_database(server, name, source)
        _made[str(tmp_path)] = name, kept
    return database_url(server, _made[str(tmp_path)][0])


_template = None  # the URL of this process's migrated template (tests/conftest.py's `template_db`), once made


def migrated_template(url):
    """The migrated template database at `url` is what `served_location` copies from now on."""
    global _template
    _template = url


def served_location(tmp_path, kept=False):
    """BAND_DB of an office served from the folder `tmp_path` (tests/support/served.py), made if need be: on SQLite
    the file `band.db` in it, which serve makes; on PostgreSQL a copy of the migrated template, as serve would leave an
    empty database it migrated (migrating costs the server ~0.3 CPU-s, a copy ~0.05); `kept` as for `location`."""
    return location(tmp_path, template=_template if on_postgresql() else None, kept=kept)


def has_database(tmp_path):
    """Whether the folder `tmp_path` has its database already (a test's app, or an office served from it, made it)."""
    if not on_postgresql():
        return (tmp_path / "band.db").exists()
    return str(tmp_path) in _made


def new_location(folder, stem, kept=False):
    """BAND_DB of a database not made yet, for a command that makes one (`app.py demo`): on SQLite the file
    `<stem>.db` in `folder`; on PostgreSQL the URL of a database of that name on the test server, dropped after the
    test module unless `kept` (a template), and before, should an earlier run have left it."""
    if not on_postgresql():
        return str(folder / f"{stem}.db")
    server = os.environ[SERVER]
    name = f"{stem}_{folder.parent.name}_{folder.name}"[:63].lower()
    drop_database(server, name)
    _made[f"{folder}#{stem}"] = name, kept
    return database_url(server, name)


def drop_made_databases():
    """The databases made for the test module that ended dropped, but templates (on the thread of `Copies` once
    there is one: `finish` waits for them)."""
    for folder, (name, kept) in list(_made.items()):
        if not kept:
            if _copies is not None:
                _copies.drop(name)
            else:
                drop_database(os.environ[SERVER], name)
            del _made[folder]


_copies = None  # the Copies of this process's template, once `copy_ahead` started it
_emptied = None  # the Emptied database of the `app` fixture's tests, beside them


def copy_ahead(template):
    """Copies of the template database at `template` (its URL) are made ahead from now on: `location` takes them."""
    global _copies, _emptied
    if on_postgresql() and _copies is None:
        _copies = Copies(os.environ[SERVER], urlsplit(template).path.lstrip("/"))
        _emptied = Emptied(_copies)


def on_emptied(tmp_path):
    """Whether the database of the folder `tmp_path` is the process's Emptied one."""
    made = _made.get(str(tmp_path))
    return _emptied is not None and _emptied.name is not None and made is not None and made[0] == _emptied.name


def give_back(tmp_path):
    """After a test whose folder is `tmp_path`: its Emptied database emptied for the next test, whose connections to
    it may be this test's (True), or dropped (False: this process's connections to it are to be closed)."""
    if not on_emptied(tmp_path):
        return not on_postgresql()
    del _made[str(tmp_path)]
    return _emptied.give_back()


def finish():
    """The databases still to drop dropped, and the copies made ahead that no test took."""
    global _copies, _emptied
    if _emptied is not None and _emptied.name:
        _emptied.drop()
    _emptied = None
    if _copies is not None:
        _copies.finish()
        _copies = None
