"""Signed values: the service's secret key (BAND_SECRET_KEY, else generated once and kept in the database)
and the tokens made with it: calendar feeds, the answer links of invitation messages (SPEC §9), the first
run's setup link (SPEC §12), and the time the inquiry form was served (SPEC §16). Webhooks
sign with each endpoint's own secret, as the Standard Webhooks specification says: `delivery/webhooks/signatures.py`."""

import secrets
import time

from itsdangerous import BadData, BadSignature, URLSafeSerializer
from itsdangerous.encoding import base64_decode, base64_encode

from dialects import dialect
from models import Setting

FEED_SALT = "calendar-feed"
ANSWER_SALT = "invitation-answer"
SETUP_SALT = "first-run-setup"
FORM_SALT = "inquiry-form"


def make_secret_key():
    """Keep a new secret key in the database unless it holds one: done as `serve` and `init-db` prepare the
    database, so that no request ever writes it inside a transaction of its own that may be undone."""
    with dialect.locking_transaction():  # one statement: it needs no more
        dialect.insert_if_absent(Setting, key="secret_key", value=secrets.token_urlsafe(48))


def secret_key(config):
    """The configured key, else the one kept in the database (made with the schema)."""
    if config.get("SECRET_KEY"):
        return config["SECRET_KEY"]
    stored = Setting.get_or_none(Setting.key == "secret_key")
    if stored is None:  # a database not prepared by serve or init-db (a test's)
        make_secret_key()
        stored = Setting.get(Setting.key == "secret_key")
    config["SECRET_KEY"] = stored.value
    return stored.value


def feed_token(config, *subject):
    """A token naming a feed: ("staff", member id, version) or ("office", version)."""
    return URLSafeSerializer(secret_key(config), salt=FEED_SALT).dumps(list(subject))


def feed_subject(config, token):
    """The list a feed token names, or None when the token is not one of ours."""
    return signed_value(config, FEED_SALT, token)


def signed_value(config, salt, token):
    """What a token signed with `salt` holds, or None when it is not one of ours or not spelled as we wrote it
    (SPEC §2.3): the last character of base64 has spare bits, and the decoder skips characters outside its
    alphabet, so other spellings would carry the same bytes and signature."""
    if not all(canonical_base64(part) for part in token.split(".")):
        return None
    try:
        return URLSafeSerializer(secret_key(config), salt=salt).loads(token)
    except BadSignature:
        return None


def canonical_base64(part):
    try:
        return base64_encode(base64_decode(part)).decode() == part
    except BadData:
        return False


def office_feed_version():
    stored = Setting.get_or_none(Setting.key == "office_feed_version")
    return int(stored.value) if stored else 1


def rotate_office_feed():
    version = office_feed_version() + 1
    dialect.upsert(Setting, key="office_feed_version", value=str(version))
    return version


def answer_link(config, invitation_id):
    """`{public_url}/answer#token=...` for an invitation's message: the token names the invitation (it is the
    credential of POST /v1/invitations/answer, good while the invitation is pending and unexpired). In the
    fragment, as sign-in links: it never reaches a server log or a mail scanner's request."""
    token = URLSafeSerializer(secret_key(config), salt=ANSWER_SALT).dumps(invitation_id)
    return f"{config['PUBLIC_URL']}/answer#token={token}"


def answered_invitation(config, token):
    """The invitation id an answer token names, or None when the token is not one of ours."""
    found = signed_value(config, ANSWER_SALT, token)
    return found if isinstance(found, str) else None


def setup_token(config, nonce, issued_at=None):
    """The token of a first-run setup link: the nonce `serve` kept for it, and when it was made (Unix seconds,
    now unless given)."""
    issued = int(time.time() if issued_at is None else issued_at)
    return URLSafeSerializer(secret_key(config), salt=SETUP_SALT).dumps([nonce, issued])


def setup_subject(config, token):
    """(nonce, issued_at) of a setup token, or None when the token is not one of ours."""
    found = signed_value(config, SETUP_SALT, token)
    if isinstance(found, list) and len(found) == 2 and isinstance(found[0], str) and type(found[1]) is int:
        return found[0], found[1]
    return None


def form_token(config, served_at=None):
    """The token the inquiry form (`/inquire`, SPEC §16) is served with: when it was served (Unix milliseconds, now
    unless given), so that an inquiry sent too soon after, or too long after, is told from a person's."""
    served = int((time.time() if served_at is None else served_at) * 1000)
    return URLSafeSerializer(secret_key(config), salt=FORM_SALT).dumps(served)


def form_served_at(config, token):
    """When the form of a token was served (Unix seconds), or None when the token is not one of ours."""
    found = signed_value(config, FORM_SALT, token) if isinstance(token, str) else None
    return found / 1000 if type(found) is int else None
