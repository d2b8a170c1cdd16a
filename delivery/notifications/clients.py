"""Money in's notifications (SPEC §15): the client's mails, driven by the sales events (a quote sent, a contract to
sign, an invoice issued, a payment received) and by the clock (an open invoice 3 days before it is due, and 7 days
after; once each); and the office's news of it in-app (a quote accepted or declined, a contract signed, an invoice
overdue) for the active users holding `sales.edit` who keep the office digest on. Each client mail carries a link
of its own to the client's page (`client_links.add`: a link's token is kept only as its hash, so a mail cannot carry
the one the client had), beside theirs."""

import datetime as dt

from flask import current_app
from peewee import Value, fn

import events
from delivery.notifications import attachments, queue
from delivery.notifications.client_messages import Writer
from domain import office
from domain.capabilities import held_capabilities
from domain.sales import client_links, records
from formats.client_words import N_, language_of
from models import (
    Contact,
    Contract,
    Gig,
    GigContact,
    Invoice,
    Notification,
    NotificationSetting,
    Payment,
    Quote,
    User,
)
from storage import writer

IN_USE = "client_link_in_use"  # the gig contact whose link the write came with (writer.note)
DIGESTED = ("quote.accepted", "quote.declined", "contract.signed")  # in the office digest, for sales.edit
DUE_SOON_DAYS = 3
OVERDUE_DAYS = 7
ANSWERS = {"quote.accepted": "accepted", "quote.declined": "declined"}


def register():
    """Listen to the sales events (once, however often it is called)."""
    if quote_sent in events.LISTENERS.get("quote.sent", ()):
        return
    for event_type, listener in (
        ("quote.sent", quote_sent),
        ("contract.sent", contract_sent),
        ("invoice.issued", invoice_issued),
        ("payment.created", payment_created),
        ("quote.accepted", quote_answered),
        ("quote.declined", quote_answered),
        ("contract.signed", contract_signed),
    ):
        events.listen(event_type, listener)


# --- to the client ---------------------------------------------------------------------------------------


def tell_client(kind, gig_id, contact_id, number, lines, topic=None, public_url=None):
    """Mail `kind` to the contact of the gig (when they are one of its contacts), with a new link to their page; a
    contact without an address gets none (their notification reads skipped: no address), and neither does the one
    acting on their page now (SPEC §16: signing sets off mails; the page they are on is their link)."""
    gig_contact = GigContact.get_or_none((GigContact.gig == gig_id) & (GigContact.contact == contact_id))
    if gig_contact is None:
        return
    contact = Contact.get_by_id(contact_id)
    acting = writer.noted(IN_USE) == gig_contact.id
    new_link = contact.email and not acting
    url = new_link and client_links.add(gig_contact, public_url or current_app.config["PUBLIC_URL"])["url"]
    queue.add(
        kind, client_message(kind, gig_contact, number, lines, url), queue.ids(gig_id), to=contact.email, topic=topic
    )


def mail_link(gig_contact, url):
    """The client's mail of a link the office made for them (`POST /gig-contacts/{id}/client-link`)."""
    contact = Contact.get_by_id(gig_contact.contact_id)
    message = client_message("client_link", gig_contact, "", lambda writer: [], url)
    queue.add("client_link", message, queue.ids(gig_contact.gig_id), to=contact.email)


def client_message(kind, gig_contact, number, lines, url):
    """The mail of `kind` in the contact's language: the event, then `lines(writer)`, and the link (`url`)."""
    contact, gig, settings = (
        Contact.get_by_id(gig_contact.contact_id),
        Gig.get_by_id(gig_contact.gig_id),
        office.current(),
    )
    writer = Writer(language_of(contact.language, settings.language))
    about = {"name": contact.first_name, "office": settings.name, "number": number, "event": gig.title}
    event = f"{gig.title}, {writer.date(gig.gig_date)}"
    return writer.mail(kind, about, [(N_("Event"), event), *lines(writer)], url)


