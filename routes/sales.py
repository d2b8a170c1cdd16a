"""The sales group (SPEC §15): money in. Quotes and their lines, contract templates, contracts, invoices and their
lines, and payments. A document changes (and is deleted) only while it is a draft; a line's write puts its document's
totals right, and a payment's its invoice's paid and open amounts and status, in the same transaction. The operations
of the next steps (send, accept, sign, issue, credit) build on these resources' `change` (a status, a number) and
`refresh` (totals, paid and open amounts, as lines, payments and credit notes say), and `settle`."""

from flask import current_app

from domain import office
from domain.errors import invalid
from domain.sales import contract_text, contracting, records
from models import (
    Contract,
    ContractTemplate,
    Gig,
    GigContact,
    GigProduct,
    Invoice,
    InvoiceLine,
    Payment,
    Quote,
    QuoteLine,
)
from resources import Flag, Resource, clear_others
from schemas import (
    ContractSchema,
    ContractTemplateSchema,
    InvoiceLineSchema,
    InvoiceSchema,
    PaymentSchema,
    QuoteLineSchema,
    QuoteSchema,
)

SALES = "sales"


def addressed(document, changes):
    """A new quote's or invoice's defaults from its gig and the office: the gig's primary contact (unless the body
    names one, or null), the office's currency."""
    if "contact_id" not in changes:
        primary = GigContact.get_or_none((GigContact.gig == document.gig_id) & GigContact.is_primary)
        document.contact_id = primary.contact_id if primary else None
    if document.currency is None:
        document.currency = office.current().currency


# A write option of a line made with its new document (`Document.create_with_lines`): the document's totals are
# stored once, after its lines.
WITH_DOCUMENT = "with_document"


class Document(Resource):
    """A quote, contract or invoice: it changes, and is deleted, only while it is a draft (409 `not_editable`); its
    lines (`Lines` sets them) are its own parts, deleted with it (each with its event)."""

    lines = None

    def __init__(self, model, schema):
        super().__init__(model, schema, SALES)

    def before_save(self, write):
        if not write.creating:
            records.editable(write.record, self.noun)

    def before_delete(self, record):
        records.editable(record, self.noun)
        if self.lines:
            self.lines.delete_of(record)

    def reckon(self, document):
        """{field: value} of what the service keeps of `document` (its totals) as its lines and payments say."""
        return {}

    def refresh(self, document):
        """Store what `reckon` says of `document` (locked: `records.locked`), with its `updated` event."""
        self.change(document, **self.reckon(document))

    def create_with_lines(self, data, lines):
        """A new draft and its `lines` ({field: value} without the document's id) in one write, recorded as one:
        the document's `created` event with its totals, then each line's, and no `updated` of it per line."""
        document = self.insert(data)
        made = [self.lines.insert({self.lines.parent: document.id, **line}, {WITH_DOCUMENT: True}) for line in lines]
        for name, value in self.reckon(document).items():
            setattr(document, name, value)
        document.save()
        document.event_json = self.record_event("created", document)
        for line in made:
            self.lines.record_event("created", line)
        return document


class Quotes(Document):
    def before_save(self, write):
        super().before_save(write)
        quote, config = write.record, current_app.config
        if write.creating:
            addressed(quote, write.changes)
            if quote.valid_until is None:
                quote.valid_until = records.days_after(records.office_today(), config["QUOTE_DAYS"])
            if quote.deposit_percent is None:
                quote.deposit_percent = config["DEPOSIT_PERCENT"]

    def reckon(self, quote):
        return records.quote_totals(quote.id)


class Invoices(Document):
    list_flags = (
        Flag("overdue", "true: only those issued or partly paid past their due date (the office's today); false: all"),
        Flag("to_credit", "true: only those issued or partly paid of gigs of a status of kind cancelled"),
    )

    def before_save(self, write):
        invoice = write.record
        if "kind" in write.changes and invoice.kind == records.CREDIT_NOTE:
            raise invalid({"kind": ["A credit note is made by crediting an issued invoice."]})
        super().before_save(write)
        if write.creating:
            addressed(invoice, write.changes)
            if invoice.service_date is None:
                invoice.service_date = Gig.get_by_id(invoice.gig_id).gig_date

    def reckon(self, invoice):
        kept = records.invoice_totals(invoice.id)
        return {**kept, **records.settled(invoice, kept["gross_cents"])}

    def list_scope(self, flags):
        named = {"overdue": records.overdue, "to_credit": records.to_credit}
        return [condition() for name, condition in named.items() if flags.get(name)]


