"""Lists (SPEC §2.1): strict parsing of `limit`, `offset`, `sort`, `fields`, `expand`, `q` and
`filter[field][op]` into a Page, and the text of a page's answer (`page_text`; the answer itself is
`web.lifecycle.page_answer`, so that no Flask is needed here). Its parts, by job: `columns.py` (a listed record's
columns), `references.py` (references followed one hop: `expand`, `<reference>.<field>`), `filters.py` (the
conditions of filters and `q`), `queries.py` (the queries that answer a Page or read a record: `json_page`,
`page_query`, `page_total`, `record_query`; the dialect orders keys and writes the rows as JSON)."""

import json
import re
from dataclasses import dataclass, field

from domain import pay_policy
from domain.errors import ApiError
from formats.field_types import MAX_INT, NUL_MESSAGE, nul_places
from listing.columns import Column, columns_of
from listing.filters import (
    MAX_FILTER_CHARS,
    MAX_IN_VALUES,
    MAX_WORDS,
    MIN_WORD,
    OPERATORS,
    condition,
    is_id,
    operators_of,
    parse_value,
    searched,
)
from listing.queries import MAX_UNINDEXED_SORT, MAX_WALK, json_page, page_query, page_total, record_query
from listing.references import Reference, expand_of, through, with_embedded

# what the views, the OpenAPI document and the collections' own columns use
__all__ = [
    "MAX_FILTER_CHARS",
    "MAX_IN_VALUES",
    "MAX_LIMIT",
    "MAX_UNINDEXED_SORT",
    "MAX_WALK",
    "MAX_WORDS",
    "MIN_WORD",
    "OPERATORS",
    "Column",
    "Reference",
    "columns_of",
    "is_id",
    "json_page",
    "operators_of",
    "page_query",
    "page_text",
    "page_total",
    "parse",
    "parse_fields_only",
    "parse_paging",
    "parse_value",
    "record_query",
]

DEFAULT_LIMIT, MAX_LIMIT = 50, 200
FILTER_RE = re.compile(r"filter\[([A-Za-z0-9_.]+)\](?:\[([a-z_]+)\])?")


@dataclass
class Page:
    """A parsed list request."""

    limit: int = DEFAULT_LIMIT
    offset: int = 0
    order: list = field(default_factory=list)
    columns: list = field(default_factory=list)
    where: list = field(default_factory=list)
    extra: dict = field(default_factory=dict)
    joins: list = field(default_factory=list)  # the References filters and sorts go through
    unindexed: list = field(
        default_factory=list
    )  # the sort's first key, when it goes through a reference no index serves
    filter_joins: list = field(default_factory=list)  # ...those its filters go through (what its total needs)


class QueryErrors(dict):
    def check(self):
        if self:
            raise ApiError(400, "invalid_query", "Invalid query parameters.", dict(self))


def parse(args, columns, default_order, *, resolve=None, extra=(), references=None, search=None):
    """`args` (a MultiDict) as a Page over `columns` {name: Column}; 400 `invalid_query` naming each bad parameter.

    `default_order` names columns (`-name` descending) or gives (Column, descending) keys; `resolve(name)` may
    supply columns that are not fixed (custom fields); `extra` names further parameters the endpoint defines,
    handed back raw in `page.extra`. `references` {name: Reference} are what `expand` and `<reference>.<field>`
    follow; `search(words)` gives the condition of `q`.
    """
    page, errors = Page(), QueryErrors()
    lookup = _lookup(columns, resolve, references or {}, page)
    values = _single_values(args, errors)
    expand = expand_of(values, references, errors)
    for key, value in values.items():
        if key == "expand" and references is not None:
            continue  # read above, since `fields` may name what it expands
        try:
            if key == "fields":
                page.columns = _fields(value, columns, references, expand)
            elif key == "q":
                page.where.append(searched(search, value))
            else:
                _apply(page, key, value, columns, lookup, extra)
        except ValueError as e:
            errors[key] = str(e)
    errors.check()
    page.columns = with_embedded(page.columns or list(columns.values()), expand)
    page.order = _referenced_ids_break_ties(page.order, page.joins) or [_default_key(columns, k) for k in default_order]
    # id breaks ties in the direction of the last key, so that one index on (key, id) serves either direction
    page.order.append((columns["id"], page.order[-1][1]))
    return page


def _referenced_ids_break_ties(order, joins):
    """`order` with the referenced record's id after the keys that go through its reference (`sort=gig.title`
    orders by the gig's title, then the gig, then id): the referenced records are walked in the order of an index
    on (key, id), each one's rows by id, and no sort of every row is needed (SPEC §2.3)."""
    ordered = []
    for position, (column, descending) in enumerate(order):
        ordered.append((column, descending))
        reference = next((r for r in joins if column.name.startswith(f"{r.name}.")), None)
        following = order[position + 1][0].name if position + 1 < len(order) else ""
        if reference is not None and not following.startswith(f"{reference.name}."):
            ordered.append((reference.identity(), descending))
    return ordered


