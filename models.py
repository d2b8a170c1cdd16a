"""The database and its tables: short declarations grouped by capability group, MODELS in dependency order.

Values are stored in the form the API speaks: ids as lower-case UUID text, dates `YYYY-MM-DD`, times
`HH:MM`, timestamps ISO 8601 UTC with microseconds and `Z` (so they sort as text). A row read from
SQLite is then nearly JSON already, which keeps lists cheap.
"""

import datetime as dt
import functools
import json
import re
import uuid

from peewee import (
    SQL,
    AutoField,
    BlobField,
    BooleanField,
    Case,
    CharField,
    CompositeKey,
    DatabaseProxy,
    ForeignKeyField,
    IntegerField,
    Model,
    TextField,
)

from dialects import dialect

# The database of the dialect BAND_DB names, put behind this proxy by the app factory (`app.configure`) once it is
# open; until then the dialect's unopened database, so that statements written at import have their SQL.
db = DatabaseProxy()
db.initialize(dialect.db)


# No stored text holds U+0000 (SPEC §2.3): PostgreSQL's text and JSON cannot, so neither database takes it.
NUL = "\x00"


def new_id():
    return str(uuid.uuid4())


def now():
    """The current UTC time as stored: `2027-06-12T14:03:27.123456Z`."""
    return timestamp(dt.datetime.now(dt.UTC))


def timestamp(moment):
    """An aware datetime in the stored form (fixed width, so that text order is time order)."""
    return moment.astimezone(dt.UTC).replace(tzinfo=None).isoformat(timespec="microseconds") + "Z"


def table_name(model_class):
    """GigStatus -> gig_statuses, WebhookDelivery -> webhook_deliveries, ProductEquipment -> product_equipment: the
    collection names."""
    name = re.sub(r"(?<!^)(?=[A-Z])", "_", model_class.__name__).lower()
    if name.endswith("equipment"):
        return name
    if name.endswith("y"):
        return name[:-1] + "ies"
    return name + ("es" if name.endswith("s") else "s")


class IdField(CharField):
    def __init__(self, **kwargs):
        super().__init__(max_length=36, **kwargs)


class DateField(CharField):
    """`YYYY-MM-DD` as text."""

    def __init__(self, **kwargs):
        super().__init__(max_length=10, **kwargs)


class TimeField(CharField):
    """`HH:MM` as text (venue-local wall-clock time)."""

    def __init__(self, **kwargs):
        super().__init__(max_length=5, **kwargs)


class TimestampField(CharField):
    def __init__(self, **kwargs):
        super().__init__(max_length=27, **kwargs)


class JSONField(TextField):
    def db_value(self, value):
        return None if value is None else json.dumps(value, separators=(",", ":"))

    def python_value(self, value):
        return None if value is None else json.loads(value)


class Kept:
    """A field the database keeps (by triggers): read-only to the API, and left out of every save of its row, whose
    loaded value may be behind the triggers' work in the same transaction."""


class CountField(Kept, IntegerField):
    """A count the database keeps."""

    def __init__(self, **kwargs):
        super().__init__(default=0, constraints=[SQL("DEFAULT 0")], **kwargs)


class CopiedField(Kept, CharField):
    """A value the database copies from another row (of `max_length` characters) for its own walks: no field of the
    API."""

    def __init__(self, max_length, **kwargs):
        super().__init__(max_length=max_length, null=True, **kwargs)


class EnumField(CharField):
    def __init__(self, choices, **kwargs):
        super().__init__(max_length=max(map(len, choices)), **kwargs)
        self.values = tuple(choices)


def ref(model, on_delete="RESTRICT", index=True, **kwargs):
    """A reference column, indexed (alone, or first in an index of its table), refused on delete of its
    target unless told otherwise."""
    return ForeignKeyField(model, on_delete=on_delete, index=index, **kwargs)


class BaseModel(Model):
    class Meta:
        database = db
        table_function = table_name

    def save(self, *args, **kwargs):
        written = written_fields(type(self))
        if written is not None:
            kwargs.setdefault("only", written)
        return super().save(*args, **kwargs)


@functools.cache
def written_fields(model):
    """The fields a save of `model` writes, when it has fields the database keeps (None: every field)."""
    fields = model._meta.sorted_fields
    if not any(isinstance(field, Kept) for field in fields):
        return None
    return [field for field in fields if not isinstance(field, Kept)]


class Record(BaseModel):
    """A row of one of the collections of SPEC §4: id and the two timestamps."""

    id = IdField(primary_key=True, default=new_id)
    created_at = TimestampField(default=now)
    updated_at = TimestampField(default=now)


# --- admin: who may sign in, with which grants ------------------------------------------------------


class AccessRole(Record):
    name = CharField(max_length=40, unique=True)
    grants = JSONField(default=list)
    description = TextField(null=True)


class User(Record):
    email = CharField(max_length=254, unique=True)
    name = CharField(max_length=200)
    roles = JSONField(default=list)
    active = BooleanField(default=True)


