"""The bodies of the operations that are not collections: sign-in, /me, API keys, devices, health, and the
domain operations of §5. Used to load requests where there are any, and to describe every answer in the
OpenAPI document."""

from marshmallow import ValidationError, fields, validate, validates_schema

from formats import push_tokens
from formats.field_types import Bool, Date, Email, Enum, Int, Ref, Str, Text, Time, Timestamp
from models import (
    CHANNEL_STATES,
    DELIVERY_STATUSES,
    GIG_STATUS_KINDS,
    INVITATION_STATUSES,
    NOTIFICATION_TYPES,
    PUSH_PLATFORMS,
    SONG_KINDS,
)
from schemas import BaseSchema, GigEquipmentSchema, RecordSchema, StaffMemberBlockoutSchema, WebhookEndpointSchema

# --- sign-in, tokens and devices -----------------------------------------------------------------------


class SignInLinkSchema(BaseSchema):
    email = fields.String(required=True)


class LinkSentSchema(BaseSchema):
    sent = fields.Boolean(dump_only=True)


class ConfirmSchema(BaseSchema):
    token = fields.String(required=True)


class SetupSchema(BaseSchema):
    token = fields.String(required=True, metadata={"description": "the token of the setup link `serve` printed"})
    name = Str(200, required=True)
    email = Email(required=True)


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


class OfficeSchema(BaseSchema):
    currency = fields.String(
        dump_only=True,
        metadata={"description": "ISO 4217 currency of amounts that carry none of their own: the office's (/office)"},
    )


class MeSchema(MeUserSchema):
    token = fields.Nested(TokenInfoSchema, dump_only=True)
    can = fields.Dict(keys=fields.String(), values=fields.Boolean(), dump_only=True)
    office = fields.Nested(OfficeSchema, dump_only=True, metadata={"description": "what every client shares"})
    staff_member_id = fields.UUID(
        dump_only=True, allow_none=True, metadata={"description": "the staff member linked to you (/me/...), or null"}
    )


class ApiKeySchema(BaseSchema):
    id = fields.UUID(dump_only=True)
    label = Str(100, required=True)
    expires_in_days = Int(min=1, max=3650, load_default=365, load_only=True)
    prefix = fields.String(dump_only=True, metadata={"description": "the key's first 12 characters"})
    expires_at = Timestamp(dump_only=True)
    created_at = Timestamp(dump_only=True)
    last_used_at = Timestamp(dump_only=True, allow_none=True)


class NewApiKeySchema(ApiKeySchema):
    class Meta:
        exclude = ("last_used_at",)

    key = fields.String(dump_only=True, metadata={"description": "the key itself; shown only in this response"})


class DeviceSchema(RecordSchema):
    token = Str(
        push_tokens.SUBSCRIPTION_BYTES,
        required=True,
        metadata={
            "description": f"the push token; identifies the device: at most {push_tokens.TOKEN_BYTES} bytes in UTF-8 "
            f"(a `web` PushSubscription {push_tokens.SUBSCRIPTION_BYTES}), no control characters, of the platform's "
            "shape. The endpoint a `unifiedpush` or `web` push goes to must name a public address (422 at `token` "
            "for loopback, private, link-local, unique-local, multicast and reserved addresses in any spelling, or "
            "a name resolving to one), unless the server's BAND_PUSH_PRIVATE_HOSTS names its host",
            "minLength": 1,
        },
    )
    platform = Enum(*PUSH_PLATFORMS, required=True)
    environment = Enum("production", "sandbox", required=True)
    app_version = Str(50, required=True)
    label = Str(100)

    @validates_schema
    def token_fits_platform(self, data, **kwargs):
        try:
            push_tokens.check(data.get("platform"), data.get("token"))
        except ValueError as error:
            raise ValidationError(str(error), "token") from None


# --- the service and the domain operations -------------------------------------------------------------


