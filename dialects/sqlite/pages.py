"""Lists and records as JSON, written by SQLite: a page, a record, packed rows, each one statement, and totals
remembered until the database changes."""

import json
import threading
from dataclasses import replace

from peewee import JOIN, SQL, Case, NodeList, fn

from dialects.sqlite.budget import statement_starts
from dialects.sqlite.database import db
from dialects.sqlite.expressions import StandIn, all_of, bindable


def page_query(model, page, scope=(), selection=None):
    """The SELECT of one page (of `selection`, by default the page's columns)."""
    query = _matching(model.select(*(selection or [c.expr for c in page.columns])), model, page, scope, page.joins)
    query = query.order_by(*[c.expr.desc() if d else c.expr.asc() for c, d in page.order])
    return query.limit(page.limit).offset(page.offset)


def _matching(query, model, page, scope, joins, inner=None):
    """`query` of the records of `model` that match the page's filters within `scope`, joined to the referenced
    records of `joins` (an inner join where the reference is never null, or is the `inner` one, so that the planner
    may start from either table)."""
    for reference in joins:
        kind = JOIN.INNER if reference.required or reference is inner else JOIN.LEFT_OUTER
        query = query.join_from(model, reference.alias, kind, on=(reference.alias.id == reference.column.expr))
    where = all_of([*scope, *page.where])
    return query if where is None else query.where(where)


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


def record_query(model, columns):
    """(sql, params) reading one record of `model` as JSON; the record's id is the one parameter to add."""
    key = (model, tuple(column.key for column in columns))
    compiled = _RECORD_SQL.get(key)
    if compiled is None:
        if len(_RECORD_SQL) >= MAX_REMEMBERED_SQL:
            _RECORD_SQL.clear()
        sql, params = model.select(as_json(model, columns)).where(model.id == "").sql()
        compiled = _RECORD_SQL[key] = sql, params[:-1]
    return compiled


_RECORD_SQL = {}


def _json_value(column):
    if column.kind == "bool":
        return fn.json(Case(None, ((column.expr == 1, SQL("'true'")), (column.expr == 0, SQL("'false'")))))
    if column.kind == "json":
        return fn.json(column.expr)
    return column.expr


def packed_rows(query, order=()):
    """The rows of a SELECT as lists, fetched in one step of one statement: SQLite packs them into one JSON
    array (see `as_json` for why that matters under load). Booleans come back as 0 and 1. With `order`, a page's
    [(expression, descending)], the rows come in that order (kept by a window, as `json_page` keeps it)."""
    return unpacked(*packed_statement(query, order))


def packed_statement(query, order=()):
    """(sql, params) of the statement that packs the rows of `query` (see `packed_rows`)."""
    names = [f"c{i}" for i in range(len(query.selected_columns))]
    keys = [f"k{i}" for i in range(len(order))]
    inner = query.clone()
    inner.selected_columns = [column.alias(name) for column, name in zip(query.selected_columns, names)]
    inner.selected_columns += [expr.alias(key) for (expr, _), key in zip(order, keys)]
    sql, params = inner.sql()
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
    """A statement whose SQL peewee writes once, for the values given each time it runs: `build(*stand_ins)` makes
    the query and `write(query)` its (sql, params) (`packed_statement`, say); the answer takes the values and gives
    (sql, params) with them bound, a list or set as one JSON array (see `one_of`). Peewee takes longer to write a
    statement than SQLite takes to run it."""
    written = []

    def bind(*values):
        if not written:
            stand_ins = [StandIn(f"\0{i}\0") for i in range(len(values))]
            sql, params = write(build(*stand_ins))
            written.append((sql, params, [stand_ins.index(p) if isinstance(p, StandIn) else None for p in params]))
        sql, params, places = written[0]
        bound = [given if place is None else bindable(values[place]) for given, place in zip(params, places)]
        return sql, bound

    return bind


def prepared_rows(build, order=()):
    """The rows of the query `build(*values)` makes, packed (see `packed_rows`), as a function of the values: its
    SQL written once (see `prepared`), for statements of one shape whatever the values."""
    statement = prepared(build, lambda query: packed_statement(query, order))
    return lambda *values: unpacked(*statement(*values))


def json_page(model, page, scope=()):
    """The page as JSON text, and the total that matches: a count is skipped when the page shows it."""
    key = model._meta.primary_key
    chosen, chosen_params = page_choice(model, _from_the_nearer_end(model, page, scope), scope)
    # The page's rows are chosen (filtered, sorted, cut) first and written as JSON after: a sort never writes the
    # JSON (embedded records included) of the rows it leaves out. `as_json` reads the table as "t1".
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
    text, shown = row or ("[]", 0)
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
    # Sorted first through a reference that may be null (`sort=staff_member.last_name` on gig roles): a left join
    # has SQLite sort every row. So the page is two walks merged in order: the rows without the record, whose keys
    # of it are null (the reference itself), by their own keys; and the rows with it, inner joined, walking the
    # referenced records by an index on their key and each one's rows by (reference, id).
    through = [column.name.startswith(f"{nullable.name}.") for column, _ in page.order]
    null_keys = [
        (nullable.column.expr if went else column.expr).alias(f"k{i}")
        for i, ((column, _), went) in enumerate(zip(page.order, through))
    ]
    missing = [*scope, nullable.column.expr.is_null()]
    without = _matching(model.select(pid, *null_keys), model, page, missing, page.joins)
    with_it = _matching(model.select(pid, *keys), model, page, scope, page.joins, inner=nullable)
    order = [SQL(f'"k{i}"').desc() if descending else SQL(f'"k{i}"') for i, (_, descending) in enumerate(page.order)]
    return without.union_all(with_it).order_by(*order).limit(page.limit).offset(page.offset).sql()


# An offset from which a page may be read from the list's end: below it, walking to it costs less than a count.
FAR_OFFSET = 1000


def _from_the_nearer_end(model, page, scope):
    """The page as it is cheaper to find: a page in the second half of a long list is read from the end, in the
    opposite order (the rows are written in the page's own order all the same: see `json_page`). SQLite walks every
    row before an offset, so the last page of 140 000 rows would cost the walk of them all."""
    if page.offset < FAR_OFFSET:
        return page
    remaining = page_total(model, page, scope, page.limit) - page.offset
    if remaining >= page.offset:
        return page
    backwards = [(column, not descending) for column, descending in page.order]
    limit = max(0, min(page.limit, remaining))
    return replace(page, order=backwards, offset=max(0, remaining - page.limit), limit=limit)


def page_total(model, page, scope, shown):
    """How many rows of `model` match the page's filters within `scope`, the page showing `shown` of them: the
    page tells when it is not full, else a count (remembered until the database changes)."""
    if shown < page.limit and (shown or page.offset == 0):
        return page.offset + shown
    # a join that only sorts changes no count: a reference names one record or (left join) none
    return counted(_matching(model.select(fn.COUNT(SQL("*"))), model, page, scope, page.filter_joins))


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
