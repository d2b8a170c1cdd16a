"""`app.py copy-to postgresql://…` (SPEC §14): an office's SQLite database copied into an empty PostgreSQL database.

Runs in a process of its own whose BAND_DB is the target (`python -m dialects.postgresql.copy_in SOURCE`, started by
the command), as the dialect and its migrations follow BAND_DB; the source is read by dialects/sqlite/snapshot.py.
In one transaction on the target: refuse a database that holds any table, migrate it to the source's schema
version, load every table's rows in the order of their references (COPY, with the tables' own triggers off: they
would number, queue, count and index what is already so; U+0000, which PostgreSQL's text cannot hold and an older
office may, dropped from every text and JSON value, the rows it was dropped from counted), then put back what those
triggers keep (the search indexes, the gig counts, the events' sequence, the change counter), and compare a count
per table with the source's. The source is read in one snapshot (a server may keep serving it); the signing key is a
row like any other, so sessions, API keys, feed and answer links keep working after the move.
"""

import dialects  # isort: skip (first: the dialect follows BAND_DB)
import graphlib
import json
import os
import sys
import time

import peewee
import psycopg

from dialects.postgresql.search_index import search_columns, search_table
from dialects.sqlite.snapshot import Snapshot, Unreadable
from models import MODELS_BY_TABLE, NUL, JSONField, db
from storage import migrations, writer

BATCH_ROWS = 5000
# the target's own bookkeeping, made by its migrations (change_counter: of a target at a step before 13)
NOT_COPIED = {"schema_version", "write_turns", "change_counter"}
SEARCH_SUFFIX = "_search"  # an index the target builds from the rows (dialects/postgresql/search_index.py)
FIRST = {("events", "webhook_endpoints")}  # events before endpoints: a copied event never queues a delivery


class Refused(Exception):
    """The copy cannot be made; the message says why and the target is left as it was."""


def tables_of_target():
    rows = db.execute_sql(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() "
        "AND table_type = 'BASE TABLE' ORDER BY table_name"
    ).fetchall()
    return [name for (name,) in rows]


def refuse_unless_empty():
    rows = db.execute_sql(
        "SELECT table_schema || '.' || table_name FROM information_schema.tables "
        "WHERE table_schema NOT IN ('pg_catalog', 'information_schema') ORDER BY 1"
    ).fetchall()
    if rows:
        names = ", ".join(name for (name,) in rows[:5]) + (f" and {len(rows) - 5} more" if len(rows) > 5 else "")
        raise Refused(f"the database {db.database} is not empty (it holds {names}): copy into a new, empty database")


def source_version(source, latest):
    version = source.schema_version()
    if version == 0:
        raise Refused("the source holds no Band Office schema")
    if version > latest:
        raise Refused(f"the source is at schema version {version}, newer than this code knows ({latest})")
    return version


def copied_tables():
    return [t for t in tables_of_target() if t not in NOT_COPIED and not is_search_index(t)]


def is_search_index(table):
    return table.endswith(SEARCH_SUFFIX) and table != SEARCH_SUFFIX


def in_dependency_order(tables):
    """The tables, each after those it references (and events before webhook endpoints)."""
    rows = db.execute_sql(
        "SELECT conrelid::regclass::text, confrelid::regclass::text FROM pg_constraint "
        "WHERE contype = 'f' AND connamespace = current_schema()::regnamespace"
    ).fetchall()
    order = graphlib.TopologicalSorter({t: set() for t in tables})
    for table, referenced in [*rows, *((after, before) for before, after in FIRST)]:
        table, referenced = table.strip('"'), referenced.strip('"')
        if table != referenced and table in tables and referenced in tables:
            order.add(table, referenced)
    return list(order.static_order())


def columns_of(table):
    rows = db.execute_sql(
        "SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() "
        "AND table_name = %s ORDER BY ordinal_position",
        (table,),
    ).fetchall()
    return [name for (name,) in rows]


def quoted(names):
    return ", ".join(f'"{n}"' for n in names)


def json_columns(table, columns):
    model = MODELS_BY_TABLE.get(table)
    fields = model._meta.columns if model else {}
    return {i for i, name in enumerate(columns) if isinstance(fields.get(name), JSONField)}


def without_nul(row, json_at):
    """`row` itself, or a copy whose texts (and JSON values' texts and keys, where `\\u0000` stands for it) no
    longer hold U+0000."""
    if not any(isinstance(v, str) and (NUL in v or (i in json_at and "\\u0000" in v)) for i, v in enumerate(row)):
        return row
    return tuple(_cleaned(v, i in json_at) for i, v in enumerate(row))


def _cleaned(value, is_json):
    if not isinstance(value, str):
        return value
    if is_json and "\\u0000" in value:
        return json.dumps(_cleaned_json(json.loads(value)), separators=(",", ":"))  # as models.JSONField writes
    return value.replace(NUL, "")


