"""Every piece of SQL that only SQLite speaks, in one place (SPEC §7): a second database would be one more
module offering the same names.

What a dialect provides (a PostgreSQL module would offer the same names):
- `db`, `open_database`, `write_transaction`, `without_waiting`: the peewee database, opened with its settings;
  a transaction that holds the write lock from its start; writes that give up at once rather than wait.
- `schema_version`, `set_schema_version`, `statements(script)`: what migrations need.
- `is_busy(error)`, `unique_violation(error)`: what its errors mean.
- `unique_with_null(model, name, column, nullable)`: a unique rule in which a null counts as a value.
- `json_field(expr, key)`, `json_has(expr, key)`: a key of a JSON column (custom fields).
- `one_of(expr, values)`: `expr IN values` with the values bound as one parameter.
- `prepared(build)`, `prepared_rows(build)`, `subquery(sql, params)`: a statement peewee writes once and binds
  afresh each time.
- `rows_written(sql, params)`: one write statement, and how many rows it and its triggers wrote.
- `NOW`: the current UTC time as SQL, in the stored form (comparable with stored timestamps).
- `greater_of(a, b)`: the greater of two values in one row (a scalar, not the aggregate MAX).
- `as_json`, `record_query`, `json_page`, `packed_rows`, `page_total`, `counted`, `all_of`: records, pages and
  rows written as JSON by the database, one statement each (a page's rows in its order), and totals remembered
  until the database changes.
- `limit_statements(milliseconds)`, `over_budget(error)`, `without_budget()`: a statement of this thread that
  spends more CPU than that is interrupted (reads of a request; a write transaction never is, nor a block of the
  server's own work); whether an error is that interruption.
- `copy_database(path)`, `inspect_file(path)`: an online, consistent copy; what a copy holds (integrity,
  references, schema version), read without changing it (`Unreadable` when it cannot be).
- `keep_private(path)`: the database's files readable by the service's user alone (SPEC §2.3).
- `store_attachment`, `AttachmentDownload`: an attachment's bytes written and read in chunks.
- `caller_row`, `grants_of`, `count_role_holders`, `count_all_capability_holders`: who is calling and who
  holds which access role (roles are a JSON array on the user).
- `ChangeWatch().version()`: a value that changes with every commit, by any connection or process.
- `search_index(table, columns)`, `search_columns(table)`, `matching_words(model, words)`: `q` search, an FTS5
  index of a table's text fields kept by triggers.
- `refresh_statistics(tables, force)`: what the query planner knows of the tables' sizes, brought up to date.
- `embedded(model, name, columns, reference)`: the referenced record as JSON inside the referencing row's.
- `fold(expr)`, `contains(expr, value)`, `starts_with(expr, value)`: case-insensitive text matching with
  Unicode case folding (`MÜNCHEN` finds `München`), `value` already folded with `fold_text`.
"""

import contextlib
import hashlib
import json
import re
import sqlite3
import threading
import time
from dataclasses import replace
from pathlib import Path

from peewee import JOIN, SQL, Case, Column, EnclosedNodeList, NodeList, OperationalError, SqliteDatabase, fn

from private_files import private_file


class BudgetedDatabase(SqliteDatabase):
    """The peewee database, whose statements may be given a budget of CPU time (see `limit_statements`)."""

    def _connect(self):
        connection = super()._connect()
        connection.set_progress_handler(_over_budget, BUDGET_CHECK_STEPS)
        return connection

    def execute_sql(self, sql, params=None):
        statement_starts()
        return super().execute_sql(sql, params)


db = BudgetedDatabase(None)  # opened by `open_database`

# WAL lets readers run beside the writer; FULL makes every answered write survive a power cut; a few MB of page
# cache per connection (one per server thread, kept open) is what a Raspberry Pi can spare.
PRAGMAS = {"journal_mode": "wal", "foreign_keys": 1, "synchronous": "full", "cache_size": -2048, "temp_store": "memory"}


def open_database(path, busy_timeout_seconds):
    """Point `db` at the file `path` (connections open on first use, one per thread)."""
    db.init(path, pragmas=PRAGMAS, timeout=busy_timeout_seconds)


