"""Expressions SQLite writes its own way: text folded for matching, JSON columns, the time now, values bound as
one JSON array."""

import datetime as dt
import json
import zoneinfo

from peewee import SQL, EnclosedNodeList, NodeList, fn

from dialects.sqlite.database import db
from dialects.written_once import StandIn


@db.func("band_fold", 1, deterministic=True)
def fold_text(value):
    """Unicode case folding (str.casefold), which SQLite's LIKE and lower() do only for ASCII."""
    return value.casefold() if isinstance(value, str) else value


def fold(expr):
    return fn.band_fold(expr)


def contains(expr, folded):
    return fn.instr(fold(expr), folded) > 0


def starts_with(expr, folded):
    return fn.substr(fold(expr), 1, len(folded)) == folded


# --- JSON columns and time ---------------------------------------------------------------------------------

# The current UTC time in the stored form: SQLite gives milliseconds, the three zeros pad them to microseconds.
NOW = SQL("strftime('%Y-%m-%dT%H:%M:%f000Z', 'now')")


@db.func("band_today", 1)
def today_in(zone):
    """Today's date (`YYYY-MM-DD`) in the time zone named `zone` (UTC when it names none)."""
    try:
        return dt.datetime.now(zoneinfo.ZoneInfo(zone)).date().isoformat()
    except (TypeError, ValueError, zoneinfo.ZoneInfoNotFoundError):
        return dt.datetime.now(dt.UTC).date().isoformat()


# Today in the office's zone (its settings' `time_zone`), as of the statement, in the stored form of a date.
OFFICE_TODAY = SQL(
    'band_today(json_extract((SELECT "value" FROM "settings" WHERE "key" = \'office\'), \'$.time_zone\'))'
)


def greater_of(first, second):
    """The greater of two values of a row: SQLite's MAX with two arguments (elsewhere: GREATEST)."""
    return fn.MAX(first, second)


def one_of(expr, values):
    """`expr IN values`, the values bound as one JSON array: the statement is one short text whatever their number
    (peewee writes a long list of placeholders slowly, and SQLite parses each). `values` may be a stand-in."""
    value = values if isinstance(values, StandIn) else json.dumps(list(values))
    return expr.in_(SQL("(SELECT value FROM json_each(?))", [value]))


def json_field(expr, key):
    """The value under `key` of a JSON object column."""
    return fn.json_extract(expr, f"$.{key}")


def json_has(expr, key):
    """Whether a JSON object column holds `key` (with any value, null included)."""
    return fn.json_type(expr, f"$.{key}").is_null(False)


def bindable(value):
    """A value as a prepared statement binds it: a list or set as one JSON array (as `one_of` binds its values)."""
    return json.dumps(list(value)) if isinstance(value, (list, set, tuple, frozenset)) else value


def subquery(sql, params):
    """A statement (sql, params) as an expression of another: `expr.in_(subquery(...))`."""
    return SQL(f"({sql})", params)


def all_of(conditions):
    """The conditions ANDed side by side: peewee would nest them, and SQLite's parser refuses deep nesting."""
    if not conditions:
        return None
    return NodeList([EnclosedNodeList([c]) for c in conditions], " AND ")


# --- JSON arrays in statements written by hand ---------------------------------------------------------------


def json_array_of(value):
    """SQL text: the JSON texts `value` of the rows aggregated into the text of one JSON array ([] for none)."""
    return f"json_group_array(json({value}))"


def json_array_holds(array, value):
    """SQL text: whether the JSON array `array` holds the text `value`."""
    return f"EXISTS (SELECT 1 FROM json_each({array}) WHERE value = {value})"
