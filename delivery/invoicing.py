"""Invoices issued, credited and scheduled (SPEC §15), alike for a request and for the worker, each in the write's
transaction with its events: `issue` (the number, the frozen PDF, `invoice.issued`), `credit` (a credit note of an
issued invoice's lines, issued at once), the schedule of a signed contract (a listener of `contract.signed`: the
deposit issued, the balance drafted), the balances the worker issues 14 days before they are due, and a cancelled
gig's drafts voided (a listener of `gig.updated`)."""

import datetime as dt
import json
import logging

import documents
import events
from dialects import dialect
from domain.errors import ApiError, conflict, invalid
from domain.sales import frozen, printing, records
from domain.sales.money import Line, totals
from domain.sales.numbers import next_number
from domain.sales.schedule import schedule
from events.resource import recorder_of
from models import Contract, Gig, GigStatus, Invoice, InvoiceLine, Quote, QuoteLine, now
from storage import writer

log = logging.getLogger("band.invoicing")
BALANCE_LEAD_DAYS = 14  # the worker issues a drafted balance this many days before it is due (SPEC §15)
CANCELLED = "cancelled"  # the gig status kind that voids a gig's drafts
UNSENT_QUOTES = ("draft",)


def issue(invoice):
    """Issue the draft `invoice` (locked: `records.locked`): its number, issue time, amounts, frozen PDF and its
    `invoice.issued` event. 409 `not_editable` unless a draft, `no_lines` without lines."""
    records.editable(invoice, "invoice")
    if not InvoiceLine.select().where(InvoiceLine.invoice == invoice.id).exists():
        raise conflict("no_lines", "This invoice has no lines: add what it charges first.")
    frozen.issuable(invoice)
    resource = recorder_of(Invoice)
    before = resource.event_view(invoice.id)
    invoice.number = next_number("credit_note" if invoice.kind == records.CREDIT_NOTE else "invoice")
    invoice.status, invoice.issued_at, invoice.updated_at = "issued", now(), now()
    invoice.save()
    for name, value in resource.reckon(invoice).items():
        setattr(invoice, name, value)
    invoice.save()
    frozen.freeze_pdf("invoice", invoice)
    after = resource.event_json(invoice.id)
    resource.record_event("issued", invoice, after, changes=events.changes_between(before, json.loads(after)))
    return invoice


def credit(invoice, line_ids=None):
    """A credit note of the issued `invoice`'s lines (`line_ids`, all by default), each negated, issued at once; the
    invoice's open amount falls with it. 409 `not_creditable` for a draft, void invoice or a credit note, or when
    it would credit more than the invoice's gross; 422 at `lines` for a line not the invoice's."""
    if invoice.kind == records.CREDIT_NOTE or invoice.status not in records.SETTLING:
        message = f"Only an issued invoice is credited; this is a {invoice.status.replace('_', ' ')} {invoice.kind}."
        raise conflict("not_creditable", message, status=invoice.status)
    owned = InvoiceLine.select().where(InvoiceLine.invoice == invoice.id).order_by(InvoiceLine.position, InvoiceLine.id)
    lines = [line for line in owned if line_ids is None or line.id in line_ids]
    strangers = sorted(set(line_ids or ()) - {line.id for line in lines})
    if strangers:
        raise invalid({"lines": [f"Not a line of this invoice: {', '.join(strangers)}."]})
    if not lines:
        raise invalid({"lines": ["Name at least one line to credit."]})
    negated = [Line(line.quantity, -line.unit_price_cents, line.tax_rate_bp) for line in lines]
    if _credited_gross(invoice) + totals(negated).gross_cents < -invoice.gross_cents:
        message = "This would credit more than the invoice's gross: some of these lines were credited already."
        raise conflict("not_creditable", message, status=invoice.status)
    note = Invoice.create(
        gig=invoice.gig_id,
        contact=invoice.contact_id,
        kind=records.CREDIT_NOTE,
        currency=invoice.currency,
        service_date=invoice.service_date,
        due_date=records.office_today().isoformat(),
        notes=f"Credit note for invoice {invoice.number}.",
        credits_invoice=invoice.id,
    )
    recorder_of(Invoice).record_event("created", note)
    copied = [_line(note, line.description, line.quantity, -line.unit_price_cents, line) for line in lines]
    recorder_of(InvoiceLine).record_events("created", copied)
    issue(note)
    for settled_id in records.settled_together(invoice):
        recorder_of(Invoice).refresh(records.locked(Invoice, settled_id))
    return note


def _counted_credits(invoice):
    return (Invoice.credits_invoice == invoice.id) & Invoice.status.not_in(records.NOT_COUNTED)


def _credited_gross(invoice):
    return sum(gross for (gross,) in Invoice.select(Invoice.gross_cents).where(_counted_credits(invoice)).tuples())


def _line(invoice, description, quantity, unit_price_cents, like=None, tax_rate_bp=None, position=None):
    """A line of `invoice` (its id); `like` lends it its rate, product and position."""
    return InvoiceLine.create(
        invoice=invoice.id,
        description=description,
        quantity=quantity,
        unit_price_cents=unit_price_cents,
        tax_rate_bp=like.tax_rate_bp if like else tax_rate_bp,
        gig_product=like.gig_product_id if like else None,
        position=like.position if like else position,
    ).id


