"""Sales documents put in the states that the operations of SPEC §15 (issue, send) will put them in, written to the
database directly: those operations come in a later step, and the API offers nothing fake meanwhile."""

import uuid

from models import Invoice, now


def issued(invoice_id):
    """The invoice `invoice_id` issued, as `POST /invoices/{id}/issue` will leave it (its number made up)."""
    number = f"T-{uuid.uuid4().hex[:16]}"
    Invoice.update(status="issued", issued_at=now(), number=number).where(Invoice.id == invoice_id).execute()


def sent(model, record_id):
    """The quote or contract `record_id` (of `model`) sent, as `POST /quotes/{id}/send` or `/contracts/{id}/send` will
    leave it."""
    model.update(status="sent", sent_at=now()).where(model.id == record_id).execute()
