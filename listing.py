"""Lists (SPEC §2.1): strict parsing of `limit`, `offset`, `sort`, `fields` and `filter[field][op]` into a Page,
and the answer's envelope. Pure Python: the SQL that answers a Page is the dialect's (`json_page`)."""

import datetime as dt
import json
import re
from dataclasses import dataclass, field, replace

from peewee import SQL, BooleanField, Field, ForeignKeyField, IntegerField

import pay_policy
from conventions import json_text_response
from dialects import dialect
from errors import ApiError
from field_types import DATE_RE, MAX_INT, TIME_RE, UUID_RE, utc_timestamp
from models import DateField, EnumField, JSONField, TimeField, TimestampField

DEFAULT_LIMIT, MAX_LIMIT = 50, 200
MAX_IN_VALUES = 100
MAX_FILTER_CHARS = 200  # a filter value's length bounds its cost (SPEC §2.3)
FILTER_RE = re.compile(r"filter\[([A-Za-z0-9_.]+)\](?:\[([a-z_]+)\])?")

ORDERING = ("eq", "ne", "lt", "lte", "gt", "gte", "in", "nin", "is_null")
OPERATORS = {
    "id": ("eq", "in"),
    "ref": ("eq", "ne", "in", "nin", "is_null"),
    "str": (*ORDERING, "contains", "starts_with"),
    "enum": ("eq", "ne", "in", "nin", "is_null"),
    "int": ORDERING,
    "number": ORDERING,
    "date": ORDERING,
    "time": ORDERING,
    "timestamp": ORDERING,
    "bool": ("eq", "ne", "is_null"),
    "json": (),
}


@dataclass(frozen=True)
class Column:
    """A field of a listed record: its name, SQL expression and kind (which decides operators and values)."""

    name: str
    expr: object
    kind: str
    choices: tuple = ()
    group: str = None  # a capability group whose `view` it needs beyond the collection's (pay amounts, §4.6)
    hidden: bool = False  # read as null: pay_policy.masked_columns hid it from the caller
    shape: tuple = ()  # what else decides its SQL: the columns of an embedded record
    on: object = None  # a computed column: on(table) is its SQL on another alias of its table (a joined record)
    # A computed column's `narrowing(values)`: the condition on stored fields that its being one of `values`
    # implies, which an index can find (the computed expression itself no index holds).
    narrowing: object = None

    @property
    def key(self):
        """What decides the column's SQL in a record's JSON (see dialect.as_json)."""
        return self.name, self.hidden, self.shape

    @property
    def sortable(self):
        return self.kind != "json"

    def masked(self):
        """The column as a caller reads it whom the pay policy hides it from: null, and neither filtered nor sorted
        on."""
        return replace(self, expr=SQL("NULL"), hidden=True)


def kind_of(field):
    """The listing kind of a model field: which filter operators and values it takes."""
    if isinstance(field, ForeignKeyField):
        return "ref"
    if field.primary_key:
        return "id"
    for cls, kind in KINDS:
        if isinstance(field, cls):
            return kind
    return "str"


KINDS = (
    (EnumField, "enum"),
    (DateField, "date"),
    (TimeField, "time"),
    (TimestampField, "timestamp"),
    (JSONField, "json"),
    (BooleanField, "bool"),
    (IntegerField, "int"),
)


def columns_of(model, schema):
    """{field name: listing.Column} for every field the schema answers with: the model's columns, and (kind json,
    neither filtered nor sorted on) the parts of an answer made of other records, which `fields` names."""
    columns = {}
    for name, schema_field in schema.fields.items():
        if schema_field.load_only:
            continue
        column = model._meta.columns.get(name)
        if column is None:
            columns[name] = Column(name, SQL("NULL"), "json")
            continue
        group = schema_field.metadata.get("group")
        columns[name] = Column(name, column, kind_of(column), getattr(column, "values", ()), group)
    return columns


