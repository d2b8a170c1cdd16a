"""Sales documents put straight into the states the operations of SPEC §15 leave them in (issued, sent, accepted,
signed), written to the database directly: a test of something else gets there without each operation's PDF and
mail; and a line added to a quote or an invoice through the API."""

import uuid

from domain.sales.frozen import freeze_pdf
from events.resource import recorder_of
from models import Contract, Invoice, Quote, now
from storage import writer


def issued(invoice_id):
    """The invoice `invoice_id` issued, as `POST /invoices/{id}/issue` leaves it (its number made up)."""
    number = f"T-{uuid.uuid4().hex[:16]}"
    Invoice.update(status="issued", issued_at=now(), number=number).where(Invoice.id == invoice_id).execute()


def sent(model, record_id):
    """The quote or contract `record_id` (of `model`) sent, as `POST /quotes/{id}/send` or `/contracts/{id}/send`
    leaves it."""
    model.update(status="sent", sent_at=now()).where(model.id == record_id).execute()


def accepted(quote_id):
    """The quote `quote_id` sent and accepted on the client's behalf, as `POST /quotes/{id}/accept` leaves it."""
    number = f"Q-{uuid.uuid4().hex[:16]}"
    Quote.update(status="accepted", number=number, sent_at=now(), responded_at=now()).where(
        Quote.id == quote_id
    ).execute()


def signed(contract_id, name="Anna Berger"):
    """The contract `contract_id` signed on paper with its `contract.signed` event in one transaction, as
    `POST /contracts/{id}/sign-on-behalf` does: what listens to that event (the schedule) runs in it."""
    with writer.transaction():
        Contract.update(status="signed", signed_at=now(), signed_name=name, signed_by="client").where(
            Contract.id == contract_id
        ).execute()
        recorder_of(Contract).record_event("signed", Contract.get_by_id(contract_id))


def sent_and_kept(kind, model, record_id):
    """The quote or contract `record_id` sent as `POST /quotes|contracts/{id}/send` will leave it: a number, its PDF
    kept (`freeze_pdf`, which that send calls) in the same transaction; its number."""
    number = f"{kind[0].upper()}-{uuid.uuid4().hex[:12]}"
    with writer.transaction():
        model.update(status="sent", sent_at=now(), number=number).where(model.id == record_id).execute()
        freeze_pdf(kind, model.get_by_id(record_id))
    return number


def line(admin, document, document_id, quantity, unit_price_cents, tax_rate_bp):
    """A line of `quantity` × `unit_price_cents` at `tax_rate_bp` added to the quote or invoice (`document`)."""
    body = {f"{document}_id": document_id, "description": "Reception", "quantity": quantity}
    return admin.create(f"{document}-lines", {**body, "unit_price_cents": unit_price_cents, "tax_rate_bp": tax_rate_bp})
