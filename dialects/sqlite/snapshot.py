"""A SQLite database read as it stood at one moment, without changing it: the source of `app.py copy-to` (SPEC §14),
which may be read while a server goes on serving it."""

import sqlite3


class Unreadable(Exception):
    """The file is no SQLite database that can be read."""


class Snapshot:
    """The database at `path`, read only, in one read transaction held until `close()`."""

    def __init__(self, path):
        try:
            self.connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True, isolation_level=None)
            self.connection.execute("BEGIN")
            self.connection.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
        except sqlite3.Error as e:
            raise Unreadable(f"cannot read {path}: {e}") from None

    def schema_version(self):
        return self.connection.execute("PRAGMA user_version").fetchone()[0]

    def columns(self, table):
        """The names of `table`'s columns (none: no such table)."""
        return [row[1] for row in self.connection.execute(f'PRAGMA table_info("{table}")')]

    def batches(self, table, columns, size):
        """`table`'s rows, their `columns` in that order, `size` rows at a time."""
        names = ", ".join(f'"{c}"' for c in columns)
        try:
            rows = self.connection.execute(f'SELECT {names} FROM "{table}"')
            while batch := rows.fetchmany(size):
                yield batch
        except sqlite3.Error as e:
            raise Unreadable(f"cannot read the table {table}: {e}") from None

    def count(self, table):
        return self.connection.execute(f'SELECT COUNT(*) FROM "{table}"').fetchone()[0]

    def close(self):
        self.connection.close()
