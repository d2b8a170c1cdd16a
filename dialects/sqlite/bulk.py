"""A whole new SQLite file written in one go (the demo's `app.py demo`): quickly, with no write that must survive
a crash, its indexes built once at the end, and left compact."""

from contextlib import contextmanager

from dialects.sqlite.database import db
from dialects.sqlite.files import keep_private


@contextmanager
def database_at(path):
    """Point the database at the file `path` (0600, as every file the service writes) for the block, then back at
    the application's database."""
    # The pragmas stay with the database object across init; the busy timeout would reset to peewee's default.
    original, timeout, params = db.database, db._timeout, dict(db.connect_params)
    db.close()
    keep_private(path)
    db.init(str(path), timeout=timeout, **params)
    try:
        yield
    finally:
        db.close()
        db.init(original, timeout=timeout, **params)


def write_fast():
    """The new file goes if the build fails, so no write need survive a crash; a big page cache keeps a big
    office's indexes in memory while its rows go in."""
    db.execute_sql("PRAGMA journal_mode = delete")
    db.execute_sql("PRAGMA synchronous = off")
    db.execute_sql("PRAGMA cache_size = -262144")


@contextmanager
def indexes_deferred():
    """The schema's own indexes dropped for the block and made again after it: building an index from all the
    rows at once is much quicker than keeping it in order row by row (the unique ones check the rows then)."""
    indexes = db.execute_sql("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL")
    indexes = indexes.fetchall()
    for name, _ in indexes:
        db.execute_sql(f'DROP INDEX "{name}"')
    yield
    for _, sql in indexes:
        db.execute_sql(sql)


def compact(mostly_small_tables):
    """Leave one compact, self-contained file to copy or commit."""
    # No WAL, which the app turns back on when it opens the file. Tables that mostly hold a few rows would leave
    # 4 KiB pages nearly empty: 1 KiB pages then. Full tables are written in one go.
    db.execute_sql("PRAGMA journal_mode = delete")
    if mostly_small_tables:
        db.execute_sql("PRAGMA page_size = 1024")
        db.execute_sql("VACUUM")
