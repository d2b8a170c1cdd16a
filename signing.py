"""Signed values: the service's secret key (BAND_SECRET_KEY, else generated once and kept in the database)
and the tokens made with it: calendar feeds, and the answer links of invitation messages (SPEC §9)."""

import secrets

from itsdangerous import BadSignature, URLSafeSerializer

import sqlite_dialect as dialect
from models import Setting

FEED_SALT = "calendar-feed"
ANSWER_SALT = "invitation-answer"


def make_secret_key():
    """Keep a new secret key in the database unless it holds one: done as `serve` and `init-db` prepare the
    database, so that no request ever writes it inside a transaction of its own that may be undone."""
    with dialect.write_transaction():
        Setting.insert(key="secret_key", value=secrets.token_urlsafe(48)).on_conflict_ignore().execute()


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
    try:
        return URLSafeSerializer(secret_key(config), salt=FEED_SALT).loads(token)
    except BadSignature:
        return None


def office_feed_version():
    stored = Setting.get_or_none(Setting.key == "office_feed_version")
    return int(stored.value) if stored else 1


def rotate_office_feed():
    version = office_feed_version() + 1
    Setting.insert(key="office_feed_version", value=str(version)).on_conflict_replace().execute()
    return version


def answer_link(config, invitation_id):
    """`{public_url}/answer#token=...` for an invitation's message: the token names the invitation (it is the
    credential of POST /v1/invitations/answer, good while the invitation is pending and unexpired). In the
    fragment, as sign-in links: it never reaches a server log or a mail scanner's request."""
    token = URLSafeSerializer(secret_key(config), salt=ANSWER_SALT).dumps(invitation_id)
    return f"{config['PUBLIC_URL']}/answer#token={token}"


def answered_invitation(config, token):
    """The invitation id an answer token names, or None when the token is not one of ours."""
    try:
        found = URLSafeSerializer(secret_key(config), salt=ANSWER_SALT).loads(token)
    except BadSignature:
        return None
    return found if isinstance(found, str) else None
