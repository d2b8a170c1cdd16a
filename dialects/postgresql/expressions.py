"""Expressions PostgreSQL writes its own way: text folded for matching, the values of JSON columns, conditions
side by side."""

from peewee import OP, SQL, ColumnBase, EnclosedNodeList, Expression, NodeList, fn
from psycopg.types.json import Jsonb

# Lower case by Unicode's rules whatever the database's locale (a "C" column's lower() changes ASCII only); then
# the two folds that case folding adds to lower case for the languages a band meets (`STRASSE` finds `Straße`).
FOLDING = "und-x-icu"
FOLDS = (("ß", "ss"), ("ς", "σ"))


def fold_text(value):
    """`value` folded as `fold` folds a column (their twin in Python)."""
    if not isinstance(value, str):
        return value
    value = value.lower().replace("\0", "\ufffd")  # no text PostgreSQL stores holds a NUL
    for letter, folded in FOLDS:
        value = value.replace(letter, folded)
    return value


def fold(expr):
    """The text of `expr` folded for matching without case (see `fold_text`)."""
    text = expr.text() if isinstance(expr, JsonValue) else expr
    folded = fn.lower(NodeList((text, SQL(f'COLLATE "{FOLDING}"'))))
    for letter, replacement in FOLDS:
        folded = fn.replace(folded, letter, replacement)
    return folded


def contains(expr, folded):
    return fn.strpos(fold(expr), folded) > 0


def starts_with(expr, folded):
    return fn.starts_with(fold(expr), folded)


# --- JSON columns (stored as their text) ------------------------------------------------------------------


def json_field(expr, key):
    """The value under `key` of a JSON object column: null when absent or null, and compared with the API's values
    (text, numbers, booleans) as JSON values are, as SQLite's json_extract compares them."""
    return JsonValue(expr, key)


def json_has(expr, key):
    """Whether a JSON object column holds `key` (with any value, null included)."""
    return Expression(expr.cast("jsonb"), "?", key)


class JsonValue(ColumnBase):
    """The value under `key` of the JSON object column `column`, as jsonb: a Python value it is compared with is
    bound as jsonb too (`5` finds the number 5, `"5"` the text)."""

    def __init__(self, column, key):
        super().__init__()
        self.column, self.key = column, key

    def __sql__(self, ctx):
        value = Expression(self.column.cast("jsonb"), "->", self.key)
        return ctx.sql(fn.NULLIF(value, SQL("'null'::jsonb")))

    def text(self):
        """The value as text (a text value without its quotes)."""
        return Expression(self.column.cast("jsonb"), "->>", self.key)

    def _compared(op):
        def compare(self, rhs):
            return Expression(self, op, _as_json(rhs))

        return compare

    __eq__ = _compared(OP.EQ)
    __ne__ = _compared(OP.NE)
    __lt__ = _compared(OP.LT)
    __le__ = _compared(OP.LTE)
    __gt__ = _compared(OP.GT)
    __ge__ = _compared(OP.GTE)
    __hash__ = object.__hash__

    def in_(self, values):
        return Expression(self, OP.IN, [_as_json(value) for value in values])

    def not_in(self, values):
        return Expression(self, OP.NOT_IN, [_as_json(value) for value in values])


def _as_json(value):
    return value if value is None or isinstance(value, ColumnBase) else Jsonb(value)


# --- JSON arrays in statements written by hand (stored as their text) --------------------------------------


def json_array_of(value):
    """SQL text: the JSON texts `value` of the rows aggregated into the text of one JSON array ([] for none)."""
    return f"coalesce(json_agg(({value})::json), '[]')::text"


def json_array_holds(array, value):
    """SQL text: whether the JSON array `array` holds the text `value` (a bound value is untyped until cast)."""
    return f"({array})::jsonb @> jsonb_build_array(({value})::text)"


# --- conditions -----------------------------------------------------------------------------------------------


def all_of(conditions):
    """The conditions ANDed side by side (peewee would nest them one in another)."""
    if not conditions:
        return None
    return NodeList([EnclosedNodeList([c]) for c in conditions], " AND ")
