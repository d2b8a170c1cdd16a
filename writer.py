"""The one writer: every write of this process takes its turn in a first-come, first-served queue before SQLite's
write lock, so that concurrent writers wait in order instead of SQLite's busy handler back-off (which sleeps up to
100 ms at a time and made the slowest writes wait for seconds). A write that cannot get its turn within the busy
timeout is told to come back: 503 `unavailable` with Retry-After (SPEC §2.2)."""

import collections
import contextlib
import threading

from dialects import dialect
from errors import unavailable

BUSY_TIMEOUT_SECONDS = 5  # the queue's, and SQLite's own for a writer of another process (app.py)


class FairLock:
    """A lock handed to its waiters in the order they came."""

    def __init__(self):
        self.mutex = threading.Lock()
        self.waiters = collections.deque()
        self.held = False

    def acquire(self, timeout):
        with self.mutex:
            if not self.held and not self.waiters:
                self.held = True
                return True
            turn = threading.Lock()
            turn.acquire()
            self.waiters.append(turn)
        if turn.acquire(timeout=timeout):
            return True
        with self.mutex:
            if turn in self.waiters:
                self.waiters.remove(turn)
                return False
        return True  # handed over just as the wait ran out: the turn is ours

    def release(self):
        with self.mutex:
            if self.waiters:
                self.waiters.popleft().release()  # the lock passes on without ever being free
            else:
                self.held = False


QUEUE = FairLock()
_under_way = threading.local()  # this thread's transaction, if one is open


class Transaction:
    """One write transaction: its turn in the queue, then BEGIN IMMEDIATE; `end` commits or rolls back."""

    def __init__(self, timeout=BUSY_TIMEOUT_SECONDS):
        if not QUEUE.acquire(timeout):
            raise unavailable()
        self.transaction = dialect.write_transaction()
        self.after_commit = []
        try:
            self.transaction.__enter__()
        except BaseException:
            QUEUE.release()
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
            QUEUE.release()
        for action in self.after_commit if commit else ():
            action()


def after_commit(action):
    """Run `action()` once the transaction under way commits (not at all if it rolls back): a mail naming what
    was written, a wake-up for the worker."""
    transaction = getattr(_under_way, "transaction", None)
    if transaction is None:
        raise RuntimeError("after_commit outside a write transaction")
    transaction.after_commit.append(action)


class RolledBack(Exception):
    """The write failed: its transaction is undone."""


@contextlib.contextmanager
def transaction(timeout=BUSY_TIMEOUT_SECONDS):
    """A write outside a request's own (a command, the bookkeeping of a read): the same queue and lock."""
    write = Transaction(timeout)
    try:
        yield
    except BaseException:
        write.end(commit=False)
        raise
    write.end(commit=True)
