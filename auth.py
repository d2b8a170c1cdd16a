"""Sign-in and access (SPEC §3): tokens, sign-in links, capability checks, and the routes of /auth, /me,
/api-keys and /devices, plus the scanner-safe sign-in page."""

import collections
import datetime as dt
import hashlib
import json
import logging
import math
import secrets
import threading
import time
from dataclasses import dataclass

from flask import Blueprint, current_app, g, render_template, request

import conventions
import listing
import writer
from bodies import (
    ApiKeySchema,
    ConfirmSchema,
    DeviceSchema,
    LinkSentSchema,
    MeSchema,
    NewApiKeySchema,
    SessionSchema,
    SignInLinkSchema,
)
from conventions import json_body, printable
from errors import ApiError
from mail import message
from models import Device, SignInLink, Token, User, db, now, timestamp
from openapi import operation
from schemas import load

GROUPS = ("gigs", "catalog", "staffing", "production", "people", "pay", "admin")
CAPABILITIES = tuple(f"{group}.{action}" for group in GROUPS for action in ("view", "edit"))
SESSION_DAYS = 30
LINK_MINUTES = 15
LINK_ABSORB_SECONDS = 60
TOUCH_SECONDS = 60  # last_used_at of a key is written at most once a minute, so reads stay reads

blueprint = Blueprint("auth", __name__)
log = logging.getLogger("band.auth")
pages = Blueprint("pages", __name__)


def public(view):
    """Mark a view as answering without a bearer token."""
    view.public = True
    return view


# --- tokens and capabilities ---------------------------------------------------------------------------


def new_secret(prefix):
    """A random token (256 bits) recognisable by its prefix."""
    return prefix + secrets.token_urlsafe(32)


def digest(value):
    return hashlib.sha256(value.encode()).hexdigest()


def expiry(**delta):
    return timestamp(dt.datetime.now(dt.UTC) + dt.timedelta(**delta))


def capabilities(grants):
    """The capabilities the grants of some access roles give: `*`, `<group>.*`, `<group>.view|edit`."""
    held = set()
    for grant in grants:
        group, _, action = grant.partition(".")
        if grant == "*":
            return frozenset(CAPABILITIES)
        if action == "*":
            held.update((f"{group}.view", f"{group}.edit"))
        else:
            held.add(grant)
    return frozenset(held & set(CAPABILITIES))


def valid_grant(grant):
    group, _, action = grant.partition(".")
    return grant == "*" or (group in GROUPS and action in ("*", "view", "edit"))


@dataclass(frozen=True)
class Caller:
    """Who is behind the bearer of this request."""

    user_id: str
    email: str
    name: str
    roles: list
    can: frozenset
    token_id: str
    kind: str
    expires_at: str
    label: str


# The grants of user `u`'s access roles, as a JSON array of arrays.
GRANTS_SQL = """(SELECT json_group_array(json(r.grants)) FROM access_roles r
                  WHERE r.name IN (SELECT value FROM json_each(u.roles)))"""

# One statement per request: the token, its user, and the user's grants.
CALLER_SQL = f"""
SELECT u.id, u.email, u.name, u.roles, {GRANTS_SQL}, t.id, t.kind, t.expires_at, t.label, t.last_used_at
  FROM tokens t JOIN users u ON u.id = t.user_id
 WHERE t.token_hash = ? AND t.revoked_at IS NULL AND t.expires_at > ? AND u.active
"""


def held_capabilities(user_id):
    """What the (active) user `user_id` may do now, read afresh from the database."""
    row = db.execute_sql(f"SELECT {GRANTS_SQL} FROM users u WHERE u.id = ? AND u.active", (user_id,)).fetchone()
    return capabilities(_flat_grants(row[0])) if row else frozenset()


def _flat_grants(text):
    return [grant for role_grants in json.loads(text or "[]") for grant in role_grants]


def authenticate():
    """Before every request: routing errors first, then the bearer token (401) for all but public views."""
    if request.routing_exception is not None:
        raise request.routing_exception
    view = current_app.view_functions.get(request.endpoint)
    if getattr(view, "public", False):
        return
    scheme, _, value = request.headers.get("Authorization", "").partition(" ")
    caller = caller_of(value.strip()) if scheme.lower() == "bearer" and value.strip() else None
    if caller is None:
        raise ApiError(401, "unauthenticated", "Sign in: send a valid bearer token.", headers=UNAUTHENTICATED)
    g.caller = caller


