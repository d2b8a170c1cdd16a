"""The account routes of a signed-in person or of someone signing in (SPEC §3): sign-in by mailed link and the
scanner-safe /signin page, sign-out, /me, and API keys."""

import datetime as dt
import logging

from flask import Blueprint, current_app, g, request

import events
import listing
from auth import digest, expiry, new_secret, public
from delivery.mail import message, message_id
from domain.capabilities import CAPABILITIES
from domain.errors import ApiError, conflict
from domain.office import current as current_office
from formats.operation_schemas import (
    ApiKeySchema,
    ConfirmSchema,
    LinkSentSchema,
    MeSchema,
    NewApiKeySchema,
    SessionSchema,
    SignInLinkSchema,
)
from models import SignInLink, StaffMember, Token, User, now, timestamp
from openapi import operation
from schemas import load
from storage import writer
from web import lifecycle
from web.html_pages import page_with_nonce
from web.lifecycle import json_body, page_answer, printable
from web.rate_limits import limit_rate

SESSION_DAYS = 30
LINK_MINUTES = 15
LINK_ABSORB_SECONDS = 60
# the addressee of the mail composed, and never sent, for an address that gets none
STAND_IN = ("Band Office user", "nobody@band-office.invalid")

blueprint = Blueprint("account", __name__)
pages = Blueprint("pages", __name__)
log = logging.getLogger("band.auth")


# --- sign-in ----------------------------------------------------------------------------------------------


@blueprint.post("/auth/link")
@public
@operation(
    body=SignInLinkSchema,
    response=LinkSentSchema,
    errors=(400, 413, 415, 422, 429),
)
def request_link():
    """Send a sign-in link to the address if it belongs to an active user; answer the same either way."""
    limit_rate()
    email = load(SignInLinkSchema(), json_body(), blanks=False)["email"].strip().lower()
    user = User.get_or_none(User.email == email, User.active == True)  # noqa: E712
    absorbed = recent_link(user.id if user else "")  # asked either way, as every step here
    reason = "no active user has this address" if user is None else "a link went out less than a minute ago"
    if user is not None and not absorbed:
        reason = None
    # Every request writes one row (a usable link, or a spent one that only stands in for it) in the same
    # transaction, so neither this answer's time nor the next request's tells known addresses from others.
    token = new_secret("bol_")
    SignInLink.create(
        user=None if reason else user.id,
        token_hash=digest(token),
        expires_at=expiry(minutes=LINK_MINUTES),
        used_at=now() if reason else None,
    )
    SignInLink.delete().where(SignInLink.expires_at < expiry(days=-1)).execute()
    log.info("sign-in link for %s: %s", printable(email), reason or "sent")
    # The outbox composes the mail after the answer either way, and writes it out as every mailer does (its thread
    # then runs beside the next requests alike), but sends a known address's alone: nothing tells the two apart.
    name, address = (user.name, user.email) if not reason else STAND_IN
    sender = (current_app.config["MAIL_FROM"], current_office().name)
    mail = (lifecycle.signin_url(), lifecycle.public_url(), sender, name, address, token)
    outbox, send = current_app.extensions["outbox"], current_app.extensions["mailer"]
    job = lambda: outbox.send(signin_mail(*mail), send, window_seconds=LINK_MINUTES * 60)
    writer.after_commit(lambda: outbox.put(lambda: signin_mail(*mail).as_bytes() if reason else job()))
    return {"data": {"sent": True}}


def signin_mail(signin_url, public_url, sender, name, address, token):
    """`sender`: the mail's From and the office's name, which the mail says."""
    (mail_from, office_name), link = sender, signin_url.replace("{token}", token)
    text = (
        f"Hello {name},\n\nto sign in to {office_name}, open this link within {LINK_MINUTES} minutes:\n\n"
        f"{link}\n\nIt works once. If you did not ask for it, ignore this mail.\n"
    )
    return message(mail_from, address, f"Your {office_name} sign-in link", text, message_id(public_url))


def recent_link(user_id):
    """Whether a link went to the user within the last minute (used or not): a repeat request is absorbed."""
    since = timestamp(dt.datetime.now(dt.UTC) - dt.timedelta(seconds=LINK_ABSORB_SECONDS))
    return SignInLink.select().where(SignInLink.user == user_id, SignInLink.created_at > since).exists()


@blueprint.post("/auth/confirm")
@public
@operation(
    body=ConfirmSchema,
    response=SessionSchema,
    errors=(400, 401, 413, 415, 422, 429),
)
def confirm():
    """Exchange a sign-in link's token for a 30-day session token."""
    limit_rate()
    value = load(ConfirmSchema(), json_body(), blanks=False)["token"].strip()
    moment = now()
    used = (
        SignInLink.update(used_at=moment)
        .where(SignInLink.token_hash == digest(value), SignInLink.used_at.is_null(), SignInLink.expires_at > moment)
        .execute()
    )
    link = SignInLink.get_or_none(SignInLink.token_hash == digest(value)) if used else None
    user = User.get_or_none(User.id == link.user_id, User.active == True) if link else None  # noqa: E712
    if user is None:
        lifecycle.keep_writes_despite_error()  # a link a confirmation refused is spent (SPEC §2.3)
        raise ApiError(401, "unauthenticated", "This sign-in link is unknown, used or expired.")
    # Using one link spends the user's other outstanding ones.
    SignInLink.update(used_at=moment).where(SignInLink.user == user.id, SignInLink.used_at.is_null()).execute()
    return new_session(user)