def write_transaction():
    """A transaction that takes the write lock at its start, so that it never fails half way for want of it; no
    statement of it is ever interrupted for its cost (see `limit_statements`)."""
    return _Unbudgeted(db.atomic("IMMEDIATE"))


def without_budget():
    """A block whose statements are never interrupted for their cost: the server's own work, done once for many
    requests (see `limit_statements`)."""
    return _Unbudgeted(contextlib.nullcontext())


class _Unbudgeted:
    """A context (a transaction, say) during which this thread's statements have no budget."""

    def __init__(self, context):
        self.context = context

    def __enter__(self):
        _budget.exempt = getattr(_budget, "exempt", 0) + 1
        try:
            return self.context.__enter__()
        except BaseException:
            _budget.exempt -= 1
            raise

    def __exit__(self, *exception):
        try:
            return self.context.__exit__(*exception)
        finally:
            _budget.exempt -= 1


# --- the cost of one statement (SPEC §2.3) ------------------------------------------------------------------

# How many steps of SQLite's virtual machine a statement takes between looks at the clock: some 50 µs of work on
# a Raspberry Pi, against the microsecond a look costs.
BUDGET_CHECK_STEPS = 10_000
_budget = threading.local()


def limit_statements(milliseconds):
    """From now on each statement this thread runs (outside a write transaction) is interrupted once it has spent
    `milliseconds` of CPU time; None: never. CPU time, not the clock's: a statement waiting for a busy machine
    spends none, so a crowd of cheap requests is never refused."""
    _budget.seconds = None if milliseconds is None else milliseconds / 1000
    _budget.tripped = False
    statement_starts()


def statement_starts():
    """A statement of this thread begins: its budget counts from now."""
    _budget.started = time.thread_time()


def _over_budget():
    """SQLite's progress handler: true (interrupt the statement) once it has spent its budget."""
    seconds = getattr(_budget, "seconds", None)
    if seconds is None or getattr(_budget, "exempt", 0) or time.thread_time() - _budget.started <= seconds:
        return False
    _budget.tripped = True
    return True


def over_budget(error):
    """Whether `error` is a statement of this thread interrupted for its cost."""
    interrupted = isinstance(error, (sqlite3.OperationalError, OperationalError)) and str(error) == "interrupted"
    return interrupted and getattr(_budget, "tripped", False)


@contextlib.contextmanager
def without_waiting():
    """Writes in the block give up at once when another process holds the write lock (busy timeout 0)."""
    connection = db.connection()
    waited = connection.execute("PRAGMA busy_timeout").fetchone()[0]
    connection.execute("PRAGMA busy_timeout = 0")
    try:
        yield
    finally:
        connection.execute(f"PRAGMA busy_timeout = {int(waited)}")


def schema_version():
    return db.execute_sql("PRAGMA user_version").fetchone()[0]


def set_schema_version(version):
    db.execute_sql(f"PRAGMA user_version = {int(version)}")


def statements(script):
    """The complete SQL statements of `script`, one by one."""
    found, pending = [], ""
    for line in script.splitlines(keepends=True):
        pending += line
        if sqlite3.complete_statement(pending):
            found.append(pending.strip())
            pending = ""
    if pending.strip():
        raise ValueError(f"incomplete SQL statement: {pending.strip()[:80]}")
    return found


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


class ChangeWatch:
    """Tells whether the database changed since a moment, whoever changed it (this process or another):
    `PRAGMA data_version` of a connection that never writes moves with every commit made elsewhere."""

    def __init__(self):
        self.lock = threading.Lock()
        self.connection, self.path = None, None

    def version(self):
        """A value that differs after every commit to the database file."""
        with self.lock:
            if self.path != db.database:
                if self.connection is not None:
                    self.connection.close()
                self.connection = sqlite3.connect(db.database, check_same_thread=False)
                self.path = db.database
            return (self.path, id(self.connection), self.connection.execute("PRAGMA data_version").fetchone()[0])


