"""The bodies and answers of the first day's operations (SPEC §12.1): the office's settings (`/office`, with its
letterhead of SPEC §15) and a new musician (`/musicians`)."""

from marshmallow import fields, validate

from formats.bank_accounts import Bic, Iban
from formats.currencies import CURRENCIES
from formats.field_types import (
    Bool,
    Cents,
    Country,
    Email,
    Enum,
    Int,
    Pattern,
    Ref,
    Str,
    Text,
    Timestamp,
    TimeZone,
    Url,
)
from models import CLOCKS, DATE_STYLES
from schemas import BaseSchema

LANGUAGE_TAG = r"^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})*$"


class FirstDaySchema(BaseSchema):
    office = fields.Boolean(dump_only=True, metadata={"description": "the office's settings were saved once"})
    product = fields.Boolean(dump_only=True, metadata={"description": "a product has a price"})
    ensemble = fields.Boolean(dump_only=True, metadata={"description": "an ensemble has a role with a rate"})
    musicians = fields.Boolean(dump_only=True, metadata={"description": "there is a staff member"})
    gig = fields.Boolean(dump_only=True, metadata={"description": "there is a gig"})


class LogoSchema(BaseSchema):
    media_type = fields.String(dump_only=True, metadata={"description": "image/png or image/svg+xml"})
    size_bytes = Int(dump_only=True, metadata={"description": "as kept (an SVG as sanitised)"})
    sha256 = fields.String(dump_only=True, metadata={"description": "of the bytes GET /office/logo answers"})
    updated_at = Timestamp(dump_only=True)


class OfficeSchema(BaseSchema):
    name = Str(200, allow_none=False)
    time_zone = TimeZone(
        allow_none=False,
        metadata={"description": "IANA zone of what is shown in the office's time (deadlines, a venue without one)"},
    )
    currency = Str(
        3,
        allow_none=False,
        validate=validate.OneOf(sorted(CURRENCIES), error="Not an ISO 4217 currency code."),
        metadata={"description": "ISO 4217 code of the office's money: prices, rates and pay"},
    )
    language = Pattern(LANGUAGE_TAG, 35, "Not a BCP 47 language tag (such as en or de-AT).", allow_none=False)
    date_style = Enum(*DATE_STYLES, allow_none=False)
    clock = Enum(*CLOCKS, allow_none=False)
    # the letterhead of quotes, contracts and invoices (SPEC §15); an empty string clears a field
    address_line1 = Str(200)
    address_line2 = Str(200)
    postal_code = Str(20)
    city = Str(200)
    country = Country()
    email = Email()
    phone = Str(50)
    website = Url()
    vat_id = Str(50, metadata={"description": "the office's VAT identification number, printed on every invoice"})
    company_register = Str(200, metadata={"description": "the court and number of its entry, if it has one"})
    iban = Iban(metadata={"description": "checked as ISO 13616 says (country, length, mod 97); stored compact"})
    bic = Bic(metadata={"description": "8 or 11 characters (ISO 9362); stored compact"})
    bank_name = Str(200)
    tax_note = Text(metadata={"description": "printed on an invoice whose every tax rate is 0 (an exemption)"})
    invoice_footer = Text(metadata={"description": "printed at the foot of every invoice"})
    logo = fields.Nested(
        LogoSchema,
        dump_only=True,
        allow_none=True,
        metadata={"description": "the logo GET /office/logo answers (PUT /office/logo sets it); null: none"},
    )
    first_day = fields.Nested(FirstDaySchema, dump_only=True, metadata={"description": "the first day's checklist"})
    updated_at = Timestamp(dump_only=True, metadata={"description": "when they were last saved; null: never"})


class MusicianRateSchema(BaseSchema):
    product_id = Ref(required=True)
    amount_cents = Cents(required=True, metadata={"description": "in the office's currency"})


class MusicianSchema(BaseSchema):
    first_name = Str(100, required=True)
    last_name = Str(100, required=True)
    email = Email(metadata={"description": "needed to sign in"})
    phone = Str(50)
    roles = fields.List(
        Ref(required=True),
        load_default=list,
        metadata={"description": "the ids of the roles they play, the first their primary one"},
    )
    rates = fields.List(
        fields.Nested(MusicianRateSchema),
        load_default=list,
        metadata={"description": "their own pay per product (needs pay.edit)"},
    )
    can_sign_in = Bool(
        load_default=False,
        metadata={"description": "make and link a user of the staff access role, and mail them a welcome link"},
    )
