"""One marshmallow schema per resource, used to load requests, to describe responses and the OpenAPI document."""

from marshmallow import RAISE, Schema, ValidationError, fields, validate

from domain import office
from domain.errors import flatten, invalid
from domain.sales import contract_text
from formats.client_words import default_language
from formats.field_types import (
    NUL_MESSAGE,
    Bool,
    Cents,
    Color,
    Country,
    CustomFields,
    Date,
    Email,
    Enum,
    Int,
    Pattern,
    Pay,
    ReceiverUrl,
    Ref,
    Str,
    Text,
    Time,
    Timestamp,
    TimeZone,
    Url,
    nul_places,
)
from models import (
    CLIENT_LANGUAGES,
    CONTRACT_STATUSES,
    CUSTOM_FIELD_RESOURCES,
    GIG_STATUS_KINDS,
    INVITATION_STATUSES,
    INVOICE_KINDS,
    INVOICE_STATUSES,
    PAYMENT_METHODS,
    QUOTE_STATUSES,
    SONG_KINDS,
)


class BaseSchema(Schema):
    class Meta:
        unknown = RAISE

    # Keys set on create and read-only afterwards (the parent reference of a child record).
    create_only = ()


class RecordSchema(BaseSchema):
    id = fields.UUID(dump_only=True)
    created_at = Timestamp(dump_only=True, allow_none=False)
    updated_at = Timestamp(dump_only=True, allow_none=False)


def load(schema, data, *, partial=False, blanks=True):
    """The request body `data` checked against `schema`: a dict of the values to store, or 422.

    Unknown and read-only keys are named as such, and every place of a value whose text holds U+0000; strings are
    trimmed; with `blanks`, an empty optional string is null and an empty required string is missing.
    """
    if not isinstance(data, dict):
        raise invalid({"_body": ["Expected a JSON object."]})
    errors, clean = {}, {}
    for key, value in data.items():
        field = schema.fields.get(key)
        if field is None:
            errors[key] = ["Unknown field."]
        elif field.dump_only:
            errors[key] = ["Read-only field."]
        elif partial and key in schema.create_only:
            errors[key] = ["Set on create; read-only afterwards."]
        elif held := nul_places(value, key):
            errors.update({place: [NUL_MESSAGE] for place in held})
        elif blanks and isinstance(value, str) and isinstance(field, fields.String) and not value.strip():
            if not field.required:
                clean[key] = None
            elif partial:
                errors[key] = ["Field may not be empty."]
        else:
            clean[key] = value
    try:
        values = schema.load(clean, partial=partial)
    except ValidationError as e:
        errors = {**flatten(e.messages), **errors}  # a required field refused above is not missing too
        values = None
    if errors:
        raise invalid(errors)
    return values


# --- admin ---------------------------------------------------------------------------------------------

ROLE_NAME = r"^[a-z][a-z0-9_-]{0,39}$"


class AccessRoleSchema(RecordSchema):
    name = Pattern(ROLE_NAME, 40, "Lower-case letters, digits, '_' and '-', starting with a letter.", required=True)
    grants = fields.List(
        Str(60, required=True),
        load_default=list,
        metadata={"description": "`*`, `<group>.*`, `<group>.view`, `<group>.edit`"},
    )
    description = Text()


class UserSchema(RecordSchema):
    email = Email(required=True)
    name = Str(200, required=True)
    roles = fields.List(Str(40, required=True), load_default=list, metadata={"description": "names of access roles"})
    active = Bool(load_default=True)


# An exact event type, every type of one record (`gig.*`), or every type (`*`)
EVENT_TYPE_PATTERN = r"^(\*|[a-z][a-z0-9_]{0,59}\.(\*|[a-z][a-z0-9_]{0,39}))$"


