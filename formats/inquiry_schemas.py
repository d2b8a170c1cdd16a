"""The public bodies of new couples (SPEC §16): an inquiry as the form sends it, its answer, the products the form
lists, a date's availability."""

from marshmallow import ValidationError, fields, validate

from formats.field_types import Bool, Date, Email, Int, Ref, Str
from schemas import BaseSchema, ClientLanguage

MESSAGE_CHARS = 5000
MAX_PRODUCTS = 20


def consented(value):
    if value is not True:
        raise ValidationError("Tick the box to let us keep your details and answer you.")


class InquirySchema(BaseSchema):
    names = Str(100, required=True, metadata={"description": "the couple's names, e.g. `Anna & Ben`"})
    email = Email(required=True)
    phone = Str(50)
    gig_date = Date(required=True, metadata={"description": "from today to 3 years ahead"})
    venue_name = Str(200)
    city = Str(200)
    guest_count = Int(min=1, max=10000)
    product_ids = fields.List(
        Ref(required=True),
        validate=validate.Length(max=MAX_PRODUCTS, error=f"At most {MAX_PRODUCTS} products."),
        load_default=list,
        metadata={"description": "ids of `GET /v1/public/products`; any but an active product's is left out"},
    )
    message = Str(MESSAGE_CHARS)
    language = ClientLanguage("the new contact's language: of their acknowledgement and mails (the form sends its own)")
    consent = Bool(required=True, validate=consented, metadata={"description": "must be `true`"})
    form_token = Str(
        200,
        metadata={
            "description": "the token the form page `/inquire` is served with; an inquiry without a good one, "
            "or sent within 3 s of it or more than a day after, is answered 202 and kept nowhere"
        },
    )
    website = Str(
        2000,
        metadata={"description": "the honeypot, left empty by people: one with it is answered 202, kept nowhere"},
    )


class ReceivedSchema(BaseSchema):
    received = fields.Boolean(dump_only=True, metadata={"description": "always `true`"})


class PublicProductSchema(BaseSchema):
    id = fields.UUID(dump_only=True)
    name = fields.String(dump_only=True)


class AvailabilitySchema(BaseSchema):
    date = Date(dump_only=True, allow_none=False)
    available = fields.Boolean(
        dump_only=True, metadata={"description": "false: that date's tentative and confirmed gigs fill it"}
    )
