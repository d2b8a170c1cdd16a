"""Lists and records as JSON, written by PostgreSQL (`json_build_object`, `json_agg` in the page's order): a page, a
record, packed rows, each one statement, and totals remembered until the database changes."""

import json
import threading
from dataclasses import replace

from peewee import JOIN, SQL, Cast, EnclosedNodeList, Field, FieldAlias, NodeList, fn

from dialects.postgresql.database import db
from dialects.postgresql.expressions import all_of

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


def may_be_null(expr, joins):
    """Whether the page's key `expr` may be null: a nullable field, a field of a record left joined (a reference
    that may be null, of `joins`), or anything but a field."""
    field = expr.field if isinstance(expr, FieldAlias) else expr
    if not isinstance(field, Field) or field.null:
        return True
    return isinstance(expr, FieldAlias) and any(r.alias is expr.source and not r.required for r in joins)


def page_query(model, page, scope=(), selection=None):
    """The SELECT of one page (of `selection`, by default the page's columns)."""
    query = _matching(model.select(*(selection or [c.expr for c in page.columns])), model, page, scope, page.joins)
    query = query.order_by(*[ordered(c.expr, d, may_be_null(c.expr, page.joins)) for c, d in page.order])
    return query.limit(page.limit).offset(page.offset)


def _matching(query, model, page, scope, joins, inner=None):
    """`query` of the records of `model` that match the page's filters within `scope`, joined to the referenced
    records of `joins` (an inner join where the reference is never null, or is the `inner` one)."""
    for reference in joins:
        kind = JOIN.INNER if reference.required or reference is inner else JOIN.LEFT_OUTER
        query = query.join_from(model, reference.alias, kind, on=(reference.alias.id == reference.column.expr))
    where = all_of([*scope, *page.where])
    return query if where is None else query.where(where)


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
    sql, params = _record(model, columns, alias)
    return SQL(f"({sql})::text", params)


def _record(model, columns, alias=None):
    """(sql, params) of one record of `model` as a json value; its table is read as `alias`, else as "t1"."""
    key = (model, alias, tuple(column.key for column in columns))
    compiled = _JSON_SQL.get(key)
    if compiled is None:
        if len(_JSON_SQL) >= MAX_REMEMBERED_SQL:
            _JSON_SQL.clear()
        parts = []
        for column in columns:
            parts += [SQL(f"'{column.name}'"), _json_value(column)]
        context = db.get_sql_context()
        if alias:
            context.alias_manager[model._meta.table] = alias  # its fields name their table, not the model
        compiled = _JSON_SQL[key] = context.sql(_json_object(parts)).query()
    return compiled


_JSON_SQL = {}
MAX_REMEMBERED_SQL = 512  # shapes of records remembered; a client choosing `fields` at will cannot grow it past

MAX_ARGUMENTS = 100  # of a function: json_build_object takes 50 fields at most


def _json_object(parts):
    """json_build_object of the (name, value) `parts`; past MAX_ARGUMENTS, objects of some fields each joined into
    one as text (`{"a" : 1` `, ` `"b" : 2}`), which keeps the fields' order."""
    chunks = [fn.json_build_object(*parts[i : i + MAX_ARGUMENTS]) for i in range(0, len(parts), MAX_ARGUMENTS)]
    if len(chunks) == 1:
        return chunks[0]
    texts = [Cast(chunk, "text") for chunk in chunks]
    pieces = [fn.left(texts[0], -1), *(fn.substr(fn.left(t, -1), 2) for t in texts[1:-1]), fn.substr(texts[-1], 2)]
    return Cast(EnclosedNodeList([NodeList(pieces, glue=" || ', ' || ")]), "json")


def _json_value(column):
    if column.kind == "bool":
        return Cast(column.expr, "boolean")
    if column.kind == "json":
        return Cast(column.expr, "json")
    return column.expr


def record_query(model, columns):
    """(sql, params) reading one record of `model` as JSON text; the record's id is the one parameter to add."""
    key = (model, tuple(column.key for column in columns))
    compiled = _RECORD_SQL.get(key)
    if compiled is None:
        if len(_RECORD_SQL) >= MAX_REMEMBERED_SQL:
            _RECORD_SQL.clear()
        sql, params = model.select(as_json(model, columns)).where(model.id == "").sql()
        compiled = _RECORD_SQL[key] = sql, params[:-1]
    return compiled


_RECORD_SQL = {}


# --- rows packed into one value -------------------------------------------------------------------------------


def packed_rows(query, order=()):
    """The rows of a SELECT as lists, fetched as one value of one statement (a JSON array of arrays). With
    `order`, a page's [(expression, descending)], the rows come in that order."""
    return unpacked(*packed_statement(query, order))


