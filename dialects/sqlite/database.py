"""The peewee database on a SQLite file: opened with its settings, its transactions, schema version, errors, a watch on
its commits, upserts and statistics."""

import contextlib
import re
import sqlite3
import threading

from peewee import SQL, OperationalError, SqliteDatabase

from dialects import statistics
from dialects.exemption import Unbudgeted
from dialects.sqlite.budget import BUDGET_CHECK_STEPS, spent_its_budget, statement_starts


class BudgetedDatabase(SqliteDatabase):
    """The peewee database, whose statements may be given a budget of CPU time (see `limit_statements`)."""

    def _connect(self):
        connection = super()._connect()
        connection.set_progress_handler(spent_its_budget, BUDGET_CHECK_STEPS)
        return connection

    def execute_sql(self, sql, params=None):
        statement_starts()
        return super().execute_sql(sql, params)


db = BudgetedDatabase(None)  # opened by `open_database`

# WAL lets readers run beside the writer; FULL makes every answered write survive a power cut; 1 MB of page cache
# per connection (one per server thread, kept open): the pages every request reads (the top of the indexes) stay,
# the rest come from the system's file cache, shared by all. 2 MB cost the server 9 MB more at 100 000 gigs and
# made no list measurably faster (docs/benchmarks.md, issue 22).
PRAGMAS = {"journal_mode": "wal", "foreign_keys": 1, "synchronous": "full", "cache_size": -1024, "temp_store": "memory"}


def open_database(path, busy_timeout_seconds):
    """Point `db` at the file `path` (connections open on first use, one per thread); answer `db`."""
    db.init(path, pragmas=PRAGMAS, timeout=busy_timeout_seconds)
    return db


# The worker's and the senders' connections (one a thread, open as long as the server) keep less: their statements
# walk queues and timed work now and then, and the pages they read again are in the system's file cache anyway.
BACKGROUND_CACHE_KIB = 256


def connect_in_background():
    """Open this thread's connection, if it is not open yet, for the server's background work: a page cache of
    BACKGROUND_CACHE_KIB, not PRAGMAS' (together some 5 MB less at the server's peak)."""
    if db.connect(reuse_if_open=True):
        db.execute_sql(f"PRAGMA cache_size = -{BACKGROUND_CACHE_KIB}")


def write_transaction(alone=True):
    """A transaction that takes the write lock at its start, so that it never fails half way for want of it; no
    statement of it is ever interrupted for its cost (see `limit_statements`). It always runs alone: it never fails
    for a conflict with another writer."""
    return Unbudgeted(db.atomic("IMMEDIATE"))


def locking_transaction():
    """The same: with one writer at a time, whatever it reads is locked already."""
    return write_transaction()


def lost_to_another(error):
    """Never: a SQLite writer holds the write lock from its start, and runs alone."""
    return False


@contextlib.contextmanager
def without_waiting():
    """Writes in the block give up at once when another process holds the write lock (busy timeout 0)."""
    connection = db.connection()
    waited = connection.execute("PRAGMA busy_timeout").fetchone()[0]
    connection.execute("PRAGMA busy_timeout = 0")
    try:
        yield
    finally:
        connection.execute(f"PRAGMA busy_timeout = {int(waited)}")


def schema_version():
    return db.execute_sql("PRAGMA user_version").fetchone()[0]


def set_schema_version(version):
    db.execute_sql(f"PRAGMA user_version = {int(version)}")


def statements(script):
    """The complete SQL statements of `script`, one by one."""
    found, pending = [], ""
    for line in script.splitlines(keepends=True):
        pending += line
        if sqlite3.complete_statement(pending):
            found.append(pending.strip())
            pending = ""
    if pending.strip():
        raise ValueError(f"incomplete SQL statement: {pending.strip()[:80]}")
    return found


class ChangeWatch:
    """Tells whether the database changed since a moment, whoever changed it (this process or another):
    `PRAGMA data_version` of a connection that never writes moves with every commit made elsewhere."""

    def __init__(self):
        self.lock = threading.Lock()
        self.connection, self.path = None, None

    def version(self):
        """A value that differs after every commit to the database file."""
        with self.lock:
            if self.path != db.database:
                if self.connection is not None:
                    self.connection.close()
                self.connection = sqlite3.connect(db.database, check_same_thread=False)
                self.path = db.database
            return (self.path, id(self.connection), self.connection.execute("PRAGMA data_version").fetchone()[0])


def is_busy(error):
    """Whether `error` is SQLite giving up on the write lock after its busy timeout."""
    return isinstance(error, (sqlite3.OperationalError, OperationalError)) and (
        "database is locked" in str(error) or "database is busy" in str(error)
    )


def upsert(model, **values):
    """Store a row of `model` with `values` (its primary key among them), in place of the one with that key."""
    model.insert(**values).on_conflict_replace().execute()


def insert_if_absent(model, **values):
    """Store a row of `model` with `values` unless one with the same primary key is stored already."""
    model.insert(**values).on_conflict_ignore().execute()


# --- what the database's errors mean ---------------------------------------------------------------------

# Unique rules in which a null counts as a value: index name -> the fields it keeps unique.
UNIQUE_WITH_NULL = {}


def unique_with_null(model, name, column, nullable):
    """A unique index on (column, nullable) in which a null `nullable` counts as one value (SQL's UNIQUE lets
    nulls repeat)."""
    table = model._meta.table_name
    model.add_index(SQL(f'CREATE UNIQUE INDEX "{name}" ON "{table}" ("{column}", ifnull("{nullable}", \'\'))'))
    UNIQUE_WITH_NULL[name] = [column, nullable]


def unique_violation(error):
    """The fields of the unique rule an IntegrityError broke, or None when it was no unique rule."""
    match = re.match(r"UNIQUE constraint failed: (?:index '(\w+)'|(.+))", str(error))
    if match is None:
        return None
    if match[1]:
        return UNIQUE_WITH_NULL[match[1]]
    return [part.strip().split(".", 1)[-1] for part in match[2].split(",")]


# --- what the query planner knows of the tables -------------------------------------------------------------

# Without statistics SQLite guesses that `status = 'open'` picks a few rows, and starts the open roles of a month
# from the 140 000 open ones instead of the month's 800 gigs. ANALYZE tells it (2 s at 100 000 gigs, so it runs
# when a table's size has moved: see `dialects/statistics.py`).


def refresh_statistics(tables, force=False):
    """ANALYZE when the tables' sizes have moved (see `dialects/statistics.py`); whether it ran."""
    return statistics.refresh_statistics(db, tables, force, _known_rows)


def _known_rows(table):
    """The rows the last ANALYZE found in `table` (sqlite_stat1's first number), None when it found none."""
    if not db.execute_sql("SELECT 1 FROM sqlite_master WHERE name = 'sqlite_stat1'").fetchone():
        return None
    return db.execute_sql("SELECT MAX(CAST(stat AS INTEGER)) FROM sqlite_stat1 WHERE tbl = ?", (table,)).fetchone()[0]
