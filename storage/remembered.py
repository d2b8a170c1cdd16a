"""Answers remembered until the database changes: a musician's phone asks for the same page of their gigs again
and again (on every opening of the app, every pull to refresh), and working it out afresh costs tens of
milliseconds on a Raspberry Pi, while telling whether anything changed costs one statement."""

import hashlib
import threading
from collections import OrderedDict

from dialects import dialect
from models import now

# What an answer costs in memory besides its text: its key's digest, its entry and the dictionary's slot for it.
ENTRY_BYTES = 400


class Remembered:
    """Answers (JSON text) by key, each good until the next commit to the database by anyone, and until the moment
    it names (an invitation it shows as pending expires then); the newest of them are kept, `max_bytes` in all.
    A key is kept as its digest, so that a long query string costs no more than a short one."""

    def __init__(self, max_bytes):
        self.max_bytes = max_bytes
        self.watch = dialect.ChangeWatch()
        self.lock = threading.Lock()
        self.answers = OrderedDict()  # key -> (database version, good until or None, text, size), oldest first
        self.size = 0
        self.working = {}  # key -> the lock of the thread working its answer out

    def get(self, key, work_out):
        """The answer for `key`: remembered, or `work_out()` -> (text, good until or None), then remembered (what
        it raises is raised, nothing remembered). Of requests for one key at once, one works it out and the others
        wait for it (a burst costs one answer)."""
        if not self.max_bytes:
            return work_out()[0]
        key = hashlib.sha256(repr(key).encode()).digest()
        version = self.watch.version()  # before the work: a commit meanwhile makes the answer stale at once
        found = self.fresh(key, version)
        if found is not None:
            return found
        with self.lock:
            turn = self.working.setdefault(key, threading.Lock())
        try:
            with turn:
                found = self.fresh(key, version)
                if found is None:
                    found, until = work_out()
                    self.keep(key, (version, until, found))
        finally:
            with self.lock:
                if self.working.get(key) is turn:
                    del self.working[key]
        return found

    def fresh(self, key, version):
        """The answer remembered for `key`, if the database is still at `version` and its moment has not come."""
        with self.lock:
            found = self.answers.get(key)
        if found is not None and found[0] == version and (found[1] is None or now() < found[1]):
            return found[2]
        return None

    def keep(self, key, entry):
        size = ENTRY_BYTES + len(entry[2].encode())
        with self.lock:
            if key in self.answers:
                self.size -= self.answers.pop(key)[3]
            self.answers[key] = (*entry, size)
            self.size += size
            while self.size > self.max_bytes and self.answers:
                self.size -= self.answers.popitem(last=False)[1][3]