def count_role_holders(role_name):
    """How many users hold the access role `role_name` (roles are a JSON array on the user)."""
    sql = "SELECT COUNT(*) FROM users WHERE EXISTS (SELECT 1 FROM json_each(users.roles) WHERE value = ?)"
    return db.execute_sql(sql, (role_name,)).fetchone()[0]


def count_all_capability_holders():
    """How many active users hold an access role that grants `*`."""
    sql = """SELECT COUNT(*) FROM users u WHERE u.active AND EXISTS (
               SELECT 1 FROM access_roles r, json_each(r.grants) grant_
                WHERE grant_.value = '*' AND r.name IN (SELECT value FROM json_each(u.roles)))"""
    return db.execute_sql(sql).fetchone()[0]


def is_busy(error):
    """Whether `error` is SQLite giving up on the write lock after its busy timeout."""
    return isinstance(error, (sqlite3.OperationalError, OperationalError)) and (
        "database is locked" in str(error) or "database is busy" in str(error)
    )


# --- lists and records as JSON, written by SQLite ---------------------------------------------------------


def page_query(model, page, scope=(), selection=None):
    """The SELECT of one page (of `selection`, by default the page's columns)."""
    query = _matching(model.select(*(selection or [c.expr for c in page.columns])), model, page, scope, page.joins)
    query = query.order_by(*[c.expr.desc() if d else c.expr.asc() for c, d in page.order])
    return query.limit(page.limit).offset(page.offset)


def _matching(query, model, page, scope, joins):
    """`query` of the records of `model` that match the page's filters within `scope`, joined to the referenced
    records of `joins` (an inner join where the reference is never null, so that the planner may start from either
    table)."""
    for reference in joins:
        kind = JOIN.INNER if reference.required else JOIN.LEFT_OUTER
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


class StandIn(str):
    """Where a value goes in a statement written once (see `prepared`): a string no value is."""


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


def bindable(value):
    """A value as a prepared statement binds it: a list or set as one JSON array (as `one_of` binds its values)."""
    return json.dumps(list(value)) if isinstance(value, (list, set, tuple, frozenset)) else value


def subquery(sql, params):
    """A statement (sql, params) as an expression of another: `expr.in_(subquery(...))`."""
    return SQL(f"({sql})", params)


def json_page(model, page, scope=()):
    """The page as JSON text, and the total that matches: a count is skipped when the page shows it."""
    keys = [column.expr.alias(f"k{i}") for i, (column, _) in enumerate(page.order)]
    key = model._meta.primary_key
    walked = _from_the_nearer_end(model, page, scope)
    chosen, chosen_params = page_query(model, walked, scope, [key.alias("pid"), *keys]).sql()
    # The page's rows are chosen (filtered, sorted, cut) first and written as JSON after: a sort never writes the
    # JSON (embedded records included) of the rows it leaves out. `as_json` reads the table as "t1".
    record = as_json(model, page.columns)
    passed = ", ".join(f"p.k{i}" for i in range(len(keys)))
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
    """The COUNT(*) of `query`, remembered on this thread's connection until the database changes.

    Counting 80 000 of 100 000 gigs keeps SQLite busy for 6 ms, while the same list asked again (a phone
    refreshing it) is the common case. `PRAGMA data_version` changes when another connection (or process)
    commits, `total_changes` when this one writes, so a remembered total is never stale.
    """
    connection = db.connection()
    if getattr(_counts, "connection", None) is not connection or len(_counts.totals) > MAX_REMEMBERED_COUNTS:
        _counts.connection, _counts.totals = connection, {}
    sql, params = query.sql()
    key = (sql, *params)
    version = (connection.execute("PRAGMA data_version").fetchone()[0], connection.total_changes)
    remembered = _counts.totals.get(key)
    if remembered is None or remembered[0] != version:
        statement_starts()
        remembered = _counts.totals[key] = (version, connection.execute(sql, params).fetchone()[0])
    return remembered[1]


_counts = threading.local()
MAX_REMEMBERED_COUNTS = 256


# --- `q`: words searched in an FTS5 index of a table's text fields ------------------------------------------

# Words split at anything but letters and digits, without case or accents: `müll` finds `Müller`.
SEARCH_TOKENIZER = "unicode61 remove_diacritics 2"


