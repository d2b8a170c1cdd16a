"""Step 3: times stored with other digits than ASCII (`1５:00`, accepted before SPEC §2 said ASCII only) become
ASCII (`15:00`); one that still is not a time `HH:MM` is cleared. Dates never took them (their parser refused).
As sql/sqlite/0003_ascii_times.py (a PostgreSQL database starts at the last step, so this one seldom finds any)."""

import re
import unicodedata

TIME_COLUMNS = {
    "gigs": ("start_time", "end_time", "load_in_time"),
    "gig_products": ("start_time", "end_time"),
    "gig_moments": ("time",),
    "gig_roles": ("call_time",),
}
TIME_RE = re.compile(r"([01][0-9]|2[0-3]):[0-5][0-9]")


def ascii_time(value):
    digits = "".join(str(unicodedata.digit(c)) if c.isdigit() else c for c in value)
    return digits if TIME_RE.fullmatch(digits) else None


def apply(database):
    for table, columns in TIME_COLUMNS.items():
        for column in columns:
            odd = database.execute_sql(
                f'SELECT id, "{column}" FROM "{table}" WHERE "{column}" !~ \'^[0-2][0-9]:[0-5][0-9]$\''
            ).fetchall()
            for row_id, value in odd:
                database.execute_sql(
                    f'UPDATE "{table}" SET "{column}" = {database.param} WHERE id = {database.param}',
                    (ascii_time(value), row_id),
                )
