"""The one seam between the service and its database (SPEC §14): `dialect`, the current dialect, offers every
piece of SQL that only one database speaks. Modules outside `dialects/` reach the database through peewee's
portable queries, `models.db` (a peewee DatabaseProxy) and `dialect`; none names a database's module, and a lint
test (tests/test_dialect_seam.py) keeps SQLite-only constructs inside `dialects/` and `sql/sqlite/`.

`dialect_name(BAND_DB)` is the one place that picks the dialect (`dialect_for` answers its module): a path is SQLite
(`dialects/sqlite/`), `postgresql://…` (or `postgres://…`) PostgreSQL (`dialects/postgresql/`). The app factory
calls `open_database`, which opens the database BAND_DB names with the current dialect and answers the peewee
database it puts behind `models.db`.

What a dialect provides is `SEAM`: every dialect's package offers its names and no other, with the meaning
it gives each (tests/test_dialect_seam.py holds each package to it).

Chosen at run time, once: the models are declared at import with the dialect's `NOW` and `unique_with_null`
indexes, and prepared statements keep the SQL first written, so `dialect` is picked from the BAND_DB variable by
`dialect_for` as this package is imported, before any model is, and `open_database` refuses a location of another
dialect. A process that opens a database named otherwise than by BAND_DB (the tests) sets BAND_DB first.
"""

import importlib
import os
import sys

POSTGRESQL_SCHEMES = ("postgresql://", "postgres://")