def quote_sent(happened):
    quote = Quote.get_by_id(happened.subject_id)

    def lines(w):
        return [
            (N_("Total"), w.money(quote.gross_cents, quote.currency)),
            (N_("Valid until"), w.date(quote.valid_until)),
        ]

    tell_client("client_quote", quote.gig_id, quote.contact_id, quote.number, lines)


def contract_sent(happened):
    contract = Contract.get_by_id(happened.subject_id)
    primary = GigContact.get_or_none((GigContact.gig == contract.gig_id) & GigContact.is_primary)
    if primary is not None:
        tell_client("client_contract", contract.gig_id, primary.contact_id, contract.number, lambda w: [])


def invoice_lines(invoice):
    """An invoice's facts as a mail lists them: what is open, by when, where to pay it."""
    iban, paid_some = office.current().iban, invoice.open_cents != invoice.gross_cents

    def lines(w):
        return [
            (N_("Amount"), w.money(invoice.gross_cents, invoice.currency)),
            (N_("Still open"), w.money(invoice.open_cents, invoice.currency) if paid_some else None),
            (N_("Due on"), w.date(invoice.due_date)),
            (N_("IBAN"), iban),
            (N_("Reference"), invoice.number if iban else None),
        ]

    return lines


def invoice_issued(happened):
    invoice = Invoice.get_by_id(happened.subject_id)
    tell_client("client_invoice", invoice.gig_id, invoice.contact_id, invoice.number, invoice_lines(invoice))


def payment_created(happened):
    payment = Payment.get_by_id(happened.subject_id)
    invoice = Invoice.get_by_id(payment.invoice_id)
    if payment.amount_cents <= 0 or invoice.kind == "credit_note":  # money paid out, not received
        return

    def lines(w):
        received = w.money(payment.amount_cents, invoice.currency)
        return [(N_("Received"), received), (N_("Still open"), w.money(invoice.open_cents, invoice.currency))]

    tell_client("client_payment", invoice.gig_id, invoice.contact_id, invoice.number, lines)


# --- to the office -----------------------------------------------------------------------------------------


def sales_readers():
    """The active users holding sales.edit who keep the office digest on."""
    users = User.select(User.id).where(User.active == True)  # noqa: E712
    return [
        user_id
        for (user_id,) in users.tuples()
        if "sales.edit" in held_capabilities(user_id) and NotificationSetting.of(user_id).office_digest
    ]


def tell_office(kind, gig_id, title, body, topic=None, mailed=False):
    """The office's news of money in: in-app (and pushed, as the user's settings say); mailed in the office digest
    unless `mailed` (an overdue invoice, which no event tells the digest of)."""
    message = queue.Message(title, body + "\n", title)
    for user_id in sales_readers():
        notification = queue.add(kind, message, queue.ids(gig_id), user_id=user_id, topic=topic)
        if not mailed:
            queue.skip(notification, "email", "Told in the office digest.")
            notification.save()


def digest_lines(happened):
    """(what, line) of each quote answered or contract signed for the office digest, where its records remain."""
    lines = []
    for event in happened:
        model = Contract if event.type == "contract.signed" else Quote
        document = model.get_or_none(model.id == event.subject_id)
        gig = document and Gig.get_or_none(Gig.id == document.gig_id)
        if gig is not None:
            what = event.type.replace(".", " ")
            lines.append((what, f"{what.capitalize()}: {document.number} for {gig.title}, {gig.gig_date}"))
    return lines


def client_name(contact_id):
    contact = Contact.get_or_none(Contact.id == contact_id) if contact_id else None
    return " ".join(filter(None, (contact.first_name, contact.last_name))) if contact else "The client"


def quote_answered(happened):
    quote, verb = Quote.get_by_id(happened.subject_id), ANSWERS[happened.type]
    gig = Gig.get_by_id(quote.gig_id)
    title = f"Quote {quote.number} {verb}: {gig.title}"
    body = f"{client_name(quote.contact_id)} {verb} the quote {quote.number} for {gig.title} ({gig.gig_date})."
    tell_office("quote_answered", gig.id, title, body)