def search_table(table):
    return f"{table}_search"


def search_index(table, columns):
    """The statements that make the search index of `table`'s `columns` (an FTS5 table over the rows, by rowid,
    which a VACUUM keeps for tables with an index), the triggers that keep it, and fill it from the stored rows."""
    index, names = search_table(table), ", ".join(f'"{c}"' for c in columns)
    new, old = ", ".join(f'new."{c}"' for c in columns), ", ".join(f'old."{c}"' for c in columns)
    forget = f'INSERT INTO "{index}" ("{index}", rowid, {names}) VALUES (\'delete\', old.rowid, {old});'
    learn = f'INSERT INTO "{index}" (rowid, {names}) VALUES (new.rowid, {new});'
    return [
        f'CREATE VIRTUAL TABLE "{index}" USING fts5({names}, content="{table}", tokenize="{SEARCH_TOKENIZER}")',
        f'CREATE TRIGGER "{index}_insert" AFTER INSERT ON "{table}" BEGIN {learn} END',
        f'CREATE TRIGGER "{index}_delete" AFTER DELETE ON "{table}" BEGIN {forget} END',
        f'CREATE TRIGGER "{index}_update" AFTER UPDATE OF {names} ON "{table}" BEGIN {forget} {learn} END',
        f'INSERT INTO "{index}" ("{index}") VALUES (\'rebuild\')',
    ]


def search_columns(table):
    """The fields the search index of `table` holds (none: it has no index)."""
    return [row[1] for row in db.execute_sql(f'PRAGMA table_info("{search_table(table)}")')]


def matching_words(model, words):
    """The condition: every word begins a word of the record's searched fields (case and accents aside)."""
    index = search_table(model._meta.table_name)
    query = " ".join(_phrase(word) for word in words)
    subquery = SQL(f'(SELECT rowid FROM "{index}" WHERE "{index}" MATCH ?)', [query])
    return Column(model._meta.table, "rowid").in_(subquery)


# --- what the query planner knows of the tables -------------------------------------------------------------

# Without statistics SQLite guesses that `status = 'open'` picks a few rows, and starts the open roles of a month
# from the 140 000 open ones instead of the month's 800 gigs. ANALYZE tells it (2 s at 100 000 gigs, so it runs
# when a table's size has moved: the relative sizes it records stay true while a band grows).
MIN_ANALYZED_ROWS = 1000


def refresh_statistics(tables, force=False):
    """ANALYZE when forced, or when one of `tables` holds MIN_ANALYZED_ROWS rows or more and has doubled or halved
    since the statistics were taken (or has none); whether it ran."""
    if not force and not any(_statistics_stale(table) for table in tables):
        return False
    db.execute_sql("ANALYZE")
    return True


def _statistics_stale(table):
    rows = db.execute_sql(f'SELECT COUNT(*) FROM "{table}"').fetchone()[0]
    if rows < MIN_ANALYZED_ROWS:
        return False
    has_statistics = db.execute_sql("SELECT 1 FROM sqlite_master WHERE name = 'sqlite_stat1'").fetchone()
    known = (
        has_statistics
        and db.execute_sql("SELECT MAX(CAST(stat AS INTEGER)) FROM sqlite_stat1 WHERE tbl = ?", (table,)).fetchone()[0]
    )
    return not known or not known / 2 <= rows <= known * 2


def _phrase(word):
    """A word as an FTS5 phrase, so that no word is query syntax (a NUL would end the query text early): its runs of
    letters and digits in a row, the last one as a beginning unless it is a single letter (`m.` asks for the word
    `m`, not for every word that begins with an m)."""
    runs = re.findall(r"\w+", word)
    prefix = "*" if runs and len(runs[-1]) >= 2 else ""
    return '"' + word.replace('"', '""').replace("\0", " ") + '"' + prefix


def all_of(conditions):
    """The conditions ANDed side by side: peewee would nest them, and SQLite's parser refuses deep nesting."""
    if not conditions:
        return None
    return NodeList([EnclosedNodeList([c]) for c in conditions], " AND ")


