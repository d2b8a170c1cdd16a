"""What a client reads with their link (SPEC §16, `GET /v1/client`): their gig (date, times, venue, what is
played), the office's contact and bank details, and their documents once the office sent or issued them. Never
the band's people, pay, internal notes, other contacts or another gig; drafts never."""

from domain import office
from domain.postal_addresses import place
from models import Contact, Contract, Gig, GigProduct, Invoice, InvoiceLine, Product, Quote, QuoteLine, Venue

OFFICE_FIELDS = ("name", "address_line1", "address_line2", "postal_code", "city", "country", "email", "phone")
OFFICE_FIELDS += ("website", "iban", "bic", "bank_name")
LINE_FIELDS = ("description", "quantity", "unit_price_cents", "tax_rate_bp")
TOTALS = ("currency", "net_cents", "tax_cents", "gross_cents")
QUOTE_FIELDS = ("id", "number", "status", "valid_until", "sent_at", "responded_at", "intro", "terms", *TOTALS)
QUOTE_FIELDS += ("deposit_percent", "deposit_due_days", "balance_due_days")
CONTRACT_FIELDS = ("id", "number", "status", "body", "sha256", "sent_at", "signed_at", "signed_name")
INVOICE_FIELDS = ("id", "number", "kind", "status", "issued_at", "service_date", "due_date", *TOTALS)
INVOICE_FIELDS += ("paid_cents", "open_cents", "notes")


def view_of(gig_contact):
    """The client view of `gig_contact`'s gig, as they may read it."""
    gig, contact = Gig.get_by_id(gig_contact.gig_id), Contact.get_by_id(gig_contact.contact_id)
    settings = office.current()
    return {
        "contact": {"first_name": contact.first_name, "last_name": contact.last_name},
        "gig": gig_of(gig),
        "office": picked(settings, OFFICE_FIELDS),
        "quotes": quotes_of(gig.id, contact.id),
        "contract": contract_of(gig.id),
        "invoices": invoices_of(gig.id, contact.id),
    }


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


def lines_of(model, parent, parent_id):
    query = model.select().where(parent == parent_id).order_by(model.position.asc(nulls="LAST"), model.id)
    return [picked(line, LINE_FIELDS) for line in query]


def quotes_of(gig_id, contact_id):
    query = Quote.select().where(Quote.gig == gig_id, Quote.contact == contact_id, Quote.status != "draft")
    found = query.order_by(Quote.sent_at, Quote.id)
    return [{**picked(quote, QUOTE_FIELDS), "lines": lines_of(QuoteLine, QuoteLine.quote, quote.id)} for quote in found]


def contract_of(gig_id):
    """The gig's contract as sent (or signed, or void): the latest of them, or None."""
    query = Contract.select().where(Contract.gig == gig_id, Contract.status != "draft")
    found = query.order_by(Contract.sent_at.desc(), Contract.id.desc()).first()
    return picked(found, CONTRACT_FIELDS) if found else None


def invoices_of(gig_id, contact_id):
    issued = Invoice.status.not_in(("draft",))
    query = Invoice.select().where(Invoice.gig == gig_id, Invoice.contact == contact_id, issued)
    found = query.order_by(Invoice.issued_at, Invoice.id)
    return [
        {**picked(invoice, INVOICE_FIELDS), "lines": lines_of(InvoiceLine, InvoiceLine.invoice, invoice.id)}
        for invoice in found
    ]
