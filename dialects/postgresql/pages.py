"""Lists and records as JSON text, written by PostgreSQL as compact as SQLite writes them (records joined from
`to_json` values, `string_agg` in the page's order): a page's rows, a record, packed rows, each one statement, and
totals remembered until the database changes; how a page's key is ordered. The queries that choose a page are the
listing's (`listing/queries.py`)."""

import json
import threading

from peewee import SQL, Cast, EnclosedNodeList, NodeList, fn

from dialects.packing import named
from dialects.postgresql.database import db

# --- the order of a page --------------------------------------------------------------------------------------
# SPEC §2.1: nulls sort first ascending, last descending: PostgreSQL's own default is the other way round. A key
# that is never null keeps the plain order, which the indexes hold (text sorts by code point: the columns are
# COLLATE "C").


def ordered(expr, descending, nullable=True):
    """`expr` as a key of an ORDER BY, nulls placed as SQLite places them."""
    if not nullable:
        return expr.desc() if descending else expr.asc()
    return expr.desc(nulls="LAST") if descending else expr.asc(nulls="FIRST")


def key_order(name, descending):
    """The SQL text of a key of an ORDER BY by the output column `name` (see `ordered`)."""
    return f"{name} DESC NULLS LAST" if descending else f"{name} ASC NULLS FIRST"


# --- records as JSON ------------------------------------------------------------------------------------------


def embedded(model, name, columns, reference):
    """The record of `model` the expression `reference` (an id) names, as JSON, or null: one lookup by primary key
    inside the statement that reads the referencing records, never a query per row."""
    table = model._meta.table_name
    sql, params = _record(model, columns, alias=name)
    return NodeList(
        [SQL(f'(SELECT {sql} FROM "{table}" AS "{name}" WHERE "{name}"."id" = ', params), reference, SQL(")")],
        glue="",
    )


def as_json(model, columns, alias=None):
    """The SQL expression of one record of `model` as JSON text, written by PostgreSQL.

    Values are stored in the form the API speaks, so only booleans and JSON columns (stored as text) need a word.
    The expression's SQL is built once per set of columns (peewee takes longer to write it than PostgreSQL to run
    it)."""
    return SQL(*_record(model, columns, alias))


def _record(model, columns, alias=None):
    """(sql, params) of one record of `model` as JSON text; its table is read as `alias`, else as "t1"."""
    key = (model, alias, tuple(column.key for column in columns))
    compiled = _JSON_SQL.get(key)
    if compiled is None:
        if len(_JSON_SQL) >= MAX_REMEMBERED_SQL:
            _JSON_SQL.clear()
        context = db.get_sql_context()
        if alias:
            context.alias_manager[model._meta.table] = alias  # its fields name their table, not the model
        compiled = _JSON_SQL[key] = context.sql(_json_object(columns)).query()
    return compiled


_JSON_SQL = {}
MAX_REMEMBERED_SQL = 512  # shapes of records remembered; a client choosing `fields` at will cannot grow it past


def _json_object(columns):
    """The record's JSON text written as SQLite writes it, compact (`{"id":"…","title":…}`): its fields in their
    order, each value as `to_json` writes it, joined as text. `json_build_object` would write `"id" : "…"`, a space
    each side of every colon, and `jsonb_build_object` would sort the fields."""
    pieces = []
    for i, column in enumerate(columns):
        name = ("{" if i == 0 else ",") + json.dumps(column.name, ensure_ascii=False) + ":"
        pieces += [SQL("'" + name.replace("'", "''") + "'"), _json_text(column)]
    if not pieces:
        return SQL("'{}'")
    return EnclosedNodeList([NodeList([*pieces, SQL("'}'")], glue=" || ")])


def _json_text(column):
    """The column's value as JSON text (never NULL: `null`)."""
    if column.hidden:
        return SQL("'null'")
    if column.kind == "json":  # stored as compact JSON text (models.JSONField), an embedded record as its JSON text
        value = Cast(column.expr, "text")
    else:
        value = Cast(fn.to_json(Cast(column.expr, "boolean") if column.kind == "bool" else column.expr), "text")
    return fn.coalesce(value, SQL("'null'"))


