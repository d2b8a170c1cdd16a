"""Every piece of SQL that only SQLite speaks, in one place (SPEC §7): a second database would be one more
module offering the same names.

What a dialect provides:
- `ChangeWatch().version()`: a value that changes with every commit, by any connection or process.
- `fold(expr)`, `contains(expr, value)`, `starts_with(expr, value)`: case-insensitive text matching with
  Unicode case folding (`MÜNCHEN` finds `München`), `value` already folded with `fold_text`.
"""

import sqlite3
import threading

from peewee import OperationalError, fn

from models import db


@db.func("band_fold", 1, deterministic=True)
def fold_text(value):
    """Unicode case folding (str.casefold), which SQLite's LIKE and lower() do only for ASCII."""
    return value.casefold() if isinstance(value, str) else value


def fold(expr):
    return fn.band_fold(expr)


def contains(expr, folded):
    return fn.instr(fold(expr), folded) > 0


def starts_with(expr, folded):
    return fn.substr(fold(expr), 1, len(folded)) == folded


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


def count_role_holders(role_name):
    """How many users hold the access role `role_name` (roles are a JSON array on the user)."""
    sql = "SELECT COUNT(*) FROM users WHERE EXISTS (SELECT 1 FROM json_each(users.roles) WHERE value = ?)"
    return db.execute_sql(sql, (role_name,)).fetchone()[0]


def count_all_capability_holders():
    """How many active users hold an access role that grants `*`."""
    sql = """SELECT COUNT(*) FROM users u WHERE u.active AND EXISTS (
               SELECT 1 FROM access_roles r, json_each(r.grants) grant_
                WHERE grant_.value = '*' AND r.name IN (SELECT value FROM json_each(u.roles)))"""
    return db.execute_sql(sql).fetchone()[0]


def is_busy(error):
    """Whether `error` is SQLite giving up on the write lock after its busy timeout."""
    return isinstance(error, (sqlite3.OperationalError, OperationalError)) and (
        "database is locked" in str(error) or "database is busy" in str(error)
    )