class WebhookEndpointSchema(RecordSchema):
    url = ReceiverUrl(required=True)
    description = Text()
    event_types = fields.List(
        Pattern(EVENT_TYPE_PATTERN, 100, "Not an event type, `<record>.*` or `*`.", required=True),
        load_default=lambda: ["*"],
        validate=validate.Length(min=1, max=100, error="Give 1 to 100 event types."),
        metadata={"description": "the events sent: exact types (`gig.updated`), `<record>.*` or `*`"},
    )
    include_pay = Bool(load_default=False, metadata={"description": "false: pay amounts in the payload read null"})
    include_sales = Bool(
        load_default=False,
        metadata={"description": "false: no event of money in (quotes, contracts, invoices, payments) is sent"},
    )
    is_active = Bool(load_default=True)
    disabled_reason = Str(dump_only=True, metadata={"description": "why the service disabled it, if it did"})
    secret_prefix = Str(
        dump_only=True, allow_none=False, metadata={"description": "the first characters of the signing secret"}
    )


# --- catalog -------------------------------------------------------------------------------------------


def Currency(**kwargs):
    """ISO 4217; absent on create means the office's currency (/office)."""
    return Pattern(
        r"^[A-Z]{3}$",
        3,
        "Not an ISO 4217 currency code (three capital letters).",
        allow_none=False,
        metadata={"description": "ISO 4217 code; defaults to the office's currency"},
        **kwargs,
    )


class TeamSchema(RecordSchema):
    name = Str(200, required=True)
    description = Text()


class RoleSchema(RecordSchema):
    name = Str(200, required=True)
    team_id = Ref()
    description = Text()
    position = Int()


class ProductSchema(RecordSchema):
    name = Str(200, required=True)
    description = Text()
    default_duration_minutes = Int(min=0)
    active = Bool(load_default=True)
    position = Int()


class EnsembleSchema(RecordSchema):
    name = Str(200, required=True)
    description = Text()
    active = Bool(load_default=True)


class EnsembleRoleSchema(RecordSchema):
    create_only = ("ensemble_id",)
    ensemble_id = Ref(required=True)
    role_id = Ref(required=True)
    quantity = Int(min=1, load_default=1)


class ProductEnsembleSchema(RecordSchema):
    create_only = ("product_id",)
    product_id = Ref(required=True)
    ensemble_id = Ref(required=True)
    is_default = Bool(
        load_default=False, metadata={"description": "one default per product: setting it clears the others"}
    )


class PriceSchema(RecordSchema):
    create_only = ("product_id",)
    product_id = Ref(required=True)
    ensemble_id = Ref(metadata={"description": "the price for this ensemble; null: for any ensemble"})
    amount_cents = Cents(required=True)
    currency = Currency()
    valid_from = Date()
    valid_to = Date(metadata={"description": "inclusive; not before valid_from"})
    label = Str(100)


class MomentSchema(RecordSchema):
    name = Str(200, required=True)
    description = Text()
    position = Int()


class SongSchema(RecordSchema):
    title = Str(200, required=True)
    artist = Str(200)
    musical_key = Str(10)
    tempo_bpm = Int(min=20, max=400)
    duration_seconds = Int(min=0)
    genre = Str(100)
    notes = Text()
    active = Bool(load_default=True)


class GigTypeSchema(RecordSchema):
    name = Str(200, required=True)
    description = Text()


class GigStatusSchema(RecordSchema):
    name = Str(200, required=True)
    kind = Enum(
        *GIG_STATUS_KINDS,
        required=True,
        metadata={"description": "completed (played) and cancelled gigs are not live: they take no new roles"},
    )
    position = Int()
    color = Color()
    is_default = Bool(load_default=False, metadata={"description": "the status new gigs get; one at a time"})