class IndexSchema(BaseSchema):
    name = fields.String(dump_only=True)
    version = fields.String(dump_only=True)
    docs = fields.String(dump_only=True, metadata={"description": "the reference page"})
    openapi = fields.String(dump_only=True, metadata={"description": "the OpenAPI document"})


class WebPushKeySchema(BaseSchema):
    public_key = fields.String(dump_only=True, metadata={"description": "a P-256 point in base64url"})


class HealthSchema(BaseSchema):
    status = fields.String(dump_only=True, validate=validate.OneOf(["ok"]))
    version = fields.String(dump_only=True)
    schema_version = fields.Integer(dump_only=True)


class BusyWithSchema(BaseSchema):
    gig_id = fields.UUID(dump_only=True)
    title = fields.String(dump_only=True)
    gig_date = fields.Date(dump_only=True)
    start_time = fields.String(dump_only=True, allow_none=True, metadata={"description": "HH:MM, the venue's time"})
    end_time = fields.String(dump_only=True, allow_none=True, metadata={"description": "HH:MM, the venue's time"})


class CandidateSchema(BaseSchema):
    staff_member_id = fields.UUID(dump_only=True)
    first_name = fields.String(dump_only=True)
    last_name = fields.String(dump_only=True)
    is_primary = fields.Boolean(dump_only=True)
    available = fields.Boolean(dump_only=True)
    reasons = fields.List(
        fields.String(validate=validate.OneOf(["blocked_out", "double_booked", "invited", "declined"])),
        dump_only=True,
        metadata={"description": "why the staff member is not available; empty when available"},
    )
    amount_cents = fields.Integer(
        dump_only=True, allow_none=True, metadata={"description": "the pay they would get; null without pay.view"}
    )
    busy_with = fields.Nested(
        BusyWithSchema,
        dump_only=True,
        allow_none=True,
        metadata={
            "description": "the other live gig they play at that time (why double_booked); null when none, or "
            "for a caller without gigs.view"
        },
    )


def pay_source():
    return fields.String(
        dump_only=True,
        validate=validate.OneOf(["gig_role", "staff_member_product_rate", "rate", "role_default_rate", "none"]),
        metadata={"description": "where the amount comes from (§5.5)"},
    )


class PayLineSchema(BaseSchema):
    gig_role_id = fields.UUID(dump_only=True)
    role_id = fields.UUID(dump_only=True)
    staff_member_id = fields.UUID(dump_only=True, allow_none=True)
    amount_cents = fields.Integer(dump_only=True, allow_none=True)
    source = pay_source()


class StaffPaySchema(BaseSchema):
    staff_member_id = fields.UUID(dump_only=True)
    first_name = fields.String(dump_only=True)
    last_name = fields.String(dump_only=True)
    gigs = fields.Integer(dump_only=True, metadata={"description": "how many gigs"})
    total_cents = fields.Integer(dump_only=True)


class ShortageSchema(BaseSchema):
    equipment_type_id = fields.UUID(dump_only=True)
    missing = fields.Integer(dump_only=True, metadata={"minimum": 1})


class GeneratedEquipmentSchema(BaseSchema):
    assigned = fields.List(fields.Nested(GigEquipmentSchema), dump_only=True)
    shortages = fields.List(fields.Nested(ShortageSchema), dump_only=True)


class ActorSchema(BaseSchema):
    user_id = fields.UUID(dump_only=True, allow_none=True, metadata={"description": "null for a client"})
    name = fields.String(dump_only=True)
    token_kind = fields.String(
        dump_only=True,
        validate=validate.OneOf(["session", "api_key", "link", "client"]),
        metadata={
            "description": "link: the invitee's user, answering with the link of an invitation's message; client: "
            "the gig's client on their page (SPEC §16), named as the gig contact"
        },
    )


class SubjectSchema(BaseSchema):
    collection = fields.String(dump_only=True, metadata={"description": "the collection, `_` for `-`"})
    id = fields.UUID(dump_only=True)


