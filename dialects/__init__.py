"""The one seam between the service and its database (SPEC §14): `dialect`, the current dialect, offers every
piece of SQL that only one database speaks. Modules outside `dialects/` reach the database through peewee's
portable queries, `models.db` (a peewee DatabaseProxy) and `dialect`; none names a database's module, and a lint
test (tests/test_dialect_seam.py) keeps SQLite-only constructs inside `dialects/` and `sql/sqlite/`.

`dialect_name(BAND_DB)` is the one place that picks the dialect (`dialect_for` answers its module): a path is SQLite
(`dialects/sqlite/`), `postgresql://…` (or `postgres://…`) PostgreSQL (`dialects/postgresql/`). The app factory
calls `open_database`, which opens the database BAND_DB names with the current dialect and answers the peewee
database it puts behind `models.db`.

What a dialect provides (a PostgreSQL module must offer the same names, with the same meaning):
- `NAME`: its migrations are `sql/<NAME>/NNNN_*.sql` or `.py`, numbered as the steps of every dialect.
- `db`, `open_database(location, busy_timeout_seconds)` (answers `db`), `connect_in_background()`: the peewee
  database opened with its settings; this thread's connection for the worker's and senders' work, keeping less in
  memory than a request thread's.
- `write_queue`: the turn every write of this process takes first (its acquire, given a timeout, says whether it
  got the turn; its release hands the turn on): SQLite's first-come, first-served queue before its one write lock;
  PostgreSQL's none (writers run side by side).
- `write_transaction()`: a transaction that sees the database as if it ran alone (SQLite: the write lock from its
  start; PostgreSQL: SERIALIZABLE, which may fail at any statement or at its commit with an error for which
  `lost_to_another(error)` is true: rolled back, it is run again from its start). `locking_transaction()`: one
  whose statements each see the latest commits and that never fails for a conflict (SQLite: the same write lock;
  PostgreSQL: READ COMMITTED), for work that locks what it reads (`claiming`, `locking`) or writes in one
  statement. `without_waiting()`: writes that give up at once (`is_busy`) rather than wait for a lock.
- `schema_version()`, `set_schema_version(n)`, `statements(script)`: what migrations need.
- `upsert(model, **values)`: a row, every column given, stored in place of the one with its primary key;
  `insert_if_absent(model, **values)`: stored unless its primary key is taken.
- `is_busy(error)`, `lost_to_another(error)`, `unique_violation(error)`: what its errors mean;
  `unique_with_null(model, name, column, nullable)`: a unique rule in which a null counts as a value.
- `json_field(expr, key)`, `json_has(expr, key)`: a key of a JSON column (custom fields).
- `one_of(expr, values)`: `expr IN values` with the values bound as one parameter.
- `prepared(build)`, `prepared_rows(build)`, `subquery(sql, params)`: a statement peewee writes once and binds
  afresh each time.
- `rows_written(sql, params)`: one write statement, and how many rows it and its triggers wrote.
- `NOW`: the current UTC time as SQL, in the stored form (comparable with stored timestamps).
- `greater_of(a, b)`: the greater of two values in one row (a scalar, not the aggregate MAX).
- `as_json`, `json_rows`, `packed_rows`, `counted`, `all_of`: records, a page's chosen rows and rows written as
  JSON by the database, one statement each (a page's rows in its order), and totals remembered until the database
  changes; `ordered(expr, descending, nullable)`: a key of an ORDER BY, nulls first ascending and last descending
  (SPEC §2.1; `nullable` false where the key never is). The queries that choose a page or read a record are the
  listing's, the same on every database (`listing/queries.py`).
- `limit_statements(milliseconds)`, `over_budget(error)`, `without_budget()`: a statement of this thread that
  spends more CPU than that is interrupted (reads of a request; a write transaction never is, nor a block of the
  server's own work); whether an error is that interruption.
- `copy_database(path)`, `inspect_file(path)`: an online, consistent copy; what a copy holds (integrity,
  references, schema version), read without changing it (`Unreadable` when it cannot be); `database_folder()`:
  the folder of the database's file, beside which the copy taken before a migration is kept (None: no file).
- `keep_private(path)`: the database's files readable by the service's user alone (SPEC §2.3).
- `store_attachment`, `AttachmentDownload`: an attachment's bytes written and read in chunks.
- `caller_row`, `CALLER_SQL`, `grants_of`, `count_role_holders`, `count_all_capability_holders`: who is calling
  and who holds which access role (roles are a JSON array on the user).
- `claiming(query)`: the SELECT of rows a claim takes in its locking transaction, never a row another server's
  claim is taking at the same moment (the claim then marks them claimed); `locking(query)`: the SELECT of rows a
  locking transaction writes from what it reads, none written by another meanwhile;
  `one_server_at_a_time(name)`: a context answering whether this process has the block named `name` to itself
  among the servers on the database (the worker's timed work, done by one of them each round).
- `ChangeWatch().version()`: a value that changes with every commit, by any connection or process.
- `search_index(table, columns)`, `search_columns(table)`, `matching_words(model, words)`: `q` search, an index
  of a table's text fields kept by triggers.
- `refresh_statistics(tables, force)`: what the query planner knows of the tables' sizes, brought up to date.
- `embedded(model, name, columns, reference)`: the referenced record as JSON inside the referencing row's.
- `fold(expr)`, `fold_text(value)`, `contains(expr, value)`, `starts_with(expr, value)`: case-insensitive text
  matching with Unicode case folding (`MÜNCHEN` finds `München`), `value` already folded with `fold_text`.
- `database_at(path)`, `write_fast()`, `indexes_deferred()`, `compact(mostly_small_tables)`: a whole new
  database written in one go (the demo).

Chosen at run time, once: the models are declared at import with the dialect's `NOW` and `unique_with_null`
indexes, and prepared statements keep the SQL first written, so `dialect` is picked from the BAND_DB variable by
`dialect_for` as this package is imported, before any model is, and `open_database` refuses a location of another
dialect. A process that opens a database named otherwise than by BAND_DB (the tests) sets BAND_DB first.
"""

import importlib
import os
import sys

POSTGRESQL_SCHEMES = ("postgresql://", "postgres://")


def dialect_name(location):
    """The name of the dialect of BAND_DB `location`: a path is a SQLite file, a postgresql:// URL a PostgreSQL
    database."""
    return "postgresql" if location.startswith(POSTGRESQL_SCHEMES) else "sqlite"


def dialect_for(location):
    """The dialect module of BAND_DB `location` (see `dialect_name`)."""
    return importlib.import_module(f"dialects.{dialect_name(location)}")


def _spare_the_driver(location):
    """On SQLite, keep peewee from importing psycopg as it is imported (it imports every driver it finds): 10 MB of
    memory and a moment of start-up a SQLite office never uses. Who needs psycopg in such a process removes the
    stand-in from sys.modules first. Effective when this package is imported before peewee (app.py's first import)."""
    if not location.startswith(POSTGRESQL_SCHEMES):
        sys.modules.setdefault("psycopg", None)


_spare_the_driver(os.environ.get("BAND_DB", ""))
dialect = dialect_for(os.environ.get("BAND_DB", ""))  # the dialect of this process (see the last paragraph above)


def open_database(location, busy_timeout_seconds):
    """Open the database BAND_DB names with its dialect, which must be the current one; answer the peewee database."""
    chosen = dialect_name(location)
    if chosen != dialect.NAME:
        raise RuntimeError(f"this process runs on {dialect.NAME} (BAND_DB as it started): it cannot open {chosen}")
    return dialect.open_database(location, busy_timeout_seconds)
