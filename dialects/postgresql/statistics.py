"""What the query planner knows of the tables' sizes (ANALYZE), brought up to date when they have moved."""

from dialects.postgresql.database import db

# PostgreSQL's autovacuum analyzes a table once enough of it has changed, when it runs; a big load (the demo, a copy)
# is analyzed at once, and a table that has doubled or halved since is analyzed again here.
MIN_ANALYZED_ROWS = 1000


def refresh_statistics(tables, force=False):
    """ANALYZE when forced, or when one of `tables` holds MIN_ANALYZED_ROWS rows or more and has doubled or halved
    since the statistics were taken (or has none); whether it ran."""
    if not force and not any(_statistics_stale(table) for table in tables):
        return False
    db.execute_sql("ANALYZE")
    return True


def _statistics_stale(table):
    rows = db.execute_sql(f'SELECT count(*) FROM "{table}"').fetchone()[0]
    if rows < MIN_ANALYZED_ROWS:
        return False
    # reltuples: the rows the last ANALYZE (or VACUUM) found; -1 when never
    known = db.execute_sql("SELECT reltuples FROM pg_class WHERE oid = to_regclass(%s)", (f'"{table}"',)).fetchone()[0]
    return known <= 0 or not known / 2 <= rows <= known * 2
