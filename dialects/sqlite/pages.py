"""Lists and records as JSON, written by SQLite: a page's rows, a record, packed rows, each one statement, and
totals remembered until the database changes; how a page's key is ordered. The queries that choose a page are
the listing's (`listing/queries.py`)."""

import json
import threading

from peewee import SQL, Case, NodeList, fn

from dialects.packing import named
from dialects.sqlite.budget import statement_starts
from dialects.sqlite.database import db
from dialects.sqlite.expressions import bindable
from dialects.written_once import written_once


def ordered(expr, descending, nullable=True):
    """`expr` as a key of an ORDER BY: SQLite places nulls first ascending and last descending (SPEC §2.1) of
    itself, whether or not the key may be null."""
    return expr.desc() if descending else expr.asc()


def embedded(model, name, columns, reference):
    """The record of `model` the expression `reference` (an id) names, as JSON (see `as_json`), or null: one
    lookup by primary key inside the statement that reads the referencing records, never a query per row."""
    table = model._meta.table_name
    record = as_json(model, columns, alias=name)
    return NodeList(
        [
            SQL(f'json((SELECT {record.sql} FROM "{table}" AS "{name}" WHERE "{name}"."id" = ', record.params),
            reference,
            SQL("))"),
        ],
        glue="",
    )


def as_json(model, columns, alias=None):
    """The SQL expression of one record of `model` as JSON text, written by SQLite.

    Values are stored in the form the API speaks, so only booleans (0/1) and JSON columns need a word. A page
    comes back as one value of one row: each row fetched would let another server thread take the GIL, and
    under load those hand-overs, not the queries, are what a list costs. The expression's SQL is built once
    per set of columns (peewee would spend longer writing it than SQLite running it); its column expressions
    are declared once, so their parameters are constants.
    """
    key = (model, alias, tuple(column.key for column in columns))
    compiled = _JSON_SQL.get(key)
    if compiled is None and len(_JSON_SQL) >= MAX_REMEMBERED_SQL:
        _JSON_SQL.clear()
    if compiled is None:
        parts = []
        for column in columns:
            parts += [SQL(f"'{column.name}'"), _json_value(column)]
        context = db.get_sql_context()
        if alias:
            context.alias_manager[model._meta.table] = alias  # its fields name their table, not the model
        compiled = _JSON_SQL[key] = context.sql(fn.json_object(*parts)).query()
    return SQL(*compiled)


_JSON_SQL = {}
MAX_REMEMBERED_SQL = 512  # shapes of records remembered; a client choosing `fields` at will cannot grow it past


def _json_value(column):
    if column.kind == "bool":
        return fn.json(Case(None, ((column.expr == 1, SQL("'true'")), (column.expr == 0, SQL("'false'")))))
    if column.kind == "json":
        return fn.json(column.expr)
    return column.expr


def packed_rows(query, order=()):
    """The rows of a SELECT as lists, fetched in one step of one statement: SQLite packs them into one JSON
    array (see `as_json` for why that matters under load). Booleans come back as 0 and 1. With `order`, a page's
    [(expression, descending)], the rows come in that order (kept by a window, as `json_rows` keeps it)."""
    return unpacked(*packed_statement(query, order))


def packed_statement(query, order=()):
    """(sql, params) of the statement that packs the rows of `query` (see `packed_rows`)."""
    sql, params, names, keys = named(query, order)
    packed = f"json_group_array(json_array({', '.join(names)}))"
    if not order:
        return f"SELECT {packed} FROM ({sql})", params
    by = ", ".join(f"{key} {'DESC' if descending else 'ASC'}" for key, (_, descending) in zip(keys, order))
    window = f"OVER (ORDER BY {by} ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING)"
    return f"SELECT {packed} {window} FROM ({sql}) LIMIT 1", params


def unpacked(sql, params):
    """The rows a packing statement (`packed_statement`) gives, as lists."""
    row = db.execute_sql(sql, params).fetchone()
    return json.loads(row[0]) if row else []


def prepared(build, write=lambda query: query.sql()):
    """A statement whose SQL peewee writes once (see `written_once`), a list or set bound as one JSON array (see
    `one_of`)."""
    return written_once(build, write, bindable)


def prepared_rows(build, order=()):
    """The rows of the query `build(*values)` makes, packed (see `packed_rows`), as a function of the values: its
    SQL written once (see `prepared`), for statements of one shape whatever the values."""
    statement = prepared(build, lambda query: packed_statement(query, order))
    return lambda *values: unpacked(*statement(*values))


def json_rows(model, page, choice):
    """The rows the statement `choice` (sql, params) picks, by their ids (`pid`) and order keys (`k0`, `k1`...), as
    the text of a JSON array of their records (the page's columns) in the page's order, and how many they are."""
    key = model._meta.primary_key
    chosen, chosen_params = choice
    # `as_json` reads the table as "t1".
    record = as_json(model, page.columns)
    passed = ", ".join(f"p.k{i}" for i in range(len(page.order)))
    sql = (
        f"SELECT {record.sql} AS record, {passed} FROM ({chosen}) AS p "
        f'JOIN "{model._meta.table_name}" AS "t1" ON "t1"."{key.column_name}" = p.pid'
    )
    # group_concat as a window ordered by the page's own keys: an aggregate's order is not SQLite's promise.
    order = ", ".join(f"k{i} {'DESC' if descending else 'ASC'}" for i, (_, descending) in enumerate(page.order))
    row = db.execute_sql(
        f"SELECT '[' || group_concat(record, ',') OVER w || ']', count(*) OVER w FROM ({sql}) "
        f"WINDOW w AS (ORDER BY {order} ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) LIMIT 1",
        [*record.params, *chosen_params],
    ).fetchone()
    return row or ("[]", 0)


def counted(query):
    """The one value `query` selects (a COUNT(*), say), remembered on this thread's connection until the database
    changes. `query` may be its (sql, params), written once: a query asked on every request costs no writing then.

    Counting 80 000 of 100 000 gigs keeps SQLite busy for 6 ms, while the same list asked again (a phone
    refreshing it) is the common case. `PRAGMA data_version` changes when another connection (or process)
    commits, `total_changes` when this one writes, so a remembered total is never stale.
    """
    connection = db.connection()
    if getattr(_counts, "connection", None) is not connection or len(_counts.totals) > MAX_REMEMBERED_COUNTS:
        _counts.connection, _counts.totals = connection, {}
    sql, params = query if isinstance(query, tuple) else query.sql()
    key = (sql, *params)
    version = (connection.execute("PRAGMA data_version").fetchone()[0], connection.total_changes)
    remembered = _counts.totals.get(key)
    if remembered is None or remembered[0] != version:
        statement_starts()
        remembered = _counts.totals[key] = (version, connection.execute(sql, params).fetchone()[0])
    return remembered[1]


_counts = threading.local()
MAX_REMEMBERED_COUNTS = 256
