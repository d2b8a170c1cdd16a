"""The cost of one statement (SPEC §2.3): a statement of a request's reads that runs longer than its budget is
cancelled by PostgreSQL's statement_timeout. Its clock is the wall's, not the CPU's (PostgreSQL measures no
statement's CPU): reads never wait for a lock, so a statement that runs out of time is one that costs."""

import threading
import weakref

from psycopg import pq

from dialects.exemption import exempt

_budget = threading.local()


def limit_statements(milliseconds):
    """From now on each statement this thread runs (outside a write transaction) is cancelled once it has run for
    `milliseconds`; None: never."""
    _budget.milliseconds = milliseconds


def over_budget(error):
    """Whether `error` is a statement of this thread cancelled for its cost."""
    from dialects.postgresql.database import sqlstate

    return sqlstate(error) == QUERY_CANCELED and "statement timeout" in str(error)


QUERY_CANCELED = "57014"


def _wanted():
    """The statement_timeout this thread's next statement should run under, in milliseconds (0: none)."""
    if exempt():
        return 0
    return getattr(_budget, "milliseconds", None) or 0


class Budgeted:
    """A database mixin: each statement runs under this thread's budget. The setting is sent only when it changes
    (a round trip saved on most statements): for the session outside a transaction, else for the transaction."""

    def execute_sql(self, sql, params=None, *args, **kwargs):
        wanted, connection = _wanted(), self.connection()
        if connection.info.transaction_status == pq.TransactionStatus.IDLE:
            if _SESSION.get(connection) != wanted:
                connection.execute(f"SET statement_timeout = {int(wanted)}")
                _SESSION[connection] = wanted
        else:
            transaction = self._state.transactions[0] if self._state.transactions else None
            local = _LOCAL.get(connection)
            in_force = local[1] if local and transaction and local[0] is transaction else _SESSION.get(connection)
            if in_force != wanted:
                connection.execute(f"SET LOCAL statement_timeout = {int(wanted)}")  # until the transaction ends
                _LOCAL[connection] = (transaction, wanted)
        return super().execute_sql(sql, params, *args, **kwargs)


# A connection's statement_timeout for its session, and (transaction, value) of a SET LOCAL in its transaction.
_SESSION, _LOCAL = weakref.WeakKeyDictionary(), weakref.WeakKeyDictionary()
