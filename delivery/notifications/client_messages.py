"""What the client's mails say (SPEC §15, §16), in their language (formats/client_words.py: the words from the
catalogues, dates and money as that language writes them): each names the office and the document, and ends with
the link to the client's page. Subjects never carry an amount or an address."""

import datetime as dt

from delivery.notifications.messages import message
from delivery.notifications.words import facts
from formats.client_words import N_, ClientWords

MAILS = {  # kind: (subject, opening); {name}, {office}, {number} and {event} as `about` gives them
    "client_link": (
        N_("Your page for {event}"),
        N_(
            "{office} has made you a page for your event: the date, the place, "
            "and your quotes, contract and invoices as they come."
        ),
    ),
    "client_quote": (
        N_("Your quote {number} from {office}"),
        N_("{office} sends you the quote {number} for your event. You can accept or decline it on your page."),
    ),
    "client_contract": (
        N_("Your contract {number} to sign"),
        N_("Your contract {number} with {office} is ready: read and sign it on your page."),
    ),
    "client_signed": (
        N_("Your signed contract {number}"),
        N_("Thank you for signing the contract {number} with {office}: your signed copy is attached."),
    ),
    "client_invoice": (N_("Invoice {number} from {office}"), N_("{office} sends you the invoice {number}.")),
    "client_payment": (
        N_("Payment received: invoice {number}"),
        N_("Thank you: we received your payment for the invoice {number}."),
    ),
    "client_due_soon": (
        N_("Reminder: invoice {number} is due soon"),
        N_("A friendly reminder: the invoice {number} is due soon."),
    ),
    "client_overdue": (
        N_("Invoice {number} is overdue"),
        N_(
            "The invoice {number} is past its due date and still "
            "open. If you have paid it meanwhile, thank you, and please ignore this mail."
        ),
    ),
}
HELLO = N_("Hello {name},")
LINK = N_("Your page, with every document of your event:\n  {url}")
REGARDS = N_("Kind regards,\n{office}")


class Writer:
    """The words and formats of one client's language (`de-AT` reads German; an unknown one, English)."""

    def __init__(self, language):
        self.words = ClientWords(language)

    def date(self, value):
        return self.words.date(dt.date.fromisoformat(str(value))) if value else None

    def money(self, cents, currency):
        return self.words.money(cents, currency)

    def mail(self, kind, about, lines, url):
        """The mail of `kind`: `about` names {name, office, number, event}; `lines` are its facts as (label,
        value) pairs, the labels in English, those without a value left out."""
        words = self.words
        title, opening = (words(text, **about) for text in MAILS[kind])
        paragraphs = (
            words(HELLO, **about),
            opening,
            facts([(words(label), value) for label, value in lines]),
            url and words(LINK, url=url),
            words(REGARDS, **about),
        )
        return message(title, paragraphs, title)