def contract_signed(happened):
    """The office hears of it; signed by the client on their page, both sides are mailed the signed copy."""
    contract = Contract.get_by_id(happened.subject_id)
    gig = Gig.get_by_id(contract.gig_id)
    by = f"signed by {contract.signed_name}" if contract.signed_name else "signed"
    body = f"The contract {contract.number} for {gig.title} ({gig.gig_date}) is {by}."
    title = f"Contract {contract.number} signed: {gig.title}"
    if contract.signed_by != "client":
        tell_office("contract_signed", gig.id, title, body)
        return
    copy = attachments.signed_copy(contract.id)
    tell_office("contract_signed", gig.id, title, f"{body}\nThe signed copy is attached.", topic=copy, mailed=True)
    primary = GigContact.get_or_none((GigContact.gig == contract.gig_id) & GigContact.is_primary)
    if primary is not None:
        tell_client("client_signed", gig.id, primary.contact_id, contract.number, lambda w: [], topic=copy)


# --- by the clock --------------------------------------------------------------------------------------------

OPEN = Invoice.status.in_(records.PAYABLE)
AT_ONCE = 200  # told in one transaction: the write lock is never held for long


def due_soon(today):
    """Open invoices of a client of their gig due within DUE_SOON_DAYS, not reminded yet."""
    soon = Invoice.due_date.between(today.isoformat(), (today + dt.timedelta(days=DUE_SOON_DAYS)).isoformat())
    return untold(OPEN & soon & of_a_gig_contact(), "client_due_soon")


def overdue_for_client(today):
    """Open invoices of a client of their gig OVERDUE_DAYS or more past due, the client not told yet."""
    return untold(OPEN & late(today) & of_a_gig_contact(), "client_overdue")


def overdue_for_office(today):
    return untold(OPEN & late(today), "invoice_overdue")


def late(today):
    return Invoice.due_date <= (today - dt.timedelta(days=OVERDUE_DAYS)).isoformat()


def of_a_gig_contact():
    linked = GigContact.select(GigContact.id).where(
        (GigContact.gig == Invoice.gig) & (GigContact.contact == Invoice.contact)
    )
    return fn.EXISTS(linked)


def untold(condition, kind):
    """The invoices meeting `condition` without a notification of `kind` about them, the earliest due first."""
    topic = Value(invoice_topic(kind, "")).concat(Invoice.id)
    told = fn.EXISTS(Notification.select(Notification.id).where(Notification.topic == topic))
    return list(Invoice.select().where(condition & ~told).order_by(Invoice.due_date, Invoice.id).limit(AT_ONCE))


def invoice_topic(kind, invoice_id):
    return f"{kind}:{invoice_id}"


def remind_client(kind, public_url):
    """The maker of `kind`'s mails (client_due_soon, client_overdue) for the invoices found."""

    def remind(found):
        for invoice in found:
            topic, lines = invoice_topic(kind, invoice.id), invoice_lines(invoice)
            tell_client(kind, invoice.gig_id, invoice.contact_id, invoice.number, lines, topic, public_url)

    return remind


def tell_overdue(found):
    for invoice in found:
        gig = Gig.get_by_id(invoice.gig_id)
        title = f"Invoice {invoice.number} overdue: {gig.title}"
        body = (
            f"The invoice {invoice.number} of {client_name(invoice.contact_id)} for {gig.title} was due on "
            f"{invoice.due_date} and is still open."
        )
        topic = invoice_topic("invoice_overdue", invoice.id)
        tell_office("invoice_overdue", gig.id, title, body, topic=topic, mailed=True)


def run(config, moment_today, claimed):
    """The timed rules as of the office's `moment_today`, each through `claimed(find, make)` (timed.py)."""
    public_url = config["PUBLIC_URL"]
    claimed(lambda: due_soon(moment_today), remind_client("client_due_soon", public_url))
    claimed(lambda: overdue_for_client(moment_today), remind_client("client_overdue", public_url))
    claimed(lambda: overdue_for_office(moment_today), tell_overdue)
