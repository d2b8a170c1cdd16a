"""What the client's mails say (SPEC §15, §16), in their language (English or German, else the office's; dates and
money as that language writes them, with Babel): each names the office and the document, and ends with the link to
the client's page. Subjects never carry an amount or an address."""

import datetime as dt
from decimal import Decimal

from babel.dates import format_date
from babel.numbers import format_currency

from delivery.notifications.messages import message
from delivery.notifications.words import facts
from domain.sales.contract_values import locale_of

WORDS = {
    "en": {
        "hello": "Hello {name},",
        "link": "Your page, with every document of your event:\n  {url}",
        "regards": "Kind regards,\n{office}",
        "event": "Event",
        "total": "Total",
        "valid": "Valid until",
        "amount": "Amount",
        "due": "Due on",
        "open": "Still open",
        "received": "Received",
        "iban": "IBAN",
        "reference": "Reference",
        "client_link": (
            "Your page for {event}",
            "{office} has made you a page for your event: the date, the place, "
            "and your quotes, contract and invoices as they come.",
        ),
        "client_quote": (
            "Your quote {number} from {office}",
            "{office} sends you the quote {number} for your event. You can accept or decline it on your page.",
        ),
        "client_contract": (
            "Your contract {number} to sign",
            "Your contract {number} with {office} is ready: read and sign it on your page.",
        ),
        "client_signed": (
            "Your signed contract {number}",
            "Thank you for signing the contract {number} with {office}: your signed copy is attached.",
        ),
        "client_invoice": ("Invoice {number} from {office}", "{office} sends you the invoice {number}."),
        "client_payment": (
            "Payment received: invoice {number}",
            "Thank you: we received your payment for the invoice {number}.",
        ),
        "client_due_soon": (
            "Reminder: invoice {number} is due soon",
            "A friendly reminder: the invoice {number} is due soon.",
        ),
        "client_overdue": (
            "Invoice {number} is overdue",
            "The invoice {number} is past its due date and still "
            "open. If you have paid it meanwhile, thank you, and please ignore this mail.",
        ),
    },
    "de": {
        "hello": "Hallo {name},",
        "link": "Ihre Seite mit allen Unterlagen Ihrer Feier:\n  {url}",
        "regards": "Mit freundlichen Grüßen\n{office}",
        "event": "Feier",
        "total": "Gesamt",
        "valid": "Gültig bis",
        "amount": "Betrag",
        "due": "Fällig am",
        "open": "Noch offen",
        "received": "Erhalten",
        "iban": "IBAN",
        "reference": "Verwendungszweck",
        "client_link": (
            "Ihre Seite für {event}",
            "{office} hat Ihnen eine Seite für Ihre Feier eingerichtet: "
            "Datum, Ort und Ihre Angebote, Ihr Vertrag und Ihre Rechnungen, sobald es sie gibt.",
        ),
        "client_quote": (
            "Ihr Angebot {number} von {office}",
            "{office} sendet Ihnen das Angebot {number} für "
            "Ihre Feier. Sie können es auf Ihrer Seite annehmen oder ablehnen.",
        ),
        "client_contract": (
            "Ihr Vertrag {number} zur Unterschrift",
            "Ihr Vertrag {number} mit {office} ist fertig: Sie können ihn auf Ihrer Seite lesen und unterschreiben.",
        ),
        "client_signed": (
            "Ihr unterschriebener Vertrag {number}",
            "Danke, dass Sie den Vertrag {number} mit {office} unterschrieben haben: Ihre Kopie liegt bei.",
        ),
        "client_invoice": ("Rechnung {number} von {office}", "{office} sendet Ihnen die Rechnung {number}."),
        "client_payment": (
            "Zahlung erhalten: Rechnung {number}",
            "Vielen Dank: Ihre Zahlung für die Rechnung {number} ist eingegangen.",
        ),
        "client_due_soon": (
            "Erinnerung: Rechnung {number} ist bald fällig",
            "Eine freundliche Erinnerung: die Rechnung {number} ist bald fällig.",
        ),
        "client_overdue": (
            "Rechnung {number} ist überfällig",
            "Die Rechnung {number} ist überfällig und noch "
            "offen. Falls Sie sie inzwischen bezahlt haben, danke, und betrachten Sie diese Mail "
            "als gegenstandslos.",
        ),
    },
}


class Writer:
    """The words and formats of one client's language (`de-AT` reads German; an unknown one, English)."""

    def __init__(self, language):
        self.locale = locale_of(language)
        self.words = WORDS.get(self.locale.language, WORDS["en"])

    def date(self, value):
        return format_date(dt.date.fromisoformat(str(value)), "long", locale=self.locale) if value else None

    def money(self, cents, currency):
        return format_currency(Decimal(cents).scaleb(-2), currency, locale=self.locale)

    def mail(self, kind, about, lines, url):
        """The mail of `kind`: `about` names {name, office, number, event}; `lines` are its facts as (word key,
        value) pairs, those without a value left out."""
        words = self.words
        title, opening = (text.format(**about) for text in words[kind])
        paragraphs = (
            words["hello"].format(**about),
            opening,
            facts([(words[key], value) for key, value in lines]),
            url and words["link"].format(url=url),
            words["regards"].format(**about),
        )
        return message(title, paragraphs, title)
