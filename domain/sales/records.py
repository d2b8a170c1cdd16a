"""The rules of the sales documents that span records (SPEC §15): a document changes only while it is a draft, its
totals follow its lines, a payment fits its invoice's open amount, and payments move the invoice's paid and open
amounts and its status. Plain functions of models that answer values or raise the domain's errors; the routes store
what they answer, with its events, in the write's transaction."""

import datetime as dt
import zoneinfo

from peewee import fn

from dialects import dialect
from domain import office
from domain.errors import conflict, invalid
from domain.sales.money import totals
from models import Gig, GigStatus, Invoice, InvoiceLine, Payment, QuoteLine

DRAFT = "draft"
PAYABLE = ("issued", "partly_paid")  # an invoice that takes a payment
SETTLING = ("issued", "partly_paid", "paid")  # an invoice whose status its payments decide
NOT_COUNTED = ("draft", "void")  # a credit note that brings no invoice's open amount down
CREDIT_NOTE = "credit_note"


def editable(document, noun):
    """409 `not_editable` unless `document` (a quote, contract or invoice) is a draft: once sent or issued it is
    what the client was given."""
    if document.status != DRAFT:
        message = f"This {noun} is {document.status.replace('_', ' ')}: only a draft {noun} changes."
        raise conflict("not_editable", message, status=document.status)


def quote_totals(quote_id):
    """{net_cents, tax_cents, gross_cents} of the quote `quote_id` from its lines."""
    return _totals(QuoteLine, QuoteLine.quote, quote_id)


def invoice_totals(invoice_id):
    """{net_cents, tax_cents, gross_cents} of the invoice `invoice_id` from its lines."""
    return _totals(InvoiceLine, InvoiceLine.invoice, invoice_id)


def _totals(model, parent, parent_id):
    lines = model.select(model.quantity, model.unit_price_cents, model.tax_rate_bp).where(parent == parent_id)
    found = totals(lines)
    return {"net_cents": found.net_cents, "tax_cents": found.tax_cents, "gross_cents": found.gross_cents}


def settled(invoice, gross_cents=None):
    """{paid_cents, open_cents, status} of `invoice` (an Invoice) from its payments and credit notes. An invoice's open
    amount is its gross less its payments and its credit notes (whose gross is negative), plus what was paid back on
    those (their payments, negative): below 0 it owes the client money back. A credit note's is what of that is its
    to pay back (negative, or 0: nothing is owed back). Issued, `partly_paid` once paid in part, `paid` once settled."""
    gross = invoice.gross_cents if gross_cents is None else gross_cents
    paid = _paid(Payment.invoice == invoice.id)
    if invoice.kind == CREDIT_NOTE:
        credited = Invoice.get_or_none(Invoice.id == invoice.credits_invoice_id)
        open_cents = gross - paid
        if credited is not None:
            open_cents = max(open_cents, min(settled(credited)["open_cents"], 0))
        return _status(invoice, paid, open_cents, open_cents >= 0)
    counted = (Invoice.credits_invoice == invoice.id) & Invoice.status.not_in(NOT_COUNTED)
    credits = Invoice.select(fn.COALESCE(fn.SUM(Invoice.gross_cents), 0)).where(counted).scalar()
    paid_back = _paid(Payment.invoice.in_(Invoice.select(Invoice.id).where(counted)))
    open_cents = gross + credits - paid - paid_back
    return _status(invoice, paid, open_cents, open_cents <= 0)


def _paid(condition):
    return Payment.select(fn.COALESCE(fn.SUM(Payment.amount_cents), 0)).where(condition).scalar()


def _status(invoice, paid, open_cents, done):
    status = invoice.status
    if status in SETTLING:
        status = "paid" if done else "partly_paid" if paid else "issued"
    return {"paid_cents": paid, "open_cents": open_cents, "status": status}


def settled_together(invoice):
    """The ids of the invoices whose amounts move with a payment on `invoice`: itself, the invoice it credits and
    that invoice's credit notes (each owes back what the invoice was overpaid)."""
    head = invoice.credits_invoice_id or invoice.id
    notes = Invoice.select(Invoice.id).where(Invoice.credits_invoice == head).order_by(Invoice.id)
    return [head, *(note_id for (note_id,) in notes.tuples())]


def locked(model, record_id):
    """The document `record_id` of `model`, its row locked for the write that changes it from its lines or payments
    (PostgreSQL: FOR UPDATE), so that two such writes at once wait in turn instead of both holding it (a line's or a
    payment's reference does) and deadlocking on its update."""
    return dialect.locking(model.select().where(model.id == record_id)).get()


def payable(invoice, amount_cents, replaced_cents=None):
    """Refuse a payment of `amount_cents` on `invoice` beyond the invoice's open amount (422 at amount_cents; a
    changed one's `replaced_cents`, its amount before, counted back in): on an invoice more than 0 and at most what is
    open, on a credit note (money paid back) less than 0 and at most what it owes back; a new one unless the invoice
    is issued or partly paid, a changed one unless issued at all (409 `not_issued`, as `settling`)."""
    available = invoice.open_cents + (replaced_cents or 0)
    if invoice.kind == CREDIT_NOTE:
        if amount_cents >= 0:
            raise invalid({"amount_cents": ["Money paid back on a credit note is negative."]})
        if amount_cents < available:
            raise invalid({"amount_cents": [f"More than the credit note owes back ({available})."]})
    else:
        if amount_cents <= 0:
            raise invalid({"amount_cents": ["A payment on an invoice is more than 0 (pay back on a credit note)."]})
        if amount_cents > available:
            raise invalid({"amount_cents": [f"More than the invoice's open amount ({available})."]})
    settling(invoice, PAYABLE if replaced_cents is None else SETTLING)


def settling(invoice, statuses=SETTLING):
    """409 `not_issued` unless `invoice` is of `statuses`: a payment is changed or deleted only on an issued
    invoice (a draft has none, a void one keeps its record)."""
    if invoice.status not in statuses:
        message = f"This invoice is {invoice.status.replace('_', ' ')}: only an issued invoice takes payments."
        raise conflict("not_issued", message, status=invoice.status)


def overdue():
    """The condition of an overdue invoice: issued or partly paid, its due date before the office's today."""
    return Invoice.status.in_(PAYABLE) & (Invoice.due_date < office_today().isoformat())


def to_credit():
    """The condition of an invoice a cancelled gig leaves the office to credit: issued or partly paid, not a credit
    note, of a gig whose status is of kind `cancelled`."""
    cancelled = Gig.select(Gig.id).join(GigStatus, on=Gig.gig_status == GigStatus.id)
    cancelled = cancelled.where(GigStatus.kind == "cancelled")
    return Invoice.status.in_(PAYABLE) & (Invoice.kind != CREDIT_NOTE) & Invoice.gig.in_(cancelled)


def office_today():
    """Today's date in the office's zone (SPEC §12.1), not the server's."""
    return dt.datetime.now(zoneinfo.ZoneInfo(office.current().time_zone)).date()


def days_after(date, days):
    """The ISO date `days` after `date` (a date)."""
    return (date + dt.timedelta(days=days)).isoformat()
