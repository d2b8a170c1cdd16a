"""What a device's push token is on each platform (SPEC §3, §9), checked when the device registers and again
before a push: `unifiedpush` the endpoint URL its distributor gave (http or https, a LAN host too, no user
info); `web` the browser's PushSubscription as JSON, its endpoint an https URL and its keys `p256dh` (a P-256
point) and `auth` (16 bytes) in base64url; `ios` and `android` are the gateways' own, opaque here. Whatever the
platform, a token is at most TOKEN_BYTES (a PushSubscription SUBSCRIPTION_BYTES) and holds no control character
(SPEC §2.3): what one user can store is bounded, and nothing they store can forge a header or a log line."""

import base64
import binascii
import json
import re

from marshmallow import ValidationError, validate

from formats.field_types import no_user_info

KEY_BYTES = {"p256dh": 65, "auth": 16}  # RFC 8291: an uncompressed P-256 point, and the authentication secret
TOKEN_BYTES = 1024
SUBSCRIPTION_BYTES = 2048
CONTROL = re.compile("[\x00-\x1f\x7f-\x9f]")


def check(platform, token):
    """Raise ValueError saying what is wrong with `token` as a device of `platform` registers it."""
    most = SUBSCRIPTION_BYTES if platform == "web" else TOKEN_BYTES
    if len(token.encode()) > most:
        raise ValueError(f"Longer than {most} bytes.")
    if CONTROL.search(token):
        raise ValueError("A push token holds no control characters.")
    if platform == "unifiedpush":
        endpoint(token)
    elif platform == "web":
        subscription(token, schemes=("https",))


def endpoint_of(platform, token):
    """The URL a push to `token` is POSTed to (`unifiedpush`, `web`), or None: `ios` and `android` go to the gateways
    the office configured. ValueError when the token is not of its platform's shape."""
    if platform == "unifiedpush":
        return endpoint(token)
    if platform == "web":
        return subscription(token)["endpoint"]
    return None


def endpoint(text, schemes=("http", "https")):
    """`text`, an absolute URL of one of `schemes` without user info nor control characters; else ValueError."""
    url = validate.URL(schemes=set(schemes), require_tld=False)
    try:
        no_user_info(url(text))
        if CONTROL.search(text):
            raise ValidationError("control characters")
    except (ValidationError, TypeError):
        raise ValueError(f"The push endpoint is not an {'/'.join(schemes)} URL without user info.") from None
    return text


def subscription(token, schemes=("http", "https")):
    """The PushSubscription a web token holds, as a dict; else ValueError. Registration holds its endpoint to
    https (a browser's always is); a push takes what the device table holds."""
    try:
        value = json.loads(token)
    except ValueError:
        value = None
    if not isinstance(value, dict) or not isinstance(value.get("keys"), dict):
        raise ValueError("A web token is the browser's PushSubscription as JSON: {endpoint, keys}.")
    endpoint(value.get("endpoint"), schemes)
    for name, size in KEY_BYTES.items():
        key = decoded(value["keys"].get(name))
        if len(key) != size or (name == "p256dh" and key[0] != 4):  # 4: the uncompressed form
            raise ValueError(f"The PushSubscription's keys.{name} is not {size} bytes in base64url.")
    return value


def decoded(text):
    if not isinstance(text, str):
        return b""
    try:
        return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        return b""
