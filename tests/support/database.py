"""What a test observes of the database: the statements a request runs, the shape of a database, and a connection
of the test's own to a served office's database; this process's connections released; and rows written straight by
SQL, as a migration finds them."""

import contextlib
import sqlite3
import threading

from dialects import access, dialect
from feeds.copies import stop_every_thread
from models import db
from tests.support.postgresql import on_postgresql
from tests.support.postgresql_server import archive_rows


def release_database(keep_pool=False):
    """This process's connections to the database closed: a PostgreSQL database can then be copied or dropped (with
    `keep_pool`, the thread's own handed back to the pool alone, for the next test on the same database). Every
    app's feeds thread ends first: closing all a pool's connections closes one a thread is running on too."""
    stop_every_thread()
    db.close()
    if on_postgresql() and not keep_pool:
        db.close_all()


def execute(sql, params=None):
    """A statement written with SQLite's `?` placeholders, run with the dialect's."""
    return db.execute_sql(sql.replace("?", db.param) if params else sql, params)


def nth_id(n):
    """The `n`th id of the API's form: the same on every run, for rows a test writes by SQL."""
    return f"00000000-0000-4000-8000-{n:012d}"


def count_queries(monkeypatch):
    """The statements the test's thread runs from now on (where the test client answers; not the server's own
    threads', such as the calendar feeds' copies, which run beside any test), but for the caller's lookup:
    remembered for a moment, it is no endpoint's cost."""
    executed = []
    original = db.execute_sql
    caller = threading.current_thread()

    def counting(sql, params=None, *args, **kwargs):
        if sql != access.CALLER_SQL and threading.current_thread() is caller:
            executed.append(sql)
        return original(sql, params, *args, **kwargs)

    monkeypatch.setattr(db.obj, "execute_sql", counting)  # the database behind the proxy
    return executed


def structure(connection):
    """Tables, columns, foreign keys and indexes of a database, in comparable form; not the search indexes (which
    no model declares: tests/test_daily_questions.py holds them to the collections' searched fields)."""
    tables = [
        r[0]
        for r in connection.execute("SELECT name FROM sqlite_master WHERE type='table' ORDER BY name")
        if "_search" not in r[0] and not r[0].startswith("sqlite_stat")
    ]
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


@contextlib.contextmanager
def connected(location, rows=tuple):
    """A connection of the test's own to the database at BAND_DB `location` (as another process's), committed and
    closed at the end: on SQLite or PostgreSQL alike, its statements written with SQLite's `?` placeholders, its
    rows tuples or, with `rows=dict`, dicts. Booleans are bound as Python's True and False (PostgreSQL's are no
    integers)."""
    if dialect.NAME == "sqlite":
        connection = sqlite3.connect(location, timeout=10)
        if rows is dict:
            connection.row_factory = lambda cursor, row: {c[0]: v for c, v in zip(cursor.description, row)}
        with contextlib.closing(connection), connection:
            yield connection
        return
    import psycopg
    from psycopg.rows import dict_row, tuple_row

    with psycopg.connect(location, row_factory=dict_row if rows is dict else tuple_row) as connection:
        yield QuestionMarks(connection)


class QuestionMarks:
    """A psycopg connection that takes statements with `?` placeholders, as sqlite3's does."""

    def __init__(self, connection):
        self.connection = connection

    def execute(self, sql, params=None):
        return self.connection.execute(sql.replace("?", "%s") if params else sql, params)


def rows_in_backup(path, table):
    """How many rows of `table` a backup holds: a SQLite file read with sqlite3, a pg_dump archive with pg_restore."""
    if dialect.NAME == "postgresql":
        return len(archive_rows(path, table))
    with contextlib.closing(sqlite3.connect(path)) as copy:
        return copy.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]