def _default_key(columns, key):
    """A key of the default order: a column's name (`-name` descending), or (Column, descending) for an order by
    what no client may sort on (pending invitations first)."""
    if isinstance(key, tuple):
        return key
    return columns[key.lstrip("-")], key.startswith("-")


def parse_fields_only(args, columns, references=None):
    """A single-record GET takes `fields` (and `expand`, given the record's `references`) and no other parameter:
    the columns to answer with (None: all)."""
    if not args:
        return None
    errors, expand, chosen = QueryErrors(), [], None
    values = _single_values(args, errors)
    taken = ("fields", "expand") if references is not None else ("fields",)
    for key in values:
        if key not in taken:
            errors[key] = f"Unknown parameter: a single record takes only {' and '.join(f'`{t}`' for t in taken)}."
    expand = expand_of(values, references, errors)
    try:
        chosen = _fields(values["fields"], columns, references, expand) if "fields" in values else None
    except ValueError as e:
        errors["fields"] = str(e)
    errors.check()
    if not expand:
        return chosen
    return with_embedded(chosen or list(columns.values()), expand)


def parse_paging(args, extra=()):
    """A list computed in Python: `limit` and `offset` (and the endpoint's `extra` parameters) only."""
    page, errors = Page(), QueryErrors()
    for key, value in _single_values(args, errors).items():
        try:
            if key in ("limit", "offset") or key in extra:
                _apply(page, key, value, {}, None, extra)
            else:
                names = ["limit", "offset", *extra]
                errors[key] = f"Unknown parameter: this list takes {', '.join(names[:-1])} and {names[-1]}."
        except ValueError as e:
            errors[key] = str(e)
    errors.check()
    return page


def _single_values(args, errors):
    """{key: value} of the parameters; a repeated `in`/`nin` filter (what generated clients send) as a list."""
    values = {}
    for key in args:
        given = args.getlist(key)
        if "" in given:
            errors[key] = "Empty value (test for null with is_null)." if key.startswith("filter[") else "Empty value."
        elif nul_places(given):
            errors[key] = NUL_MESSAGE
        elif len(given) == 1:
            values[key] = given[0]
        elif SET_FILTER_RE.fullmatch(key):
            values[key] = given
        else:
            errors[key] = "Give this parameter once."
    return values


SET_FILTER_RE = re.compile(r"filter\[[A-Za-z0-9_.]+\]\[n?in\]")


def _lookup(columns, resolve, references, page):
    def lookup(name, filtering=False):
        if "." in name and name.partition(".")[0] in references:
            return through(name, references, page, filtering)
        column = columns.get(name) or (resolve(name) if resolve else None)
        if column is None:
            raise ValueError(f"Unknown field {name!r}.")
        if column.hidden:
            raise pay_policy.refused(name, column)
        return column

    return lookup


def _apply(page, key, value, columns, lookup, extra):
    if key == "limit":
        page.limit = _integer(value, 1, MAX_LIMIT)
    elif key == "offset":
        page.offset = _integer(value, 0, MAX_INT)
    elif key == "sort":
        page.order = _sort(value, lookup)
        # the first key decides the walk; the later ones order the rows of one value of those before, as walked
        page.unindexed = [column.name for column, _ in page.order[:1] if column.unindexed]
    elif key in extra:
        page.extra[key] = value
    elif match := FILTER_RE.fullmatch(key):
        column = lookup(match[1], filtering=True)
        page.where.append(condition(column, match[2] or "eq", value))
    else:
        raise ValueError("Unknown parameter.")


def _integer(value, low, high):
    if not re.fullmatch(r"[0-9]{1,16}", value) or not low <= int(value) <= high:
        raise ValueError(f"Expected an integer from {low} to {high}.")
    return int(value)


def _sort(value, lookup):
    order, seen = [], set()
    for part in value.split(","):
        descending = part.startswith("-")
        name = part[1:] if descending else part
        column = lookup(name)
        if not column.sortable:
            raise ValueError(f"Cannot sort by {name!r}.")
        if name not in seen:  # a repeated key could not change the order
            seen.add(name)
            order.append((column, descending))
    return order


def _fields(value, columns, references=None, expand=()):
    """The columns `fields` names; it may name a reference that `expand` embeds (embedded in any case)."""
    names = value.split(",")
    expanded = {reference.name for reference in expand}
    for name in names:
        if name in columns or name in expanded:
            continue
        if name in (references or {}):
            raise ValueError(f"{name!r} is a reference: embed it with expand={name} to answer with it.")
        raise ValueError(f"Unknown field {name!r}.")
    chosen = set(names)
    # in the record's own order, whatever the client's: one set of fields is one shape of answer (and of SQL)
    return [column for name, column in columns.items() if name == "id" or name in chosen]


def page_text(rows, total, page):
    """The JSON text of the answer for a page whose rows are the JSON text `rows`."""
    meta = {"total": total, "limit": page.limit, "offset": page.offset}
    return f'{{"data":{rows},"meta":{json.dumps(meta, separators=(",", ":"))}}}'
