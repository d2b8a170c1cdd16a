"""The demo band office behind `python app.py demo PATH` (SPEC §6), the source of `band.db.example`.

`write(path)` builds a new database holding a season of a wedding band's office: the catalogue, the people,
the venues, and some sixty gigs from four months back to a year ahead, each priced, staffed, equipped and
planned the way the API would have let the office do it (§4, §5). The rows go in through the models in one
transaction, drawn from a fixed random seed, so that one day's demo is always the same band. This module
switches the models to the new file and writes the parts in order; the parts live in the modules beside it.
"""

import datetime as dt
import random
from contextlib import contextmanager
from pathlib import Path

import migrations
from demo.catalog import write_catalog
from demo.data import PLANNERS, VENUES
from demo.gigs import season, write_gig
from demo.office import Office
from demo.people import write_contact, write_pay_rates, write_people, write_venue
from demo.production import write_equipment
from demo.staffing import write_invitations
from errors import ConfigError
from models import db

SEED = 1962


def write(path):
    """Write the demo band office to a new SQLite file at `path`; the app's database stays as it was."""
    path = Path(path)
    if path.exists():
        raise ConfigError(f"{path} exists already: choose a new file for the demo database.")
    try:
        with database_at(path):
            migrations.upgrade()
            with db.atomic():
                build(Office(random.Random(SEED), dt.date.today()))
            compact()
    except BaseException:
        for leftover in (path, Path(f"{path}-wal"), Path(f"{path}-shm"), Path(f"{path}-journal")):
            leftover.unlink(missing_ok=True)
        raise


@contextmanager
def database_at(path):
    """Point `models.db` at `path` for the block, then back at the application's database."""
    # The pragmas stay with the database object across init; the busy timeout would reset to peewee's default.
    original, timeout, params = db.database, db._timeout, dict(db.connect_params)
    db.close()
    db.init(str(path), timeout=timeout, **params)
    try:
        yield
    finally:
        db.close()
        db.init(original, timeout=timeout, **params)


def compact():
    """Leave one compact, self-contained file to copy or commit."""
    # 1 KiB pages, as most tables hold a few rows and would leave 4 KiB pages nearly empty; no WAL, which the
    # app turns back on when it opens the file.
    db.execute_sql("PRAGMA journal_mode = delete")
    db.execute_sql("PRAGMA page_size = 1024")
    db.execute_sql("VACUUM")


def build(office):
    """Every part of the demo, in the order its rows depend on each other."""
    # The order also fixes the sequence of random draws: changing it changes the whole band.
    write_catalog(office)
    write_people(office)
    write_equipment(office)
    office.venues = [write_venue(office, *row) for row in VENUES]
    office.planners = [write_contact(office, *row) for row in PLANNERS]
    for day in season(office):
        write_gig(office, day)
    for gig_role, gig, booked in office.staffed:
        write_invitations(office, gig_role, gig, booked)
    write_pay_rates(office)