# --- internal: sign-in and the service's own state (not collections of §4) ----------------------------


class Token(BaseModel):
    """A session token or an API key, stored as its SHA-256 hash only."""

    id = IdField(primary_key=True, default=new_id)
    user = ref(User, on_delete="CASCADE")
    kind = EnumField(("session", "api_key"))
    token_hash = CharField(max_length=64, unique=True)
    prefix = CharField(max_length=12)
    label = CharField(max_length=100, null=True)
    expires_at = TimestampField()
    revoked_at = TimestampField(null=True)
    last_used_at = TimestampField(null=True)
    created_at = TimestampField(default=now)


class SignInLink(BaseModel):
    """A sign-in link, by its token's hash; a row without a user stands in for a link that was not sent."""

    id = IdField(primary_key=True, default=new_id)
    user = ref(User, on_delete="CASCADE", null=True)
    token_hash = CharField(max_length=64, unique=True)
    expires_at = TimestampField()
    used_at = TimestampField(null=True)
    created_at = TimestampField(default=now, index=True)


PUSH_PLATFORMS = ("ios", "android", "web", "unifiedpush")


class Device(Record):
    user = ref(User, on_delete="CASCADE")
    token = TextField(unique=True)
    platform = EnumField(PUSH_PLATFORMS)
    environment = EnumField(("production", "sandbox"))
    app_version = CharField(max_length=50)
    label = CharField(max_length=100, null=True)


class Event(BaseModel):
    """A committed change (SPEC §8), written in the change's own transaction. References are plain ids, not
    foreign keys: the history of a deleted record stays."""

    seq = AutoField()
    id = IdField(unique=True, default=new_id)
    type = CharField(max_length=80)
    occurred_at = TimestampField(default=now)
    actor_user_id = IdField(null=True)
    actor_name = CharField(max_length=200, null=True)
    actor_token_kind = CharField(max_length=10, null=True)
    request_id = CharField(max_length=128, null=True)
    subject_collection = CharField(max_length=60)
    subject_id = IdField()
    subject_group = CharField(max_length=20)  # whose `view` may read it
    gig_id = IdField(null=True)
    data = JSONField(null=True)
    changes = JSONField(null=True)

    class Meta:
        indexes = (
            (("subject_group", "seq"), False),
            (("type", "seq"), False),
            (("subject_collection", "seq"), False),
            (("subject_id", "seq"), False),
            (("gig_id", "seq"), False),
            (("actor_user_id", "seq"), False),
            (("occurred_at", "seq"), False),
        )


class WebhookEndpoint(Record):
    """Where events are sent (SPEC §8). The secret signs every delivery, so it is kept as it is (like the
    signing key of the service); it is shown once and never read back."""

    url = CharField(max_length=2000)
    description = TextField(null=True)
    event_types = JSONField(default=lambda: ["*"])
    include_pay = BooleanField(default=False)
    is_active = BooleanField(default=True)
    disabled_reason = TextField(null=True)
    secret_prefix = CharField(max_length=12)
    secret = CharField(max_length=60)
    previous_secret = CharField(max_length=60, null=True)  # still signing until previous_secret_until
    previous_secret_until = TimestampField(null=True)
    failing_since = TimestampField(null=True)  # the first failed attempt since the last success
    # sent money in (SPEC §15), as a caller with sales.view reads it; a column added later, so with its default
    include_sales = BooleanField(default=False, constraints=[SQL("DEFAULT 0")])


DELIVERY_STATUSES = ("pending", "succeeded", "failed")


class WebhookDelivery(Record):
    """One event on its way to one endpoint: the queue of the worker and the log of its attempts. A delivery is
    claimed (`claimed_until`) by the server attempting it, so that two servers never send it at once."""

    endpoint = ref(WebhookEndpoint, on_delete="CASCADE", index=False)
    event = ForeignKeyField(Event, field=Event.id, on_delete="CASCADE", index=True)
    event_type = CharField(max_length=80)
    status = EnumField(DELIVERY_STATUSES, default="pending")
    attempts = IntegerField(default=0)
    next_attempt_at = TimestampField(null=True)
    last_attempt_at = TimestampField(null=True)
    last_status_code = IntegerField(null=True)
    last_error = TextField(null=True)
    response_excerpt = TextField(null=True)
    claimed_until = TimestampField(null=True)
    one_more = BooleanField(default=False)  # redelivered when it had ended: its next failure ends it again

    class Meta:
        indexes = (
            (("endpoint", "created_at"), False),
            (("endpoint", "status", "next_attempt_at"), False),
            (("status", "next_attempt_at"), False),
            (("status", "created_at"), False),
            (("created_at",), False),
        )


class Setting(BaseModel):
    key = CharField(primary_key=True, max_length=100)
    value = TextField()


