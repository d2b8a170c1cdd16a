"""SQLite's one writer: every write of this process takes its turn in a first-come, first-served queue before
SQLite's write lock, so that concurrent writers wait in order instead of SQLite's busy handler back-off (which sleeps
up to 100 ms at a time and made the slowest writes wait for seconds)."""

import collections
import threading


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


write_queue = FairLock()
