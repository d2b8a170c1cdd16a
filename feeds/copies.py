"""The calendar feeds as served (SPEC §2.3, §5.6): a copy of each feed polled, made and kept up to date on a thread
of its own, so that a poll costs a lookup whatever changed before it. Calendar apps poll every feed again and
again; the office's holds every gig of the season and takes seconds to write from scratch.

The thread looks for a change every LOOK_SECONDS, by the database's change counter (`dialect.ChangeWatch`, which
follows every process's commits, so several servers on one database each keep their copies right), then by what
the feeds' tables hold (`calendars.fingerprint`, so a sign-in or a new team costs nothing); a change makes every
copy again, each from its previous one (`calendars.assembled`). Meanwhile polls get the previous copy."""

import datetime as dt
import logging
import threading
import time
import weakref

from dialects import dialect
from feeds import calendars
from models import db

log = logging.getLogger("band.feeds")
LOOK_SECONDS = 1.0  # a change is in the feeds this long after its commit, and the time a build takes
FIRST_COPY_SECONDS = 10.0  # how long a feed's first poll waits for its first copy before it is told to come back
UNPOLLED_SECONDS = 7 * 24 * 3600  # a copy no one polled for this long is let go (and made again when asked)


class Copy:
    """One feed's newest text, what the feeds' tables held when it was made, and its events' memo."""

    def __init__(self, subject, settings):
        self.subject, self.settings = subject, settings
        self.body, self.made_of, self.memo = None, None, {}
        self.ready = threading.Event()
        self.polled = time.monotonic()

    def make(self, made_of):
        self.body, self.memo = calendars.feed(self.subject, *self.settings, self.memo)
        self.made_of = made_of
        self.ready.set()


_EVERY = weakref.WeakSet()  # the FeedCopies of every app of this process (see `stop_every_thread`)


def stop_every_thread():
    """Every app's feeds thread ended (each once its build is made): before a process lets its database go, as a
    test does after each test (closing its connections, even one a thread is running a statement on)."""
    for copies in list(_EVERY):
        copies.stop()


class FeedCopies:
    """The copies of the feeds polled on one database, and the thread that makes them (started by the first poll;
    it ends when stopped or when the database is another: an app configured afresh)."""

    def __init__(self):
        self.lock = threading.Lock()
        self.copies = {}  # (subject, settings) -> Copy
        self.database = db.obj
        self.watch = dialect.ChangeWatch()
        self.looked = None  # (the database's version, the day) at the last look
        self.made_of = None  # what the feeds' tables held then, and the day
        self.wake, self.stopping = threading.Event(), threading.Event()
        self.thread = None
        _EVERY.add(self)

    def body(self, subject, settings):
        """The feed's newest copy (bytes); its first is waited for FIRST_COPY_SECONDS at most (None: not made yet).
        `subject` is ("office",) or ("staff", member id); `settings` (default time zone, days back)."""
        copy = self.polled(subject, settings)
        copy.ready.wait(FIRST_COPY_SECONDS)
        return copy.body

    def polled(self, subject, settings):
        """The feed's copy, asked for now: a new one is made on the thread, at once."""
        with self.lock:
            copy = self.copies.get((subject, settings))
            if copy is None:
                copy = self.copies[(subject, settings)] = Copy(subject, settings)
                if self.thread is None:
                    self.thread = threading.Thread(target=self.run, name="feeds", daemon=True)
                    self.thread.start()
                self.wake.set()
            copy.polled = time.monotonic()
        return copy

    def run(self):
        failures = 0
        while db.obj is self.database and not self.stopping.is_set():
            try:
                self.look()
                failures = 0
            except Exception:
                failures += 1
                if failures == 2:  # once a streak, and not for a connection lost once (it is opened again)
                    log.exception("the calendar feeds' look failed; it tries again every %s s", LOOK_SECONDS)
            self.wake.wait(LOOK_SECONDS)
            self.wake.clear()

    def stop(self, timeout=60):
        """End the thread, once its current build is made: its database may be let go after (a test's is dropped,
        its connections closed), which must not happen under a statement still running on it."""
        self.stopping.set()
        self.wake.set()
        if self.thread is not None:
            self.thread.join(timeout)

    def look(self):
        """Each copy made again if what the feeds show changed since it was made (a new copy: made)."""
        copies = self.kept()
        if not copies:
            return
        looked = (self.watch.version(), dt.date.today())
        stale = [copy for copy in copies if looked != self.looked or copy.made_of != self.made_of]
        if not stale:
            return
        dialect.connect_in_background()
        try:
            with dialect.without_budget():  # the server's own work, not a request's
                if looked != self.looked:
                    self.made_of, self.looked = (calendars.fingerprint(), looked[1]), looked
                for copy in stale:
                    if copy.made_of != self.made_of and db.obj is self.database and not self.stopping.is_set():
                        copy.make(self.made_of)
        finally:
            db.close()

    def kept(self):
        """The copies polled lately; the others let go."""
        now = time.monotonic()
        with self.lock:
            for key, copy in list(self.copies.items()):
                if now - copy.polled > UNPOLLED_SECONDS:
                    del self.copies[key]
            return list(self.copies.values())