@dataclass(frozen=True, eq=False)
class Reference:
    """A reference of a listed record to a record of another collection (`venue_id` to a venue), as a caller holding
    some capabilities follows it (SPEC §11): `expand=venue` embeds the record, `filter[venue.city]` and
    `sort=venue.city` go through it, when the caller may view the referenced collection."""

    name: str  # `venue`: the reference's field without `_id`
    column: Column  # the referencing field
    model: object
    alias: object  # the referenced table as a page joins it, named after the reference
    required: bool  # never null: joined without keeping records that lack it
    group: str
    allowed: bool  # the caller holds `<group>.view`
    columns: dict  # {name: Column} of the referenced record as the caller reads it

    def require_allowed(self):
        if not self.allowed:
            required = f"{self.group}.view"
            message = f"Following {self.name} needs {required}."
            raise ApiError(403, "forbidden", message, {"required": required})

    def through(self, name):
        """The column `<reference>.<name>`, read from the joined referenced record."""
        self.require_allowed()
        if name not in self.followable():
            raise ValueError(f"Unknown field {name!r} of {self.name}.")
        column = self.columns[name]
        if column.hidden:
            raise pay_policy.refused(f"{self.name}.{name}", column)
        expr = column.on(self.alias) if column.on else getattr(self.alias, column.expr.name)
        return replace(column, name=f"{self.name}.{name}", expr=expr)

    def identity(self):
        """The column `<reference>.id`: the id of the joined referenced record."""
        return Column(f"{self.name}.id", self.alias.id, "id")

    def followable(self):
        """The names of the referenced record's fields that a filter or sort may go through: its stored fields."""
        return [
            name
            for name, column in self.columns.items()
            if column.kind != "json"
            and (column.hidden or column.on or (isinstance(column.expr, Field) and column.expr.model is self.model))
        ]

    def embedded(self):
        """The column `<reference>`: the referenced record as the caller reads it, or null."""
        self.require_allowed()
        record = list(self.columns.values())
        shape = (self.model, tuple(column.key for column in record))
        return Column(self.name, dialect.embedded(self.model, self.name, record, self.column.expr), "json", shape=shape)


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
    expand = _expand_of(values, references, errors)
    for key, value in values.items():
        if key == "expand" and references is not None:
            continue  # read above, since `fields` may name what it expands
        try:
            if key == "fields":
                page.columns = _fields(value, columns, references, expand)
            elif key == "q":
                page.where.append(_searched(search, value))
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
    expand = _expand_of(values, references, errors)
    try:
        chosen = _fields(values["fields"], columns, references, expand) if "fields" in values else None
    except ValueError as e:
        errors["fields"] = str(e)
    errors.check()
    if not expand:
        return chosen
    return with_embedded(chosen or list(columns.values()), expand)


def _expand_of(values, references, errors):
    """The References `expand` names among the parameters `values` (none where the collection has none to
    follow); a bad `expand` goes into `errors`."""
    if references is None or "expand" not in values:
        return []
    try:
        return _expanded(values["expand"], references)
    except ValueError as e:
        errors["expand"] = str(e)
        return []


def _expanded(value, references):
    """The References named by `expand` (each once), checked before any is followed."""
    names = list(dict.fromkeys(value.split(",")))
    unknown = [name for name in names if name not in references]
    if unknown:
        known = ", ".join(references) or "none"
        raise ValueError(f"Unknown reference {unknown[0]!r}: this collection expands {known}.")
    return [references[name] for name in names]


def with_embedded(columns, expand):
    """`columns` with the records of the `expand` References embedded, each beside its id."""
    if not expand:
        return columns
    embedded = {reference.column.name: reference.embedded() for reference in expand}
    found = []
    for column in columns:
        found.append(column)
        if column.name in embedded:
            found.append(embedded.pop(column.name))
    return found + list(embedded.values())


def _searched(search, q):
    if search is None:
        raise ValueError("This list has no text fields to search.")
    return search(words_of(q))


MIN_WORD, MAX_WORDS = 2, 8


def words_of(q):
    """The words of a `q` search, separated by spaces: at least MIN_WORD characters each, at most MAX_WORDS."""
    words = [word for word in _bounded(q).split(" ") if word]
    if not words:
        raise ValueError("Give at least one word.")
    if len(words) > MAX_WORDS:
        raise ValueError(f"At most {MAX_WORDS} words.")
    short = [word for word in words if len(word) < MIN_WORD]
    if short:
        raise ValueError(f"Each word has at least {MIN_WORD} characters: {short[0]!r} is shorter.")
    return words


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


def is_id(value):
    return UUID_RE.fullmatch(value) is not None


def _single_values(args, errors):
    """{key: value} of the parameters; a repeated `in`/`nin` filter (what generated clients send) as a list."""
    values = {}
    for key in args:
        given = args.getlist(key)
        if "" in given:
            errors[key] = "Empty value (test for null with is_null)." if key.startswith("filter[") else "Empty value."
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
            return _through(name, references, page, filtering)
        column = columns.get(name) or (resolve(name) if resolve else None)
        if column is None:
            raise ValueError(f"Unknown field {name!r}.")
        if column.hidden:
            raise pay_policy.refused(name, column)
        return column

    return lookup


def _through(name, references, page, filtering):
    """The column `<reference>.<field>` (one hop), its reference joined to the page."""
    reference_name, _, field_name = name.partition(".")
    reference = references[reference_name]
    column = reference.through(field_name)
    for joins in (page.joins, page.filter_joins) if filtering else (page.joins,):
        if reference not in joins:
            joins.append(reference)
    return column


