"""The sales documents' operations of invoicing (SPEC §15): an invoice issued, an issued one credited, and the PDF of
a quote, contract or invoice: the bytes kept when it was sent or issued, a draft's made on request. What they do is
`delivery/invoicing.py` and `domain/sales/frozen.py`; the schedule and a cancelled gig's drafts follow events."""

from flask import Blueprint, current_app, request
from werkzeug.http import quote_etag

from delivery import invoicing
from domain.sales import records
from domain.sales.frozen import pdf_of
from formats.operation_schemas import CreditSchema
from models import Invoice
from openapi import operation
from resources import reject_parameters
from routes.sales import CONTRACTS, INVOICES, QUOTES
from schemas import InvoiceSchema, load
from web.lifecycle import json_body

blueprint = Blueprint("invoicing", __name__)
PDF_ERRORS = (400, 404)


@blueprint.post("/invoices/<id>/issue")
@operation(capability="sales.edit", response=InvoiceSchema, errors=(400, 404, 409))
def issue_invoice(id):
    """Issue a draft invoice: its number, and its PDF kept (`invoice.issued`)."""
    reject_parameters(request.args)
    INVOICES.get(id)
    invoice = invoicing.issue(records.locked(Invoice, id))
    return {"data": INVOICES.read(invoice.id)}


@blueprint.post("/invoices/<id>/credit")
@operation(capability="sales.edit", body=CreditSchema, response=InvoiceSchema, errors=(400, 404, 409, 422))
def credit_invoice(id):
    """Credit an issued invoice's lines (all by default): a credit note, issued at once."""
    reject_parameters(request.args)
    INVOICES.get(id)
    sent = json_body()
    body = load(CreditSchema(), {} if sent is None else sent)
    note = invoicing.credit(records.locked(Invoice, id), body.get("lines"))
    return {"data": INVOICES.read(note.id)}


def pdf_answer(kind, resource, id):
    reject_parameters(request.args)
    record = resource.get(id)
    pdf = pdf_of(kind, record)
    name = record.number if pdf.frozen else f"draft-{record.id}"
    headers = {
        "ETag": quote_etag(pdf.sha256),
        "Cache-Control": "private, no-cache",
        "Content-Disposition": f'inline; filename="{name}.pdf"',
    }
    if request.if_none_match.contains(pdf.sha256):
        return current_app.response_class(status=304, headers=headers)
    return current_app.response_class(pdf.data, mimetype="application/pdf", headers=headers)


@blueprint.get("/quotes/<id>/pdf")
@operation(capability="sales.view", media_type="application/pdf", errors=PDF_ERRORS)
def quote_pdf(id):
    """The quote's PDF: as sent, or a draft's (DRAFT)."""
    return pdf_answer("quote", QUOTES, id)


@blueprint.get("/contracts/<id>/pdf")
@operation(capability="sales.view", media_type="application/pdf", errors=PDF_ERRORS)
def contract_pdf(id):
    """The contract's PDF: as sent, as signed (with its audit page), or a draft's (DRAFT)."""
    return pdf_answer("contract", CONTRACTS, id)


@blueprint.get("/invoices/<id>/pdf")
@operation(capability="sales.view", media_type="application/pdf", errors=PDF_ERRORS)
def invoice_pdf(id):
    """The invoice's PDF: as issued, or a draft's (DRAFT)."""
    return pdf_answer("invoice", INVOICES, id)