class EventSchema(BaseSchema):
    id = fields.UUID(dump_only=True)
    seq = fields.Integer(dump_only=True, metadata={"description": "the order in which changes were committed"})
    type = fields.String(dump_only=True, metadata={"description": "`<record>.<verb>`, e.g. gig.updated"})
    occurred_at = Timestamp(dump_only=True)
    actor = fields.Nested(ActorSchema, dump_only=True, allow_none=True, metadata={"description": "null: the service"})
    request_id = fields.String(dump_only=True, allow_none=True)
    subject = fields.Nested(SubjectSchema, dump_only=True)
    gig_id = fields.UUID(dump_only=True, allow_none=True, metadata={"description": "the gig the subject belongs to"})
    data = fields.Dict(dump_only=True, metadata={"description": "the subject as the API showed it (before a delete)"})
    changes = fields.Dict(
        dump_only=True, allow_none=True, metadata={"description": "updates: {field: {from, to}} of what changed"}
    )


class CalendarUrlSchema(BaseSchema):
    url = fields.String(
        dump_only=True, metadata={"format": "uri", "description": "an iCalendar feed; its address is its only key"}
    )
    webcal_url = fields.String(
        dump_only=True,
        metadata={"format": "uri", "description": "`url` as `webcal://`: opened on a phone, its calendar subscribes"},
    )
    qr_code = fields.List(
        fields.String(metadata={"pattern": "^[01]+$"}),
        dump_only=True,
        metadata={
            "description": "`webcal_url` as a QR code to draw: its rows top to bottom, `1` a dark module and `0` a "
            "light one; square, without the quiet zone (leave 4 light modules around it)"
        },
    )


# --- answer links (§9) ------------------------------------------------------------------------------------

ANSWER_TOKEN = fields.String(
    required=True,
    metadata={
        "description": "the answer link's token (after `#token=`); past the invitation's expires_at it is refused "
        "(401, details.reason invitation_expired, or link_expired when the invitation was answered or withdrawn), "
        "and while the invited staff member or their user is inactive (401, details.reason member_inactive)"
    },
)


class InvitationTokenSchema(BaseSchema):
    token = ANSWER_TOKEN


class InvitationAnswerSchema(BaseSchema):
    token = ANSWER_TOKEN
    answer = Enum(
        "accept",
        "decline",
        required=True,
        metadata={"description": "a 409 invitation_not_pending names the invitation's status in details.status"},
    )


class PlaceSchema(BaseSchema):
    name = fields.String(dump_only=True)
    address = fields.String(dump_only=True, allow_none=True, metadata={"description": "one line; null: none known"})
    timezone = fields.String(dump_only=True, allow_none=True)


class TimesSchema(BaseSchema):
    name = fields.String(dump_only=True)
    start_time = Time(dump_only=True)
    end_time = Time(dump_only=True)


class GigSummarySchema(TimesSchema):
    gig_date = Date(dump_only=True, allow_none=False)


class PaySchema(BaseSchema):
    amount_cents = fields.Integer(
        dump_only=True,
        allow_none=True,
        metadata={"description": "null: not agreed yet, or the role is no longer offered to you"},
    )
    currency = fields.String(dump_only=True)


class InvitationPreviewSchema(BaseSchema):
    """The first four fields and the gig always; the others only while the invitation is pending (once it is
    answered or withdrawn, its link names the gig, its date and times, but no longer its place or the pay)."""

    invitation_id = fields.UUID(dump_only=True)
    status = Enum(*INVITATION_STATUSES, dump_only=True, allow_none=False)
    role_taken = fields.Boolean(
        dump_only=True, metadata={"description": "someone else holds the gig role (the invitation was withdrawn)"}
    )
    expires_at = Timestamp(dump_only=True, allow_none=False)
    gig = fields.Nested(GigSummarySchema, dump_only=True, metadata={"description": "`name`: the gig's title"})
    answer_by = fields.String(
        dump_only=True,
        metadata={"description": "expires_at in the venue's time as the mail says it: `Thu 10 June 2027, 14:03 CEST`"},
    )
    message = fields.String(dump_only=True, allow_none=True)
    first_name = fields.String(dump_only=True, metadata={"description": "the invited staff member's"})
    venue = fields.Nested(PlaceSchema, dump_only=True, allow_none=True)
    role = fields.String(dump_only=True, metadata={"description": "the role's name"})
    product = fields.Nested(TimesSchema, dump_only=True, allow_none=True, metadata={"description": "what is played"})
    call_time = Time(dump_only=True)
    pay = fields.Nested(PaySchema, dump_only=True)


