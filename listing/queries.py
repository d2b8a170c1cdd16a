"""The queries that answer a Page or read one record, in peewee's portable terms whatever the database: the
SELECT of a page, the choice of its rows (two walks merged for a sort through a reference that may be null), a
page read from the nearer end of a long list, its total, and a record read as JSON. The dialect says how a key is
ordered (`ordered`: where nulls go), writes records and the chosen rows as JSON (`as_json`, `json_rows`) and
remembers counts (`counted`). What a page may cost is bounded before it is chosen (SPEC §2.3): a page ordered
through a reference at most MAX_WALK rows from an end of its list, a sort through a reference that no index serves
over at most MAX_UNINDEXED_SORT rows."""

from dataclasses import replace

from peewee import JOIN, SQL, Case, Field, FieldAlias, fn

from dialects import dialect
from domain.errors import ApiError

# The rows a page ordered through a reference may lie from the nearer end of its list: the database walks every row
# before it, at some 1.5 µs a row (10 000 rows: some 15 ms). A list in its own fields' order (an index's) is walked
# to any depth, so a client can always read a whole collection page by page.
MAX_WALK = 10_000
# The rows a sort through a reference by a key no index serves may order: every one is read and sorted.
MAX_UNINDEXED_SORT = 2_000


def json_page(model, page, scope=()):
    """The page as JSON text, and the total that matches: a count is skipped when the page shows it."""
    _refuse_an_unindexed_sort_of_many(model, page, scope)
    chosen = page_choice(model, _from_the_nearer_end(model, page, scope), scope)
    # The page's rows are chosen (filtered, sorted, cut) first and written as JSON after, in the page's own order:
    # a sort never writes the JSON (embedded records included) of the rows it leaves out.
    text, shown = dialect.json_rows(model, page, chosen)
    return text, page_total(model, page, scope, shown)


def page_query(model, page, scope=(), selection=None):
    """The SELECT of one page (of `selection`, by default the page's columns)."""
    query = _matching(model.select(*(selection or [c.expr for c in page.columns])), model, page, scope, page.joins)
    query = query.order_by(*[dialect.ordered(c.expr, d, may_be_null(c.expr, page.joins)) for c, d in page.order])
    return query.limit(page.limit).offset(page.offset)


def may_be_null(expr, joins):
    """Whether the page's key `expr` may be null: a nullable field, a field of a record left joined (a reference
    that may be null, of `joins`), or anything but a field."""
    field = expr.field if isinstance(expr, FieldAlias) else expr
    if not isinstance(field, Field) or field.null:
        return True
    return isinstance(expr, FieldAlias) and any(r.alias is expr.source and not r.required for r in joins)


def _matching(query, model, page, scope, joins, inner=None):
    """`query` of the records of `model` that match the page's filters within `scope`, joined to the referenced
    records of `joins` (an inner join where the reference is never null, or is the `inner` one, so that the planner
    may start from either table)."""
    for reference in joins:
        kind = JOIN.INNER if reference.required or reference is inner else JOIN.LEFT_OUTER
        query = query.join_from(model, reference.alias, kind, on=(reference.alias.id == reference.column.expr))
    where = dialect.all_of([*scope, *page.where])
    return query if where is None else query.where(where)


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
    # has the database sort every row. So the page is two walks merged in order: the rows without the record, whose
    # keys of it are null (the reference itself), by their own keys; and the rows with it, inner joined, walking
    # the referenced records by an index on their key and each one's rows by (reference, id).
    through = [column.name.startswith(f"{nullable.name}.") for column, _ in page.order]
    null_keys = [
        (_null_key(nullable, column) if went else column.expr).alias(f"k{i}")
        for i, ((column, _), went) in enumerate(zip(page.order, through))
    ]
    missing = [*scope, nullable.column.expr.is_null()]
    without = _matching(model.select(pid, *null_keys), model, page, missing, page.joins)
    with_it = _matching(model.select(pid, *keys), model, page, scope, page.joins, inner=nullable)
    order = [dialect.ordered(SQL(f'"k{i}"'), descending) for i, (_, descending) in enumerate(page.order)]
    return without.union_all(with_it).order_by(*order).limit(page.limit).offset(page.offset).sql()