class CustomFieldSchema(RecordSchema):
    create_only = ("resource", "key", "field_type")
    resource = Enum(*CUSTOM_FIELD_RESOURCES, required=True)
    key = Pattern(
        r"^[a-z][a-z0-9_]{0,39}$", 40, "Lower-case letters, digits and '_', starting with a letter.", required=True
    )
    label = Str(100, required=True)
    field_type = Enum("text", "number", "boolean", "date", "select", required=True)
    options = fields.List(Str(200, required=True), allow_none=True, metadata={"description": "the choices of a select"})
    required = Bool(load_default=False, metadata={"description": "a value must be given when a record is created"})
    position = Int()


# --- gigs ----------------------------------------------------------------------------------------------


class VenueSchema(RecordSchema):
    name = Str(200, required=True)
    address_line1 = Str(200)
    address_line2 = Str(200)
    city = Str(200)
    region = Str(200)
    postal_code = Str(200)
    country = Country()
    timezone = TimeZone()
    phone = Str(50)
    email = Email()
    website = Url()
    notes = Text()
    load_in_notes = Text()
    custom_fields = CustomFields(load_default=dict)


class GigSchema(RecordSchema):
    gig_date = Date(required=True)
    title = Str(200, required=True)
    gig_status_id = Ref(metadata={"description": "defaults to the gig status marked `is_default`"})
    gig_type_id = Ref()
    venue_id = Ref()
    start_time = Time()
    end_time = Time(metadata={"description": "may be before start_time: the gig runs past midnight"})
    load_in_time = Time()
    guest_count = Int(min=0)
    notes = Text()
    custom_fields = CustomFields(load_default=dict)
    role_count = fields.Int(dump_only=True, metadata={"description": "how many roles the gig has"})
    open_role_count = fields.Int(dump_only=True, metadata={"description": "how many of its roles are open"})
    pending_invitation_count = fields.Int(
        dump_only=True,
        metadata={"description": "how many invitations to its roles await an answer (one past expires_at does not)"},
    )
    quote_status = fields.Str(
        dump_only=True,
        allow_none=True,
        metadata={"group": "sales", "description": "its latest quote's (sales.view only); null without one"},
    )
    contract_status = fields.Str(
        dump_only=True,
        allow_none=True,
        metadata={"group": "sales", "description": "its latest contract's (sales.view only); null without one"},
    )
    open_invoice_cents = fields.Int(
        dump_only=True,
        metadata={
            "group": "sales",
            "description": "what its issued invoices await (sales.view only)",
        },
    )
    deposit_overdue = fields.Bool(
        dump_only=True,
        metadata={
            "group": "sales",
            "description": "its deposit is open past its due date (sales.view only)",
        },
    )


class GigProductSchema(RecordSchema):
    create_only = ("gig_id",)
    gig_id = Ref(required=True)
    product_id = Ref(required=True)
    ensemble_id = Ref(metadata={"description": "one of the ensembles offered for the product, if it has any"})
    start_time = Time()
    end_time = Time()
    price_cents = Cents(metadata={"description": "absent on create: the catalog price for the gig's date"})
    notes = Text()
    position = Int()


class GigMomentSchema(RecordSchema):
    create_only = ("gig_id",)
    gig_id = Ref(required=True)
    moment_id = Ref()
    name = Str(200, metadata={"description": "required unless moment_id is given (then defaults to its name)"})
    time = Time()
    gig_product_id = Ref(metadata={"description": "a gig product of the same gig"})
    notes = Text()
    position = Int()
    proposed_time = Time(metadata={"description": "the time the couple proposes on their page (SPEC §16)"})
    proposed_note = Text(metadata={"description": "the couple's note on it, from their page"})


class GigSongSchema(RecordSchema):
    create_only = ("gig_id",)
    gig_id = Ref(required=True)
    song_id = Ref()
    title = Str(200, metadata={"description": "required unless song_id is given (then defaults to its title)"})
    artist = Str(200)
    kind = Enum(*SONG_KINDS, load_default="request")
    gig_moment_id = Ref(metadata={"description": "a gig moment of the same gig"})
    notes = Text()
    position = Int()
    link = Url(metadata={"description": "where to hear it (http or https)"})
    from_client = Bool(dump_only=True, metadata={"description": "the couple added it on their page: theirs to change"})