def _apply(page, key, value, columns, lookup, extra):
    if key == "limit":
        page.limit = _integer(value, 1, MAX_LIMIT)
    elif key == "offset":
        page.offset = _integer(value, 0, MAX_INT)
    elif key == "sort":
        page.order = _sort(value, lookup)
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


def condition(column, op, raw):
    """The SQL condition for `filter[column][op]=raw`."""
    if not OPERATORS[column.kind]:
        raise ValueError(f"{column.name!r} is made of several values: it takes no filter.")
    if op not in OPERATORS[column.kind]:
        raise ValueError(f"Operator {op!r} does not apply to {column.name!r}.")
    expr = column.expr
    if op in ("in", "nin"):
        values = raw if isinstance(raw, list) else raw.split(",")
        if len(values) > MAX_IN_VALUES:
            raise ValueError(f"At most {MAX_IN_VALUES} values.")
        if "" in values:
            raise ValueError("An empty value in the list.")
        values = [parse_value(column, _bounded(v)) for v in values]
        if op == "in":
            return _narrowed(column, expr.in_(values), values)
        return expr.not_in(values) | expr.is_null()
    if isinstance(raw, list):
        raise ValueError("Give this parameter once.")
    raw = _bounded(raw)
    if op == "is_null":
        return expr.is_null(_boolean(raw))
    value = parse_value(column, raw)
    if op == "contains":
        return dialect.contains(expr, dialect.fold_text(value))
    if op == "starts_with":
        return dialect.starts_with(expr, dialect.fold_text(value))
    if op == "eq":
        return _narrowed(column, expr == value, [value])
    return {
        "ne": lambda: (expr != value) | expr.is_null(),
        "lt": lambda: expr < value,
        "lte": lambda: expr <= value,
        "gt": lambda: expr > value,
        "gte": lambda: expr >= value,
    }[op]()


def _narrowed(column, condition, values):
    """`condition` (the column is one of `values`), with what it implies of stored fields (see Column.narrowing)."""
    return condition if column.narrowing is None else condition & column.narrowing(values)


def _bounded(raw):
    if len(raw) > MAX_FILTER_CHARS:
        raise ValueError(f"A filter value is at most {MAX_FILTER_CHARS} characters.")
    return raw


def _boolean(raw):
    if raw not in ("true", "false"):
        raise ValueError("Expected true or false.")
    return raw == "true"


def parse_value(column, raw):
    """`raw` parsed strictly as a value of the column's kind, in the stored form."""
    kind = column.kind
    if kind in ("id", "ref"):
        if not UUID_RE.fullmatch(raw):
            raise ValueError("Expected an id (a UUID).")
        return raw.lower()
    if kind == "int":
        if not re.fullmatch(r"-?[0-9]{1,16}", raw) or abs(int(raw)) > MAX_INT:
            raise ValueError("Expected an integer.")
        return int(raw)
    if kind == "number":
        return _number(raw)
    if kind == "bool":
        return _boolean(raw)
    if kind == "date":
        return _date(raw)
    if kind == "time":
        if not TIME_RE.fullmatch(raw):
            raise ValueError("Expected a time HH:MM.")
        return raw
    if kind == "timestamp":
        stored = utc_timestamp(raw)
        if stored is None:
            raise ValueError("Expected an ISO 8601 timestamp with a time zone.")
        return stored
    if kind == "enum" and raw not in column.choices:
        raise ValueError(f"Expected one of {', '.join(column.choices)}.")
    return raw


def _number(raw):
    if not re.fullmatch(r"-?[0-9]{1,16}(\.[0-9]{1,16})?", raw):
        raise ValueError("Expected a number.")
    return float(raw) if "." in raw else int(raw)


def _date(raw):
    try:
        if DATE_RE.fullmatch(raw):
            dt.date.fromisoformat(raw)
            return raw
    except ValueError:
        pass
    raise ValueError("Expected a date YYYY-MM-DD.")


def page_of(items, page):
    """The answer for a list computed in Python: the page's slice, and the total."""
    return page_answer(items[page.offset : page.offset + page.limit], len(items), page)


def page_answer(rows, total, page):
    """The answer for a page: `rows` a list, or the JSON text of one (as the dialect's `json_page` gives)."""
    if isinstance(rows, str):
        return json_text_response(page_text(rows, total, page))
    return {"data": rows, "meta": {"total": total, "limit": page.limit, "offset": page.offset}}


def page_text(rows, total, page):
    """The JSON text of the answer for a page whose rows are the JSON text `rows`."""
    meta = {"total": total, "limit": page.limit, "offset": page.offset}
    return f'{{"data":{rows},"meta":{json.dumps(meta, separators=(",", ":"))}}}'