# Who is behind a token is remembered for a moment: reading it is one of the two statements of a typical read.
# Every write this process commits forgets them all (a revoked key, a deactivated user, changed grants count at
# once); a change made by another process (a command) counts within the moment.
CALLER_MEMORY_SECONDS = 1.0
MAX_REMEMBERED_CALLERS = 1000
_callers = {}  # token digest -> (generation, monotonic time, Caller)


def caller_of(token):
    """The Caller behind a bearer token, or None."""
    key, generation, moment = digest(token), conventions.generation, time.monotonic()
    remembered = _callers.get(key)
    if (
        remembered is not None
        and remembered[0] == generation
        and moment - remembered[1] < CALLER_MEMORY_SECONDS
        and remembered[2].expires_at > now()
    ):
        return remembered[2]
    row = db.execute_sql(CALLER_SQL, (key, now())).fetchone()
    if row is None:
        return None
    caller = Caller(row[0], row[1], row[2], json.loads(row[3]), capabilities(_flat_grants(row[4])), *row[5:9])
    if caller.kind == "api_key" and touch(caller.token_id, row[9]):
        return caller  # the touch moved the generation: read afresh next time
    if len(_callers) >= MAX_REMEMBERED_CALLERS:
        _callers.clear()
    _callers[key] = (generation, moment, caller)
    return caller


UNAUTHENTICATED = {"WWW-Authenticate": "Bearer"}


def touch(token_id, last_used_at):
    """Record the use of an API key, at most once a minute; True when it did."""
    stale = timestamp(dt.datetime.now(dt.UTC) - dt.timedelta(seconds=TOUCH_SECONDS))
    if last_used_at is not None and last_used_at >= stale:
        return False
    with writer.transaction():
        Token.update(last_used_at=now()).where(Token.id == token_id).execute()
    conventions.database_changed()
    return True


def require(group, action):
    """403 unless the caller holds `<group>.<action>`. Inside a write's transaction the capabilities are read
    afresh (SPEC §2.3): of two admins demoting each other at once, the second finds they no longer may."""
    capability = f"{group}.{action}"
    if capability not in current_capabilities():
        raise ApiError(403, "forbidden", f"This needs the {capability} capability.", {"required": capability})


def current_capabilities():
    """The caller's capabilities: as remembered with the token, or as stored now inside a write's transaction."""
    if g.get("transaction") is None:
        return g.caller.can
    if "capabilities_now" not in g:
        g.capabilities_now = held_capabilities(g.caller.user_id)
    return g.capabilities_now


# --- rate limit -------------------------------------------------------------------------------------------


class RateLimiter:
    """A sliding window per client address: at most `limit` requests in any `window` seconds."""

    def __init__(self, limit, window):
        self.limit, self.window = limit, window
        self.hits = collections.defaultdict(collections.deque)
        self.lock = threading.Lock()

    def retry_after(self, address):
        """0 when the request may go ahead (and is counted), else the seconds to wait."""
        moment = time.monotonic()
        with self.lock:
            hits = self.hits[address]
            while hits and hits[0] <= moment - self.window:
                hits.popleft()
            if len(hits) >= self.limit:
                return max(1, math.ceil(hits[0] + self.window - moment))
            hits.append(moment)
            if len(self.hits) > 10_000:
                self._forget_idle(moment)
            return 0

    def _forget_idle(self, moment):
        for address in [a for a, h in self.hits.items() if not h or h[-1] <= moment - self.window]:
            del self.hits[address]


def limit_rate():
    wait = current_app.extensions["auth_rate"].retry_after(request.remote_addr or "-")
    if wait:
        raise ApiError(
            429, "rate_limited", f"Too many sign-in requests; retry in {wait} s.", headers={"Retry-After": str(wait)}
        )


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
    if reason:
        log.info("sign-in link for %s not sent: %s", printable(email), reason)
    else:
        mail = signin_mail(current_app.config, user, token)
        outbox, send = current_app.extensions["outbox"], current_app.extensions["mailer"]
        conventions.after_commit(lambda: outbox.send(mail, send, window_seconds=LINK_MINUTES * 60))
    return {"data": {"sent": True}}


def signin_mail(config, user, token):
    link = config["SIGNIN_URL"].replace("{token}", token)
    text = (
        f"Hello {user.name},\n\nto sign in to Band Office, open this link within {LINK_MINUTES} minutes:\n\n"
        f"{link}\n\nIt works once. If you did not ask for it, ignore this mail.\n"
    )
    return message(config["MAIL_FROM"], user.email, "Your Band Office sign-in link", text)


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
        conventions.keep_writes_despite_error()  # a link a confirmation refused is spent (SPEC §2.3)
        raise ApiError(401, "unauthenticated", "This sign-in link is unknown, used or expired.")
    # Using one link spends the user's other outstanding ones.
    SignInLink.update(used_at=moment).where(SignInLink.user == user.id, SignInLink.used_at.is_null()).execute()
    token = new_secret("bos_")
    expires_at = expiry(days=SESSION_DAYS)
    Token.create(user=user.id, kind="session", token_hash=digest(token), prefix=token[:12], expires_at=expires_at)
    return {"data": {"token": token, "kind": "session", "expires_at": expires_at, "user": user_summary(user)}}


