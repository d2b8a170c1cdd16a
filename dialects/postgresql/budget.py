"""The cost of a request's reads (SPEC §2.3): the statement during which they have run longer than their budget,
all statements together, is cancelled by PostgreSQL's statement_timeout, set to what is left of the budget. Its
clock is the wall's, not the CPU's (PostgreSQL measures no statement's CPU): reads never wait for a lock, so a
statement that runs out of time is one that costs."""

import math
import threading
import time
import weakref

from psycopg import errors, pq

from dialects.exemption import exempt

_budget = threading.local()


def limit_statements(milliseconds):
    """From now on the statements this thread runs (outside a write transaction) are cancelled once they have run
    for `milliseconds` together; None: never."""
    _budget.milliseconds = milliseconds
    _budget.spent = 0.0


def over_budget(error):
    """Whether `error` is a statement of this thread cancelled for its cost."""
    from dialects.postgresql.database import sqlstate

    return sqlstate(error) == QUERY_CANCELED and "statement timeout" in str(error)


QUERY_CANCELED = "57014"


# What is left of a budget is sent rounded up to this (ms): a request of cheap statements sends no new setting, and
# one stopped by its budget has run at most this much longer than it.
LEFT_STEP_MS = 5


def _wanted():
    """The statement_timeout this thread's next statement should run under, in milliseconds (0: none)."""
    milliseconds = getattr(_budget, "milliseconds", None)
    if exempt() or not milliseconds:
        return 0
    left = milliseconds - _budget.spent * 1000
    return max(1, min(milliseconds, math.ceil(left / LEFT_STEP_MS) * LEFT_STEP_MS))


class Budgeted:
    """A database mixin: each statement runs under this thread's budget. The setting is sent only when it changes
    (a round trip saved on most statements): for the session outside a transaction, else for the transaction."""

    def begin(self, *args, **kwargs):
        # BEGIN runs under the session's setting: this thread's, not what the connection's last request left there
        connection = self.connection()
        if connection.info.transaction_status == pq.TransactionStatus.IDLE:
            _set_for_session(connection, _wanted())
        return super().begin(*args, **kwargs)

    def execute_sql(self, sql, params=None, *args, **kwargs):
        wanted, connection = _wanted(), self.connection()
        if connection.info.transaction_status == pq.TransactionStatus.IDLE:
            _set_for_session(connection, wanted)
        else:
            transaction = self._state.transactions[0] if self._state.transactions else None
            local = _LOCAL.get(connection)
            in_force = local[1] if local and transaction and local[0] is transaction else _SESSION.get(connection)
            if in_force != wanted:
                connection.execute(f"SET LOCAL statement_timeout = {int(wanted)}")  # until the transaction ends
                _LOCAL[connection] = (transaction, wanted)
        if not wanted:
            return super().execute_sql(sql, params, *args, **kwargs)
        started = time.perf_counter()
        try:
            return super().execute_sql(sql, params, *args, **kwargs)
        finally:
            _budget.spent += time.perf_counter() - started


# How often a setting cancelled by the one in force is sent again (see `_set_for_session`).
SETTING_ATTEMPTS = 4


def _set_for_session(connection, wanted):
    """The connection's statement_timeout made `wanted` (ms), unless it is already. The SET itself runs under the
    setting in force, which may be the few milliseconds an earlier request had left of its budget (a pooled
    connection keeps its session's settings): on a busy machine a SET can take that long, and is cancelled. It then
    changed nothing, and is sent again; a read budget never pays for it."""
    if _SESSION.get(connection) == wanted:
        return
    for attempt in range(1, SETTING_ATTEMPTS + 1):
        try:
            connection.execute(f"SET statement_timeout = {int(wanted)}")
            break
        except errors.QueryCanceled:
            if attempt == SETTING_ATTEMPTS:
                raise
    _SESSION[connection] = wanted


# A connection's statement_timeout for its session, and (transaction, value) of a SET LOCAL in its transaction.
_SESSION, _LOCAL = weakref.WeakKeyDictionary(), weakref.WeakKeyDictionary()
