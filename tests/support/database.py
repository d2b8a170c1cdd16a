"""What a test observes of the database: the statements a request runs, and the shape of a database; what another
process does to it."""

import contextlib
import sqlite3

from dialects import dialect
from models import db
from tests.support import postgresql


def count_queries(monkeypatch):
    """The statements run from now on, but for the caller's lookup: remembered for a moment, it is no
    endpoint's cost."""
    executed = []
    original = db.execute_sql

    def counting(sql, params=None, *args, **kwargs):
        if sql != dialect.CALLER_SQL:
            executed.append(sql)
        return original(sql, params, *args, **kwargs)

    monkeypatch.setattr(db.obj, "execute_sql", counting)  # the database behind the proxy
    return executed


def run_elsewhere(location, *statements):
    """Run `statements` on a connection of their own to the database at `location` (BAND_DB), and commit them: what
    another process (a command, say) does."""
    if postgresql.on_postgresql():
        postgresql.execute(location, *statements)
        return
    with contextlib.closing(sqlite3.connect(location)) as connection, connection:
        for statement in statements:
            connection.execute(statement)


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
