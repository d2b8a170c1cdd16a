"""The cost of a request's reads (SPEC §2.3): the statement during which they have spent more CPU than their budget,
all statements together, is interrupted, through SQLite's progress handler (see `BudgetedDatabase`)."""

import sqlite3
import threading
import time

from peewee import OperationalError

from dialects.exemption import exempt

# How many steps of SQLite's virtual machine a statement takes between looks at the clock: some 50 µs of work on
# a Raspberry Pi, against the microsecond a look costs.
BUDGET_CHECK_STEPS = 10_000
_budget = threading.local()


def limit_statements(milliseconds):
    """From now on the statements this thread runs (outside a write transaction) are interrupted once they have
    spent `milliseconds` of CPU time together; None: never. CPU time, not the clock's: a statement waiting for a busy
    machine spends none, so a crowd of cheap requests is never refused."""
    _budget.seconds = None if milliseconds is None else milliseconds / 1000
    _budget.tripped = False
    _budget.spent = 0.0
    _budget.started = _budget.seen = None


def statement_starts():
    """A statement of this thread begins: the one before is charged what it spent (from its first look at the clock
    to its last, `spent_its_budget`), and this one counts from its own first look.

    Not from a look now: reading a thread's CPU time is a system call, and a thread making one while it holds the
    GIL is where the scheduler hands the CPU to another server thread that only waits for the GIL. Most statements
    end before their first BUDGET_CHECK_STEPS; a costly one is charged all but its first and last steps
    (microseconds)."""
    started = getattr(_budget, "started", None)
    if started is not None:
        _budget.spent += _budget.seen - started
    _budget.started = _budget.seen = None


def spent_its_budget():
    """SQLite's progress handler: true (interrupt the statement) once the request's reads have spent its budget."""
    seconds = getattr(_budget, "seconds", None)
    if seconds is None or exempt():
        return False
    clock = time.thread_time()
    if _budget.started is None:
        _budget.started = clock
    _budget.seen = clock
    if _budget.spent + clock - _budget.started <= seconds:
        return False
    _budget.tripped = True
    return True


def over_budget(error):
    """Whether `error` is a statement of this thread interrupted for its cost."""
    interrupted = isinstance(error, (sqlite3.OperationalError, OperationalError)) and str(error) == "interrupted"
    return interrupted and getattr(_budget, "tripped", False)