# The office's own settings (SPEC §12.1): one Setting row (OFFICE_KEY) of JSON, written with a new database from
# these defaults or the BAND_* settings named beside them (service/settings.py), then edited through /office.
OFFICE_KEY = "office"
DATE_STYLES = ("dd.mm.yyyy", "dd/mm/yyyy", "mm/dd/yyyy", "yyyy-mm-dd")
CLOCKS = ("24h", "12h")
OFFICE_DEFAULTS = {  # field: (default, the setting of service/settings.py that overrides it in a new database)
    "name": ("Band Office", "OFFICE_NAME"),
    "time_zone": ("UTC", "TIMEZONE"),
    "currency": ("EUR", "CURRENCY"),
    "language": ("en", "LANGUAGE"),
    "date_style": ("dd.mm.yyyy", "DATE_STYLE"),
    "clock": ("24h", "CLOCK"),
}


class OfficeLogo(BaseModel):
    """The office's logo on its letterhead (SPEC §15): one row (`key` OFFICE_KEY), apart from the settings so that
    reading /office never reads its bytes (PNG as sent, SVG as `formats/logos.py` kept it)."""

    key = CharField(primary_key=True, max_length=100)
    media_type = CharField(max_length=20)
    size_bytes = IntegerField()
    sha256 = CharField(max_length=64)
    updated_at = TimestampField()
    data = BlobField()


# --- catalog -----------------------------------------------------------------------------------------


class Team(Record):
    name = CharField(max_length=200, unique=True)
    description = TextField(null=True)


class Role(Record):
    """A musical or crew role on a gig (not an access role)."""

    name = CharField(max_length=200, unique=True)
    team = ref(Team, null=True)
    description = TextField(null=True)
    position = IntegerField(null=True)


class Product(Record):
    name = CharField(max_length=200, unique=True)
    description = TextField(null=True)
    default_duration_minutes = IntegerField(null=True)
    active = BooleanField(default=True)
    position = IntegerField(null=True)


class Ensemble(Record):
    name = CharField(max_length=200, unique=True)
    description = TextField(null=True)
    active = BooleanField(default=True)


class EnsembleRole(Record):
    ensemble = ref(Ensemble)
    role = ref(Role)
    quantity = IntegerField(default=1)

    class Meta:
        indexes = ((("ensemble", "role"), True),)


class ProductEnsemble(Record):
    product = ref(Product)
    ensemble = ref(Ensemble)
    is_default = BooleanField(default=False)

    class Meta:
        indexes = ((("product", "ensemble"), True),)


class Price(Record):
    product = ref(Product)
    ensemble = ref(Ensemble, null=True)
    amount_cents = IntegerField()
    currency = CharField(max_length=3)
    valid_from = DateField(null=True)
    valid_to = DateField(null=True)
    label = CharField(max_length=100, null=True)


class Moment(Record):
    name = CharField(max_length=200, unique=True)
    description = TextField(null=True)
    position = IntegerField(null=True)


class Song(Record):
    title = CharField(max_length=200)
    artist = CharField(max_length=200, null=True)
    musical_key = CharField(max_length=10, null=True)
    tempo_bpm = IntegerField(null=True)
    duration_seconds = IntegerField(null=True)
    genre = CharField(max_length=100, null=True)
    notes = TextField(null=True)
    active = BooleanField(default=True)


GIG_STATUS_KINDS = ("inquiry", "tentative", "confirmed", "completed", "cancelled")
NOT_LIVE_KINDS = ("completed", "cancelled")  # played, or called off: a gig of these takes no new roles


class GigStatus(Record):
    name = CharField(max_length=200, unique=True)
    kind = EnumField(GIG_STATUS_KINDS)
    position = IntegerField(null=True)
    color = CharField(max_length=7, null=True)
    is_default = BooleanField(default=False)


# A gig is live while its status is of none of NOT_LIVE_KINDS (a gig without a status is live). Queries that
# use this join GigStatus with a LEFT OUTER join.
LIVE = GigStatus.kind.is_null() | GigStatus.kind.not_in(NOT_LIVE_KINDS)
NOT_CANCELLED = GigStatus.kind.is_null() | (GigStatus.kind != "cancelled")


class GigType(Record):
    name = CharField(max_length=200, unique=True)
    description = TextField(null=True)


CUSTOM_FIELD_RESOURCES = ("gigs", "venues", "contacts", "staff_members", "equipment")


class CustomField(Record):
    resource = EnumField(CUSTOM_FIELD_RESOURCES)
    key = CharField(max_length=40)
    label = CharField(max_length=100)
    field_type = EnumField(("text", "number", "boolean", "date", "select"))
    options = JSONField(null=True)
    required = BooleanField(default=False)
    position = IntegerField(null=True)

    class Meta:
        indexes = ((("resource", "key"), True),)


# --- people --------------------------------------------------------------------------------------------


