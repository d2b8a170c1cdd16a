"""What the query planner knows of the tables' sizes, brought up to date when they have moved, whatever the
dialect: each dialect says how many rows its statistics last found in a table (`known_rows`)."""

# A table smaller than this is cheap to read whatever the planner guesses; past it, the statistics are taken again
# when the table has doubled or halved since (the relative sizes they record stay true while a band grows).
MIN_ANALYZED_ROWS = 1000


def refresh_statistics(db, tables, force, known_rows):
    """ANALYZE on `db` when forced, or when one of `tables` holds MIN_ANALYZED_ROWS rows or more and has doubled or
    halved since the statistics were taken (`known_rows(table)`: None, or 0 or less, when it has none); whether it
    ran."""
    if not force and not any(_stale(db, table, known_rows) for table in tables):
        return False
    db.execute_sql("ANALYZE")
    return True


def _stale(db, table, known_rows):
    rows = db.execute_sql(f'SELECT count(*) FROM "{table}"').fetchone()[0]
    if rows < MIN_ANALYZED_ROWS:
        return False
    known = known_rows(table)
    return known is None or known <= 0 or not known / 2 <= rows <= known * 2
