"""The marshmallow field types of the API: strict parsing of JSON values into the stored form."""

import datetime as dt
import functools
import re
import zoneinfo
from importlib import resources
from urllib.parse import urlsplit

from marshmallow import ValidationError, fields, validate

from models import NUL, timestamp

MAX_INT = 2**53 - 1  # the largest integer every JSON client (JavaScript included) holds exactly
# ASCII digits only: Python's \d also takes "1５", which SQLite and every client would then choke on
DATE_RE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
TIME_RE = re.compile(r"([01][0-9]|2[0-3]):[0-5][0-9]")
TIME_PATTERN = r"^([01][0-9]|2[0-3]):[0-5][0-9]$"
TEXT_CHARS = 100_000  # the size of a `text` field (SPEC §2.3): bounds the cost of every filter on it
UUID_RE = re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")


NUL_MESSAGE = "Holds the character U+0000 (NUL), which no text may hold."


def nul_places(value, place=""):
    """The places in a JSON value (`name`, `custom_fields.KEY`, `grants.0`; "" for `value` itself) whose text,
    or whose key, holds U+0000: a body's and a query's every text is checked here, whatever field takes it."""
    if isinstance(value, str):
        return [place] if NUL in value else []
    if isinstance(value, dict):
        items = value.items()
    elif isinstance(value, list):
        items = enumerate(value)
    else:
        return []
    found = []
    for key, item in items:
        inner = f"{place}.{key}" if place else str(key)
        found += [inner] if NUL in str(key) else nul_places(item, inner)
    return found


def _optional(kwargs):
    """Optional fields without a default accept null (to clear them); required ones and defaulted ones don't."""
    if not kwargs.get("required") and "load_default" not in kwargs:
        kwargs.setdefault("allow_none", True)
    return kwargs


class Str(fields.String):
    """A string of at most `size` characters, trimmed (an empty optional string is null, see `load`)."""

    default_error_messages = {"null": "Field may not be null or empty."}

    def __init__(self, size=None, *, validate=(), **kwargs):
        self.size = size
        validators = [validate_length(size)] if size else []
        super().__init__(validate=[*validators, *_as_list(validate)], **_optional(kwargs))

    def _deserialize(self, value, attr, data, **kwargs):
        value = super()._deserialize(value, attr, data, **kwargs)
        if self.size and len(value) > self.size:  # as sent: trimming does not make a long value fit
            raise ValidationError(f"Longer than {self.size} characters.")
        return value.strip()


def validate_length(size):
    return validate.Length(max=size, error=f"Longer than {size} characters.")


def _as_list(validators):
    return list(validators) if isinstance(validators, (list, tuple)) else [validators]


def Text(**kwargs):
    return Str(TEXT_CHARS, **kwargs)


def Email(**kwargs):
    email = validate.Email(error="Not a valid e-mail address.")
    return Str(254, validate=email, metadata={"format": "email", **kwargs.pop("metadata", {})}, **kwargs)


def Url(**kwargs):
    url = validate.URL(schemes={"http", "https"}, error="Not a valid http(s) URL.")
    return Str(2000, validate=url, metadata={"format": "uri", **kwargs.pop("metadata", {})}, **kwargs)


def ReceiverUrl(**kwargs):
    """Where the service sends requests (a webhook): http(s), any host name of the LAN (`http://nas:8080/hook`),
    and no user info (a password in a URL ends up in logs; a receiver checks the signature instead)."""
    url = validate.URL(schemes={"http", "https"}, require_tld=False, error="Not a valid http(s) URL.")
    return Str(2000, validate=[url, no_user_info], metadata={"format": "uri", **kwargs.pop("metadata", {})}, **kwargs)


def no_user_info(value):
    try:
        parts = urlsplit(value)
        parts.port  # noqa: B018 (a port out of range raises)
    except ValueError:
        raise ValidationError("Not a valid http(s) URL.") from None
    if "@" in parts.netloc:
        raise ValidationError("A URL with a user name or password is not allowed.")


def Enum(*values, **kwargs):
    return fields.String(validate=validate.OneOf(values), **_optional(kwargs))


def Color(**kwargs):
    return Str(7, validate=validate.Regexp(r"^#[0-9A-Fa-f]{6}$", error="Not a colour of the form #RRGGBB."), **kwargs)


def Pattern(pattern, size, message, **kwargs):
    metadata = {"pattern": pattern, **kwargs.pop("metadata", {})}
    return Str(size, validate=validate.Regexp(pattern, error=message), metadata=metadata, **kwargs)


class Int(fields.Integer):
    """A JSON integer (never a boolean, a float or a numeric string) in `min..max`."""

    def __init__(self, min=-MAX_INT, max=MAX_INT, **kwargs):
        super().__init__(strict=True, validate=validate.Range(min=min, max=max), **_optional(kwargs))

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, bool):
            raise self.make_error("invalid")
        return super()._deserialize(value, attr, data, **kwargs)


