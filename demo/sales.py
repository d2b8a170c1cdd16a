"""Money in for the demo (SPEC §15), so that the Sales tab, Money and the agenda's badges show something: the next
few gigs with a client, each a step further along: a draft quote; a sent quote; a sent, unsigned contract after an
accepted quote; a signed contract whose deposit is overdue; and one whose deposit came in and whose balance is open.
Each gig's status moved on as the accept and the signing move it (an inquiry held, then confirmed).
Numbers are taken from the office's series as the operations take them, so the next one issued follows on."""

import datetime as dt

from domain.sales import quoting
from domain.sales.money import share, totals
from domain.sales.numbers import next_number
from models import (
    Contact,
    Contract,
    Gig,
    GigContact,
    GigProduct,
    Invoice,
    InvoiceLine,
    Payment,
    Product,
    Quote,
    QuoteLine,
    timestamp,
)

TAX_RATE_BP = 2000
DEPOSIT_PERCENT = 30
STEPS = ("draft", "sent", "unsigned", "deposit overdue", "balance open")


def write_sales(office):
    """The documents of the first gigs from today on that have a primary contact and products (written at the next
    flush)."""
    for step, (gig, contact_id) in zip(STEPS, clients(office)):
        lines = [(name, price or 0) for name, price in products_of(gig)]
        quote = write_quote(office, gig, contact_id, lines, step)
        if step in ("draft", "sent"):
            continue
        moved_on(office, gig, quoting.ACCEPTED, days_ago=35)
        write_contract(office, gig, quote, Contact.get_by_id(contact_id), signed=step != "unsigned")
        if step != "unsigned":
            moved_on(office, gig, quoting.SIGNED, days_ago=30)
            write_invoices(office, gig, contact_id, quote, deposit_paid=step == "balance open")


def moved_on(office, gig, move, days_ago):
    """The gig's status moved on `days_ago` as the quote's accept or the contract's signing moved it (SPEC §15)."""
    status_id = quoting.status_moved(gig, *move)
    if status_id:
        gig.gig_status = status_id
        changed = max(gig.updated_at, stamp(office, days_ago))
        Gig.update(gig_status=status_id, updated_at=changed).where(Gig.id == gig.id).execute()


def clients(office):
    """(gig, its primary contact's id) of the gigs from tomorrow on with products, the earliest first."""
    query = (
        Gig.select(Gig.id, GigContact.contact)
        .join(GigContact, on=(GigContact.gig == Gig.id) & GigContact.is_primary)
        .where(Gig.gig_date > office.today.isoformat(), Gig.id.in_(GigProduct.select(GigProduct.gig)))
        .order_by(Gig.gig_date, Gig.id)
        .limit(len(STEPS))
    )
    return [(Gig.get_by_id(gig_id), contact_id) for gig_id, contact_id in query.tuples()]


def products_of(gig):
    query = GigProduct.select(Product.name, GigProduct.price_cents).join(Product).where(GigProduct.gig == gig.id)
    return query.order_by(GigProduct.position, GigProduct.id).tuples()


def stamp(office, days_ago):
    return timestamp(office.now - dt.timedelta(days=days_ago))


def write_quote(office, gig, contact_id, lines, step):
    sent = step != "draft"
    quote = office.add(
        Quote,
        when=office.now - dt.timedelta(days=40 if sent else 1),
        gig=gig.id,
        contact=contact_id,
        currency="EUR",
        valid_until=(office.today + dt.timedelta(days=14)).isoformat(),
        deposit_percent=DEPOSIT_PERCENT,
        deposit_due_days=14,
        balance_due_days=14,
        status="sent" if step == "sent" else "accepted" if sent else "draft",
        number=next_number("quote") if sent else None,
        sent_at=stamp(office, 40) if sent else None,
        responded_at=stamp(office, 35) if step not in ("draft", "sent") else None,
        responded_by="client" if step not in ("draft", "sent") else None,
        **document_totals(lines),
    )
    for position, (name, price) in enumerate(lines):
        office.add(
            QuoteLine,
            quote=quote.id,
            description=name,
            quantity=1,
            unit_price_cents=price,
            tax_rate_bp=TAX_RATE_BP,
            position=position,
        )
    return quote


def document_totals(lines):
    found = totals([Line(price) for _, price in lines])
    return {"net_cents": found.net_cents, "tax_cents": found.tax_cents, "gross_cents": found.gross_cents}


class Line:
    """A line of one item at the demo's one tax rate, as `money.totals` reads it."""

    def __init__(self, unit_price_cents):
        self.quantity, self.unit_price_cents, self.tax_rate_bp = 1, unit_price_cents, TAX_RATE_BP


def write_contract(office, gig, quote, client, signed):
    body = (
        f"The band plays at {gig.title} on {gig.gig_date}.\n\n"
        f"The fee is EUR {quote.gross_cents / 100:,.2f}, of which {DEPOSIT_PERCENT} % is due on signing."
    )
    office.add(
        Contract,
        when=office.now - dt.timedelta(days=34),
        gig=gig.id,
        quote=quote.id,
        number=next_number("contract"),
        status="signed" if signed else "sent",
        body=body,
        sent_at=stamp(office, 34),
        signed_at=stamp(office, 30) if signed else None,
        signed_name=" ".join(filter(None, (client.first_name, client.last_name))) if signed else None,
        signed_by="client" if signed else None,
    )


def write_invoices(office, gig, contact_id, quote, deposit_paid):
    """The deposit, issued (overdue, or paid this day), and the balance: issued once the deposit is in, else a draft."""
    deposit = share(quote.gross_cents, DEPOSIT_PERCENT)
    due = office.today - dt.timedelta(days=16 if deposit_paid else 3)
    invoice = write_invoice(office, gig, contact_id, "deposit", deposit, due, issued=True, paid=deposit_paid)
    if deposit_paid:
        received = office.today.isoformat()
        office.add(Payment, invoice=invoice.id, amount_cents=invoice.gross_cents, received_on=received)
    balance_due = dt.date.fromisoformat(gig.gig_date) - dt.timedelta(days=14)
    balance = quote.gross_cents - deposit
    write_invoice(office, gig, contact_id, "balance", balance, balance_due, issued=deposit_paid, paid=False)


def write_invoice(office, gig, contact_id, kind, gross_cents, due, issued, paid):
    net = round(gross_cents * 10000 / (10000 + TAX_RATE_BP))
    amounts = document_totals([(kind, net)])
    paid_cents = amounts["gross_cents"] if paid else 0
    invoice = office.add(
        Invoice,
        when=office.now - dt.timedelta(days=30),
        gig=gig.id,
        contact=contact_id,
        kind=kind,
        currency="EUR",
        service_date=gig.gig_date,
        due_date=due.isoformat(),
        number=next_number("invoice") if issued else None,
        status=("paid" if paid else "issued") if issued else "draft",
        issued_at=stamp(office, 30) if issued else None,
        paid_cents=paid_cents,
        open_cents=amounts["gross_cents"] - paid_cents if issued else 0,
        **amounts,
    )
    office.add(
        InvoiceLine,
        invoice=invoice.id,
        description=f"{kind.capitalize()} for {gig.title}",
        quantity=1,
        unit_price_cents=net,
        tax_rate_bp=TAX_RATE_BP,
        position=0,
    )
    return invoice