class StaffMember(Record):
    first_name = CharField(max_length=100)
    last_name = CharField(max_length=100)
    email = CharField(max_length=254, null=True, unique=True)
    phone = CharField(max_length=50, null=True)
    user = ref(User, null=True, unique=True)
    active = BooleanField(default=True)
    notes = TextField(null=True)
    custom_fields = JSONField(default=dict)
    # Bumped to revoke the member's calendar feed URL (§5.6); not part of the API.
    calendar_version = IntegerField(default=1)

    class Meta:
        indexes = ((("last_name", "first_name"), False),)


CLIENT_LANGUAGES = ("en", "de")  # the languages a client reads (SPEC §16): translations/<language>/ but English


class Contact(Record):
    first_name = CharField(max_length=100)
    last_name = CharField(max_length=100, null=True)
    email = CharField(max_length=254, null=True)
    phone = CharField(max_length=50, null=True)
    company = CharField(max_length=200, null=True)
    notes = TextField(null=True)
    custom_fields = JSONField(default=dict)
    language = EnumField(CLIENT_LANGUAGES, default="en", constraints=[SQL("DEFAULT 'en'")])


# --- gigs ----------------------------------------------------------------------------------------------


class Venue(Record):
    name = CharField(max_length=200)
    address_line1 = CharField(max_length=200, null=True)
    address_line2 = CharField(max_length=200, null=True)
    city = CharField(max_length=200, null=True)
    region = CharField(max_length=200, null=True)
    postal_code = CharField(max_length=200, null=True)
    country = CharField(max_length=2, null=True)
    timezone = CharField(max_length=64, null=True)
    phone = CharField(max_length=50, null=True)
    email = CharField(max_length=254, null=True)
    website = CharField(max_length=2000, null=True)
    notes = TextField(null=True)
    load_in_notes = TextField(null=True)
    custom_fields = JSONField(default=dict)


class Gig(Record):
    gig_date = DateField()
    title = CharField(max_length=200)
    gig_status = ref(GigStatus, null=True, index=False)
    gig_type = ref(GigType, null=True, index=False)
    venue = ref(Venue, null=True, index=False)
    start_time = TimeField(null=True)
    end_time = TimeField(null=True)
    load_in_time = TimeField(null=True)
    guest_count = IntegerField(null=True)
    notes = TextField(null=True)
    custom_fields = JSONField(default=dict)
    # kept by the triggers of sql/sqlite/0009_gig_counts.sql (SPEC §11)
    role_count = CountField()
    open_role_count = CountField()
    pending_invitation_count = CountField()

    class Meta:
        # the default order, and the office's everyday list: the gigs of one status by date
        indexes = ((("gig_date", "start_time", "id"), False), (("gig_status", "gig_date", "id"), False))


class GigProduct(Record):
    gig = ref(Gig)
    product = ref(Product)
    ensemble = ref(Ensemble, null=True)
    start_time = TimeField(null=True)
    end_time = TimeField(null=True)
    price_cents = IntegerField(null=True)
    notes = TextField(null=True)
    position = IntegerField(null=True)


class GigMoment(Record):
    gig = ref(Gig)
    moment = ref(Moment, null=True)
    name = CharField(max_length=200)
    time = TimeField(null=True)
    gig_product = ref(GigProduct, null=True)
    notes = TextField(null=True)
    position = IntegerField(null=True)
    proposed_time = TimeField(null=True)  # the couple's, from their page (SPEC §16)
    proposed_note = TextField(null=True)


SONG_KINDS = ("request", "do_not_play", "setlist")


class GigSong(Record):
    gig = ref(Gig)
    song = ref(Song, null=True)
    title = CharField(max_length=200)
    artist = CharField(max_length=200, null=True)
    kind = EnumField(SONG_KINDS, default="request")
    gig_moment = ref(GigMoment, null=True)
    notes = TextField(null=True)
    position = IntegerField(null=True)
    link = CharField(max_length=2000, null=True)
    # added by the couple on their page: theirs to change (SPEC §16)
    from_client = BooleanField(default=False, constraints=[SQL("DEFAULT false")])


class GigContact(Record):
    gig = ref(Gig)
    contact = ref(Contact)
    relationship = CharField(max_length=100, null=True)
    is_primary = BooleanField(default=False)

    class Meta:
        indexes = ((("gig", "contact"), True),)


class Attachment(Record):
    gig = ref(Gig)
    filename = CharField(max_length=255)
    content_type = CharField(max_length=255)
    size_bytes = IntegerField()
    sha256 = CharField(max_length=64)
    description = TextField(null=True)


class AttachmentContent(BaseModel):
    """The bytes of an attachment, apart from its metadata so that lists never read them."""

    attachment = ForeignKeyField(Attachment, primary_key=True, on_delete="CASCADE")
    data = BlobField()


# --- staffing ------------------------------------------------------------------------------------------