def new_session(user):
    """A 30-day session for `user`, recorded as a sign-in: the answer of /auth/confirm and /auth/setup."""
    token = new_secret("bos_")
    expires_at = expiry(days=SESSION_DAYS)
    Token.create(user=user.id, kind="session", token_hash=digest(token), prefix=token[:12], expires_at=expires_at)
    actor = events.Actor(user.id, user.name, "session")
    events.record("user.signed_in", "users", user.id, "admin", user_summary(user), actor=actor)
    return {"data": {"token": token, "kind": "session", "expires_at": expires_at, "user": user_summary(user)}}


def user_summary(user):
    return {"id": user.id, "email": user.email, "name": user.name, "roles": user.roles}


@blueprint.post("/auth/signout")
@operation(status=204)
def sign_out():
    """Revoke the bearer token of this request."""
    Token.update(revoked_at=now()).where(Token.id == g.caller.token_id).execute()
    user = User.get_by_id(g.caller.user_id)
    events.record("user.signed_out", "users", user.id, "admin", user_summary(user))
    return "", 204


@pages.get("/signin")
@public
def signin_page():
    """The page a sign-in link opens: a button posts the token from the fragment; a GET spends nothing."""
    return page_with_nonce("signin.html")


# --- /me --------------------------------------------------------------------------------------------------


@blueprint.get("/me")
@operation(response=MeSchema)
def me():
    """The caller, their access roles, the token in use, what they may do, the office's currency, their staff member."""
    c = g.caller
    token = {"id": c.token_id, "kind": c.kind, "expires_at": c.expires_at, "label": c.label}
    can = {capability: capability in c.can for capability in CAPABILITIES}
    office = {"currency": current_office().currency}
    person = {"id": c.user_id, "email": c.email, "name": c.name, "roles": c.roles}
    member = StaffMember.select(StaffMember.id).where(StaffMember.user == c.user_id).first()
    linked = {"staff_member_id": member.id if member else None}
    return {"data": {**person, "token": token, "can": can, "office": office, **linked}}


# --- API keys ---------------------------------------------------------------------------------------------

API_KEY_COLUMNS = listing.columns_of(Token, ApiKeySchema())
MAX_LIVE_KEYS = 25  # per user (SPEC §2.3): each key is a row and an event


def live_keys():
    return [
        Token.user == g.caller.user_id,
        Token.kind == "api_key",
        Token.revoked_at.is_null(),
        Token.expires_at > now(),
    ]


@blueprint.post("/api-keys")
@operation(
    body=ApiKeySchema,
    response=NewApiKeySchema,
    status=201,
    errors=(400, 409, 413, 415, 422),
)
def create_api_key():
    """Create an API key for the caller; its value is shown only in this answer."""
    values = load(ApiKeySchema(), json_body())
    refuse_past_quota()
    key = new_secret("bok_")
    token = Token.create(
        user=g.caller.user_id,
        kind="api_key",
        token_hash=digest(key),
        prefix=key[:12],
        label=values["label"],
        expires_at=expiry(days=values["expires_in_days"]),
    )
    shown = key_summary(token)
    events.record("api_key.created", "api_keys", token.id, "admin", shown)
    return {"data": {"key": key, **shown}}, 201


def refuse_past_quota():
    """409 while the caller holds MAX_LIVE_KEYS live keys; counted in the write's transaction, so that keys
    created at once cannot pass the limit together."""
    if Token.select().where(*live_keys()).count() >= MAX_LIVE_KEYS:
        message = f"You hold {MAX_LIVE_KEYS} live API keys, as many as one user may: revoke one first."
        raise conflict("quota_exceeded", message, limit=MAX_LIVE_KEYS)


def key_summary(token):
    """An API key as events and answers show it: never its value or hash."""
    return {name: getattr(token, name) for name in ("id", "label", "prefix", "expires_at", "created_at")}


@blueprint.get("/api-keys")
@operation(response=ApiKeySchema, listing=API_KEY_COLUMNS, errors=(400,))
def list_api_keys():
    """The caller's live API keys (never their values)."""
    page = listing.parse(request.args, API_KEY_COLUMNS, ["created_at"])
    return page_answer(*listing.json_page(Token, page, live_keys()), page)


@blueprint.delete("/api-keys/<key_id>")
@operation(status=204, errors=(404,))
def revoke_api_key(key_id):
    """Revoke one of the caller's live API keys."""
    revoked = Token.update(revoked_at=now()).where(Token.id == key_id, *live_keys()).execute()
    if not revoked:
        raise ApiError(404, "not_found", "No live API key of yours has this id.")
    events.record("api_key.revoked", "api_keys", key_id, "admin", key_summary(Token.get_by_id(key_id)))
    return "", 204
