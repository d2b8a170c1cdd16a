"""The conditions of a list's `filter[field][op]` and `q`: which operators a column's kind takes, each value
parsed strictly in the stored form, and the SQL condition (text matching through the dialect)."""

import datetime as dt
import re

from dialects import dialect
from formats.field_types import DATE_RE, MAX_INT, TIME_RE, UUID_RE, utc_timestamp

MAX_IN_VALUES = 100
MAX_FILTER_CHARS = 200  # a filter value's length bounds its cost (SPEC §2.3)

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


# Text matched inside a value, which no index serves: through a reference it would read every referenced record
# and the rows of each (SPEC §2.3), so only a collection's own fields take these.
MATCHING = ("contains", "starts_with")


def operators_of(column):
    """The filter operators `column` takes: those of its kind, but text matching through a reference."""
    if column.followed:
        return tuple(op for op in OPERATORS[column.kind] if op not in MATCHING)
    return OPERATORS[column.kind]


def searched(search, q):
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


def is_id(value):
    return UUID_RE.fullmatch(value) is not None


def condition(column, op, raw):
    """The SQL condition for `filter[column][op]=raw`."""
    if not OPERATORS[column.kind]:
        raise ValueError(f"{column.name!r} is made of several values: it takes no filter.")
    if op not in operators_of(column):
        through = " through a reference: no index finds text inside another record" if op in MATCHING else ""
        raise ValueError(f"Operator {op!r} does not apply to {column.name!r}{through}.")
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