class GigRole(Record):
    gig = ref(Gig, index=False)
    role = ref(Role, index=False)
    gig_product = ref(GigProduct, null=True, index=False)
    staff_member = ref(StaffMember, null=True, index=False)
    call_time = TimeField(null=True)
    pay_cents = IntegerField(null=True)
    notes = TextField(null=True)
    status = EnumField(("open", "filled"), default="open")
    # the gig's date and the gig product's product, copied by the triggers of sql/sqlite/0012_gig_role_dates.sql, and
    # the gig's status, by those of 0025_gig_role_statuses.sql: a pay sheet walks a member's roles of a period in one
    # index holding all it reads of them (see the indexes below)
    gig_date = CopiedField(10)
    product_id = CopiedField(36)
    gig_status_id = CopiedField(36)


INVITATION_STATUSES = ("pending", "accepted", "declined", "withdrawn", "expired")


class GigRoleInvitation(Record):
    gig_role = ref(GigRole, index=False)
    staff_member = ref(StaffMember, index=False)
    message = TextField(null=True)
    expires_at = TimestampField()
    status = EnumField(INVITATION_STATUSES, default="pending")
    responded_at = TimestampField(null=True)


# An invitation still pending past its expiry reads as `expired`: in answers, in filters, in counts and in every
# rule, whether or not the worker has marked it so yet. This is the one place that says so: the worker marks
# `expired` the invitations this selects (worker.expire_invitations), and a gig's pending count, which triggers keep
# from the stored status (sql/sqlite/0009_gig_counts.sql), has those it selects taken off as it is read
# (invitations.PENDING_COUNT_NOW).
OVERDUE = (GigRoleInvitation.status == "pending") & (GigRoleInvitation.expires_at <= dialect.NOW)
INVITATION_STATUS = Case(None, [(OVERDUE, "expired")], GigRoleInvitation.status)


class StaffMemberRole(Record):
    staff_member = ref(StaffMember)
    role = ref(Role)
    is_primary = BooleanField(default=False)

    class Meta:
        indexes = ((("staff_member", "role"), True),)


class StaffMemberBlockout(Record):
    staff_member = ref(StaffMember)
    start_date = DateField()
    end_date = DateField()
    reason = CharField(max_length=200, null=True)

    class Meta:
        indexes = ((("start_date", "id"), False),)


# --- production ----------------------------------------------------------------------------------------


class EquipmentType(Record):
    name = CharField(max_length=200, unique=True)
    description = TextField(null=True)


class Equipment(Record):
    equipment_type = ref(EquipmentType)
    name = CharField(max_length=200)
    serial_number = CharField(max_length=100, null=True, unique=True)
    status = EnumField(("available", "in_repair", "retired"), default="available")
    purchased_on = DateField(null=True)
    notes = TextField(null=True)
    custom_fields = JSONField(default=dict)


class ProductEquipment(Record):
    product = ref(Product)
    equipment_type = ref(EquipmentType)
    quantity = IntegerField(default=1)

    class Meta:
        indexes = ((("product", "equipment_type"), True),)


class GigEquipment(Record):
    gig = ref(Gig)
    equipment = ref(Equipment)
    notes = TextField(null=True)

    class Meta:
        indexes = ((("gig", "equipment"), True),)


class EquipmentIssue(Record):
    equipment = ref(Equipment)
    title = CharField(max_length=200)
    description = TextField(null=True)
    severity = EnumField(("low", "medium", "high"), default="medium")
    status = EnumField(("open", "resolved"), default="open")
    reported_by_user = ref(User, null=True, on_delete="SET NULL")
    resolved_at = TimestampField(null=True)


# --- pay -----------------------------------------------------------------------------------------------


class Rate(Record):
    role = ref(Role)
    product = ref(Product, null=True)
    amount_cents = IntegerField()
    currency = CharField(max_length=3)


class StaffMemberProductRate(Record):
    staff_member = ref(StaffMember)
    product = ref(Product)
    amount_cents = IntegerField()
    currency = CharField(max_length=3)

    class Meta:
        indexes = ((("staff_member", "product"), True),)


# --- notifications (SPEC §9) ------------------------------------------------------------------------


NOTIFICATION_TYPES = (
    "invitation",
    "invitation_reminder",
    "invitation_withdrawn",
    "gig_changed",
    "role_removed",
    "gig_reminder",
    "office_digest",
    "welcome",
    # money in (SPEC §15): the client's mails, and the office's news of it
    "client_link",
    "client_quote",
    "client_contract",
    "client_signed",
    "client_invoice",
    "client_payment",
    "client_due_soon",
    "client_overdue",
    "quote_answered",
    "contract_signed",
    "invoice_overdue",
    # new couples (SPEC §16): the sender's acknowledgement, and the office's news of their inquiry
    "inquiry_received",
    "inquiry",
)
CHANNEL_STATES = ("pending", "sent", "failed", "skipped")