# --- webhooks --------------------------------------------------------------------------------------------


class WebhookEndpointSecretSchema(WebhookEndpointSchema):
    secret = fields.String(
        dump_only=True,
        metadata={"description": "`whsec_` + base64 of 24 random bytes: shown only here; verify signatures with it"},
    )


class WebhookDeliverySchema(RecordSchema):
    endpoint_id = fields.UUID(dump_only=True)
    event_id = fields.UUID(dump_only=True, metadata={"description": "also the webhook-id header of every attempt"})
    event_type = fields.String(dump_only=True)
    status = Enum(*DELIVERY_STATUSES, dump_only=True, allow_none=False)
    attempts = Int(dump_only=True, allow_none=False)
    next_attempt_at = Timestamp(dump_only=True, allow_none=True, metadata={"description": "null unless pending"})
    last_attempt_at = Timestamp(dump_only=True, allow_none=True)
    last_status_code = Int(dump_only=True, allow_none=True)
    last_error = fields.String(dump_only=True, allow_none=True)
    response_excerpt = fields.String(dump_only=True, allow_none=True, metadata={"description": "≤ 1 KB"})


class WebhookPayloadSchema(BaseSchema):
    type = fields.String(dump_only=True, metadata={"description": "the event's type, or `ping`"})
    timestamp = Timestamp(dump_only=True, allow_none=False, metadata={"description": "when the event occurred"})
    data = fields.Nested(EventSchema, dump_only=True, metadata={"description": "the event as GET /events shows it"})


# --- notifications ---------------------------------------------------------------------------------------


class NotificationDataSchema(BaseSchema):
    gig_id = fields.UUID(dump_only=True, allow_none=True)
    gig_role_id = fields.UUID(dump_only=True, allow_none=True)
    invitation_id = fields.UUID(dump_only=True, allow_none=True)


def notification_data():
    description = "the ids it is about, each null when it is about no such thing"
    return fields.Nested(NotificationDataSchema, dump_only=True, metadata={"description": description})


class NotificationSchema(BaseSchema):
    id = fields.UUID(dump_only=True)
    type = Enum(*NOTIFICATION_TYPES, dump_only=True, allow_none=False)
    title = fields.String(dump_only=True)
    body = fields.String(dump_only=True, metadata={"description": "the whole message, as mailed"})
    data = notification_data()
    created_at = Timestamp(dump_only=True, allow_none=False, metadata={"description": "when it was written"})
    read_at = Timestamp(dump_only=True, allow_none=True, metadata={"description": "null: unread"})


class NotificationsMarkedSchema(BaseSchema):
    marked = Int(dump_only=True, allow_none=False, metadata={"description": "how many were unread"})


class NotificationSettingsSchema(BaseSchema):
    email = Bool(load_default=True, metadata={"description": "mail to the user's address"})
    push = Bool(load_default=True, metadata={"description": "push to each of the user's devices"})
    office_digest = Bool(load_default=True, metadata={"description": "the office digest (holders of staffing.edit)"})


class NotificationSettingsChangeSchema(NotificationSettingsSchema):
    """Each key optional: what is left out stays as it was."""

    email = Bool(allow_none=False, metadata={"description": "mail to the user's address"})
    push = Bool(allow_none=False, metadata={"description": "push to each of the user's devices"})
    office_digest = Bool(allow_none=False, metadata={"description": "the office digest (holders of staffing.edit)"})