# --- who is calling ------------------------------------------------------------------------------------------

# The grants of user `u`'s access roles (a JSON array of names on the user), as a JSON array of arrays.
GRANTS_SQL = """(SELECT json_group_array(json(r.grants)) FROM access_roles r
                  WHERE r.name IN (SELECT value FROM json_each(u.roles)))"""

# One statement per request: the token, its user, and the user's grants.
CALLER_SQL = f"""
SELECT u.id, u.email, u.name, u.roles, {GRANTS_SQL}, t.id, t.kind, t.expires_at, t.label, t.last_used_at
  FROM tokens t JOIN users u ON u.id = t.user_id
 WHERE t.token_hash = ? AND t.revoked_at IS NULL AND t.expires_at > ? AND u.active
"""


def caller_row(token_hash, moment):
    """(user id, email, name, roles JSON, grants JSON, token id, kind, expires_at, label, last_used_at) of a
    live token whose user is active, or None."""
    return db.execute_sql(CALLER_SQL, (token_hash, moment)).fetchone()


def grants_of(user_id):
    """The grants of an active user's access roles as a JSON array of arrays, or None."""
    row = db.execute_sql(f"SELECT {GRANTS_SQL} FROM users u WHERE u.id = ? AND u.active", (user_id,)).fetchone()
    return row[0] if row else None


# --- what the database's errors mean ---------------------------------------------------------------------

# Unique rules in which a null counts as a value: index name -> the fields it keeps unique.
UNIQUE_WITH_NULL = {}


def unique_with_null(model, name, column, nullable):
    """A unique index on (column, nullable) in which a null `nullable` counts as one value (SQL's UNIQUE lets
    nulls repeat)."""
    table = model._meta.table_name
    model.add_index(SQL(f'CREATE UNIQUE INDEX "{name}" ON "{table}" ("{column}", ifnull("{nullable}", \'\'))'))
    UNIQUE_WITH_NULL[name] = [column, nullable]


def unique_violation(error):
    """The fields of the unique rule an IntegrityError broke, or None when it was no unique rule."""
    match = re.match(r"UNIQUE constraint failed: (?:index '(\w+)'|(.+))", str(error))
    if match is None:
        return None
    if match[1]:
        return UNIQUE_WITH_NULL[match[1]]
    return [part.strip().split(".", 1)[-1] for part in match[2].split(",")]


# --- JSON columns and time ---------------------------------------------------------------------------------

# The current UTC time in the stored form: SQLite gives milliseconds, the three zeros pad them to microseconds.
NOW = SQL("strftime('%Y-%m-%dT%H:%M:%f000Z', 'now')")


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


def rows_written(sql, params):
    """Run one write statement: the rows it wrote, those of the triggers it set off included."""
    connection = db.connection()
    before = connection.total_changes
    db.execute_sql(sql, params)
    return connection.total_changes - before


# --- attachment bytes: incremental blob I/O ------------------------------------------------------------------
# Written and read in chunks, so that memory does not grow with the size of a file or with the number of
# downloads at once (SPEC §2.3).

CHUNK_BYTES = 64 * 1024
CONTENTS, ATTACHMENTS = "attachment_contents", "attachments"

# A download's own connection keeps a small page cache: sixteen of them must not add up to much.
DOWNLOAD_CACHE_KIB = 256


def store_attachment(connection, attachment_id, stream, size):
    """Write the next `size` bytes of `stream` as the content of `attachment_id`, a chunk at a time into a
    zeroblob of that size; answer their sha256 (hex). Runs in the caller's transaction on `connection`."""
    cursor = connection.execute(
        f'INSERT INTO "{CONTENTS}" ("attachment_id", "data") VALUES (?, zeroblob(?))', (attachment_id, size)
    )
    digest = hashlib.sha256()
    with connection.blobopen(CONTENTS, "data", cursor.lastrowid) as blob:
        while blob.tell() < size:
            chunk = stream.read(min(CHUNK_BYTES, size - blob.tell()))
            if not chunk:
                raise ValueError(f"the upload ended after {blob.tell()} of {size} bytes")
            blob.write(chunk)
            digest.update(chunk)
    return digest.hexdigest()