class Notification(Record):
    """Someone told of their work (SPEC §9): in-app (this row, read under /me by its user), and by mail and push,
    each channel with its own state; the worker's queue for those two. `due_at` holds it back (an invitation's
    minute, a gig change's quiet time); `topic` names what a later one merges into while it is held."""

    type = EnumField(NOTIFICATION_TYPES)
    recipient_user = ref(User, on_delete="CASCADE", null=True, index=False)  # null: a member without a user (mail)
    staff_member = ref(StaffMember, on_delete="CASCADE", null=True, index=False)  # whose work (null: the digest)
    title = CharField(max_length=200)
    body = TextField()  # the whole message, as mailed and shown in-app
    summary = CharField(max_length=300)  # for a push: no address, no amount
    data = JSONField(default=dict)  # ids only: gig_id, gig_role_id, invitation_id
    topic = CharField(max_length=200, null=True)
    due_at = TimestampField()
    read_at = TimestampField(null=True)
    email_to = CharField(max_length=254, null=True)
    email_state = EnumField(CHANNEL_STATES)
    email_attempts = IntegerField(default=0)
    email_next_at = TimestampField(null=True)
    email_error = TextField(null=True)
    push_state = EnumField(CHANNEL_STATES)
    push_attempts = IntegerField(default=0)
    push_next_at = TimestampField(null=True)
    push_error = TextField(null=True)
    push_devices = JSONField(null=True)  # {device id: what its last push came to}; null: none tried yet
    claimed_until = TimestampField(null=True)

    class Meta:
        indexes = (
            (("recipient_user", "created_at"), False),
            (("staff_member", "created_at"), False),
            (("type", "created_at"), False),
            (("created_at",), False),
            (("topic", "due_at"), False),
            (("email_state", "email_next_at"), False),
            (("push_state", "push_next_at"), False),
        )


class NotificationSetting(BaseModel):
    """A user's choice of channels (SPEC §9); a user without a row has every one on."""

    user = ForeignKeyField(User, primary_key=True, on_delete="CASCADE")
    email = BooleanField(default=True)
    push = BooleanField(default=True)
    office_digest = BooleanField(default=True)

    @classmethod
    def of(cls, user_id):
        """The user's settings: their row, or every channel on."""
        return cls.get_or_none(cls.user == user_id) or cls(user=user_id)


def index_every_sort(model, text=True, carrying=()):
    """An index on (column, id) for each column a list of `model` may sort or filter by: a page at any offset,
    in either direction, walks an index instead of sorting the table. Unique (as any key ending in the id is), so
    that SQLite knows each key names one record: a list sorted through a reference to `model` (`sort=gig.title`)
    walks these records in order and each one's referencing rows by id (see `index_references`), without a sort.
    Without `text`, none of free text (notes: PostgreSQL's B-tree entry holds at most 2704 bytes). Each index
    `carrying` references holds them after the id: a walk filtered through one (`filter[invoice.status]`) reads
    the reference from the index and looks the referenced record up, never reading the table's rows."""
    skipped = (JSONField, CopiedField) if text else (JSONField, CopiedField, TextField)
    for field in model._meta.sorted_fields:
        if not field.primary_key and not isinstance(field, skipped):
            carried = [reference for reference in carrying if reference is not field]
            model.add_index(model.index(field, model.id, *carried, unique=True))


def index_references(model, *references):
    """An index on (reference, id) for each of `references`: the rows of one referenced record in the order of
    their ids, what a sort through the reference walks (see `index_every_sort`)."""
    for reference in references:
        model.add_index(model.index(reference, model.id))


# The big, busy lists: gigs, their roles and the invitations to them (their growth changes the best plans).
for _model in (Gig, GigRole, GigRoleInvitation):
    index_every_sort(_model)
# ...and the other big lists of a gig's parts, sorted through their gig (GigRole's and GigRoleInvitation's
# references have theirs above); the names that lists of roles, invitations and equipment are sorted by.
for _model in (GigEquipment, GigSong, GigMoment, GigProduct):
    index_references(_model, _model.gig)
index_references(GigEquipment, GigEquipment.equipment)
for _field in (StaffMember.last_name, StaffMember.first_name, Equipment.name):
    _field.model.add_index(_field.model.index(_field, _field.model.id, unique=True))
BUSY_TABLES = tuple(_model._meta.table_name for _model in (Gig, GigRole, GigRoleInvitation))
# A period's pay sheet: a member's roles of the period, with all it reads of each; and the same by what prices them,
# for a period of most of the gigs, counted by kind without a sort (payroll.period_pay_sheet).
_priced = (GigRole.role, GigRole.product_id, GigRole.pay_cents)
_sheet = (GigRole.staff_member, GigRole.gig_date, GigRole.gig, GigRole.gig_status_id, *_priced)
GigRole.add_index(GigRole.index(*_sheet, name="gigrole_staff_member_id_gig_date"))
_kinds = (GigRole.staff_member, *_priced, GigRole.gig_date, GigRole.gig_status_id)
GigRole.add_index(GigRole.index(*_kinds, name="gigrole_staff_member_id_role_id"))
# The worker's look for pending invitations due to expire or to be recalled reads only those, not every pending one.
GigRoleInvitation.add_index(GigRoleInvitation.index(GigRoleInvitation.status, GigRoleInvitation.expires_at))
# The office's everyday list: the pending invitations, in the default order (`invitations.stored_statuses`).
GigRoleInvitation.add_index(
    GigRoleInvitation.index(GigRoleInvitation.status, GigRoleInvitation.created_at, GigRoleInvitation.id)
)


