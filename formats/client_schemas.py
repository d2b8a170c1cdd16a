"""The answers of the client's link (SPEC §16): the link as it is made, and what `GET /v1/client` shows its
holder (`domain/sales/client_view.py`): plain fields, read only."""

from marshmallow import fields

from formats.field_types import Date, Enum, Time, Timestamp
from formats.operation_schemas import PlaceSchema, TimesSchema
from models import CONTRACT_STATUSES, INVOICE_KINDS, INVOICE_STATUSES, QUOTE_STATUSES
from schemas import BaseSchema

Text = fields.String
Cents = fields.Integer


class ClientLinkSchema(BaseSchema):
    url = Text(dump_only=True, metadata={"description": "`{public_url}/client#token=bcl_…`: shown only here"})
    expires_at = Timestamp(dump_only=True, allow_none=False)


class ClientContactSchema(BaseSchema):
    first_name = Text()
    last_name = Text(allow_none=True)


class ClientGigSchema(BaseSchema):
    id = fields.UUID()
    title = Text()
    gig_date = Date(allow_none=False)
    start_time = Time()
    end_time = Time()
    venue = fields.Nested(PlaceSchema, allow_none=True)
    products = fields.List(fields.Nested(TimesSchema))


class ClientOfficeSchema(BaseSchema):
    name = Text()
    address_line1 = Text(allow_none=True)
    address_line2 = Text(allow_none=True)
    postal_code = Text(allow_none=True)
    city = Text(allow_none=True)
    country = Text(allow_none=True)
    email = Text(allow_none=True)
    phone = Text(allow_none=True)
    website = Text(allow_none=True)
    iban = Text(allow_none=True)
    bic = Text(allow_none=True)
    bank_name = Text(allow_none=True)


class ClientLineSchema(BaseSchema):
    description = Text()
    quantity = fields.Integer()
    unit_price_cents = fields.Integer()
    tax_rate_bp = fields.Integer()


class ClientTotalsSchema(BaseSchema):
    id = fields.UUID()
    number = Text()
    currency = Text()
    net_cents = Cents()
    tax_cents = Cents()
    gross_cents = Cents()
    lines = fields.List(fields.Nested(ClientLineSchema))


class ClientQuoteSchema(ClientTotalsSchema):
    status = Enum(*QUOTE_STATUSES, allow_none=False)
    valid_until = Date(allow_none=False)
    sent_at = Timestamp()
    responded_at = Timestamp()
    intro = Text(allow_none=True)
    terms = Text(allow_none=True)
    deposit_percent = fields.Integer()
    deposit_due_days = fields.Integer()
    balance_due_days = fields.Integer()


class ClientContractSchema(BaseSchema):
    id = fields.UUID()
    number = Text()
    status = Enum(*CONTRACT_STATUSES, allow_none=False)
    body = Text(metadata={"description": "the text as sent"})
    sha256 = Text()
    sent_at = Timestamp()
    signed_at = Timestamp()
    signed_name = Text(allow_none=True)


class ClientInvoiceSchema(ClientTotalsSchema):
    kind = Enum(*INVOICE_KINDS, allow_none=False)
    status = Enum(*INVOICE_STATUSES, allow_none=False)
    issued_at = Timestamp()
    service_date = Date()
    due_date = Date()
    paid_cents = Cents()
    open_cents = Cents()
    notes = Text(allow_none=True)


class ClientViewSchema(BaseSchema):
    contact = fields.Nested(ClientContactSchema)
    gig = fields.Nested(ClientGigSchema)
    office = fields.Nested(ClientOfficeSchema, metadata={"description": "its address, contact and bank details"})
    quotes = fields.List(fields.Nested(ClientQuoteSchema), metadata={"description": "sent ones and after"})
    contract = fields.Nested(ClientContractSchema, allow_none=True, metadata={"description": "the latest sent"})
    invoices = fields.List(fields.Nested(ClientInvoiceSchema), metadata={"description": "issued ones and after"})