class ChannelSchema(BaseSchema):
    state = Enum(*CHANNEL_STATES, dump_only=True, allow_none=False)
    error = fields.String(dump_only=True, allow_none=True, metadata={"description": "the last attempt's"})
    attempts = Int(dump_only=True, allow_none=False)


class EmailChannelSchema(ChannelSchema):
    to = fields.String(
        dump_only=True,
        allow_none=True,
        metadata={"description": "the address: in full with admin.view, else masked (a***@example.com)"},
    )


class SentNotificationSchema(BaseSchema):
    id = fields.UUID(dump_only=True)
    type = Enum(*NOTIFICATION_TYPES, dump_only=True, allow_none=False)
    title = fields.String(dump_only=True)
    data = notification_data()
    recipient_user_id = fields.UUID(
        dump_only=True, allow_none=True, metadata={"description": "null: a staff member without a user (mail only)"}
    )
    staff_member_id = fields.UUID(
        dump_only=True, allow_none=True, metadata={"description": "whose work it is about (null: the digest)"}
    )
    created_at = Timestamp(dump_only=True, allow_none=False)
    due_at = Timestamp(dump_only=True, allow_none=False, metadata={"description": "held back until then"})
    email = fields.Nested(EmailChannelSchema, dump_only=True)
    push = fields.Nested(ChannelSchema, dump_only=True)


# --- the musician's own view (§10) -------------------------------------------------------------------------


class OwnBlockoutSchema(StaffMemberBlockoutSchema):
    """A blockout of the caller's own staff member, who is set by the service."""

    staff_member_id = fields.UUID(dump_only=True, metadata={"description": "the caller's own staff member"})


class StatusSummarySchema(BaseSchema):
    name = fields.String(dump_only=True)
    kind = Enum(*GIG_STATUS_KINDS, dump_only=True, allow_none=False, metadata={"description": "cancelled: called off"})


class OwnGigSummarySchema(BaseSchema):
    id = fields.UUID(dump_only=True, metadata={"description": "the gig's id"})
    gig_date = Date(dump_only=True, allow_none=False)
    title = fields.String(dump_only=True)
    start_time = Time(dump_only=True)
    end_time = Time(dump_only=True, metadata={"description": "may be before start_time: past midnight"})
    gig_status_id = fields.UUID(dump_only=True, allow_none=True, metadata={"description": "its status, as below"})
    status = fields.Nested(StatusSummarySchema, dump_only=True, allow_none=True)
    venue = fields.Nested(PlaceSchema, dump_only=True, allow_none=True)


class OwnRoleSchema(BaseSchema):
    gig_role_id = fields.UUID(dump_only=True)
    role_id = fields.UUID(dump_only=True)
    role = fields.String(dump_only=True, metadata={"description": "the role's name"})
    product = fields.Nested(TimesSchema, dump_only=True, allow_none=True, metadata={"description": "what is played"})
    call_time = Time(dump_only=True)
    amount_cents = fields.Integer(
        dump_only=True,
        allow_none=True,
        metadata={
            "description": "their pay for it (§5.5); null when none is agreed, or when the role is no longer on offer "
            "to them (another holds it, or their invitation was answered, withdrawn or expired)"
        },
    )


class PendingInvitationSchema(BaseSchema):
    id = fields.UUID(dump_only=True)
    expires_at = Timestamp(dump_only=True, allow_none=False)


class OwnGigRoleSchema(OwnRoleSchema):
    invitation = fields.Nested(
        PendingInvitationSchema,
        dump_only=True,
        allow_none=True,
        metadata={"description": "null: they hold the role; else their pending invitation to it, to answer"},
    )


class LineupSchema(BaseSchema):
    first_name = fields.String(dump_only=True)
    last_name = fields.String(dump_only=True)
    role = fields.String(dump_only=True, metadata={"description": "the role's name"})
    product = fields.String(dump_only=True, allow_none=True, metadata={"description": "what they play in it"})