def packed_statement(query, order=()):
    """(sql, params) of the statement that packs the rows of `query` (see `packed_rows`)."""
    names = [f"c{i}" for i in range(len(query.selected_columns))]
    keys = [f"k{i}" for i in range(len(order))]
    inner = query.clone()
    inner.selected_columns = [column.alias(name) for column, name in zip(query.selected_columns, names)]
    inner.selected_columns += [expr.alias(key) for (expr, _), key in zip(order, keys)]
    sql, params = inner.sql()
    by = ", ".join(key_order(key, descending) for key, (_, descending) in zip(keys, order))
    packed = f"json_agg(json_build_array({', '.join(names)}){f' ORDER BY {by}' if by else ''})"
    return f"SELECT coalesce({packed}, '[]')::text FROM ({sql}) AS s", params


def unpacked(sql, params):
    """The rows a packing statement (`packed_statement`) gives, as lists."""
    row = db.execute_sql(sql, params).fetchone()
    return json.loads(row[0]) if row else []


# --- a page ---------------------------------------------------------------------------------------------------


def json_page(model, page, scope=()):
    """The page as JSON text, and the total that matches: a count is skipped when the page shows it."""
    key = model._meta.primary_key
    chosen, chosen_params = page_choice(model, _from_the_nearer_end(model, page, scope), scope)
    # The page's rows are chosen (filtered, sorted, cut) first and written as JSON after: a sort never writes the
    # JSON (embedded records included) of the rows it leaves out. The record reads its table as "t1".
    record, record_params = _record(model, page.columns)
    order = ", ".join(key_order(f"p.k{i}", descending) for i, (_, descending) in enumerate(page.order))
    row = db.execute_sql(
        f"SELECT coalesce(json_agg({record} ORDER BY {order}), '[]')::text, count(*) FROM ({chosen}) AS p "
        f'JOIN "{model._meta.table_name}" AS "t1" ON "t1"."{key.column_name}" = p.pid',
        [*record_params, *chosen_params],
    ).fetchone()
    text, shown = row
    return text, page_total(model, page, scope, shown)


def page_choice(model, page, scope=()):
    """(sql, params) of the statement that chooses a page: its rows' ids (`pid`) and order keys (`k0`, `k1`...),
    filtered, sorted and cut (what `json_page` writes as JSON)."""
    pid = model._meta.primary_key.alias("pid")
    keys = [column.expr.alias(f"k{i}") for i, (column, _) in enumerate(page.order)]
    first = page.order[0][0].name
    nullable = next((r for r in page.joins if not r.required and first.startswith(f"{r.name}.")), None)
    if nullable is None:
        return page_query(model, page, scope, [pid, *keys]).sql()
    # Sorted first through a reference that may be null (`sort=staff_member.last_name` on gig roles): the page is
    # two walks merged in order: the rows without the record, whose keys of it are null (the reference itself), by
    # their own keys; and the rows with it, inner joined.
    through = [column.name.startswith(f"{nullable.name}.") for column, _ in page.order]
    null_keys = [
        (nullable.column.expr if went else column.expr).alias(f"k{i}")
        for i, ((column, _), went) in enumerate(zip(page.order, through))
    ]
    missing = [*scope, nullable.column.expr.is_null()]
    without = _matching(model.select(pid, *null_keys), model, page, missing, page.joins)
    with_it = _matching(model.select(pid, *keys), model, page, scope, page.joins, inner=nullable)
    order = [ordered(SQL(f'"k{i}"'), descending) for i, (_, descending) in enumerate(page.order)]
    return without.union_all(with_it).order_by(*order).limit(page.limit).offset(page.offset).sql()


# An offset from which a page may be read from the list's end: below it, walking to it costs less than a count.
FAR_OFFSET = 1000


def _from_the_nearer_end(model, page, scope):
    """The page as it is cheaper to find: a page in the second half of a long list is read from the end, in the
    opposite order (the rows are written in the page's own order all the same: see `json_page`). An offset has
    PostgreSQL walk every row before it."""
    if page.offset < FAR_OFFSET:
        return page
    remaining = page_total(model, page, scope, page.limit) - page.offset
    if remaining >= page.offset:
        return page
    backwards = [(column, not descending) for column, descending in page.order]
    limit = max(0, min(page.limit, remaining))
    return replace(page, order=backwards, offset=max(0, remaining - page.limit), limit=limit)


# --- totals ---------------------------------------------------------------------------------------------------


def page_total(model, page, scope, shown):
    """How many rows of `model` match the page's filters within `scope`, the page showing `shown` of them: the
    page tells when it is not full, else a count (remembered until the database changes)."""
    if shown < page.limit and (shown or page.offset == 0):
        return page.offset + shown
    # a join that only sorts changes no count: a reference names one record or (left join) none
    return counted(_matching(model.select(fn.COUNT(SQL("*"))), model, page, scope, page.filter_joins))


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
