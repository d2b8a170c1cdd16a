"""The peewee database on PostgreSQL, through psycopg 3 and peewee's pool: opened with its settings, its write
transactions, schema version, errors, a watch on its commits and upserts."""

import contextlib
import re
import threading

import psycopg
from peewee import SQL
from playhouse.postgres_ext import PooledPsycopg3Database

from dialects.exemption import Unbudgeted
from dialects.postgresql.budget import Budgeted


class BudgetedDatabase(Budgeted, PooledPsycopg3Database):
    """The pooled database, whose statements may be given a budget of time (see `limit_statements`)."""


# One connection a thread, kept (as SQLite's): the server's threads, its worker and senders, and the downloads in
# progress; more wait for one to be handed back (the pool's timeout is the busy timeout).
MAX_CONNECTIONS = 64
db = BudgetedDatabase(None, max_connections=MAX_CONNECTIONS)  # opened by `open_database`


def open_database(location, busy_timeout_seconds):
    """Point `db` at the database of the URL `location` (connections open on first use, one per thread); answer
    `db`. `db.database` is the database's name alone: messages that name it never show the password."""
    params = psycopg.conninfo.conninfo_to_dict(location)
    name = params.pop("dbname", None) or params.get("user") or "postgres"
    # A writer waits for a row another transaction holds this long (as SQLite's busy timeout), then is told the
    # database is busy.
    options = f"-c lock_timeout={int(busy_timeout_seconds * 1000)} -c timezone=UTC"
    if not db.deferred and (db.database, db.connect_params) != (name, {"options": options, **params}):
        db.close_all()  # the pool's connections are to the database opened before (tests open one after another)
    db.init(name, timeout=busy_timeout_seconds, options=options, **params)
    return db


def connection_params():
    """What psycopg.connect needs for a connection of its own to `db`'s database."""
    return {"dbname": db.database, **db.connect_params}


def connect_in_background():
    """Open this thread's connection, if it is not open yet, for the server's background work (a PostgreSQL
    connection keeps no cache in the service's memory: nothing to make smaller)."""
    db.connect(reuse_if_open=True)


# Writers of all threads and processes run side by side (SPEC §14): none waits for a lock of the whole database.
class NoQueue:
    """No turn to wait for: PostgreSQL's writers run at once, each in a transaction of its own."""

    def acquire(self, timeout):
        return True

    def release(self):
        pass


write_queue = NoQueue()


def write_transaction(alone=False):
    """A transaction as if it ran alone (SERIALIZABLE): what it reads stays true until it commits, or it fails with
    a conflict (`lost_to_another`), at any statement or at its commit, and is to be run again from its start.
    `alone` (for one that lost several times): it waits for the write transactions under way to end, and the next
    wait for it, so it cannot lose again. No statement of it is ever interrupted for its cost (see
    `limit_statements`)."""
    turn = "EXCLUSIVE" if alone else "ROW SHARE"  # before the first statement, which takes the snapshot
    return _transaction("SERIALIZABLE", f'LOCK TABLE "write_turns" IN {turn} MODE', INDEX_SCANS)


def locking_transaction():
    """A transaction of statements that each see what is committed as they start (READ COMMITTED): what it must
    not lose it locks as it reads (`claiming`) or writes in one statement (a DELETE by a condition); it never fails
    for a conflict. No statement of it is ever interrupted for its cost."""
    return _transaction("READ COMMITTED")


# A SERIALIZABLE transaction that reads a table by a sequential scan is taken to have read all of it: any concurrent
# write to it then conflicts (a small table, read by its key, is scanned so), so its reads go by an index where one
# serves (PostgreSQL's manual, "Serializable Isolation Level": "encourage the use of index scans"). The cost that
# steers the planner away from a sequential scan must not make it compile the statement (JIT: a second for nothing).
INDEX_SCANS = "SELECT set_config('enable_seqscan', 'off', true), set_config('jit', 'off', true)"


@contextlib.contextmanager
def _transaction(isolation, *settings):
    with Unbudgeted(db.atomic(isolation_level=isolation)) as transaction:
        for setting in settings:
            db.execute_sql(setting)
        if getattr(_waiting, "never", False):
            db.execute_sql("SET LOCAL lock_timeout = 1")  # a millisecond: at once
        yield transaction


_waiting = threading.local()


@contextlib.contextmanager
def without_waiting():
    """Write transactions of the block give up at once when a row they write is held by another transaction."""
    before = getattr(_waiting, "never", False)
    _waiting.never = True
    try:
        yield
    finally:
        _waiting.never = before


# --- the schema's version: one row of a table of its own ----------------------------------------------------

VERSION_TABLE = "schema_version"


def schema_version():
    exists = db.execute_sql("SELECT to_regclass(%s) IS NOT NULL", (VERSION_TABLE,)).fetchone()[0]
    if not exists:
        return 0
    row = db.execute_sql(f'SELECT "version" FROM "{VERSION_TABLE}"').fetchone()
    return row[0] if row else 0


