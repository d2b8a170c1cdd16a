"""What a client reads with their link (SPEC §16, `GET /v1/client`): their gig (date, times, venue, what is
played), the office's contact and bank details, and their documents once the office sent or issued them. Never
the band's people, pay, internal notes, other contacts or another gig; drafts never."""

from documents import giro_code
from domain import office
from domain.postal_addresses import place
from domain.sales import printing
from formats.client_words import language_of
from models import Contact, Contract, Gig, GigProduct, Invoice, InvoiceLine, Product, Quote, QuoteLine, Venue

OFFICE_FIELDS = ("name", "address_line1", "address_line2", "postal_code", "city", "country", "email", "phone")
OFFICE_FIELDS += ("website", "iban", "bic", "bank_name")


def view_of(gig_contact):
    """The client view of `gig_contact`'s gig, as they may read it, with the language they read (as their mails and
    contract are written); `documents` names the ids of theirs, which the caller shows as the API shows them."""
    gig, contact = Gig.get_by_id(gig_contact.gig_id), Contact.get_by_id(gig_contact.contact_id)
    settings = office.current()
    return {
        "contact": {"first_name": contact.first_name, "last_name": contact.last_name},
        "language": language_of(contact.language, settings.language),
        "gig": gig_of(gig),
        "office": picked(settings, OFFICE_FIELDS),
        "documents": (documents := documents_of(gig.id, contact.id)),
        "payment_codes": payment_codes(documents["invoices"]),
    }


def payment_codes(invoice_ids):
    """[{invoice_id, svg, text}]: the EPC QR code of each of the invoices a banking app can pay, drawn and as its
    text (documents/giro_code.py)."""
    codes = []
    for invoice_id in invoice_ids:
        printed = printing.invoice(Invoice.get_by_id(invoice_id))
        if giro_code.payable(printed):
            codes.append(
                {"invoice_id": invoice_id, "svg": giro_code.svg_text(printed), "text": giro_code.payload(printed)}
            )
    return codes


def gig_of(gig):
    venue = Venue.get_by_id(gig.venue_id) if gig.venue_id else None
    played = (
        GigProduct.select(GigProduct.start_time, GigProduct.end_time, Product.name)
        .join(Product)
        .where(GigProduct.gig == gig.id)
        .order_by(GigProduct.position.asc(nulls="LAST"), GigProduct.start_time, GigProduct.id)
    )
    products = [{"name": row.product.name, "start_time": row.start_time, "end_time": row.end_time} for row in played]
    return {
        "id": gig.id,
        "title": gig.title,
        "gig_date": str(gig.gig_date),
        "start_time": gig.start_time,
        "end_time": gig.end_time,
        "venue": place(venue),
        "products": products,
    }


def picked(record, names):
    return {name: getattr(record, name) for name in names}


def documents_of(gig_id, contact_id):
    """The ids of the documents the client reads, in the order they came: their quotes once sent (whatever became
    of them), the gig's latest contract once sent, their invoices once issued; with the lines of each."""
    # sent or issued once (a draft voided when its gig is cancelled never was)
    quotes = Quote.select(Quote.id).where(
        Quote.gig == gig_id, Quote.contact == contact_id, Quote.sent_at.is_null(False)
    )
    quote_ids = [quote.id for quote in quotes.order_by(Quote.sent_at, Quote.id)]
    contracts = Contract.select(Contract.id).where(Contract.gig == gig_id, Contract.sent_at.is_null(False))
    contract = contracts.order_by(Contract.sent_at.desc(), Contract.id.desc()).first()
    invoices = Invoice.select(Invoice.id).where(
        Invoice.gig == gig_id, Invoice.contact == contact_id, Invoice.issued_at.is_null(False)
    )
    invoice_ids = [invoice.id for invoice in invoices.order_by(Invoice.issued_at, Invoice.id)]
    return {
        "quotes": quote_ids,
        "quote_lines": lines_of(QuoteLine, QuoteLine.quote, quote_ids),
        "contract": contract.id if contract else None,
        "invoices": invoice_ids,
        "invoice_lines": lines_of(InvoiceLine, InvoiceLine.invoice, invoice_ids),
    }


def lines_of(model, parent, parent_ids):
    query = model.select(model.id).where(parent.in_(parent_ids))
    return (
        [line.id for line in query.order_by(parent, model.position.asc(nulls="LAST"), model.id)] if parent_ids else []
    )