def _null_key(reference, column):
    """The key of `column`, through `reference`, of the rows without the record: the reference itself where the
    column is text as it is (null, walked in order by the reference's index), else a null of the column's type, as
    PostgreSQL's UNION takes one type per key (it folds `CASE WHEN false` into that null)."""
    field = column.expr.field if isinstance(column.expr, FieldAlias) else column.expr
    if getattr(field, "field_type", None) in ("VARCHAR", "TEXT"):
        return reference.column.expr
    return Case(None, [(SQL("false"), column.expr)])


# An offset from which a page may be read from the list's end: below it, walking to it costs less than a count.
FAR_OFFSET = 1000


def _from_the_nearer_end(model, page, scope):
    """The page as it is cheaper to find: a page in the second half of a long list is read from the end, in the
    opposite order (the rows are written in the page's own order all the same: see `json_page`). The database
    walks every row before an offset, so the last page of 140 000 rows would cost the walk of them all."""
    if page.offset < FAR_OFFSET:
        return page
    total = page_total(model, page, scope, page.limit)
    remaining = total - page.offset
    followed = any(column.followed for column, _ in page.order)
    if followed and min(remaining, page.offset) > MAX_WALK:
        message = (
            f"A page lies at most {MAX_WALK} rows from an end of its list ({total} rows here): narrow it with a filter."
        )
        raise ApiError(400, "invalid_query", "Invalid query parameters.", {"offset": message})
    if remaining >= page.offset:
        return page
    backwards = [(column, not descending) for column, descending in page.order]
    limit = max(0, min(page.limit, remaining))
    return replace(page, order=backwards, offset=max(0, remaining - page.limit), limit=limit)


def _refuse_an_unindexed_sort_of_many(model, page, scope):
    """400 naming `sort` when a key of it through a reference is one no index serves and the list has more rows
    than such a sort may order (its total is counted, and remembered, for the page's answer anyway)."""
    if page.unindexed and page_total(model, page, scope, page.limit) > MAX_UNINDEXED_SORT:
        message = (
            f"No index serves {page.unindexed[0]}: a sort by it orders at most {MAX_UNINDEXED_SORT} rows; "
            "narrow the list with a filter."
        )
        raise ApiError(400, "invalid_query", "Invalid query parameters.", {"sort": message})


def page_total(model, page, scope, shown):
    """How many rows of `model` match the page's filters within `scope`, the page showing `shown` of them: the
    page tells when it is not full, else a count (remembered until the database changes)."""
    if shown < page.limit and (shown or page.offset == 0):
        return page.offset + shown
    # a join that only sorts changes no count: a reference names one record or (left join) none
    return dialect.counted(_matching(model.select(fn.COUNT(SQL("*"))), model, page, scope, page.filter_joins))


def record_query(model, columns):
    """(sql, params) reading one record of `model` (its `columns`) as JSON text; the record's id is the one
    parameter to add. Written once per set of columns, as the dialect writes a record's JSON (`as_json`)."""
    key = (model, tuple(column.key for column in columns))
    compiled = _RECORD_SQL.get(key)
    if compiled is None:
        if len(_RECORD_SQL) >= MAX_REMEMBERED_RECORDS:
            _RECORD_SQL.clear()
        sql, params = model.select(dialect.as_json(model, columns)).where(model.id == "").sql()
        compiled = _RECORD_SQL[key] = sql, params[:-1]
    return compiled


_RECORD_SQL = {}
MAX_REMEMBERED_RECORDS = 512  # shapes of records remembered; a client choosing `fields` at will cannot grow it past
