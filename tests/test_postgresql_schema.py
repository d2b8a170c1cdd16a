"""SPEC §14: the PostgreSQL steps (sql/postgresql/) build the schema SQLite's steps (sql/sqlite/) build: every table,
column, reference, index and trigger of a migrated SQLite database has its counterpart in a migrated PostgreSQL
one, and PostgreSQL has nothing more than what it needs of its own (below, each with its reason). Run on
PostgreSQL (`pytest --database=postgresql`): the SQLite database is migrated by a process of its own, as this one's
dialect is PostgreSQL's."""

import os
import re
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from peewee import BooleanField

from models import MODELS
from tests.support import postgresql

pytestmark = pytest.mark.skipif(not postgresql.on_postgresql(), reason="compares a PostgreSQL database with SQLite's")

ROOT = Path(__file__).resolve().parent.parent

# SQLite's indexes PostgreSQL has not: a B-tree entry holds at most 2704 bytes, and these hold notes and messages
# of up to 100 000 characters (sql/postgresql/0001_initial.sql).
NOT_ON_POSTGRESQL = {"gig_notes_id", "gigrole_notes_id", "gigroleinvitation_message_id"}
# PostgreSQL's own: the schema's version (SQLite's user_version) and the change counter (SQLite's data_version).
OWN_TABLES = {"schema_version", "write_turns"}
# Its own triggers: each table's change counted (`<table>_changed`), events numbered in commit order.
OWN_TRIGGER = re.compile(r"event_numbered")

SQLITE_TYPES = {"BLOB": "bytea", "TEXT": "text"}
BOOLEANS = {
    (m._meta.table_name, f.column_name) for m in MODELS for f in m._meta.sorted_fields if isinstance(f, BooleanField)
}
TRIGGER = re.compile(
    r'CREATE (?:CONSTRAINT )?TRIGGER "?(?P<name>\w+)"? (?:BEFORE|AFTER) (?P<events>.+?) '
    r'ON (?:\w+\.)?"?(?P<table>\w+)"?',
    re.S,
)


@pytest.fixture(scope="module")
def sqlite_schema(tmp_path_factory):
    """The shape of a SQLite database migrated by sql/sqlite/'s steps (in a process whose BAND_DB is that file)."""
    path = tmp_path_factory.mktemp("sqlite") / "band.db"
    environment = {k: v for k, v in os.environ.items() if k not in ("BAND_DB", postgresql.CHOICE)}
    script = "import sys\nfrom app import create_app\nfrom storage import migrations\n"
    script += "with create_app({'DB': sys.argv[1]}).app_context():\n    migrations.upgrade()\n"
    subprocess.run([sys.executable, "-c", script, str(path)], cwd=ROOT, env=environment, check=True, timeout=120)
    connection = sqlite3.connect(path)
    try:
        return sqlite_shape(connection)
    finally:
        connection.close()


@pytest.fixture(scope="module")
def postgresql_schema(template_db):
    """The shape of the tests' migrated PostgreSQL database (the template each test's database is copied from)."""
    import psycopg  # here: a run on SQLite never loads it (see dialects._spare_the_driver)

    with psycopg.connect(template_db) as connection:
        return postgresql_shape(connection)


