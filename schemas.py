"""One marshmallow schema per resource, used to load requests, to describe responses and the OpenAPI document."""

from marshmallow import RAISE, Schema, ValidationError, fields, validate

from errors import flatten, invalid
from fields import (
    Bool,
    Color,
    Country,
    CustomFields,
    Date,
    Email,
    Enum,
    Int,
    Pattern,
    Ref,
    Str,
    Text,
    Time,
    Timestamp,
    TimeZone,
    Url,
)


class BaseSchema(Schema):
    class Meta:
        unknown = RAISE

    # Keys set on create and read-only afterwards (the parent reference of a child record).
    create_only = ()


class RecordSchema(BaseSchema):
    id = fields.UUID(dump_only=True)
    created_at = Timestamp(dump_only=True)
    updated_at = Timestamp(dump_only=True)


def load(schema, data, *, partial=False, blanks=True):
    """The request body `data` checked against `schema`: a dict of the values to store, or 422.

    Unknown and read-only keys are named as such; strings are trimmed; with `blanks`, an empty optional
    string is null and an empty required string is missing.
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
        errors.update(flatten(e.messages))
        values = None
    if errors:
        raise invalid(errors)
    return values


# --- admin ---------------------------------------------------------------------------------------------

ROLE_NAME = r"^[a-z][a-z0-9_-]{0,39}$"


class AccessRoleSchema(RecordSchema):
    name = Pattern(ROLE_NAME, 40, "Lower-case letters, digits, '_' and '-', starting with a letter.", required=True)
    grants = fields.List(
        Str(60), load_default=list, metadata={"description": "`*`, `<group>.*`, `<group>.view`, `<group>.edit`"}
    )
    description = Text()


class UserSchema(RecordSchema):
    email = Email(required=True)
    name = Str(200, required=True)
    roles = fields.List(Str(40), load_default=list, metadata={"description": "names of access roles"})
    active = Bool(load_default=True)


# --- catalog -------------------------------------------------------------------------------------------


class TeamSchema(RecordSchema):
    name = Str(200, required=True)
    description = Text()


class GigTypeSchema(RecordSchema):
    name = Str(200, required=True)
    description = Text()


class GigStatusSchema(RecordSchema):
    name = Str(200, required=True)
    kind = Enum("tentative", "confirmed", "closed", required=True)
    position = Int()
    color = Color()
    is_default = Bool(load_default=False)


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


# --- sign-in, tokens and devices (auth.py) -------------------------------------------------------------


class LinkRequestSchema(BaseSchema):
    email = fields.String(required=True)


class LinkSentSchema(BaseSchema):
    sent = fields.Boolean(dump_only=True)


class ConfirmSchema(BaseSchema):
    token = fields.String(required=True)


class MeUserSchema(BaseSchema):
    id = fields.UUID(dump_only=True)
    email = fields.Email(dump_only=True)
    name = fields.String(dump_only=True)
    roles = fields.List(fields.String(), dump_only=True)


class SessionSchema(BaseSchema):
    token = fields.String(dump_only=True, metadata={"description": "the bearer token; shown only here"})
    kind = fields.String(dump_only=True, validate=validate.OneOf(["session"]))
    expires_at = Timestamp(dump_only=True)
    user = fields.Nested(MeUserSchema, dump_only=True)


class TokenInfoSchema(BaseSchema):
    id = fields.UUID(dump_only=True)
    kind = fields.String(dump_only=True, validate=validate.OneOf(["session", "api_key"]))
    expires_at = Timestamp(dump_only=True)
    label = fields.String(dump_only=True, allow_none=True)


class MeSchema(MeUserSchema):
    token = fields.Nested(TokenInfoSchema, dump_only=True)
    can = fields.Dict(keys=fields.String(), values=fields.Boolean(), dump_only=True)


class ApiKeySchema(BaseSchema):
    id = fields.UUID(dump_only=True)
    label = Str(100, required=True)
    expires_in_days = Int(min=1, max=3650, load_default=365, load_only=True)
    prefix = fields.String(dump_only=True, metadata={"description": "the key's first 12 characters"})
    expires_at = Timestamp(dump_only=True)
    created_at = Timestamp(dump_only=True)
    last_used_at = Timestamp(dump_only=True, allow_none=True)


class NewApiKeySchema(ApiKeySchema):
    key = fields.String(dump_only=True, metadata={"description": "the key itself; shown only in this response"})


class DeviceSchema(RecordSchema):
    token = Str(4096, required=True, metadata={"description": "the push token; identifies the device"})
    platform = Enum("ios", "android", "web", required=True)
    environment = Enum("production", "sandbox", required=True)
    app_version = Str(50, required=True)
    label = Str(100)