def set_schema_version(version):
    db.execute_sql(
        f'CREATE TABLE IF NOT EXISTS "{VERSION_TABLE}" ('
        '"one" BOOLEAN PRIMARY KEY DEFAULT TRUE CHECK ("one"), "version" INTEGER NOT NULL)'
    )
    db.execute_sql(
        f'INSERT INTO "{VERSION_TABLE}" ("version") VALUES (%s) ON CONFLICT ("one") DO UPDATE SET "version" = %s',
        (int(version), int(version)),
    )


# Where a statement may end: text outside quotes, identifiers, comments and dollar-quoted bodies (PL/pgSQL).
_TOKENS = re.compile(r"""'(?:[^']|'')*'|"(?:[^"]|"")*"|--[^\n]*|/\*.*?\*/|(\$\w*\$).*?\1|;|[^'"$;/-]+|.""", re.S)


def statements(script):
    """The complete SQL statements of `script`, one by one, each with its `;` (a function's dollar-quoted body is one
    piece)."""
    found, pending = [], ""
    for match in _TOKENS.finditer(script):
        if match[0] == ";":
            if _code_in(pending):
                found.append(pending.strip() + ";")
            pending = ""
        else:
            pending += match[0]
    if _code_in(pending):
        raise ValueError(f"incomplete SQL statement: {pending.strip()[:80]}")
    return found


def _code_in(text):
    """Whether `text` holds more than white space and comments."""
    return bool(re.sub(r"--[^\n]*|/\*.*?\*/", "", text, flags=re.S).strip())


class ChangeWatch:
    """Tells whether the database changed since a moment, whoever changed it (this process or another): the
    snapshot a new statement would take (`pg_current_snapshot()`: which transactions have ended, which are under
    way), read on a connection of its own. Two equal snapshots see the same commits; it moves as each transaction
    that wrote ends (of any database of the server: a change elsewhere only costs a value computed again)."""

    def __init__(self):
        self.lock = threading.Lock()
        self.connection, self.database = None, None

    def version(self):
        """A value that differs after every commit that wrote to the database."""
        with self.lock:
            if self.database != db.database or self.connection is None or self.connection.closed:
                if self.connection is not None:
                    self.connection.close()
                self.connection = psycopg.connect(**connection_params(), autocommit=True)
                self.database = db.database
            version = self.connection.execute("SELECT pg_current_snapshot()::text").fetchone()[0]
            return (self.database, id(self.connection), version)


# --- writes -------------------------------------------------------------------------------------------------


def upsert(model, **values):
    """Store a row of `model` with `values` (its primary key among them), in place of the one with that key."""
    key = model._meta.primary_key
    others = [getattr(model, name) for name in values if name != key.name]
    on_conflict = {"preserve": others} if others else {"action": "NOTHING"}  # the stored values, or nothing to do
    model.insert(**values).on_conflict(conflict_target=[key], **on_conflict).execute()


def insert_if_absent(model, **values):
    """Store a row of `model` with `values` unless one with the same primary key is stored already."""
    model.insert(**values).on_conflict(conflict_target=[model._meta.primary_key], action="NOTHING").execute()


# --- what the database's errors mean ---------------------------------------------------------------------


def sqlstate(error):
    """The SQLSTATE of a psycopg error, or of the one a peewee error was raised for; None for any other error."""
    original = _original(error)
    return original.sqlstate if original is not None else None


def _original(error):
    """The psycopg error behind `error` (peewee raises its own while handling psycopg's), or None."""
    while error is not None and not getattr(error, "sqlstate", None):
        error = error.__cause__ or error.__context__
    return error


LOCK_NOT_AVAILABLE, UNIQUE_VIOLATION = "55P03", "23505"
SERIALIZATION_FAILURE, DEADLOCK_DETECTED = "40001", "40P01"


def is_busy(error):
    """Whether `error` is a writer giving up on a row another transaction holds (after the busy timeout, or at
    once: `without_waiting`)."""
    return sqlstate(error) == LOCK_NOT_AVAILABLE


def lost_to_another(error):
    """Whether `error` ended a transaction that ran into a concurrent one (a serialization failure, a deadlock):
    rolled back, it is to be run again from its start."""
    return sqlstate(error) in (SERIALIZATION_FAILURE, DEADLOCK_DETECTED)


# Unique rules in which a null counts as a value: index name -> the fields it keeps unique.
UNIQUE_WITH_NULL = {}


def unique_with_null(model, name, column, nullable):
    """A unique index on (column, nullable) in which a null `nullable` counts as one value (as SQLite's, on an
    expression: NULLS NOT DISTINCT is PostgreSQL 15's, and 14 is supported)."""
    table = model._meta.table_name
    model.add_index(SQL(f'CREATE UNIQUE INDEX "{name}" ON "{table}" ("{column}", coalesce("{nullable}", \'\'))'))
    UNIQUE_WITH_NULL[name] = [column, nullable]


def unique_violation(error):
    """The fields of the unique rule an IntegrityError broke, or None when it was no unique rule."""
    if sqlstate(error) != UNIQUE_VIOLATION:
        return None
    diagnostic = _original(error).diag
    if diagnostic.constraint_name in UNIQUE_WITH_NULL:
        return UNIQUE_WITH_NULL[diagnostic.constraint_name]
    match = re.match(r"Key \((.+?)\)=", diagnostic.message_detail or "")
    return [part.strip().strip('"') for part in match[1].split(",")] if match else None