class ClientNoteSchema(RecordSchema):
    create_only = ("gig_id",)
    gig_id = Ref(required=True)
    contact_id = Ref(metadata={"description": "the gig's contact who wrote it on their page (SPEC §16)"})
    body = Str(2000, required=True)


class GigContactSchema(RecordSchema):
    create_only = ("gig_id",)
    gig_id = Ref(required=True)
    contact_id = Ref(required=True)
    relationship = Str(100)
    is_primary = Bool(load_default=False, metadata={"description": "one primary contact per gig"})


class AttachmentSchema(RecordSchema):
    create_only = ("gig_id",)
    gig_id = Ref(required=True)
    filename = Str(255, required=True)
    content_type = fields.String(dump_only=True)
    size_bytes = fields.Integer(dump_only=True)
    sha256 = fields.String(dump_only=True)
    description = Text()


# --- staffing ------------------------------------------------------------------------------------------


class GigRoleSchema(RecordSchema):
    create_only = ("gig_id",)
    gig_id = Ref(required=True)
    role_id = Ref(required=True)
    gig_product_id = Ref(metadata={"description": "a gig product of the same gig"})
    staff_member_id = Ref(metadata={"description": "who fills the role; they must hold it and be available"})
    call_time = Time()
    pay_cents = Pay(metadata={"description": "overrides the rates; null without pay.view, set with pay.edit"})
    notes = Text()
    status = Enum("open", "filled", dump_only=True, allow_none=False)


class GigRoleInvitationSchema(RecordSchema):
    create_only = ("gig_role_id", "staff_member_id")
    gig_role_id = Ref(required=True)
    staff_member_id = Ref(required=True)
    message = Text()
    expires_at = Timestamp(
        allow_none=False, metadata={"description": "in the future; default BAND_INVITATION_HOURS (72) from now"}
    )
    status = Enum(*INVITATION_STATUSES, dump_only=True, allow_none=False)
    responded_at = Timestamp(dump_only=True)


class StaffMemberRoleSchema(RecordSchema):
    create_only = ("staff_member_id",)
    staff_member_id = Ref(required=True)
    role_id = Ref(required=True)
    is_primary = Bool(load_default=False)


class StaffMemberBlockoutSchema(RecordSchema):
    create_only = ("staff_member_id",)
    staff_member_id = Ref(required=True)
    start_date = Date(required=True)
    end_date = Date(required=True, metadata={"description": "inclusive; not before start_date"})
    reason = Str(200)


# --- production ----------------------------------------------------------------------------------------


class EquipmentTypeSchema(RecordSchema):
    name = Str(200, required=True)
    description = Text()


class EquipmentSchema(RecordSchema):
    equipment_type_id = Ref(required=True)
    name = Str(200, required=True)
    serial_number = Str(100)
    status = Enum("available", "in_repair", "retired", load_default="available")
    purchased_on = Date()
    notes = Text()
    custom_fields = CustomFields(load_default=dict)


class ProductEquipmentSchema(RecordSchema):
    create_only = ("product_id",)
    product_id = Ref(required=True)
    equipment_type_id = Ref(required=True)
    quantity = Int(min=1, load_default=1)


class GigEquipmentSchema(RecordSchema):
    create_only = ("gig_id",)
    gig_id = Ref(required=True)
    equipment_id = Ref(required=True)
    notes = Text()


class EquipmentIssueSchema(RecordSchema):
    create_only = ("equipment_id",)
    equipment_id = Ref(required=True)
    title = Str(200, required=True)
    description = Text()
    severity = Enum("low", "medium", "high", load_default="medium")
    status = Enum("open", "resolved", load_default="open")
    reported_by_user_id = fields.UUID(dump_only=True, allow_none=True)
    resolved_at = Timestamp(dump_only=True)