class OwnMomentSchema(BaseSchema):
    id = fields.UUID(dump_only=True)
    name = fields.String(dump_only=True)
    time = Time(dump_only=True)
    notes = fields.String(dump_only=True, allow_none=True)


class OwnSongSchema(BaseSchema):
    id = fields.UUID(dump_only=True)
    title = fields.String(dump_only=True)
    artist = fields.String(dump_only=True, allow_none=True)
    kind = Enum(*SONG_KINDS, dump_only=True, allow_none=False)
    gig_moment_id = fields.UUID(dump_only=True, allow_none=True, metadata={"description": "one of the gig's moments"})
    notes = fields.String(dump_only=True, allow_none=True)


class OwnGigSchema(OwnGigSummarySchema):
    load_in_time = Time(dump_only=True)
    roles = fields.List(
        fields.Nested(OwnGigRoleSchema),
        dump_only=True,
        metadata={"description": "the caller's roles on the gig, and the ones they are invited to"},
    )
    lineup = fields.List(
        fields.Nested(LineupSchema),
        dump_only=True,
        metadata={"description": "who else plays, in the roles' order"},
    )
    moments = fields.List(fields.Nested(OwnMomentSchema), dump_only=True, metadata={"description": "the run of show"})
    songs = fields.List(
        fields.Nested(OwnSongSchema), dump_only=True, metadata={"description": "requests, songs not to play, set list"}
    )


class OwnInvitationSchema(BaseSchema):
    id = fields.UUID(dump_only=True)
    gig_role_id = fields.UUID(dump_only=True)
    status = Enum(*INVITATION_STATUSES, dump_only=True, allow_none=False)
    message = fields.String(dump_only=True, allow_none=True, metadata={"description": "the office's"})
    expires_at = Timestamp(dump_only=True, allow_none=False)
    responded_at = Timestamp(dump_only=True, allow_none=True)
    created_at = Timestamp(dump_only=True, allow_none=False)
    updated_at = Timestamp(dump_only=True, allow_none=False)
    gig = fields.Nested(OwnGigSummarySchema, dump_only=True)
    role = fields.Nested(OwnRoleSchema, dump_only=True)


class OwnPayLineSchema(BaseSchema):
    gig_role_id = fields.UUID(dump_only=True)
    gig_id = fields.UUID(dump_only=True)
    gig_date = Date(dump_only=True, allow_none=False)
    role_id = fields.UUID(dump_only=True)
    amount_cents = fields.Integer(dump_only=True, allow_none=True)
    source = pay_source()


# --- money in: the operations on quotes and contracts (SPEC §15) --------------------------------------------


class QuoteAnswerSchema(BaseSchema):
    note = Text(metadata={"description": "kept in the event's data"})


class SignOnBehalfSchema(BaseSchema):
    signed_name = Str(200, required=True, metadata={"description": "as on the paper"})
    note = Text(metadata={"description": "kept in the event's data"})


class VoidSchema(BaseSchema):
    reason = Text(required=True)


class MergeFieldSchema(BaseSchema):
    name = Str(dump_only=True)
    description = Str(dump_only=True)


class ContractPreviewSchema(BaseSchema):
    body = Text(required=True, metadata={"description": "a template's body, checked as a save checks it"})
    gig_id = Ref(required=True, metadata={"description": "the gig whose facts fill the merge fields"})
    quote_id = Ref(metadata={"description": "the gig's quote of the money fields; absent: its accepted, else newest"})


class ContractPreviewTextSchema(BaseSchema):
    text = Str(dump_only=True, metadata={"description": "the body as a contract of the gig reads, in its language"})
    quote_id = Ref(dump_only=True, metadata={"description": "the quote whose money it shows"})


# --- sales (SPEC §15) ------------------------------------------------------------------------------------


class CreditSchema(BaseSchema):
    lines = fields.List(
        Ref(),
        validate=validate.Length(min=1, max=500),
        metadata={"description": "the ids of the invoice's lines to credit; absent: every line"},
    )
