"""The office's own settings (SPEC §12.1): its name, time zone, currency, language, date style and clock, kept in the
database (one `Setting` row of JSON, written with a new database by migration step 14), and how far its first day
has come. Whatever is shown "in the office's zone" or in its money reads `current()`. Its letterhead (SPEC §15):
address, contact, tax and bank details among the same settings (None where not given), and its logo in a row of
its own (`logo()`), which a document prints."""

import hashlib
import json
from typing import NamedTuple

from dialects import dialect
from models import (
    OFFICE_DEFAULTS,
    OFFICE_KEY,
    EnsembleRole,
    Gig,
    OfficeLogo,
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
    # the letterhead (SPEC §15), each None until given; iban and bic compact and upper case
    address_line1: str | None = None
    address_line2: str | None = None
    postal_code: str | None = None
    city: str | None = None
    country: str | None = None  # ISO 3166-1 alpha-2
    email: str | None = None
    phone: str | None = None
    website: str | None = None
    vat_id: str | None = None
    company_register: str | None = None
    iban: str | None = None
    bic: str | None = None
    bank_name: str | None = None
    tax_note: str | None = None  # printed on an invoice whose every tax rate is 0
    invoice_footer: str | None = None


class Logo(NamedTuple):
    media_type: str  # image/png or image/svg+xml
    size_bytes: int
    sha256: str
    updated_at: str
    data: bytes | None  # None where only the facts were asked for


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


def logo(with_data=False):
    """The office's logo (its bytes too `with_data`), or None without one."""
    columns = [OfficeLogo.media_type, OfficeLogo.size_bytes, OfficeLogo.sha256, OfficeLogo.updated_at]
    query = OfficeLogo.select(*columns, *([OfficeLogo.data] if with_data else [])).where(OfficeLogo.key == OFFICE_KEY)
    row = query.first()
    if row is None:
        return None
    return Logo(row.media_type, row.size_bytes, row.sha256, row.updated_at, bytes(row.data) if with_data else None)


def change_logo(media_type, data):
    """Keep `data` (checked by the caller: formats/logos.py) as the office's logo, in the transaction under way."""
    facts = {"media_type": media_type, "size_bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}
    dialect.upsert(OfficeLogo, key=OFFICE_KEY, **facts, updated_at=now(), data=data)
    return logo()


def remove_logo():
    """Forget the office's logo; whether it had one."""
    return OfficeLogo.delete().where(OfficeLogo.key == OFFICE_KEY).execute() > 0


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
