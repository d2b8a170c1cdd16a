"""The plain data a document is made from: what the caller reads of the office, the client and the record, in the
units the API keeps (integer cents, tax rates in basis points, ISO dates, IANA zones, BCP 47 languages). A document
without a number is a draft: it says so on every page, and an invoice without one carries no Factur-X XML."""

import hashlib
from dataclasses import dataclass
from datetime import date, datetime


def text_sha256(text):
    """The sha256 of a contract's text as sent (SPEC §15): of its UTF-8 bytes, in hex."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class Party:
    """The client a document is addressed to: a person, or a company (`company`) for the attention of one."""

    name: str
    company: str = ""
    address_lines: tuple[str, ...] = ()
    postal_code: str = ""
    city: str = ""
    country: str = ""  # ISO 3166 alpha-2
    email: str = ""
    vat_id: str = ""

    @property
    def legal_name(self):
        return self.company or self.name


@dataclass(frozen=True)
class Letterhead:
    """The office as its documents show it (`/office`, SPEC §15): name, address, contact, tax and bank details, the
    text printed when every rate is 0, the invoices' footer, and its logo's bytes (PNG or SVG, sanitised by
    `/office/logo`)."""

    name: str
    address_lines: tuple[str, ...] = ()
    postal_code: str = ""
    city: str = ""
    country: str = ""  # ISO 3166 alpha-2
    email: str = ""
    phone: str = ""
    website: str = ""
    vat_id: str = ""
    company_register: str = ""
    iban: str = ""
    bic: str = ""
    bank_name: str = ""
    tax_note: str = ""
    invoice_footer: str = ""
    logo: bytes | None = None

    @property
    def country_code(self):
        """Its country, or its bank account's (an IBAN begins with its country's code)."""
        return self.country or self.iban[:2]


@dataclass(frozen=True)
class Line:
    """A quote's or an invoice's line: net amounts, as SPEC §15's lines show them."""

    description: str
    unit_price_cents: int
    quantity: int = 1
    tax_rate_bp: int = 0  # 2000 = 20 %

    @property
    def net_cents(self):
        return self.quantity * self.unit_price_cents


@dataclass(frozen=True)
class RateTotal:
    """A document's net total at one tax rate and the tax on it, as the record's totals computed them (the rates of
    `domain.sales.money.totals(lines)` have these fields too, and serve as they are)."""

    tax_rate_bp: int
    net_cents: int
    tax_cents: int


@dataclass(frozen=True)
class _Priced:
    """What a quote and an invoice share: who sends it to whom, in which money and language, its lines and totals."""

    office: Letterhead
    client: Party
    number: str | None  # None: a draft
    issued_on: date  # the day it was sent or issued; a draft's, the day it is shown
    lines: tuple[Line, ...]
    rates: tuple[RateTotal, ...]  # one per tax rate of the lines, in the order they are printed
    currency: str = "EUR"
    language: str = "en"
    subject: str = ""  # what it is for, in a line: "Wedding of Anna and Ben, 14 June 2026, Schloss Elmau"

    @property
    def draft(self):
        return self.number is None

    @property
    def net_cents(self):
        return sum(rate.net_cents for rate in self.rates)

    @property
    def tax_cents(self):
        return sum(rate.tax_cents for rate in self.rates)

    @property
    def gross_cents(self):
        return self.net_cents + self.tax_cents

    @property
    def untaxed(self):
        """Every rate 0: the office's `tax_note` (an exemption) is printed."""
        return all(rate.tax_rate_bp == 0 for rate in self.rates)


@dataclass(frozen=True)
class Quote(_Priced):
    valid_until: date | None = None
    intro: str = ""
    terms: str = ""
    # the payment schedule it offers (SPEC §15): a deposit of this share, due this many days after signing; the rest
    # due this many days before the gig
    deposit_percent: int = 0
    deposit_due_days: int = 14
    balance_due_days: int = 14


@dataclass(frozen=True)
class Invoice(_Priced):
    kind: str = "final"  # deposit | balance | final | credit_note
    service_date: date | None = None  # the gig's date
    due_date: date | None = None
    notes: str = ""
    paid_cents: int = 0
    credits_number: str = ""  # a credit note's: the invoice it credits
    credits_issued_on: date | None = None
    e_invoice: bool = False  # asked for its Factur-X XML (a company client gets it unasked)

    @property
    def open_cents(self):
        return self.gross_cents - self.paid_cents

    @property
    def carries_xml(self):
        """SPEC §15: an issued invoice to a company, or one that asked, carries its Factur-X XML; a draft none (a
        machine would book it)."""
        return not self.draft and (self.e_invoice or bool(self.client.company))

    @property
    def e_invoice_gaps(self):
        """The fields of `/office` its Factur-X XML needs that the office has not filled in (EN 16931: the seller's
        country, BR-08; its VAT id where tax is charged, BR-S-02): the caller refuses to issue it, naming them."""
        lacking = {"country": not self.office.country_code, "vat_id": not self.office.vat_id and not self.untaxed}
        return [field for field, missing in lacking.items() if missing]


@dataclass(frozen=True)
class Signature:
    """Who signed a contract, when, from where (SPEC §15's audit page). `zone` is the venue's (or the office's) IANA
    zone; `recorded_by` names the user who recorded a signature on paper (empty: the client signed on their page)."""

    name: str
    signed_at: datetime  # aware
    zone: str
    ip: str = ""
    user_agent: str = ""
    recorded_by: str = ""
    note: str = ""
    drawing: str = ""  # the SVG the client drew on their page (sanitised: formats/signatures.py)


@dataclass(frozen=True)
class Contract:
    office: Letterhead
    client: Party
    number: str | None  # None: a draft
    issued_on: date
    body: str  # the contract's text, plain
    language: str = "en"
    subject: str = ""
    signature: Signature | None = None
    sha256: str = ""  # the text's as stored when sent; empty: computed from `body`

    @property
    def draft(self):
        return self.number is None

    @property
    def text_digest(self):
        return self.sha256 or text_sha256(self.body)
