"""Step 14: what every office needs on its first day (SPEC §12.1). The gig statuses Inquiry (new gigs' default), Hold,
Confirmed, Completed and Cancelled, for an office that has no status; the gig types Wedding, Corporate and Private
party, for one that has no type; and the office's own settings (`/office`), from the BAND_* settings of the database's
first start (else their defaults), for one that has none. Written for either database (PostgreSQL's step 14 runs
this file)."""

import json

from flask import current_app, has_app_context

from models import OFFICE_DEFAULTS, OFFICE_KEY, new_id, now

STATUSES = (  # name, kind, colour, is_default; positioned in this order
    ("Inquiry", "inquiry", "#F2C94C", True),
    ("Hold", "tentative", "#F2994A", False),
    ("Confirmed", "confirmed", "#27AE60", False),
    ("Completed", "completed", "#2D9CDB", False),
    ("Cancelled", "cancelled", "#9E9E9E", False),
)
TYPES = (
    ("Wedding", "Ceremony, reception, or the whole day."),
    ("Corporate", "Summer parties, Christmas parties, product launches."),
    ("Private party", "Birthdays and anniversaries."),
)
# The tables as step 1 made them (a later step may change them; this one writes what it knew).
STATUS = """INSERT INTO "gig_statuses" ("id", "created_at", "updated_at", "name", "kind", "position", "color",
  "is_default") VALUES ({p}, {p}, {p}, {p}, {p}, {p}, {p}, {p})"""
TYPE = """INSERT INTO "gig_types" ("id", "created_at", "updated_at", "name", "description")
  VALUES ({p}, {p}, {p}, {p}, {p})"""
SETTING = 'INSERT INTO "settings" ("key", "value") VALUES ({p}, {p})'


def apply(database):
    stamp = now()
    if not has_rows(database, "gig_statuses"):
        for position, (name, kind, color, is_default) in enumerate(STATUSES, 1):
            row = (new_id(), stamp, stamp, name, kind, position, color, is_default)
            database.execute_sql(STATUS.format(p=database.param), row)
    if not has_rows(database, "gig_types"):
        for name, description in TYPES:
            database.execute_sql(TYPE.format(p=database.param), (new_id(), stamp, stamp, name, description))
    found = database.execute_sql(f'SELECT 1 FROM "settings" WHERE "key" = {database.param}', (OFFICE_KEY,))
    if found.fetchone() is None:
        database.execute_sql(SETTING.format(p=database.param), (OFFICE_KEY, json.dumps(first_settings())))


def has_rows(database, table):
    return database.execute_sql(f'SELECT 1 FROM "{table}" LIMIT 1').fetchone() is not None


def first_settings():
    """The office's settings of a new database: the service's BAND_* settings where they are set."""
    config = current_app.config if has_app_context() else {}
    return {field: config.get(name) or default for field, (default, name) in OFFICE_DEFAULTS.items()}