# --- people --------------------------------------------------------------------------------------------


class StaffMemberSchema(RecordSchema):
    first_name = Str(100, required=True)
    last_name = Str(100, required=True)
    email = Email()
    phone = Str(50)
    user_id = Ref(
        metadata={
            "description": "the user who signs in as this staff member (and may answer their invitations); "
            "setting it needs admin.edit",
            "edit_group": "admin",
        }
    )
    active = Bool(load_default=True)
    notes = Text()
    custom_fields = CustomFields(load_default=dict)


def ClientLanguage(description):
    """A client's language (en or de), by default the office's when a client may read it, else en."""
    return Enum(
        *CLIENT_LANGUAGES,
        load_default=lambda: default_language(office.current().language),
        metadata={"description": f"{description}; by default the office's language when a client may read it, else en"},
    )


class ContactSchema(RecordSchema):
    first_name = Str(100, required=True)
    last_name = Str(100)
    email = Email()
    phone = Str(50)
    company = Str(200)
    notes = Text()
    custom_fields = CustomFields(load_default=dict)
    language = ClientLanguage("the language the client reads: their mails, documents and client page (SPEC §16)")


# --- pay -----------------------------------------------------------------------------------------------


class RateSchema(RecordSchema):
    role_id = Ref(required=True)
    product_id = Ref(metadata={"description": "null: the role's default rate"})
    amount_cents = Cents(required=True)
    currency = Currency()


class StaffMemberProductRateSchema(RecordSchema):
    create_only = ("staff_member_id",)
    staff_member_id = Ref(required=True)
    product_id = Ref(required=True)
    amount_cents = Cents(required=True)
    currency = Currency()


# --- sales (SPEC §15) -----------------------------------------------------------------------------------

NUMBER = "assigned when it is sent or issued: consecutive per year"
ANSWERED_BY = "`client`, or the id of the user who answered on the client's behalf"


def Amount(description, **kwargs):
    """A sum of money kept by the service (a document's totals), in minor units."""
    return fields.Int(dump_only=True, allow_none=False, metadata={"description": description}, **kwargs)


class QuoteSchema(RecordSchema):
    create_only = ("gig_id",)
    gig_id = Ref(required=True)
    contact_id = Ref(metadata={"description": "the addressee; absent on create: the gig's primary contact"})
    currency = Currency()
    valid_until = Date(allow_none=False, metadata={"description": "absent on create: today + BAND_QUOTE_DAYS (14)"})
    intro = Text()
    terms = Text()
    deposit_percent = Int(min=0, max=100, allow_none=False, metadata={"description": "default BAND_DEPOSIT_PERCENT"})
    deposit_due_days = Int(min=0, load_default=14, metadata={"description": "days after signing"})
    balance_due_days = Int(min=0, load_default=14, metadata={"description": "days before the gig"})
    number = Str(dump_only=True, metadata={"description": NUMBER + " (Q-YYYY-NNNN)"})
    status = Enum(*QUOTE_STATUSES, dump_only=True, allow_none=False)
    sent_at = Timestamp(dump_only=True)
    responded_at = Timestamp(dump_only=True)
    responded_by = Str(dump_only=True, metadata={"description": ANSWERED_BY})
    net_cents = Amount("the lines' net total")
    tax_cents = Amount("the tax of each rate's net total, rounded half up, summed")
    gross_cents = Amount("net and tax")


class LineSchema(RecordSchema):
    """What a quote's and an invoice's lines hold besides their document."""

    description = Str(300, required=True)
    quantity = Int(min=1, load_default=1)
    unit_price_cents = Int(required=True, metadata={"description": "net, in minor units; negative for a discount"})
    tax_rate_bp = Int(min=0, max=10000, allow_none=False, metadata={"description": "2000 = 20 %; BAND_TAX_RATE_BP"})
    gig_product_id = Ref(metadata={"description": "a gig product of the document's gig"})
    position = Int()


