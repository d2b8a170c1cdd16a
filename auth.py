"""Who is calling and what they may do (SPEC §3): tokens, the caller behind a bearer, capability checks (the one
a view declares, enforced before it runs; what grants give is `domain/capabilities.py`), the write rate of a caller
who may edit nothing. No routes here: sign-in, /me and API keys are in routes/account.py, devices in
routes/devices.py."""

import datetime as dt
import hashlib
import json
import secrets
import time
from dataclasses import dataclass

from flask import current_app, g, request

from dialects import access, dialect
from domain.capabilities import capabilities, flat_grants, held_capabilities
from domain.errors import ApiError, unauthenticated
from models import StaffMember, Token, now, timestamp
from storage import writer
from web import lifecycle
from web.rate_limits import limit_user_writes

TOUCH_SECONDS = 60  # last_used_at of a key is written at most once a minute, so reads stay reads


def public(view):
    """Mark a view as answering without a bearer token."""
    view.public = True
    return view


def client_link(view):
    """Mark a view whose bearer is a client's link token (SPEC §16), which it checks itself: no user's token."""
    view.security = "clientLink"  # the OpenAPI document's security scheme of it
    return public(view)


# --- tokens and capabilities ---------------------------------------------------------------------------


def new_secret(prefix):
    """A random token (256 bits) recognisable by its prefix."""
    return prefix + secrets.token_urlsafe(32)


def digest(value):
    return hashlib.sha256(value.encode()).hexdigest()


def expiry(**delta):
    return timestamp(dt.datetime.now(dt.UTC) + dt.timedelta(**delta))


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
        raise unauthenticated()
    g.caller = caller


def limit_member_writes():
    """Before a write does anything: a caller holding no `.edit` capability (a musician) makes at most
    BAND_MEMBER_WRITE_RATE writes (SPEC §2.3), so that no phone can pile up blockouts, keys or events."""
    caller = g.get("caller")
    if caller is None or request.method not in lifecycle.WRITE_METHODS:
        return
    if not any(capability.endswith(".edit") for capability in caller.can):
        limit_user_writes(caller.user_id)


# Who is behind a token is remembered for a moment: reading it is one of the two statements of a typical read.
# Every write this process commits forgets them all (a revoked key, a deactivated user, changed grants count at
# once); a change made by another process (a command) counts within the moment.
CALLER_MEMORY_SECONDS = 1.0
MAX_REMEMBERED_CALLERS = 1000
_callers = {}  # token digest -> (generation, monotonic time, Caller)


def caller_of(token):
    """The Caller behind a bearer token, or None."""
    key, generation, moment = digest(token), lifecycle.generation, time.monotonic()
    remembered = _callers.get(key)
    if (
        remembered is not None
        and remembered[0] == generation
        and moment - remembered[1] < CALLER_MEMORY_SECONDS
        and remembered[2].expires_at > now()
    ):
        return remembered[2]
    row = access.caller_row(key, now())
    if row is None:
        return None
    caller = Caller(row[0], row[1], row[2], json.loads(row[3]), capabilities(flat_grants(row[4])), *row[5:9])
    if caller.kind == "api_key" and touch(caller.token_id, row[9]):
        return caller  # the touch moved the generation: read afresh next time
    if len(_callers) >= MAX_REMEMBERED_CALLERS:
        _callers.clear()
    _callers[key] = (generation, moment, caller)
    return caller


def touch(token_id, last_used_at):
    """Record the use of an API key, at most once a minute; True when it did."""
    stale = timestamp(dt.datetime.now(dt.UTC) - dt.timedelta(seconds=TOUCH_SECONDS))
    if last_used_at is not None and last_used_at >= stale:
        return False
    try:
        # bookkeeping: a read never waits for it (not for this process's writers, nor another's); the next read
        # records it instead
        with dialect.without_waiting(), writer.transaction(timeout=0):
            Token.update(last_used_at=now()).where(Token.id == token_id).execute()
    except Exception as e:  # the queue's turn (SQLite) or a lock another writer holds: skipped, as the read goes on
        if not (isinstance(e, ApiError) or dialect.is_busy(e)):
            raise
        return False
    lifecycle.database_changed()
    return True


def authorise():
    """Before a view runs (inside a write's transaction): 403 unless the caller holds the capability the view
    declares (`@operation(capability=...)`). A view declaring none is open to any signed-in user, or decides by
    the record (one's own invitation) in its own code. Flask answers OPTIONS without the view: so does this."""
    if request.method == "OPTIONS" and request.url_rule.provide_automatic_options:
        return
    declared = getattr(current_app.view_functions.get(request.endpoint), "openapi", None)
    if declared is not None and declared["capability"] is not None:
        require(*declared["capability"].split("."))


def require(group, action):
    """403 unless the caller holds `<group>.<action>`. Inside a write's transaction the capabilities are read
    afresh (SPEC §2.3): of two admins demoting each other at once, the second finds they no longer may."""
    capability = f"{group}.{action}"
    if capability not in current_capabilities():
        raise ApiError(403, "forbidden", f"This needs the {capability} capability.", {"required": capability})


def is_own_member(staff_member_id):
    """Whether the caller is the staff member's own user (`staff_members.user_id`): a musician answers their own
    invitations and keeps their own calendar feed, whatever their access roles."""
    return StaffMember.select().where(StaffMember.id == staff_member_id, StaffMember.user == g.caller.user_id).exists()


def current_capabilities():
    """The caller's capabilities: as remembered with the token, or as stored now inside a write's transaction."""
    if g.get("transaction") is None:
        return g.caller.can
    if "capabilities_now" not in g:
        g.capabilities_now = held_capabilities(g.caller.user_id)
    return g.capabilities_now
