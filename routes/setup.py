"""The first run (SPEC §12): the /setup page a setup link opens, and `POST /auth/setup`, which names the first admin
and signs them in. The link itself, and why it works once, are `first_run`'s."""

from flask import Blueprint, current_app

import events
from auth import public
from domain import first_run
from domain.errors import ApiError, conflict
from formats.operation_schemas import SessionSchema, SetupSchema
from models import User
from openapi import operation
from routes.account import new_session
from routes.admin import ADMIN_ROLE, RESOURCES
from schemas import load
from web.html_pages import page_with_nonce
from web.lifecycle import json_body
from web.rate_limits import limit_rate

blueprint = Blueprint("setup", __name__)
pages = Blueprint("setup_pages", __name__)

USERS = next(resource for resource in RESOURCES if resource.model is User)
ADMIN_EXISTS = "This office has an admin already: sign in with a link by e-mail at /signin."


@blueprint.post("/auth/setup")
@public
@operation(
    body=SetupSchema,
    response=SessionSchema,
    status=201,
    errors=(400, 401, 409, 413, 415, 422, 429),
)
def set_up():
    """Name the first admin with the setup link `serve` printed (it works once, within the hour, and only while no
    active user holds `*`); answers with a 30-day session for them, as /auth/confirm does."""
    limit_rate()
    values = load(SetupSchema(), json_body())
    nonce = first_run.fresh(current_app.config, values["token"])
    if nonce is None:
        raise ApiError(401, "unauthenticated", "This setup link is unknown or more than an hour old.")
    if first_run.admin_exists():
        raise conflict("already_set_up", ADMIN_EXISTS)
    if not first_run.spend(nonce):
        raise ApiError(401, "unauthenticated", "This setup link was used, or serve printed a newer one since.")
    return new_session(first_admin(values["name"], values["email"].lower())), 201


def first_admin(name, email):
    """The user with this address made an active admin (created when there is none), with its event."""
    user = User.get_or_none(User.email == email)
    roles = list(dict.fromkeys([*(user.roles if user else []), ADMIN_ROLE]))
    if user is not None:
        USERS.change(user, name=name, roles=roles, active=True)
        return user
    user = User.create(email=email, name=name, roles=roles)
    USERS.record_event("created", user, actor=events.Actor(user.id, user.name, "session"))
    return user


@pages.get("/setup")
@public
def setup_page():
    """The page a setup link opens: the first admin's name and address; a GET spends nothing."""
    return page_with_nonce("setup.html", admin_exists=first_run.admin_exists())