# --- sales (SPEC §15): money in, from the couple ---------------------------------------------------------

QUOTE_STATUSES = ("draft", "sent", "accepted", "declined", "expired", "superseded", "void")
CONTRACT_STATUSES = ("draft", "sent", "signed", "void")
INVOICE_KINDS = ("deposit", "balance", "final", "credit_note")
INVOICE_STATUSES = ("draft", "issued", "partly_paid", "paid", "void")
PAYMENT_METHODS = ("bank_transfer", "cash", "card", "other")


class Quote(Record):
    gig = ref(Gig, index=False)
    contact = ref(Contact, null=True, index=False)
    currency = CharField(max_length=3)
    valid_until = DateField()
    intro = TextField(null=True)
    terms = TextField(null=True)
    deposit_percent = IntegerField()
    deposit_due_days = IntegerField()
    balance_due_days = IntegerField()
    number = CharField(max_length=20, null=True, unique=True)
    status = EnumField(QUOTE_STATUSES, default="draft")
    sent_at = TimestampField(null=True)
    responded_at = TimestampField(null=True)
    responded_by = CharField(max_length=36, null=True)  # `client`, or the id of the user who answered for them
    net_cents = IntegerField(default=0)
    tax_cents = IntegerField(default=0)
    gross_cents = IntegerField(default=0)


class QuoteLine(Record):
    quote = ref(Quote, on_delete="CASCADE")  # a draft's parts, deleted with it
    description = CharField(max_length=300)
    quantity = IntegerField(default=1)
    unit_price_cents = IntegerField()
    tax_rate_bp = IntegerField()
    gig_product = ref(GigProduct, null=True)
    position = IntegerField(null=True)


class ContractTemplate(Record):
    name = CharField(max_length=200)
    body = TextField()
    is_default = BooleanField(default=False)
    active = BooleanField(default=True)


class Contract(Record):
    gig = ref(Gig)
    template = ref(ContractTemplate, null=True)
    quote = ref(Quote, null=True)
    number = CharField(max_length=20, null=True, unique=True)
    status = EnumField(CONTRACT_STATUSES, default="draft")
    body = TextField(null=True)
    sha256 = CharField(max_length=64, null=True)
    sent_at = TimestampField(null=True)
    signed_at = TimestampField(null=True)
    signed_name = CharField(max_length=200, null=True)
    signed_ip = CharField(max_length=45, null=True)
    signed_user_agent = CharField(max_length=500, null=True)
    signed_by = CharField(max_length=36, null=True)  # `client`, or the id of the user who signed for them
    void_reason = TextField(null=True)


class Invoice(Record):
    gig = ref(Gig, index=False)
    contact = ref(Contact, null=True, index=False)
    kind = EnumField(INVOICE_KINDS)
    currency = CharField(max_length=3)
    service_date = DateField()
    due_date = DateField(null=True)
    notes = TextField(null=True)
    number = CharField(max_length=20, null=True, unique=True)
    status = EnumField(INVOICE_STATUSES, default="draft")
    issued_at = TimestampField(null=True)
    net_cents = IntegerField(default=0)
    tax_cents = IntegerField(default=0)
    gross_cents = IntegerField(default=0)
    paid_cents = IntegerField(default=0)
    open_cents = IntegerField(default=0)
    # A credit note's invoice: issued, so never deleted (nothing to restrict, and no parent a client sets).
    credits_invoice = ref("self", null=True, on_delete="SET NULL", index=False)
    e_invoice = BooleanField(default=False, constraints=[SQL("DEFAULT false")])  # asked for its Factur-X XML


class InvoiceLine(Record):
    invoice = ref(Invoice, on_delete="CASCADE")  # a draft's parts, deleted with it
    description = CharField(max_length=300)
    quantity = IntegerField(default=1)
    unit_price_cents = IntegerField()
    tax_rate_bp = IntegerField()
    gig_product = ref(GigProduct, null=True)
    position = IntegerField(null=True)


class Payment(Record):
    invoice = ref(Invoice, index=False)
    amount_cents = IntegerField()
    received_on = DateField()
    method = EnumField(PAYMENT_METHODS, default="bank_transfer")
    reference = CharField(max_length=200, null=True)
    notes = TextField(null=True)


# The Money screen's lists (invoices and payments at 100 000 gigs) walk an index in any order and filter; a gig's
# quotes, by their order too; payments filtered through their invoice (its status, its gig) walk the index alone.
# Open invoices past their due date (`overdue=true`) by (status, due_date).
for _model in (Quote, Invoice):
    index_every_sort(_model, text=False)