# --- rows packed into one value -------------------------------------------------------------------------------


def packed_rows(query, order=()):
    """The rows of a SELECT as lists, fetched as one value of one statement (a JSON array of arrays). With
    `order`, a page's [(expression, descending)], the rows come in that order."""
    return unpacked(*packed_statement(query, order))


def packed_statement(query, order=()):
    """(sql, params) of the statement that packs the rows of `query` (see `packed_rows`)."""
    sql, params, names, keys = named(query, order)
    by = ", ".join(key_order(key, descending) for key, (_, descending) in zip(keys, order))
    packed = f"json_agg(json_build_array({', '.join(names)}){f' ORDER BY {by}' if by else ''})"
    return f"SELECT coalesce({packed}, '[]')::text FROM ({sql}) AS s", params


def unpacked(sql, params):
    """The rows a packing statement (`packed_statement`) gives, as lists."""
    row = db.execute_sql(sql, params).fetchone()
    return json.loads(row[0]) if row else []


# --- a page ---------------------------------------------------------------------------------------------------


def json_rows(model, page, choice):
    """The rows the statement `choice` (sql, params) picks, by their ids (`pid`) and order keys (`k0`, `k1`...), as
    the text of a JSON array of their records (the page's columns) in the page's order, and how many they are."""
    key = model._meta.primary_key
    chosen, chosen_params = choice
    # The record reads its table as "t1".
    record, record_params = _record(model, page.columns)
    order = ", ".join(key_order(f"p.k{i}", descending) for i, (_, descending) in enumerate(page.order))
    row = db.execute_sql(
        f"SELECT '[' || coalesce(string_agg({record}, ',' ORDER BY {order}), '') || ']', count(*) FROM ({chosen}) AS p "
        f'JOIN "{model._meta.table_name}" AS "t1" ON "t1"."{key.column_name}" = p.pid',
        [*record_params, *chosen_params],
    ).fetchone()
    text, shown = row
    return text, shown


# --- totals ---------------------------------------------------------------------------------------------------


# One statement, whatever is remembered: the snapshot the statement reads (the same snapshot sees the same commits;
# it moves as each transaction that wrote ends), whether this transaction has written (its own writes are seen by
# it alone then), and the value, run only when the snapshot is not the remembered one (an uncorrelated subquery runs
# when first used).
COUNTED_SQL = """SELECT v."version", v."written", v."version" = %s AND NOT v."written",
       CASE WHEN v."version" = %s AND NOT v."written" THEN NULL ELSE ({}) END
  FROM (SELECT pg_current_snapshot()::text AS "version",
               pg_current_xact_id_if_assigned() IS NOT NULL AS "written") AS v"""


def counted(query):
    """The one value `query` selects (a COUNT(*), say), remembered by this thread until the database changes.
    `query` may be its (sql, params), written once: a query asked on every request costs no writing then.

    Counting 80 000 of 100 000 gigs takes milliseconds, while the same list asked again (a phone refreshing it) is
    the common case. The snapshot moves with every commit, by any process; a value counted in a transaction that
    has written is not remembered (what it wrote is seen by it alone)."""
    totals = getattr(_counts, "totals", None)
    if totals is None or len(totals) > MAX_REMEMBERED_COUNTS:
        totals = _counts.totals = {}
    sql, params = query if isinstance(query, tuple) else query.sql()
    key = (sql, *map(_hashable, params))
    remembered = totals.get(key, (None, None))
    version, written, unchanged, value = db.execute_sql(
        COUNTED_SQL.format(sql), [remembered[0], remembered[0], *params]
    ).fetchone()
    if unchanged:
        return remembered[1]
    if not written:
        totals[key] = (version, value)
    return value


def _hashable(param):
    """A bound value as part of a key: lists (arrays) as tuples, JSON values as their text."""
    if isinstance(param, (list, tuple)):
        return tuple(map(_hashable, param))
    if hasattr(param, "obj"):  # psycopg's Json and Jsonb
        return ("json", json.dumps(param.obj, sort_keys=True))
    return param


_counts = threading.local()
MAX_REMEMBERED_COUNTS = 256