# Each name a dialect's package offers, and what it means on every database.
SEAM = {
    # the database and its transactions
    "NAME": "its migrations are sql/<NAME>/NNNN_*.sql or .py, numbered as the steps of every dialect",
    "db": "the peewee database, opened with the dialect's settings by `open_database`",
    "open_database": "(location, busy_timeout_seconds): `db` opened on the database at `location`, and answered",
    "connect_in_background": "(): this thread's connection for the worker's and senders' work, keeping less in "
    "memory than a request thread's",
    "write_queue": "the turn every write of this process takes first (acquire, given a timeout, says whether it got "
    "it; release hands it on): SQLite's first-come, first-served queue before its one write lock; PostgreSQL's none",
    "write_transaction": "(): a transaction that sees the database as if it ran alone (SQLite: the write lock from its "
    "start; PostgreSQL: SERIALIZABLE, which may fail at any statement or at its commit for `lost_to_another`: "
    "rolled back, it is run again from its start)",
    "locking_transaction": "(): one whose statements each see the latest commits and that never fails for a conflict "
    "(SQLite: the write lock; PostgreSQL: READ COMMITTED), for work that locks what it reads (`claiming`, `locking`) "
    "or writes in one statement",
    "without_waiting": "(): writes that give up at once (`is_busy`) rather than wait for a lock",
    "upsert": "(model, **values): a row, every column given, stored in place of the one with its primary key",
    "insert_if_absent": "(model, **values): a row stored unless its primary key is taken",
    "count_up": "(model, counter, **key): in one statement, the row of primary key `key` made with `counter` 1 or "
    "its `counter` raised by one, held by the transaction to its end; the new value",
    "is_busy": "(error): whether an error is a lock not had in time",
    "lost_to_another": "(error): whether a write transaction lost a race with another (run it again)",
    "unique_violation": "(error): whether an error is a unique rule broken",
    # migrations and the schema
    "schema_version": "(): the schema version of the database",
    "set_schema_version": "(n): the database marked as at schema version `n`",
    "statements": "(script): the statements of a migration's SQL script, one by one",
    "unique_with_null": "(model, name, column, nullable): a unique rule in which a null counts as a value",
    "search_index": "(table, columns): the statements of an index of a table's text fields for `q`, kept by triggers",
    "search_columns": "(table): the fields the search index of `table` holds (none: it has no index)",
    # expressions
    "NOW": "the current UTC time as SQL, in the stored form (comparable with stored timestamps)",
    "OFFICE_TODAY": "today's date in the office's time zone as SQL, in the stored form (comparable with stored dates)",
    "greater_of": "(a, b): the greater of two values in one row (a scalar, not the aggregate MAX)",
    "one_of": "(expr, values): `expr IN values` with the values bound as one parameter",
    "all_of": "(conditions): the conditions ANDed side by side (never nested)",
    "subquery": "(sql, params): a statement as an expression of another",
    "json_field": "(expr, key): the value under `key` of a JSON object column (custom fields)",
    "json_has": "(expr, key): whether a JSON object column holds `key` (with any value, null included)",
    "json_array_of": "(value): SQL text, the JSON texts `value` of the rows as the text of one JSON array",
    "json_array_holds": "(array, value): SQL text, whether the JSON array `array` holds the text `value`",
    "fold": "(expr): text folded for matching without case, by Unicode's rules (`MÜNCHEN` finds `München`)",
    "fold_text": "(value): a Python string folded as `fold` folds a column",
    "contains": "(expr, value): whether the folded text of `expr` holds `value`, folded with `fold_text`",
    "starts_with": "(expr, value): whether the folded text of `expr` begins with `value`, folded with `fold_text`",
    "matching_words": "(model, words): the condition that every word begins a word of the record's searched fields",
    "ordered": "(expr, descending, nullable): a key of an ORDER BY, nulls first ascending and last descending "
    "(SPEC §2.1; `nullable` false where the key never is)",
    # a page's rows, written as JSON by the database (the queries that choose them: listing/queries.py)
    "as_json": "(model, columns, alias): one record as JSON text, written by the database",
    "embedded": "(model, name, columns, reference): the referenced record as JSON inside the referencing row's",
    "json_rows": "(model, page, choice): the rows a statement chose, as the text of a JSON array in the page's order",
    "packed_rows": "(query, order): the rows of a SELECT as lists, fetched in one statement",
    "prepared": "(build): a statement peewee writes once and binds afresh each time",
    "prepared_rows": "(build, order): the rows of a statement written once (`prepared`), packed (`packed_rows`)",
    "counted": "(query): the one value a query selects, remembered until the database changes",
    "ChangeWatch": "`ChangeWatch().version()`: a value that changes with every commit, by any connection or process",
    # what a statement may cost
    "limit_statements": "(milliseconds): a statement of this thread that spends more CPU than that is interrupted "
    "(reads of a request; a write transaction never is, nor a block of `without_budget`)",
    "over_budget": "(error): whether an error is that interruption",
    "without_budget": "(): a block of the server's own work, whose statements are never interrupted",
    "refresh_statistics": "(tables, force): what the query planner knows of the tables' sizes, brought up to date",
    # servers side by side
    "claiming": "(query): the SELECT of rows a claim takes in its locking transaction, never a row another server's "
    "claim is taking at the same moment",
    "locking": "(query): the SELECT of rows a locking transaction writes from what it reads, none written by another "
    "meanwhile",
    "one_server_at_a_time": "(name): a context answering whether this process has the block `name` to itself among "
    "the servers on the database (the worker's timed work, done by one of them each round)",
    # files
    "copy_database": "(path): an online, consistent copy of the database",
    "inspect_file": "(path): what a copy holds (integrity, references, schema version), read without changing it",
    "Unreadable": "what `inspect_file` raises for a copy it cannot read",
    "database_folder": "(): the folder of the database's file, beside which the copy taken before a migration is kept "
    "(None: no file)",
    "keep_private": "(path): the database's files readable by the service's user alone (SPEC §2.3)",
    "store_attachment": "(connection, attachment_id, stream, size): an attachment's bytes written in chunks",
    "AttachmentDownload": "an attachment's bytes read in chunks",
    # a whole new database written in one go (the demo)
    "database_at": "(path): the database pointed at the file `path` for the block",
    "write_fast": "(): writes that need not survive a crash (the new database goes if the build fails)",
    "indexes_deferred": "(): the schema's indexes made after the block, from all its rows at once",
    "triggers_deferred": "(): the search indexes' insert triggers' work done after the block, from all its rows at "
    "once (or as the rows go in)",
    "compact": "(mostly_small_tables): one compact, self-contained database left to copy",
}


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