def register():
    """Listen to the events the schedule and a cancelled gig follow (once, however often it is called)."""
    if contract_signed in events.LISTENERS.get("contract.signed", ()):
        return
    events.listen("contract.signed", contract_signed)
    events.listen("gig.updated", gig_updated)


def contract_signed(happened):
    """A contract signed (on paper or on the client's page): its PDF kept again, now with its audit page, and its
    accepted quote's deposit issued (none at 0 %) and balance drafted (SPEC §15)."""
    contract = Contract.get_by_id(happened.subject_id)
    if contract.number:
        frozen.freeze_pdf("contract", contract)
    quote = _accepted_quote(contract)
    if quote is None or quote.gross_cents <= 0:
        return
    gig = Gig.get_by_id(contract.gig_id)
    lines = list(QuoteLine.select().where(QuoteLine.quote == quote.id))
    signed_on, gig_date = records.office_today(), printing.as_date(gig.gig_date)
    days = (quote.deposit_percent, quote.deposit_due_days, quote.balance_due_days)
    plan = schedule(lines, *days, signed_on, gig_date)
    if plan.deposit:
        deposit = _scheduled(quote, "deposit", plan.deposit, plan.deposit_due, f"Deposit ({quote.deposit_percent} %)")
        if gaps := frozen.e_invoice_gaps(deposit):  # the signing stands; the office issues it once /office is whole
            log.warning("the deposit invoice %s stays a draft: /office lacks %s", deposit.id, ", ".join(gaps))
        else:
            issue(records.locked(Invoice, deposit.id))
    if plan.balance:
        _scheduled(quote, "balance", plan.balance, plan.balance_due, "Balance")


def _accepted_quote(contract):
    if contract.quote_id:
        quote = Quote.get_by_id(contract.quote_id)
        if quote.status == "accepted":
            return quote
    return Quote.get_or_none((Quote.gig == contract.gig_id) & (Quote.status == "accepted"))


def _scheduled(quote, kind, parts, due, what):
    """A draft invoice of `kind` for the quote's client, with one line per rate of `parts`, and its events."""
    invoice = Invoice.create(
        gig=quote.gig_id,
        contact=quote.contact_id,
        kind=kind,
        currency=quote.currency,
        service_date=Gig.get_by_id(quote.gig_id).gig_date,
        due_date=due.isoformat(),
    )
    recorder_of(Invoice).record_event("created", invoice)
    several = len(parts) > 1
    ids = [
        _line(
            invoice,
            f"{what} of quote {quote.number}" + (f", {part.tax_rate_bp / 100:g} % tax" if several else ""),
            1,
            part.net_cents,
            tax_rate_bp=part.tax_rate_bp,
            position=index,
        )
        for index, part in enumerate(parts)
    ]
    recorder_of(InvoiceLine).record_events("created", ids)
    recorder_of(Invoice).refresh(records.locked(Invoice, invoice.id))
    return invoice


def issue_due_balances():
    """Issue each drafted balance invoice due within BALANCE_LEAD_DAYS (the worker, once a round), each in a
    transaction of its own that claims it: one the office issued meanwhile, or another server claimed, is left.
    How many were issued. One the office cannot issue (an e-invoice without the office's VAT id) is logged and
    found again next round."""
    horizon = (records.office_today() + dt.timedelta(days=BALANCE_LEAD_DAYS)).isoformat()
    due = Invoice.select(Invoice.id).where(
        (Invoice.status == records.DRAFT)
        & (Invoice.due_date <= horizon)
        & (Invoice.kind == "balance")
        & Invoice.id.in_(InvoiceLine.select(InvoiceLine.invoice))
    )
    issued, found = 0, list(due.tuples())
    if found:
        documents.load()  # before a transaction holds the writers back, not in the first issue's
    for (invoice_id,) in found:
        try:
            with writer.transaction():
                claimed = dialect.claiming(Invoice.select().where(_still_draft(invoice_id))).first()
                if claimed is None:
                    continue
                issue(claimed)
                issued += 1
        except ApiError as refused:
            log.warning("the balance invoice %s was not issued: %s", invoice_id, refused.message)
    return issued


def _still_draft(invoice_id):
    return (Invoice.id == invoice_id) & (Invoice.status == records.DRAFT)


def gig_updated(happened):
    """A gig whose status became one of kind `cancelled`: its draft invoices become void and its unsent quotes too,
    each with its event; its issued ones stay for the office to credit (`GET /invoices?to_credit=true`)."""
    changed = (happened.changes or {}).get("gig_status_id")
    if not changed or not changed["to"]:
        return
    if GigStatus.get_by_id(changed["to"]).kind != CANCELLED:
        return
    _void(Invoice, Invoice.status == records.DRAFT, happened.gig_id)
    _void(Quote, Quote.status.in_(UNSENT_QUOTES), happened.gig_id)


def _void(model, condition, gig_id):
    ids = [record_id for (record_id,) in model.select(model.id).where(condition & (model.gig == gig_id)).tuples()]
    if ids:
        model.update(status="void", updated_at=now()).where(model.id.in_(ids)).execute()
        recorder_of(model).record_events("voided", ids)
