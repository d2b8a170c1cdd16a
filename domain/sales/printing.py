"""What a sales document prints (SPEC §15), read from the database into `documents`' plain data: the office's
letterhead and logo (`/office` now), the client (the document's contact: name, company, and the custom fields
`vat_id` and `address`, a line a line, when the office defines them: a contact keeps no postal address of its own),
the lines and their totals per rate (`money.totals`), the gig's title, date and venue, a contract's text and, once
signed, its signature. A record without a number prints as a draft."""

import datetime as dt

from babel.dates import format_date

import documents
from domain import office
from domain.postal_addresses import one_line
from domain.sales import contracting
from domain.sales.money import totals
from domain.sales.records import office_today
from formats.client_words import language_of, locale_of
from models import Contact, CustomField, Gig, GigContact, Invoice, InvoiceLine, QuoteLine, User, Venue

# The contact's custom fields printed as the client's VAT id and postal address (one line a line), when the office
# defines them.
VAT_ID, ADDRESS = "vat_id", "address"


def letterhead():
    """The office as its documents show it now."""
    now = office.current()
    logo = office.logo(with_data=True)
    lines = tuple(line for line in (now.address_line1, now.address_line2) if line)
    given = {
        name: getattr(now, name) or ""
        for name in ("postal_code", "city", "country", "email", "phone", "website", "vat_id", "company_register")
    }
    bank = {name: getattr(now, name) or "" for name in ("iban", "bic", "bank_name", "tax_note", "invoice_footer")}
    return documents.Letterhead(name=now.name, address_lines=lines, **given, **bank, logo=logo.data if logo else None)


def client(contact_id):
    """The addressee (a Party) and the language they read."""
    contact = Contact.get_or_none(Contact.id == contact_id) if contact_id else None
    if contact is None:
        return documents.Party(name=""), office.current().language
    fields = contact.custom_fields or {}
    vat_id, address = (_custom(fields, key) for key in (VAT_ID, ADDRESS))
    name = " ".join(part for part in (contact.first_name, contact.last_name) if part)
    lines = tuple(line.strip() for line in address.splitlines() if line.strip())
    party = documents.Party(
        name=name, company=contact.company or "", address_lines=lines, email=contact.email or "", vat_id=vat_id
    )
    return party, language_of(contact.language, office.current().language)


def _custom(fields, key):
    """The contact's custom field `key` as text, when the office defines it ("" else)."""
    defined = CustomField.select().where((CustomField.resource == "contacts") & (CustomField.key == key)).exists()
    value = fields.get(key) if defined else None
    return value if isinstance(value, str) else ""


def subject(gig, language):
    """What the document is for, in a line: the gig's title, date (as the client's language writes it) and venue."""
    venue = Venue.get_or_none(Venue.id == gig.venue_id) if gig.venue_id else None
    day = format_date(as_date(gig.gig_date), "long", locale=locale_of(language))
    return " · ".join(part for part in (gig.title, day, one_line(venue)) if part)


def priced(record, line_model, parent):
    """What a quote and an invoice share: letterhead, client, number, lines and their totals per rate."""
    gig = Gig.get_by_id(record.gig_id)
    party, language = client(record.contact_id)
    rows = list(line_model.select().where(parent == record.id).order_by(line_model.position, line_model.created_at))
    lines = tuple(documents.Line(r.description, r.unit_price_cents, r.quantity, r.tax_rate_bp) for r in rows)
    rates = tuple(documents.RateTotal(*rate) for rate in totals(rows).rates)
    issued = _issued(record)
    issued = as_date(issued) if issued else office_today()
    return {
        "office": letterhead(),
        "client": party,
        "number": record.number,
        "issued_on": issued,
        "lines": lines,
        "rates": rates,
        "currency": record.currency,
        "language": language,
        "subject": subject(gig, language),
    }


def quote(record):
    """The quote `record` (a Quote) as `documents.Quote`."""
    return documents.Quote(
        **priced(record, QuoteLine, QuoteLine.quote),
        valid_until=as_date(record.valid_until),
        intro=record.intro or "",
        terms=record.terms or "",
        deposit_percent=record.deposit_percent,
        deposit_due_days=record.deposit_due_days,
        balance_due_days=record.balance_due_days,
    )


def invoice(record):
    """The invoice or credit note `record` (an Invoice) as `documents.Invoice`."""
    credited = Invoice.get_or_none(Invoice.id == record.credits_invoice_id) if record.credits_invoice_id else None
    return documents.Invoice(
        **priced(record, InvoiceLine, InvoiceLine.invoice),
        kind=record.kind,
        service_date=as_date(record.service_date),
        due_date=as_date(record.due_date),
        notes=record.notes or "",
        paid_cents=record.paid_cents or 0,
        credits_number=credited.number or "" if credited else "",
        credits_issued_on=as_date(credited.issued_at) if credited and credited.issued_at else None,
        e_invoice=bool(record.e_invoice),
    )


def contract(record):
    """The contract `record` (a Contract) as `documents.Contract`, with its signature once signed."""
    gig = Gig.get_by_id(record.gig_id)
    contact_id = record.quote.contact_id if record.quote_id else primary_contact(record.gig_id)
    party, language = client(contact_id)
    return documents.Contract(
        office=letterhead(),
        client=party,
        number=record.number,
        issued_on=as_date(record.sent_at) if record.sent_at else office_today(),
        body=record.body or "",
        language=language,
        subject=subject(gig, language),
        signature=signature(record, gig),
        sha256=record.sha256 or "",
    )


def primary_contact(gig_id):
    """The gig's primary contact's id, or None."""
    primary = GigContact.get_or_none((GigContact.gig == gig_id) & GigContact.is_primary)
    return primary.contact_id if primary else None


def signature(record, gig):
    """Who signed the contract, when and from where (its audit page); None unless signed."""
    if record.status != "signed" or not record.signed_at:
        return None
    venue = Venue.get_or_none(Venue.id == gig.venue_id) if gig.venue_id else None
    zone = (venue and venue.timezone) or office.current().time_zone
    by = record.signed_by
    recorder = User.get_or_none(User.id == by) if by and by != "client" else None
    return documents.Signature(
        name=record.signed_name or "",
        signed_at=dt.datetime.fromisoformat(record.signed_at.replace("Z", "+00:00")),
        zone=zone,
        ip=record.signed_ip or "",
        user_agent=record.signed_user_agent or "",
        recorded_by=(recorder.name if recorder else by) if by and by != "client" else "",
        drawing=contracting.drawing_of(record.id) or "",
    )


def _issued(record):
    """When a numbered quote was sent or an invoice issued; None for a draft."""
    return record.number and (getattr(record, "issued_at", None) or getattr(record, "sent_at", None))


def as_date(value):
    """A stored date or timestamp as a date (None stays None)."""
    if value is None or isinstance(value, dt.date):
        return value
    return dt.date.fromisoformat(str(value)[:10])