class Lines(Resource):
    """A quote's or an invoice's lines: written only while their document is a draft, each write putting the
    document's totals right."""

    def __init__(self, model, schema, document):
        super().__init__(model, schema, SALES)
        self.document = document  # the resource of the documents the lines belong to
        self.parent = f"{document.model._meta.name}_id"  # quote_id, invoice_id
        document.lines = self

    def document_of(self, line):
        """The line's document, locked: its totals change with the line."""
        return records.locked(self.document.model, getattr(line, self.parent))

    def gig_of(self, line):
        return self.document_of(line).gig_id

    def gigs_of(self, record_ids):
        gig_id = self.document_of(self.model.get_by_id(record_ids[0])).gig_id if record_ids else None
        return dict.fromkeys(record_ids, gig_id)

    def delete_of(self, document):
        """Delete the lines of `document` (a draft being deleted), each with its event."""
        parent = getattr(self.model, self.parent)
        line_ids = [line_id for (line_id,) in self.model.select(self.model.id).where(parent == document.id).tuples()]
        self.record_events("deleted", line_ids)
        self.model.delete().where(parent == document.id).execute()

    def before_save(self, write):
        line, document = write.record, self.document_of(write.record)
        if line.gig_product_id and GigProduct.get_by_id(line.gig_product_id).gig_id != document.gig_id:
            raise invalid({"gig_product_id": [f"Not a gig product of the {self.document.noun}'s gig."]})
        records.editable(document, self.document.noun)
        if line.tax_rate_bp is None:
            line.tax_rate_bp = current_app.config["TAX_RATE_BP"]

    def after_save(self, write):
        if not write.options.get(WITH_DOCUMENT):
            self.document.refresh(self.document_of(write.record))

    def before_delete(self, record):
        records.editable(self.document_of(record), self.document.noun)

    def delete(self, record):
        document = self.document_of(record)
        super().delete(record)
        self.document.refresh(document)


class ContractTemplates(Resource):
    def before_save(self, write):
        if "body" in write.changes:
            contract_text.check(write.record.body)

    def after_save(self, write):
        clear_others(ContractTemplate, write.record, "is_default")


class Contracts(Document):
    def before_save(self, write):
        contract = write.record
        if contract.quote_id and QUOTES.get(contract.quote_id).gig_id != contract.gig_id:
            raise invalid({"quote_id": ["Not a quote of the contract's gig."]})
        super().before_save(write)
        if write.creating and "template_id" not in write.changes:
            default = contracting.default_template()
            contract.template_id = default.id if default else None
        if write.creating and contract.body is None and contract.template_id:
            quote = contracting.quote_for(contract.gig_id, contract.quote_id)
            template = ContractTemplate.get_by_id(contract.template_id)
            contract.body = contracting.rendered(template.body, Gig.get_by_id(contract.gig_id), quote)
            contract.quote_id = quote.id


class Payments(Resource):
    """Payments received for an issued invoice: each write or delete settles the invoice (paid, open, status)."""

    def gig_of(self, payment):
        return Invoice.get_by_id(payment.invoice_id).gig_id

    def before_save(self, write):
        payment = write.record
        invoice = records.locked(Invoice, payment.invoice_id)
        replaced = None if write.creating else Payment.get_by_id(payment.id).amount_cents
        records.payable(invoice, payment.amount_cents, replaced)

    def after_save(self, write):
        settle(write.record.invoice_id)

    def before_delete(self, record):
        records.settling(records.locked(Invoice, record.invoice_id))

    def delete(self, record):
        super().delete(record)
        settle(record.invoice_id)


def settle(invoice_id):
    """The invoice's paid and open amounts and status as its payments and credit notes now say, and those of the
    invoices that move with it (a credit note's invoice, an invoice's credit notes)."""
    for settled_id in records.settled_together(records.locked(Invoice, invoice_id)):
        INVOICES.refresh(records.locked(Invoice, settled_id))


QUOTES = Quotes(Quote, QuoteSchema)
INVOICES = Invoices(Invoice, InvoiceSchema)
CONTRACTS = Contracts(Contract, ContractSchema)
QUOTE_LINES = Lines(QuoteLine, QuoteLineSchema, QUOTES)
RESOURCES = [
    QUOTES,
    QUOTE_LINES,
    ContractTemplates(ContractTemplate, ContractTemplateSchema, SALES),
    CONTRACTS,
    INVOICES,
    Lines(InvoiceLine, InvoiceLineSchema, INVOICES),
    Payments(Payment, PaymentSchema, SALES),
]
