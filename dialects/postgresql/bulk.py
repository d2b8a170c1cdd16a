"""A whole new PostgreSQL database written in one go (the demo's `app.py demo postgresql://…/NAME`): created for
it, quickly, with no commit waiting for the disk, its indexes built once at the end, and left vacuumed."""

from contextlib import contextmanager

import psycopg

from dialects.postgresql.database import db, sqlstate
from domain.errors import ConfigError

POSTGRESQL_SCHEMES = ("postgresql://", "postgres://")
DUPLICATE_DATABASE = "42P04"


@contextmanager
def database_at(location):
    """Point the database at a new database for the block: `location`, a postgresql:// URL naming one that does not
    exist yet, made here on the application's server (dropped again if the block fails); then back at the
    application's database."""
    location = str(location)
    if not location.startswith(POSTGRESQL_SCHEMES):
        raise ConfigError(f"{location}: on PostgreSQL the demo is a new database: give its postgresql:// URL.")
    target = psycopg.conninfo.conninfo_to_dict(location)
    name = target.pop("dbname", None)
    if not name:
        raise ConfigError(f"{location} names no database.")
    original, params = db.database, dict(db.connect_params)
    try:
        db.execute_sql(f'CREATE DATABASE "{name}"')
    except Exception as e:
        if sqlstate(e) != DUPLICATE_DATABASE:
            raise
        raise ConfigError(f"{name} exists already: choose a new database for the demo.") from None
    finally:
        _release()
    db.init(name, **{**params, **target})
    try:
        yield
    except BaseException:
        _release()
        db.init(original, **params)
        db.execute_sql(f'DROP DATABASE "{name}" WITH (FORCE)')
        raise
    finally:
        _release()
        db.init(original, **params)


def _release():
    """Close this thread's connection and those the pool keeps, before `db` points elsewhere."""
    db.close()
    db.close_idle()


def write_fast():
    """The new database goes if the build fails, so no commit need wait for the disk; a build's sorts and index
    builds get memory enough."""
    db.execute_sql("SET synchronous_commit = off")
    db.execute_sql("SET maintenance_work_mem = '256MB'")


# The schema's own indexes (not those that keep a primary key or unique constraint), by name, and their definitions.
INDEXES_SQL = """
SELECT i.indexrelid::regclass::text, pg_get_indexdef(i.indexrelid)
  FROM pg_index i JOIN pg_class t ON t.oid = i.indrelid
 WHERE t.relnamespace = current_schema()::regnamespace
   AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid)
"""


@contextmanager
def indexes_deferred():
    """The schema's own indexes dropped for the block and made again after it: building an index from all the
    rows at once is much quicker than keeping it in order row by row (the unique ones check the rows then)."""
    indexes = db.execute_sql(INDEXES_SQL).fetchall()
    for name, _ in indexes:
        db.execute_sql(f"DROP INDEX {name}")
    yield
    # A table with trigger events still pending takes no index: the deferred ones (the change counter's) run now.
    db.execute_sql("SET CONSTRAINTS ALL IMMEDIATE")
    for _, sql in indexes:
        db.execute_sql(sql)


@contextmanager
def triggers_deferred():
    """The triggers work as the rows go in: the block as it is (SQLite's deferral is for its row-by-row search
    indexes)."""
    yield


def compact(mostly_small_tables):
    """Leave the new database vacuumed: its pages' visibility known (index-only scans), nothing to clean later.
    (`mostly_small_tables` matters to SQLite's page size only.)"""
    db.execute_sql("VACUUM")
