"""The office's own settings (SPEC §12.1): its name, time zone, currency, language, date style and clock, kept in the
database (one `Setting` row of JSON, written with a new database by migration step 14), and how far its first day
has come. Whatever is shown "in the office's zone" or in its money reads `current()`."""

import json
from typing import NamedTuple

from dialects import dialect
from models import (
    OFFICE_DEFAULTS,
    OFFICE_KEY,
    EnsembleRole,
    Gig,
    Price,
    Rate,
    Setting,
    StaffMember,
    now,
)


class Office(NamedTuple):
    name: str
    time_zone: str
    currency: str
    language: str
    date_style: str
    clock: str
    updated_at: str | None  # when /office last saved them; None: never (the defaults of a new database)


def current():
    """The office's settings as stored (a database without its row, the defaults)."""
    row = Setting.get_or_none(Setting.key == OFFICE_KEY)
    stored = json.loads(row.value) if row else {}
    defaults = {field: default for field, (default, _) in OFFICE_DEFAULTS.items()}
    return Office(**{**defaults, "updated_at": None, **stored})


def change(values):
    """Store `values` (checked by the caller) over the office's settings, in the transaction under way."""
    changed = {**current()._asdict(), **values, "updated_at": now()}
    dialect.upsert(Setting, key=OFFICE_KEY, value=json.dumps(changed))
    return Office(**changed)


def first_day(office):
    """The first day's checklist (SPEC §12.1), each step ticked once done."""
    rated = EnsembleRole.select().join(Rate, on=Rate.role == EnsembleRole.role)
    return {
        "office": office.updated_at is not None,
        "product": Price.select().exists(),
        "ensemble": rated.exists(),
        "musicians": StaffMember.select().exists(),
        "gig": Gig.select().exists(),
    }