def sqlite_shape(connection):
    search = {r[0] for r in connection.execute("SELECT name FROM sqlite_master WHERE sql LIKE 'CREATE VIRTUAL%'")}
    shadows = {f"{s}_{part}" for s in search for part in ("data", "idx", "docsize", "config", "content")}
    names = [r[0] for r in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
    tables, searched = {}, {}
    for table in names:
        if table in shadows or table.startswith("sqlite_"):
            continue
        columns = connection.execute(f'PRAGMA table_info("{table}")').fetchall()
        if table in search:
            searched[table.removesuffix("_search")] = [c[1] for c in columns]
            continue
        tables[table] = [
            (c[1], sqlite_type(table, c[1], c[2]), bool(c[3]), bool(c[5]), default(table, c)) for c in columns
        ]
    keys = {
        (table, k[3], k[2], k[4], k[6])
        for table in tables
        for k in connection.execute(f'PRAGMA foreign_key_list("{table}")').fetchall()
    }
    indexes = {}
    for name, table, sql in connection.execute("SELECT name, tbl_name, sql FROM sqlite_master WHERE type = 'index'"):
        if sql is None:  # a primary key's or a UNIQUE column's own
            continue
        unique = sql.startswith("CREATE UNIQUE")
        parts = re.search(r"\((.*)\)\s*$", sql, re.S)[1]
        indexes[name] = (table, unique, index_parts(parts.replace("ifnull(", "coalesce(")))
    triggers = {}
    for name, table, sql in connection.execute("SELECT name, tbl_name, sql FROM sqlite_master WHERE type = 'trigger'"):
        triggers[name] = (table, trigger_events(TRIGGER.match(sql)["events"]))
    return {"tables": tables, "searched": searched, "keys": keys, "indexes": indexes, "triggers": triggers}


def default(table, column):
    """A column's default as PostgreSQL writes it: a boolean's `0` is `false`, a text's `'en'` is typed."""
    if (table, column[1]) in BOOLEANS and column[4] in ("0", "1"):
        return {"0": "false", "1": "true"}[column[4]]
    if column[2].startswith("VARCHAR") and (column[4] or "").startswith("'"):
        return f"{column[4]}::character varying"
    return column[4]


def sqlite_type(table, column, declared):
    if declared == "INTEGER":
        return "boolean" if (table, column) in BOOLEANS else "bigint"
    if declared.startswith("VARCHAR"):
        return "character varying" + declared[len("VARCHAR") :]
    return SQLITE_TYPES[declared]


def index_parts(text):
    """An index's columns and expressions as comparable text: `("title", coalesce("artist", ''))`."""
    return tuple(re.sub(r'[\s"]', "", part).lower() for part in re.split(r",\s*(?![^()]*\))", text))


def trigger_events(text):
    """`INSERT OR UPDATE OF "a", "b"` -> {'insert', 'update of a,b'}."""
    found = set()
    for event in re.split(r"\s+OR\s+", text.strip(), flags=re.I):
        event = re.sub(r"\s+FOR EACH ROW.*|\s+WHEN.*|\s+DEFERRABLE.*", "", event, flags=re.S | re.I)
        found.add(re.sub(r"\s*,\s*", ",", re.sub(r"\s+", " ", event.replace('"', ""))).strip().lower())
    return frozenset(found)


def postgresql_shape(connection):
    columns_sql = """SELECT c.relname, a.attname, format_type(a.atttypid, a.atttypmod), a.attnotnull,
           coalesce(i.indisprimary, false), pg_get_expr(d.adbin, d.adrelid), co.collname
      FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = current_schema()
      JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
      LEFT JOIN pg_index i ON i.indrelid = c.oid AND i.indisprimary AND a.attnum = ANY (i.indkey)
      LEFT JOIN pg_attrdef d ON d.adrelid = c.oid AND d.adnum = a.attnum
      LEFT JOIN pg_collation co ON co.oid = a.attcollation AND a.attcollation <> 0
     WHERE c.relkind = 'r' ORDER BY c.relname, a.attnum"""
    tables, collations, searched = {}, {}, {}
    for table, column, kind, not_null, primary, default, collation in connection.execute(columns_sql):
        tables.setdefault(table, []).append((column, kind, not_null, primary, default))
        collations[table, column] = collation
    for table in [t for t in tables if t.endswith("_search")]:
        searched[table.removesuffix("_search")] = search_fields(connection, table.removesuffix("_search"))
    keys_sql = """SELECT c.conrelid::regclass::text, a.attname, c.confrelid::regclass::text, f.attname, c.confdeltype
      FROM pg_constraint c JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1]
      JOIN pg_attribute f ON f.attrelid = c.confrelid AND f.attnum = c.confkey[1]
     WHERE c.contype = 'f' AND c.connamespace = current_schema()::regnamespace"""
    on_delete = {"a": "NO ACTION", "r": "RESTRICT", "c": "CASCADE", "n": "SET NULL", "d": "SET DEFAULT"}
    keys = {(t.strip('"'), c, r.strip('"'), f, on_delete[d]) for t, c, r, f, d in connection.execute(keys_sql)}
    indexes = {}
    index_sql = "SELECT indexname, tablename, indexdef FROM pg_indexes WHERE schemaname = current_schema()"
    for name, table, definition in connection.execute(index_sql):
        parts = re.search(r"USING \w+ \((.*)\)", definition)[1]
        parts = re.sub(r"COALESCE\((\w+), ''::character varying\)", r"coalesce(\1, '')", parts)
        parts = re.sub(r"\(\((\w+)\)::text = ('\w+')::text$", r"(\1 = \2", parts)  # a partial index's condition
        indexes[name] = (table, definition.startswith("CREATE UNIQUE"), index_parts(parts))
    triggers = {}
    trigger_sql = """SELECT pg_get_triggerdef(t.oid) FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
      WHERE NOT t.tgisinternal AND c.relnamespace = current_schema()::regnamespace"""
    for (definition,) in connection.execute(trigger_sql):
        found = TRIGGER.match(definition)
        triggers[found["name"]] = (found["table"], trigger_events(found["events"]))
    return {
        "tables": tables,
        "collations": collations,
        "searched": searched,
        "keys": keys,
        "indexes": indexes,
        "triggers": triggers,
    }


def search_fields(connection, table):
    """The fields the search index of `table` holds: those its update trigger follows."""
    from dialects.postgresql.search_index import COLUMNS_SQL

    return [row[0] for row in connection.execute(COLUMNS_SQL, (table, f"{table}_search_update"))]


def test_every_table_has_its_counterpart_and_no_other(sqlite_schema, postgresql_schema):
    searched = {f"{table}_search" for table in postgresql_schema["searched"]}
    assert set(postgresql_schema["tables"]) - searched - OWN_TABLES == set(sqlite_schema["tables"])


def test_every_column_has_its_counterpart_in_its_place_with_its_type_nullability_and_default(
    sqlite_schema, postgresql_schema
):
    for table, columns in sqlite_schema["tables"].items():
        assert postgresql_schema["tables"][table] == columns, table


def test_text_is_ordered_by_code_point_as_on_sqlite(postgresql_schema):
    text = [
        (table, column)
        for table, columns in postgresql_schema["tables"].items()
        for column, kind, *_ in columns
        if kind == "text" or kind.startswith("character")
    ]
    assert text and [c for c in text if postgresql_schema["collations"][c] != "C"] == []


def test_every_reference_has_its_counterpart(sqlite_schema, postgresql_schema):
    assert postgresql_schema["keys"] == sqlite_schema["keys"]


def test_every_index_has_its_counterpart_and_no_other(sqlite_schema, postgresql_schema):
    expected = {name: shape for name, shape in sqlite_schema["indexes"].items() if name not in NOT_ON_POSTGRESQL}
    own = {
        name
        for name, (table, *_) in postgresql_schema["indexes"].items()
        if name == f"{table}_pkey" or table.endswith("_search")
    }
    found = {name: shape for name, shape in postgresql_schema["indexes"].items() if name not in own}
    assert found == expected
    assert set(sqlite_schema["indexes"]) >= NOT_ON_POSTGRESQL, "an exception of an index SQLite no longer has"


def test_every_search_index_holds_the_same_fields(sqlite_schema, postgresql_schema):
    assert postgresql_schema["searched"] == sqlite_schema["searched"]


def test_every_trigger_has_its_counterpart_on_the_same_writes_and_no_other(sqlite_schema, postgresql_schema):
    found = {name: shape for name, shape in postgresql_schema["triggers"].items() if not OWN_TRIGGER.fullmatch(name)}
    assert found == sqlite_schema["triggers"]
