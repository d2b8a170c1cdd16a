"""The answers of the client's link (SPEC §16): the link as it is made, and what `GET /v1/client` shows its
holder (`domain/sales/client_view.py`): plain fields, read only."""

from marshmallow import ValidationError, fields, validates

from formats import signatures
from formats.field_types import Bool, Date, Str, Time, Timestamp
from formats.operation_schemas import PlaceSchema, TimesSchema
from formats.wish_schemas import WishesSchema
from schemas import BaseSchema

Text = fields.String


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
    planning_locks_on = Date(allow_none=False, metadata={"description": "their wishes are read only from this day on"})


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


def shown(record):
    """The component of a record as its collection's GET shows it (to `sales.view`)."""
    return {"$ref": f"#/components/schemas/{record}"}


def records_of(record, description=None):
    said = {"description": description} if description else {}
    return fields.Raw(metadata={"type": "array", "items": shown(record), **said})


class PaymentCodeSchema(BaseSchema):
    invoice_id = fields.UUID()
    svg = Text(metadata={"description": 'the invoice\'s EPC QR code ("GiroCode": IBAN, amount, number) as SVG'})
    text = Text(metadata={"description": "the code's text (EPC069-12), for an app that draws or reads it itself"})


class ClientViewSchema(BaseSchema):
    contact = fields.Nested(ClientContactSchema)
    language = Text(
        metadata={
            "description": "BCP 47: the contact's `language`, in the office's region when the office speaks it too "
            "(`de-AT`)"
        }
    )
    gig = fields.Nested(ClientGigSchema)
    office = fields.Nested(ClientOfficeSchema, metadata={"description": "its address, contact and bank details"})
    quotes = records_of("Quote", "theirs, sent and after")
    quote_lines = records_of("QuoteLine")
    contract = fields.Raw(
        allow_none=True, metadata={"anyOf": [shown("Contract"), {"type": "null"}], "description": "the latest sent"}
    )
    invoices = records_of("Invoice", "theirs, issued and after")
    invoice_lines = records_of("InvoiceLine")
    payment_codes = fields.List(fields.Nested(PaymentCodeSchema), metadata={"description": "of their open invoices"})
    wishes = fields.Nested(WishesSchema, metadata={"description": "their timeline, song wishes and notes (§16)"})


class ClientAcceptSchema(BaseSchema):
    """Nothing: an accept says no more (a field sent is 422, named)."""


class ClientDeclineSchema(BaseSchema):
    message = Str(2000, metadata={"description": "the client's words to the office, kept in the event's data"})


class ClientSignSchema(BaseSchema):
    full_name = Str(200, required=True, metadata={"description": "the signer's full name, as they typed it"})
    consent = Bool(
        required=True, metadata={"description": 'must be true: "I agree to sign this contract electronically"'}
    )
    signature_svg = fields.String(
        required=True,
        metadata={
            "description": f"the drawn signature as SVG, at most {signatures.MAX_BYTES // 1024} KB; kept are its "
            "paths, polylines, lines and circles with their geometry and stroke, nothing else"
        },
    )

    @validates("consent")
    def consent_given(self, value, **kwargs):
        if value is not True:
            raise ValidationError("Tick the box to agree to sign this contract electronically.")
