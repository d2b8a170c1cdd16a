"""What a document says, in its language: its labels (English and German; any other language reads English), and
money, rates, dates and times as that language writes them (Babel, CLDR's data)."""

from decimal import Decimal
from zoneinfo import ZoneInfo

from babel import Locale, UnknownLocaleError
from babel.dates import format_date, format_datetime
from babel.numbers import format_currency, format_decimal

LABELS = {
    "en": {
        "quote": "Quote",
        "contract": "Contract",
        "invoice": "Invoice",
        "deposit": "Deposit invoice",
        "balance": "Balance invoice",
        "final": "Invoice",
        "credit_note": "Credit note",
        "draft": "DRAFT",
        "number": "Number",
        "date": "Date",
        "valid_until": "Valid until",
        "service_date": "Date of service",
        "due_date": "Due date",
        "vat_id": "VAT ID",
        "your_vat_id": "Your VAT ID",
        "description": "Description",
        "quantity": "Qty",
        "unit_price": "Unit price",
        "rate": "VAT",
        "amount": "Net amount",
        "net_total": "Net total",
        "tax_at": "VAT {rate} on {net}",
        "gross_total": "Total",
        "paid": "Paid",
        "open": "Amount due",
        "credits": "Credits invoice {number} of {date}",
        "pay_by": "Please transfer {amount} by {date} to:",
        "pay_now": "Please transfer {amount} to:",
        "account_holder": "Account holder",
        "iban": "IBAN",
        "bic": "BIC",
        "bank": "Bank",
        "reference": "Reference",
        "scan_to_pay": "Scan with your banking app to pay",
        "page": "Page",
        "of": "of",
        "signatures": "Signatures",
        "for_office": "For {office}",
        "client": "The client",
        "place_date": "Place, date, signature",
        "signed_by": "Signed by {name} on {date}",
        "audit": "Signature record",
        "audit_intro": "This page records how contract {number} was signed.",
        "signer": "Signed by",
        "drawn": "Signature",
        "signed_utc": "Signed at (UTC)",
        "signed_local": "Signed at ({zone})",
        "ip": "IP address",
        "user_agent": "Browser",
        "recorded_by": "Recorded by",
        "on_paper": "{user}, from a contract signed on paper",
        "note": "Note",
        "digest": "SHA-256 of the contract's text",
        "register": "Register",
        "schedule": "Payment: a deposit of {percent} is due {deposit_days} days after signing, the rest {balance_days} "
        "days before the day of the event.",
        "schedule_whole": "Payment: the total is due {balance_days} days before the day of the event.",
    },
    "de": {
        "quote": "Angebot",
        "contract": "Vertrag",
        "invoice": "Rechnung",
        "deposit": "Anzahlungsrechnung",
        "balance": "Schlussrechnung",
        "final": "Rechnung",
        "credit_note": "Gutschrift",
        "draft": "ENTWURF",
        "number": "Nummer",
        "date": "Datum",
        "valid_until": "Gültig bis",
        "service_date": "Leistungsdatum",
        "due_date": "Fällig am",
        "vat_id": "USt-IdNr.",
        "your_vat_id": "Ihre USt-IdNr.",
        "description": "Beschreibung",
        "quantity": "Menge",
        "unit_price": "Einzelpreis",
        "rate": "USt.",
        "amount": "Netto",
        "net_total": "Summe netto",
        "tax_at": "USt. {rate} auf {net}",
        "gross_total": "Gesamtbetrag",
        "paid": "Bezahlt",
        "open": "Offener Betrag",
        "credits": "Gutschrift zur Rechnung {number} vom {date}",
        "pay_by": "Bitte überweisen Sie {amount} bis zum {date} an:",
        "pay_now": "Bitte überweisen Sie {amount} an:",
        "account_holder": "Kontoinhaber",
        "iban": "IBAN",
        "bic": "BIC",
        "bank": "Bank",
        "reference": "Verwendungszweck",
        "scan_to_pay": "Mit der Banking-App scannen und bezahlen",
        "page": "Seite",
        "of": "von",
        "signatures": "Unterschriften",
        "for_office": "Für {office}",
        "client": "Auftraggeber",
        "place_date": "Ort, Datum, Unterschrift",
        "signed_by": "Unterschrieben von {name} am {date}",
        "audit": "Unterschriftsprotokoll",
        "audit_intro": "Diese Seite hält fest, wie Vertrag {number} unterschrieben wurde.",
        "signer": "Unterschrieben von",
        "drawn": "Unterschrift",
        "signed_utc": "Unterschrieben (UTC)",
        "signed_local": "Unterschrieben ({zone})",
        "ip": "IP-Adresse",
        "user_agent": "Browser",
        "recorded_by": "Erfasst von",
        "on_paper": "{user}, nach einem auf Papier unterschriebenen Vertrag",
        "note": "Notiz",
        "digest": "SHA-256 des Vertragstexts",
        "register": "Register",
        "schedule": "Zahlung: eine Anzahlung von {percent} ist {deposit_days} Tage nach Unterzeichnung fällig, "
        "der Rest {balance_days} Tage vor dem Veranstaltungstag.",
        "schedule_whole": "Zahlung: der Gesamtbetrag ist {balance_days} Tage vor dem Veranstaltungstag fällig.",
    },
}


class Words:
    """A document's language: its labels, and the way it writes money, rates, dates and times."""

    def __init__(self, language):
        try:
            self.locale = Locale.parse(language.replace("-", "_"))
        except (ValueError, UnknownLocaleError):
            self.locale = Locale.parse("en")
        self.tag = str(self.locale).replace("_", "-")
        self.labels = LABELS.get(self.locale.language, LABELS["en"])

    def __call__(self, key, **values):
        return self.labels[key].format(**values)

    def money(self, cents, currency):
        return format_currency(Decimal(cents).scaleb(-2), currency, locale=self.locale)

    def rate(self, basis_points):
        return format_decimal(Decimal(basis_points).scaleb(-2), "#,##0.##", locale=self.locale) + "\u00a0%"

    def date(self, day):
        return format_date(day, "long", locale=self.locale) if day else ""

    def moment(self, at, zone):
        """`at` (aware) as the clock in `zone` read it, seconds and zone written out."""
        return format_datetime(at, "long", tzinfo=ZoneInfo(zone), locale=self.locale)
