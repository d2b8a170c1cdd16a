"""The demo band office behind `python app.py demo PATH [--gigs N] [--season-of DATE]` (SPEC §6), the source of
`band.db.example`.

`write(path)` builds a new database holding a season of a wedding band's office: the catalogue, the people,
the venues, and some sixty gigs from four months back to a year ahead, each priced, staffed, equipped and
planned the way the API would have let the office do it (§4, §5). `write(path, gigs)` builds a booking agency's
office instead, with that many gigs and crews, venues and equipment enough for them (for benchmarks). The rows
are made through the models and written in one transaction, drawn from a fixed random seed, so that one day's
demo is always the same band; `write(path, season_of=day)` draws the band of that day's calendar and places it
around today, so that it is the same band whatever the day. This module switches the models to the new file and
writes the parts in order; the parts live in the modules beside it.
"""

import datetime as dt
import gc
import itertools
import random
from contextlib import contextmanager
from pathlib import Path

from demo.agency import MAX_GIGS, batches, more_planners, more_venues, size_for
from demo.catalog import write_catalog
from demo.data import PLANNERS, VENUES
from demo.gigs import season, write_gig
from demo.office import Office
from demo.people import write_contact, write_pay_rates, write_people, write_venue
from demo.production import write_equipment
from demo.quiet import write_quiet
from demo.sales import write_sales
from demo.staffing import settle
from dialects import dialect
from domain.errors import ConfigError
from models import BUSY_TABLES, db
from storage import migrations

SEED = 1962


def write(path, gigs=None, season_of=None):
    """Write the demo band office (with `gigs` gigs: a booking agency's) to a new SQLite file at `path` (on
    PostgreSQL: a new database, `path` its postgresql:// URL); the app's database stays as it was. With the date
    `season_of`, the band drawn on that day, placed as far from today as it was from that day."""
    if Path(path).exists():
        raise ConfigError(f"{path} exists already: choose a new file for the demo database.")
    if gigs is not None and not 1 <= gigs <= MAX_GIGS:
        raise ConfigError(f"a demo office has from 1 to {MAX_GIGS:,} gigs (a bigger one would take hours to build).")
    try:
        with dialect.database_at(path):
            dialect.write_fast()
            migrations.upgrade()
            today = dt.date.today()
            office = Office(random.Random(SEED), today, size_for(gigs, season_of or today), season_of or today)
            with db.atomic(), dialect.indexes_deferred(), dialect.triggers_deferred(), collector_paused():
                build(office)
            with db.atomic():
                dialect.refresh_statistics(BUSY_TABLES, force=True)
            dialect.compact(mostly_small_tables=office.size.gigs is None)
    except BaseException:
        for leftover in (Path(path), Path(f"{path}-wal"), Path(f"{path}-shm"), Path(f"{path}-journal")):
            leftover.unlink(missing_ok=True)
        raise


@contextmanager
def collector_paused():
    """Python's cycle collector off for the block: the build makes millions of rows that hold no cycles and go with
    their last reference, and the collector's passes over those still held took a sixth of its time."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()


def build(office):
    """Every part of the demo, in the order its rows depend on each other."""
    # The order also fixes the sequence of random draws: changing it changes the whole band.
    write_catalog(office)
    write_people(office)
    write_equipment(office)
    office.venues = [write_venue(office, *row) for row in itertools.chain(VENUES, more_venues(office))]
    planners = itertools.chain(PLANNERS, more_planners(office, len(PLANNERS) * (office.size.crews - 1)))
    office.planners = [write_contact(office, *row) for row in planners]
    office.flush()
    write_gigs(office)
    write_pay_rates(office)
    office.flush()
    write_quiet(office)
    office.flush()
    write_sales(office)
    office.flush()


def write_gigs(office):
    """The gigs a run of days at a time: their invitations once the days around them are staffed."""
    days = season(office)
    office.last_day = days[-1]
    for dates in batches(days):
        for day in dates:
            write_gig(office, day)
        settle(office, until=dates[-1])
        office.flush()
    settle(office)
