"""The `Office` every part of the demo writes through (its seeded random source, its clock, the rows so far), the
span of days the demo covers, and the name and time helpers the parts share."""

import datetime as dt
import unicodedata
import uuid
from collections import defaultdict

from demo.data import PHONE_PREFIX
from models import timestamp

DAYS_BACK, DAYS_AHEAD = 120, 365


class Office:
    """One demo band office being written: its random source, its clock, and what it holds so far."""

    def __init__(self, rng, today):
        self.rng, self.today = rng, today
        self.now = dt.datetime.now(dt.UTC)
        self.founded = self.now - dt.timedelta(days=DAYS_BACK + 400)
        self.named = {}  # (model, name) -> row
        self.holders = defaultdict(list)  # role id -> [(active staff member, is_primary)]
        self.blocked = defaultdict(list)  # staff member id -> [(start date, end date)]
        self.booked = defaultdict(list)  # staff member id -> the gigs they play
        self.gear = defaultdict(list)  # equipment type id -> its items
        self.gear_out = defaultdict(set)  # equipment id -> the dates it is out on a gig
        self.songs = defaultdict(list)  # use -> songs
        self.staffed = []  # (gig role, gig, when the gig was booked)
        self.changed = {}  # gig id -> when it last changed (a cancelled gig: when it was called off)
        self.filled = {}  # gig role id -> when it was filled
        self.venues, self.planners, self.crew_user = [], [], None

    def add(self, model, when=None, **fields):
        """A new row with an id from the seeded generator, created (and last changed) `when`."""
        stamp = timestamp(when or self.founded)
        row_id = str(uuid.UUID(int=self.rng.getrandbits(128), version=4))
        return model.create(**{"id": row_id, "created_at": stamp, "updated_at": stamp, **fields})

    def add_named(self, model, name, **fields):
        self.named[model, name] = self.add(model, name=name, **fields)
        return self.named[model, name]

    def get(self, model, name):
        return self.named[model, name]

    def between(self, start, end):
        """A moment between two datetimes, to the second."""
        # One draw whatever the span, so that the clock's seconds never change the choices made after it.
        return start + dt.timedelta(seconds=int(max((end - start).total_seconds(), 0) * self.rng.random()))

    def pick(self, weighted):
        """One key of {choice: weight}."""
        return self.rng.choices(list(weighted), weights=list(weighted.values()))[0]

    def phone(self, country="AT"):
        return f"{PHONE_PREFIX[country]} {self.rng.randint(100, 999)} {self.rng.randint(1000, 9999)}"

    def days_until(self, gig):
        return (dt.date.fromisoformat(gig.gig_date) - self.today).days

    def noon(self, day):
        return dt.datetime.combine(day, dt.time(12), dt.UTC)


def ascii_name(*parts):
    """`Horváth`, `Brandstätter` -> `horvath`, `brandstatter`: for e-mail addresses and web sites."""
    text = unicodedata.normalize("NFKD", ".".join(parts)).encode("ascii", "ignore").decode()
    return "".join(c for c in text.lower() if c.isalnum() or c in ".-")


def clock(minutes):
    """Minutes after midnight as `HH:MM` (past midnight wraps to the next day's wall clock)."""
    return f"{minutes // 60 % 24:02d}:{minutes % 60:02d}"