class AttachmentDownload:
    """An attachment's metadata and bytes as one read snapshot: a read-only connection of its own holds a
    read transaction from the lookup until `close()`, so a change or delete committed meanwhile cannot
    tear the bytes apart. Iterating gives the bytes in chunks (a WSGI body; the server calls `close()`
    once the body is sent or the client has gone)."""

    def __init__(self, connection, row):
        self.connection = connection
        self.filename, self.content_type, self.size, self.sha256, rowid = row
        self.blob = connection.blobopen(CONTENTS, "data", rowid, readonly=True)

    @classmethod
    def open(cls, database, attachment_id):
        """The download of `attachment_id` from the SQLite file `database`, or None when there is none."""
        connection = sqlite3.connect(read_only_uri(database), uri=True, isolation_level=None, check_same_thread=False)
        try:
            connection.execute(f"PRAGMA cache_size = -{DOWNLOAD_CACHE_KIB}")
            connection.execute("BEGIN")  # the snapshot starts with the first read below
            row = connection.execute(
                f'SELECT a."filename", a."content_type", a."size_bytes", a."sha256", c.rowid FROM "{ATTACHMENTS}" a '
                f'JOIN "{CONTENTS}" c ON c."attachment_id" = a."id" WHERE a."id" = ?',
                (attachment_id,),
            ).fetchone()
            if row is not None:
                return cls(connection, row)
        except BaseException:
            connection.close()
            raise
        connection.close()
        return None

    def __iter__(self):
        while chunk := self.blob.read(CHUNK_BYTES):
            yield chunk

    def close(self):
        self.blob.close()
        self.connection.close()  # ends the read transaction


def read_only_uri(database):
    return Path(database).resolve().as_uri() + "?mode=ro"


def keep_private(path):
    """Make the database file 0600 before SQLite opens it (created empty when new, narrowed when an earlier version
    left it readable): SQLite gives its -wal and -shm files the database's mode, and any already there are narrowed."""
    private_file(path)
    for suffix in ("-wal", "-shm", "-journal"):
        if Path(f"{path}{suffix}").exists():
            private_file(f"{path}{suffix}")


def copy_database(path):
    """An online, consistent copy of the open database at `path` (SQLite's backup API), while writes go on; 0600,
    as the database's own file."""
    private_file(path)
    target = sqlite3.connect(path)
    try:
        with target:
            db.connection().backup(target)
    finally:
        target.close()


# --- checking a database file without changing it (`app.py check`) ----------------------------------------


class Unreadable(Exception):
    """The file is no SQLite database, or too damaged to read; the message says which."""


def inspect_file(path):
    """(schema version, integrity problems, {(table, referenced table): rows pointing at nothing}) of the SQLite
    file `path`, read in one snapshot and never written. Raises Unreadable."""
    try:
        with contextlib.closing(_open_for_inspection(path)) as connection:
            connection.execute("BEGIN")  # one snapshot, should a server be writing the file meanwhile
            version = connection.execute("PRAGMA user_version").fetchone()[0]
            problems = [row[0] for row in connection.execute("PRAGMA integrity_check") if row[0] != "ok"]
            broken = {}
            for table, _, parent, _ in connection.execute("PRAGMA foreign_key_check"):
                broken[table, parent] = broken.get((table, parent), 0) + 1
    except sqlite3.DatabaseError as e:
        raise Unreadable("is not a SQLite database" if "not a database" in str(e) else f"is corrupt ({e})") from None
    return version, problems, broken


def _open_for_inspection(path):
    """A read-only connection to `path`. Without a -wal or -journal beside it no process is writing the file (a
    server keeps its WAL while it runs), so it is opened immutable: a read-only open of a WAL file would leave
    new -wal and -shm files beside a backup."""
    in_use = any(Path(f"{path}{suffix}").exists() for suffix in ("-wal", "-journal"))
    uri = read_only_uri(path) + ("" if in_use else "&immutable=1")
    return sqlite3.connect(uri, uri=True, isolation_level=None)
