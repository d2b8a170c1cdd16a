"""The cost of one statement (SPEC §2.3): a statement of a request's reads that spends more CPU than its budget is
interrupted, through SQLite's progress handler (see `BudgetedDatabase`)."""

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
    """From now on each statement this thread runs (outside a write transaction) is interrupted once it has spent
    `milliseconds` of CPU time; None: never. CPU time, not the clock's: a statement waiting for a busy machine
    spends none, so a crowd of cheap requests is never refused."""
    _budget.seconds = None if milliseconds is None else milliseconds / 1000
    _budget.tripped = False
    statement_starts()


def statement_starts():
    """A statement of this thread begins: its budget counts from its first look at the clock (`spent_its_budget`).

    Not from a look now: reading a thread's CPU time is a system call, and a thread making one while it holds the
    GIL is where the scheduler hands the CPU to another server thread that only waits for the GIL. Most statements
    end before their first BUDGET_CHECK_STEPS; a costly one is charged all but those first steps (microseconds)."""
    _budget.started = None


def spent_its_budget():
    """SQLite's progress handler: true (interrupt the statement) once it has spent its budget."""
    seconds = getattr(_budget, "seconds", None)
    if seconds is None or exempt():
        return False
    clock = time.thread_time()
    if getattr(_budget, "started", None) is None:
        _budget.started = clock
        return False
    if clock - _budget.started <= seconds:
        return False
    _budget.tripped = True
    return True


def over_budget(error):
    """Whether `error` is a statement of this thread interrupted for its cost."""
    interrupted = isinstance(error, (sqlite3.OperationalError, OperationalError)) and str(error) == "interrupted"
    return interrupted and getattr(_budget, "tripped", False)