index_every_sort(Payment, text=False, carrying=[Payment.invoice])
Invoice.add_index(Invoice.index(Invoice.status, Invoice.due_date, Invoice.id))
# At most one accepted quote per gig (SPEC §15).
Quote.add_index(Quote.index(Quote.gig, unique=True, where=Quote.status == "accepted", name="quote_accepted_gig_id"))


# Songs are unique by (title, artist) and rates by (role, product): one song "Shout" without an artist, one
# default rate (no product) per role.
dialect.unique_with_null(Song, "songs_title_artist", "title", "artist")
dialect.unique_with_null(Rate, "rates_role_product", "role_id", "product_id")

MODELS = [
    AccessRole,
    User,
    Token,
    SignInLink,
    Device,
    Event,
    WebhookEndpoint,
    WebhookDelivery,
    Setting,
    OfficeLogo,
    Team,
    Role,
    Product,
    Ensemble,
    EnsembleRole,
    ProductEnsemble,
    Price,
    Moment,
    Song,
    GigStatus,
    GigType,
    CustomField,
    StaffMember,
    Contact,
    Venue,
    Gig,
    GigProduct,
    GigMoment,
    GigSong,
    GigContact,
    Attachment,
    AttachmentContent,
    GigRole,
    GigRoleInvitation,
    StaffMemberRole,
    StaffMemberBlockout,
    EquipmentType,
    Equipment,
    ProductEquipment,
    GigEquipment,
    EquipmentIssue,
    Rate,
    StaffMemberProductRate,
    Notification,
    NotificationSetting,
    Quote,
    QuoteLine,
    ContractTemplate,
    Contract,
    Invoice,
    InvoiceLine,
    Payment,
]

MODELS_BY_TABLE = {model._meta.table_name: model for model in MODELS}

# Tables that are not collections of the API: sign-in, devices, events, webhook deliveries and notifications
# (served by their own routes), the service's own settings and the office's logo, the bytes of attachments. Every
# other model is a resource (a test keeps the two lists whole).
INTERNAL_MODELS = (
    Token,
    SignInLink,
    Device,
    Event,
    WebhookDelivery,
    Notification,
    NotificationSetting,
    Setting,
    OfficeLogo,
    AttachmentContent,
)


def register_internal(model):
    """A model declared after the lists above (money in's own tables), joined to them: no collection of the API."""
    global INTERNAL_MODELS
    MODELS.append(model)
    MODELS_BY_TABLE[model._meta.table_name] = model
    INTERNAL_MODELS += (model,)


# --- sales: document numbers (SPEC §15) ---------------------------------------------------------------


class DocumentNumber(BaseModel):
    """The last number a series gave in a year (domain/sales/numbers.py); a row is never deleted."""

    series = CharField(max_length=20)
    year = IntegerField()
    last = IntegerField()

    class Meta:
        primary_key = CompositeKey("series", "year")


register_internal(DocumentNumber)


# --- sales: frozen documents (SPEC §15) ----------------------------------------------------------------


class FrozenDocument(BaseModel):
    """A sent or issued document's PDF, made once (domain/sales/frozen.py): `kind` quote, contract or invoice."""

    kind = CharField(max_length=10)
    record_id = CharField(max_length=36)
    sha256 = CharField(max_length=64)
    frozen_at = TimestampField()
    data = BlobField()

    class Meta:
        primary_key = CompositeKey("kind", "record_id")


register_internal(FrozenDocument)


# --- sales: the client's links (SPEC §16) ---------------------------------------------------------------


class ClientLink(BaseModel):
    """A link of a gig contact to their page, by its token's hash: one for each mail to them, the office's replacing
    them all (domain/sales/client_links.py)."""

    id = IdField(primary_key=True, default=new_id)
    gig_contact = ref(GigContact, on_delete="CASCADE")
    token_hash = CharField(max_length=64, unique=True)
    expires_at = TimestampField()
    created_at = TimestampField(default=now)


register_internal(ClientLink)


# --- sales: a contract's drawn signature (SPEC §16) -------------------------------------------------------


class ContractSignature(BaseModel):
    """The signature a client drew on their page for a contract, as sanitised SVG (formats/signatures.py)."""

    contract = ref(Contract, on_delete="CASCADE", primary_key=True, index=False)
    svg = TextField()
    created_at = TimestampField(default=now)


register_internal(ContractSignature)


# --- the couple's wishes (SPEC §16) ----------------------------------------------------------------------


class ClientNote(Record):
    """A note the couple wrote to the band on their page; its contact may be deleted, the note stays."""

    gig = ref(Gig)
    contact = ref(Contact, null=True, on_delete="SET NULL")
    body = TextField()


MODELS.append(ClientNote)
MODELS_BY_TABLE[ClientNote._meta.table_name] = ClientNote
