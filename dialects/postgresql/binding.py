"""Values in PostgreSQL's statements: the time now, a list bound as one array, the greater of two values, and
statements peewee writes once for values bound afresh each time."""

from peewee import SQL, NodeList, fn

from dialects.written_once import StandIn, written_once

# The current UTC time in the stored form (`2027-06-12T14:03:27.123456Z`), as of the statement's start (SQLite's
# 'now' is the statement's too; now() would be the transaction's).
NOW = SQL("""to_char(statement_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')""")

# Today in the office's zone (its settings' `time_zone`), as of the statement, in the stored form of a date.
OFFICE_TODAY = SQL(
    'to_char(statement_timestamp() AT TIME ZONE COALESCE((SELECT "value"::json->>\'time_zone\' FROM "settings" '
    "WHERE \"key\" = 'office'), 'UTC'), 'YYYY-MM-DD')"
)


def greater_of(first, second):
    """The greater of two values of a row."""
    return fn.GREATEST(first, second)


def one_of(expr, values):
    """`expr IN values`, the values bound as one array: the statement is one short text whatever their number.
    `values` may be a stand-in."""
    value = values if isinstance(values, StandIn) else list(values)
    return NodeList([expr, SQL("= ANY(%s)", [value])])


def bindable(value):
    """A value as a prepared statement binds it: a list or set as one array (as `one_of` binds its values)."""
    return list(value) if isinstance(value, (list, set, tuple, frozenset)) else value


def subquery(sql, params):
    """A statement (sql, params) as an expression of another: `expr.in_(subquery(...))`."""
    return SQL(f"({sql})", params)


def prepared(build, write=lambda query: query.sql()):
    """A statement whose SQL peewee writes once (see `written_once`), a list or set bound as one array (see
    `one_of`)."""
    return written_once(build, write, bindable)


def prepared_rows(build, order=()):
    """The rows of the query `build(*values)` makes, packed (see `packed_rows`), as a function of the values: its
    SQL written once (see `prepared`), for statements of one shape whatever the values."""
    statement = prepared(build, lambda query: _pages().packed_statement(query, order))
    return lambda *values: _pages().unpacked(*statement(*values))


def _pages():
    """The pages module (which imports this one), once it is needed."""
    from dialects.postgresql import pages

    return pages