def user_summary(user):
    return {"id": user.id, "email": user.email, "name": user.name, "roles": user.roles}


@blueprint.post("/auth/signout")
@operation(status=204)
def sign_out():
    """Revoke the bearer token of this request."""
    Token.update(revoked_at=now()).where(Token.id == g.caller.token_id).execute()
    return "", 204


@pages.get("/signin")
@public
def signin_page():
    """The page a sign-in link opens: a button posts the token from the fragment; a GET spends nothing."""
    return render_template("signin.html")


# --- /me --------------------------------------------------------------------------------------------------


@blueprint.get("/me")
@operation(response=MeSchema)
def me():
    """The caller, their access roles, the token in use and what they may do."""
    c = g.caller
    token = {"id": c.token_id, "kind": c.kind, "expires_at": c.expires_at, "label": c.label}
    can = {capability: capability in c.can for capability in CAPABILITIES}
    return {"data": {"id": c.user_id, "email": c.email, "name": c.name, "roles": c.roles, "token": token, "can": can}}


# --- API keys ---------------------------------------------------------------------------------------------

API_KEY_COLUMNS = listing.columns_of(Token, ApiKeySchema())


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
    errors=(400, 413, 415, 422),
)
def create_api_key():
    """Create an API key for the caller; its value is shown only in this answer."""
    values = load(ApiKeySchema(), json_body())
    key = new_secret("bok_")
    token = Token.create(
        user=g.caller.user_id,
        kind="api_key",
        token_hash=digest(key),
        prefix=key[:12],
        label=values["label"],
        expires_at=expiry(days=values["expires_in_days"]),
    )
    fields = ("id", "label", "prefix", "expires_at", "created_at")
    return {"data": {"key": key, **{name: getattr(token, name) for name in fields}}}, 201


@blueprint.get("/api-keys")
@operation(response=ApiKeySchema, listing=API_KEY_COLUMNS, errors=(400,))
def list_api_keys():
    """The caller's live API keys (never their values)."""
    page = listing.parse(request.args, API_KEY_COLUMNS, ["created_at"])
    return listing.respond(*listing.fetch(Token, page, live_keys()), page)


@blueprint.delete("/api-keys/<key_id>")
@operation(status=204, errors=(404,))
def revoke_api_key(key_id):
    """Revoke one of the caller's live API keys."""
    revoked = Token.update(revoked_at=now()).where(Token.id == key_id, *live_keys()).execute()
    if not revoked:
        raise ApiError(404, "not_found", "No live API key of yours has this id.")
    return "", 204


# --- devices ----------------------------------------------------------------------------------------------

DEVICE_COLUMNS = listing.columns_of(Device, DeviceSchema())


@blueprint.post("/devices")
@operation(
    body=DeviceSchema,
    response=DeviceSchema,
    status=(201, 200),
    errors=(400, 413, 415, 422),
)
def register_device():
    """Register a device for push, or update the one with this token (it moves to the caller)."""
    values = load(DeviceSchema(), json_body())
    device = Device.get_or_none(Device.token == values["token"])
    status = 200 if device else 201
    device = device or Device(token=values["token"])
    for name, value in values.items():
        setattr(device, name, value)
    device.user = g.caller.user_id
    device.updated_at = now()
    device.save(force_insert=status == 201)
    return {"data": {name: getattr(device, name) for name in DEVICE_COLUMNS}}, status


@blueprint.get("/devices")
@operation(response=DeviceSchema, listing=DEVICE_COLUMNS, errors=(400,))
def list_devices():
    """The caller's devices."""
    page = listing.parse(request.args, DEVICE_COLUMNS, ["created_at"])
    return listing.respond(*listing.fetch(Device, page, [Device.user == g.caller.user_id]), page)


@blueprint.delete("/devices/<path:token>")
@operation(status=204, errors=(404,))
def remove_device(token):
    """Remove one of the caller's devices by its push token."""
    removed = Device.delete().where(Device.token == token, Device.user == g.caller.user_id).execute()
    if not removed:
        raise ApiError(404, "not_found", "No device of yours has this token.")
    return "", 204