def Cents(**kwargs):
    """Money in minor units."""
    return Int(min=0, **kwargs)


def Pay(**kwargs):
    """Pay in minor units, outside the pay group: who reads it is `pay_policy`'s (null without pay.view); it is
    set with pay.edit (SPEC §4.6)."""
    return Cents(metadata={"group": "pay", **kwargs.pop("metadata", {})}, **kwargs)


class Bool(fields.Boolean):
    """A JSON `true` or `false`, nothing else."""

    def __init__(self, **kwargs):
        super().__init__(**_optional(kwargs))

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, bool):
            return value
        raise self.make_error("invalid")


class Ref(fields.UUID):
    """The id of a record, as lower-case text; whether the record exists is checked on save."""

    default_error_messages = {"invalid_uuid": "Not a valid id (a UUID)."}

    def __init__(self, **kwargs):
        super().__init__(**_optional(kwargs))

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, str) or not UUID_RE.fullmatch(value):
            raise self.make_error("invalid_uuid")
        return value.lower()

    def _serialize(self, value, attr, obj, **kwargs):
        return value


# A day either side of every date can be reckoned with (a gig past midnight, its neighbours' dates).
FIRST_DATE, LAST_DATE = "0002-01-01", "9998-12-31"


class Date(fields.Date):
    default_error_messages = {"invalid": f"Not a valid date (YYYY-MM-DD, from {FIRST_DATE} to {LAST_DATE})."}

    def __init__(self, **kwargs):
        super().__init__(**_optional(kwargs))

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, str) or not DATE_RE.fullmatch(value):
            raise self.make_error("invalid")
        try:
            dt.date.fromisoformat(value)
        except ValueError:
            raise self.make_error("invalid") from None
        if not FIRST_DATE <= value <= LAST_DATE:
            raise self.make_error("invalid")
        return value

    def _serialize(self, value, attr, obj, **kwargs):
        return value


class Time(fields.String):
    """Venue-local wall-clock time `HH:MM` (24 h)."""

    default_error_messages = {"invalid": "Not a valid time (HH:MM, 24 h)."}

    def __init__(self, **kwargs):
        kwargs.setdefault("metadata", {})["pattern"] = TIME_PATTERN
        super().__init__(**_optional(kwargs))

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, str) or not TIME_RE.fullmatch(value):
            raise self.make_error("invalid")
        return value


class Timestamp(fields.DateTime):
    """ISO 8601 with an offset or `Z`; stored and answered in UTC."""

    default_error_messages = {
        "invalid": "Not a valid timestamp (ISO 8601 with a time zone, e.g. 2027-06-12T14:03:27Z)."
    }

    def __init__(self, **kwargs):
        super().__init__(**_optional(kwargs))

    def _deserialize(self, value, attr, data, **kwargs):
        stored = utc_timestamp(value)
        if stored is None:
            raise self.make_error("invalid")
        return stored

    def _serialize(self, value, attr, obj, **kwargs):
        return value


def utc_timestamp(value):
    """ISO 8601 text with an offset or `Z`, in the stored UTC form; None when it is not one (or is not a
    time a UTC year 1..9999 can hold)."""
    if not isinstance(value, str) or "T" not in value.upper():
        return None
    try:
        moment = dt.datetime.fromisoformat(value)
        return timestamp(moment) if moment.tzinfo is not None else None
    except (ValueError, OverflowError):
        return None


@functools.cache
def country_codes():
    """ISO 3166-1 alpha-2 codes, from the tz database's own table (the tzdata package)."""
    table = resources.files("tzdata").joinpath("zoneinfo/iso3166.tab").read_text()
    return frozenset(line.split("\t")[0] for line in table.splitlines() if line and not line.startswith("#"))


@functools.cache
def timezone_names():
    return frozenset(zoneinfo.available_timezones())


class Country(Str):
    """An ISO 3166-1 alpha-2 code, stored upper case."""

    def __init__(self, **kwargs):
        message = "Not an ISO 3166-1 alpha-2 country code."
        super().__init__(2, validate=lambda v: v in country_codes() or _fail(message), **kwargs)

    def _deserialize(self, value, attr, data, **kwargs):
        return super()._deserialize(value, attr, data, **kwargs).upper()


def TimeZone(**kwargs):
    return Str(64, validate=lambda v: v in timezone_names() or _fail("Not an IANA time zone name."), **kwargs)


def _fail(message):
    raise ValidationError(message)


class CustomFields(fields.Dict):
    """The custom-fields object (§4.7); values are checked against their definitions on save."""

    def __init__(self, **kwargs):
        super().__init__(keys=fields.String(), values=fields.Raw(allow_none=True), **kwargs)
