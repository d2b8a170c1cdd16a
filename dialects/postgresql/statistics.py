"""What PostgreSQL's planner knows of a table's size (see `dialects/statistics.py` for when it is brought up to
date)."""

from dialects import statistics
from dialects.postgresql.database import db

# PostgreSQL's autovacuum analyzes a table once enough of it has changed, when it runs; a big load (the demo, a copy)
# is analyzed at once, and a table that has doubled or halved since is analyzed again here.


def refresh_statistics(tables, force=False):
    """ANALYZE when the tables' sizes have moved (see `dialects/statistics.py`); whether it ran."""
    return statistics.refresh_statistics(db, tables, force, _known_rows)


def _known_rows(table):
    """reltuples: the rows the last ANALYZE (or VACUUM) found; -1 when never."""
    return db.execute_sql("SELECT reltuples FROM pg_class WHERE oid = to_regclass(%s)", (f'"{table}"',)).fetchone()[0]
