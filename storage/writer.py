"""The writer: every write of this process takes the turn its dialect gives (`dialect.write_queue`: on SQLite a
first-come, first-served queue before its one write lock; on PostgreSQL none, writers running side by side), then
its transaction. A write that cannot get its turn within the busy timeout is told to come back: 503 `unavailable`
with Retry-After (SPEC §2.2).

Two kinds of transaction (the same on SQLite, where a writer runs alone): a request's, and any that is run again
when it loses to a concurrent one (`retried`), is SERIALIZABLE on PostgreSQL (`dialect.write_transaction`); the
with-block of `transaction`, which cannot be run again, is a locking one (`dialect.locking_transaction`) for work
built on row locks: claims (`dialect.claiming`) and single statements."""

import contextlib
import functools
import random
import threading
import time

from dialects import dialect
from domain.errors import unavailable

# The queue's, SQLite's own for a writer of another process (app.py), and how long a write that loses to concurrent
# ones (PostgreSQL) is run again before it is answered 503
BUSY_TIMEOUT_SECONDS = 5
LOSSES_BEFORE_ALONE = 3  # a write that lost to concurrent ones this often runs alone (dialect.write_transaction)
_under_way = threading.local()  # this thread's transaction, if one is open


class Transaction:
    """One write transaction: its turn, then `begin()` (the dialect's write transaction unless said otherwise);
    `end` commits or rolls back, and runs the after-commit actions when it commits."""

    def __init__(self, timeout=BUSY_TIMEOUT_SECONDS, begin=None):
        queue = dialect.write_queue
        if not queue.acquire(timeout):
            raise unavailable()
        self.transaction = (begin or dialect.write_transaction)()
        self.after_commit, self.notes = [], {}
        try:
            self.transaction.__enter__()
        except BaseException:
            queue.release()
            raise
        _under_way.transaction = self

    def end(self, commit):
        _under_way.transaction = None
        try:
            if commit:
                self.transaction.__exit__(None, None, None)
            else:
                self.transaction.__exit__(RolledBack, RolledBack(), None)
        finally:
            dialect.write_queue.release()
        for action in self.after_commit if commit else ():
            action()


def after_commit(action):
    """Run `action()` once the transaction under way commits (not at all if it rolls back): a mail naming what
    was written, a wake-up for the worker."""
    transaction = getattr(_under_way, "transaction", None)
    if transaction is None:
        raise RuntimeError("after_commit outside a write transaction")
    transaction.after_commit.append(action)


def note(name, value):
    """Keep `value` as `name` for the rest of the transaction under way (nothing outside one): what the request
    knows that the work its write sets off asks, `noted(name)`."""
    transaction = getattr(_under_way, "transaction", None)
    if transaction is not None:
        transaction.notes[name] = value


def noted(name):
    """What `note` kept as `name` in the transaction under way, or None."""
    transaction = getattr(_under_way, "transaction", None)
    return transaction.notes.get(name) if transaction is not None else None


class RolledBack(Exception):
    """The write failed: its transaction is undone."""


def transaction(timeout=BUSY_TIMEOUT_SECONDS):
    """A write outside a request's own (a command, a claim, the bookkeeping of a read) as a locking transaction:
    what it must not lose it locks as it reads (`dialect.claiming`) or writes in one statement; it is never asked
    to run again."""
    return _block(timeout, dialect.locking_transaction)


def retried(function, *args):
    """`function(*args)` in a write transaction that sees the database as if alone, run again from its start when
    it loses to a concurrent one (PostgreSQL); its answer. For read-then-write work outside a request."""
    for attempt in attempts():
        try:
            with _block(BUSY_TIMEOUT_SECONDS, attempt_transaction(attempt)):
                return function(*args)
        except Exception as error:
            if not dialect.lost_to_another(error):
                raise
            lost = error
    raise lost


@contextlib.contextmanager
def _block(timeout, begin):
    write = Transaction(timeout, begin)
    try:
        yield
    except BaseException:
        write.end(commit=False)
        raise
    write.end(commit=True)


def attempt_transaction(attempt):
    """How attempt number `attempt` of a write begins its transaction: as one that sees the database as if alone,
    and after LOSSES_BEFORE_ALONE lost ones as one that runs alone (it cannot lose again)."""
    return functools.partial(dialect.write_transaction, alone=attempt > LOSSES_BEFORE_ALONE)


def attempts(seconds=BUSY_TIMEOUT_SECONDS):
    """The attempts (1, 2, ...) of a write that may lose to a concurrent one, for `seconds` at most (the busy
    timeout: on SQLite a writer waits as long for its turn), each after a short pause, longer after each (from 5 ms
    to 50) and different for each writer, so that two that clashed do not clash again at once. The caller leaves
    the loop once an attempt wins; the last attempt starts before `seconds` have passed."""
    deadline, attempt = time.monotonic() + seconds, 1
    while True:
        yield attempt
        if time.monotonic() >= deadline:
            return
        time.sleep(random.uniform(0.5, 1.5) * min(0.005 * 2 ** (attempt - 1), 0.05))
        attempt += 1