def _cleaned_json(value):
    if isinstance(value, str):
        return value.replace(NUL, "")
    if isinstance(value, list):
        return [_cleaned_json(v) for v in value]
    if isinstance(value, dict):
        return {k.replace(NUL, ""): _cleaned_json(v) for k, v in value.items()}
    return value


def copy_table(source, table):
    """Every row of `table`, read in batches and written through COPY; answers how many rows held U+0000."""
    columns = columns_of(table)
    known = set(source.columns(table))
    missing = [c for c in columns if c not in known]
    if not known:
        raise Refused(f"the source has no table {table}")
    if missing:
        raise Refused(f"the source's table {table} has no column {', '.join(missing)}")
    json_at, cleaned = json_columns(table, columns), 0
    with db.connection().cursor() as cursor, cursor.copy(f'COPY "{table}" ({quoted(columns)}) FROM STDIN') as copy:
        for batch in source.batches(table, columns, BATCH_ROWS):
            for row in batch:
                written = without_nul(row, json_at)
                cleaned += written is not row
                copy.write_row(written)
    return cleaned


def triggers_switched(tables, state):
    for table in tables:
        db.execute_sql(f'ALTER TABLE "{table}" {state} TRIGGER USER')


def rebuild_search(tables):
    for table in tables:
        columns = search_columns(table)
        if columns:
            db.execute_sql(f'DELETE FROM "{search_table(table)}"')
            db.execute_sql(
                f'INSERT INTO "{search_table(table)}" ("id", "words") '
                f'SELECT "id", "band_search_document"({quoted(columns)}) FROM "{table}"'
            )


def exists(kind, name):
    return db.execute_sql(f"SELECT to_{kind}(%s) IS NOT NULL", (name,)).fetchone()[0]


def put_back_what_triggers_keep(tables):
    """What the triggers switched off would have kept: search indexes, gig counts, the events' next number."""
    rebuild_search(tables)
    if exists("regproc", "band_count_gigs"):
        db.execute_sql('SELECT "band_count_gigs"()')
    if exists("regclass", "events_seq"):
        db.execute_sql('SELECT setval(\'"events_seq"\', COALESCE((SELECT MAX("seq") FROM "events"), 0) + 1, false)')


def counts_compared(source, tables):
    """(table, rows in the source, rows in the target) for every table copied and every search index."""
    found = []
    for table in sorted(tables):
        target = db.execute_sql(f'SELECT COUNT(*) FROM "{table}"').fetchone()[0]
        found.append((table, source.count(table), target))
        if exists("regclass", f"{table}{SEARCH_SUFFIX}"):
            indexed = db.execute_sql(f'SELECT COUNT(*) FROM "{table}{SEARCH_SUFFIX}"').fetchone()[0]
            found.append((f"{table}{SEARCH_SUFFIX} (its search index)", target, indexed))
    return found


def copy(source):
    """The whole copy, in the caller's transaction on the target; answers the counts compared, and {table: rows}
    of the rows U+0000 was dropped from."""
    refuse_unless_empty()
    version = source_version(source, len(migrations.steps()))
    migrations.upgrade(migrations.steps()[:version])
    tables = copied_tables()
    db.execute_sql("SET CONSTRAINTS ALL IMMEDIATE")  # the migrations' deferred triggers fired: a table is truncated
    db.execute_sql(f"TRUNCATE {quoted(tables)}")  # after, and what the migrations seeded (the default access roles)
    triggers_switched(tables, "DISABLE")
    cleaned = {table: copy_table(source, table) for table in in_dependency_order(tables)}
    triggers_switched(tables, "ENABLE")
    db.execute_sql(f"ANALYZE {quoted(tables)}")  # the planner's sizes: else what follows scans a table per gig
    put_back_what_triggers_keep(tables)
    return counts_compared(source, tables), {table: rows for table, rows in cleaned.items() if rows}


def main(path, say=print):
    """Copy; answers the exit status: 0 when every count agrees (committed), 1 otherwise (nothing kept)."""
    db.initialize(dialects.open_database(os.environ["BAND_DB"], writer.BUSY_TIMEOUT_SECONDS))
    started = time.monotonic()
    try:
        source = Snapshot(path)
        with db.atomic() as transaction:
            counts, cleaned = copy(source)
            for table, rows in sorted(cleaned.items()):
                say(f"{table}: {rows} row(s) held U+0000, which PostgreSQL cannot store: dropped from their text")
            differ = [c for c in counts if c[1] != c[2]]
            for table, there, here in counts:
                say(f"{table}: {there} in the source, {here} in {db.database}{'  DIFFERENT' if there != here else ''}")
            if differ:
                transaction.rollback()
                print(f"error: {len(differ)} count(s) differ: nothing was kept in {db.database}", file=sys.stderr)
                return 1
    except (Refused, Unreadable) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    except (peewee.DatabaseError, psycopg.Error) as e:
        print(f"error: the copy failed, nothing was kept in {db.database}: {e}", file=sys.stderr)
        return 1
    say(f"copied {path} into {db.database} in {time.monotonic() - started:.1f} s: every count agrees")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