class QuoteLineSchema(LineSchema):
    create_only = ("quote_id",)
    quote_id = Ref(required=True, metadata={"description": "a draft quote"})


MERGED = ", ".join(contract_text.MERGE_FIELDS)  # what GET /contract-merge-fields describes


class ContractTemplateSchema(RecordSchema):
    name = Str(200, required=True)
    body = Text(
        required=True, metadata={"description": f"the contract's text with merge fields `{{{{ name }}}}`: {MERGED}"}
    )
    is_default = Bool(load_default=False, metadata={"description": "the template of new contracts; one at a time"})
    active = Bool(load_default=True)


class ContractSchema(RecordSchema):
    create_only = ("gig_id",)
    gig_id = Ref(required=True)
    template_id = Ref(metadata={"description": "absent on create: the default template, if one is marked"})
    quote_id = Ref(metadata={"description": "a quote of the same gig"})
    body = Text(metadata={"description": "absent on create: the template rendered; plain text, changes while draft"})
    number = Str(dump_only=True, metadata={"description": NUMBER + " (C-YYYY-NNNN)"})
    status = Enum(*CONTRACT_STATUSES, dump_only=True, allow_none=False)
    sha256 = Str(dump_only=True, metadata={"description": "of the text as sent"})
    sent_at = Timestamp(dump_only=True)
    signed_at = Timestamp(dump_only=True)
    signed_name = Str(dump_only=True)
    signed_ip = Str(dump_only=True)
    signed_user_agent = Str(dump_only=True)
    signed_by = Str(dump_only=True, metadata={"description": ANSWERED_BY})
    void_reason = Str(dump_only=True)


class InvoiceSchema(RecordSchema):
    create_only = ("gig_id",)
    gig_id = Ref(required=True)
    contact_id = Ref(metadata={"description": "the addressee; absent on create: the gig's primary contact"})
    kind = Enum(
        *INVOICE_KINDS, required=True, metadata={"description": "a credit note is made by crediting an invoice"}
    )
    currency = Currency()
    service_date = Date(allow_none=False, metadata={"description": "absent on create: the gig's date"})
    due_date = Date()
    notes = Text()
    number = Str(dump_only=True, metadata={"description": NUMBER + " (YYYY-NNNN, credit notes too)"})
    status = Enum(*INVOICE_STATUSES, dump_only=True, allow_none=False)
    issued_at = Timestamp(dump_only=True)
    net_cents = Amount("the lines' net total")
    tax_cents = Amount("the tax of each rate's net total, rounded half up, summed")
    gross_cents = Amount("net and tax")
    paid_cents = Amount("the payments' total")
    open_cents = Amount("gross less payments and credit notes, plus money paid back; below 0: owed to the client")
    credits_invoice_id = fields.UUID(
        dump_only=True, allow_none=True, metadata={"description": "a credit note's: the invoice it credits"}
    )
    e_invoice = Bool(
        load_default=False,
        metadata={
            "description": "true: once issued, its PDF carries its Factur-X XML (EN 16931) for the client's "
            "accounting; an invoice to a contact with a `company` carries it anyway"
        },
    )


class InvoiceLineSchema(LineSchema):
    create_only = ("invoice_id",)
    invoice_id = Ref(required=True, metadata={"description": "a draft invoice"})


class PaymentSchema(RecordSchema):
    create_only = ("invoice_id",)
    invoice_id = Ref(required=True, metadata={"description": "an issued invoice, not yet paid in full"})
    amount_cents = Int(
        required=True,
        metadata={"description": "more than 0, at most the open amount; on a credit note less than 0: money paid back"},
    )
    received_on = Date(required=True)
    method = Enum(*PAYMENT_METHODS, load_default="bank_transfer")
    reference = Str(200)
    notes = Text()
