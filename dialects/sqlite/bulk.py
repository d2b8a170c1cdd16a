"""A whole new SQLite file written in one go (the demo's `app.py demo`): quickly, with no write that must survive
a crash, its indexes built and its insert triggers' work done once at the end, and left compact."""

from contextlib import contextmanager

from dialects.sqlite.database import db
from dialects.sqlite.files import keep_private
from dialects.sqlite.search import search_table


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


@contextmanager
def triggers_deferred():
    """The search indexes' insert triggers dropped for the block, each index rebuilt from all the rows after it, and
    the triggers made again: an index rebuilt in one go takes a small part of the time its trigger takes row by row.
    The schema's other insert triggers (gig counts, the roles' copies of their gig) still run row by row: each is a
    write by primary key, and a second copy of what they do would go stale as the schema moves."""
    triggers = db.execute_sql("SELECT name, tbl_name, sql FROM sqlite_master WHERE type = 'trigger'").fetchall()
    deferred = [(name, table, sql) for name, table, sql in triggers if kept_after(name, table)]
    for name, _, _ in deferred:
        db.execute_sql(f'DROP TRIGGER "{name}"')
    yield
    for name, table, _ in deferred:
        db.execute_sql(kept_after(name, table))
    for _, _, sql in deferred:
        db.execute_sql(sql)


def kept_after(name, table):
    """The statement that does the work of the insert trigger `name` on `table` for all its rows: a search index's
    rebuild (None: not one of those)."""
    if name == f"{search_table(table)}_insert":
        return f'INSERT INTO "{search_table(table)}" ("{search_table(table)}") VALUES (\'rebuild\')'
    return None


def compact(mostly_small_tables):
    """Leave one compact, self-contained file to copy or commit."""
    # No WAL, which the app turns back on when it opens the file. Tables that mostly hold a few rows would leave
    # 4 KiB pages nearly empty: 1 KiB pages then. Full tables are written in one go.
    db.execute_sql("PRAGMA journal_mode = delete")
    if mostly_small_tables:
        db.execute_sql("PRAGMA page_size = 1024")
        db.execute_sql("VACUUM")
