"""Notifications as people read them (SPEC §9): a user's own under /me (those already told: a held one is not
yet), read one by one or all at once, and their choice of channels; and the office's view of what went out to
whom (`staffing.view`), with each channel's state and never a message's body. Sending is the worker's."""

import re

from flask import Blueprint, g, request
from peewee import SQL

import listing
from delivery.mail import masked
from dialects import dialect
from domain.errors import not_found
from formats.operation_schemas import (
    NotificationSchema,
    NotificationSettingsChangeSchema,
    NotificationSettingsSchema,
    NotificationsMarkedSchema,
    SentNotificationSchema,
)
from listing import Column
from models import NOTIFICATION_TYPES, Notification, NotificationSetting, db, now
from openapi import operation
from resources import reject_parameters
from schemas import load
from web.lifecycle import json_body, page_answer

blueprint = Blueprint("notifications", __name__)

DATA_KEYS = ("gig_id", "gig_role_id", "invitation_id")
CHANNELS = ("email", "push", "office_digest")  # a user's settings


def column(name, kind, expr=None):
    """A column of the notifications table, or (kind json) a part of the answer that only `fields` names."""
    if kind == "json":
        return Column(name, SQL("NULL"), kind)
    expr = expr if expr is not None else getattr(Notification, name)
    return Column(name, expr, kind, NOTIFICATION_TYPES if kind == "enum" else ())


# `read` is computed (whether read_at is set): a filter and a sort, shown as read_at.
OWN_COLUMNS = {
    "id": column("id", "id"),
    "type": column("type", "enum"),
    "title": column("title", "str"),
    "body": column("body", "str"),
    "data": column("data", "json"),
    "created_at": column("created_at", "timestamp"),
    "read_at": column("read_at", "timestamp"),
    "read": column("read", "bool", Notification.read_at.is_null(False)),
}
OWN_SHOWN_AS = {"read": "read_at"}

# The office's view: the channels nest their state, error, attempts (and for e-mail the address).
SENT_COLUMNS = {
    "id": column("id", "id"),
    "type": column("type", "enum"),
    "title": column("title", "str"),
    "data": column("data", "json"),
    "recipient_user_id": column("recipient_user_id", "ref", Notification.recipient_user),
    "staff_member_id": column("staff_member_id", "ref", Notification.staff_member),
    "created_at": column("created_at", "timestamp"),
    "due_at": column("due_at", "timestamp"),
    "email": column("email", "json"),
    "push": column("push", "json"),
}
SENT_FIELDS = [field for field in Notification._meta.sorted_fields if field.name not in ("body", "summary", "topic")]


# --- the caller's own ---------------------------------------------------------------------------------------


def told(moment):
    """The caller's own notifications that have been told by `moment` (one still held is not yet)."""
    return [Notification.recipient_user == g.caller.user_id, Notification.due_at <= moment]


@blueprint.get("/me/notifications")
@operation(response=NotificationSchema, listing=OWN_COLUMNS, errors=(400,))
def list_own():
    """The caller's notifications, newest first; `read` is computed (read_at set or not): filter[read]=false
    gives the unread."""
    page = listing.parse(request.args, OWN_COLUMNS, ["-created_at"])
    names = {OWN_SHOWN_AS.get(column.name, column.name) for column in page.columns}
    rows, total = fetched(page, told(now()), [Notification])
    return page_answer([shown(in_app(row), names) for row in rows], total, page)


@blueprint.post("/me/notifications/<id>/read")
@operation(response=NotificationSchema, errors=(400, 404))
def mark_read(id):
    """Mark one of the caller's notifications read (again: it keeps its first read_at)."""
    reject_parameters(request.args)
    moment = now()
    notification = Notification.get_or_none(Notification.id == id, *told(moment)) if listing.is_id(id) else None
    if notification is None:
        raise not_found("No notification of yours has this id.")
    if notification.read_at is None:
        notification.read_at = notification.updated_at = moment
        notification.save(only=[Notification.read_at, Notification.updated_at])
    return {"data": in_app(notification)}


@blueprint.post("/me/notifications/read-all")
@operation(response=NotificationsMarkedSchema, errors=(400,))
def mark_all_read():
    """Mark every notification the caller has been told of read: `marked` says how many were unread."""
    reject_parameters(request.args)
    moment = now()
    unread = [*told(moment), Notification.read_at.is_null()]
    marked = Notification.update(read_at=moment, updated_at=moment).where(*unread).execute()
    return {"data": {"marked": marked}}


def in_app(notification):
    return {
        "id": notification.id,
        "type": notification.type,
        "title": notification.title,
        "body": notification.body,
        "data": ids_of(notification),
        "created_at": notification.created_at,
        "read_at": notification.read_at,
    }


# --- the caller's channels ----------------------------------------------------------------------------------


@blueprint.get("/me/notification-settings")
@operation(response=NotificationSettingsSchema, errors=(400,))
def read_settings():
    """The caller's channels: each on unless they switched it off."""
    reject_parameters(request.args)
    return {"data": settings_of(g.caller.user_id)}


@blueprint.patch("/me/notification-settings")
@operation(body=NotificationSettingsChangeSchema, response=NotificationSettingsSchema, errors=(400, 413, 415, 422))
def change_settings():
    """Switch some of the caller's channels on or off; the others stay as they were."""
    reject_parameters(request.args)
    values = load(NotificationSettingsChangeSchema(), json_body())
    settings = {**settings_of(g.caller.user_id), **values}
    if values:
        dialect.upsert(NotificationSetting, user=g.caller.user_id, **settings)
    return {"data": settings}


def settings_of(user_id):
    chosen = NotificationSetting.of(user_id)
    return {name: getattr(chosen, name) for name in CHANNELS}


# --- the office's view --------------------------------------------------------------------------------------


@blueprint.get("/notifications")
@operation(capability="staffing.view", response=SentNotificationSchema, listing=SENT_COLUMNS, errors=(400,))
def list_sent():
    """What went out to whom, newest first: each notification's recipient and the state of each channel, never
    its body; the address mailed to in full with admin.view, masked otherwise."""
    page = listing.parse(request.args, SENT_COLUMNS, ["-created_at"])
    names = {column.name for column in page.columns}
    rows, total = fetched(page, [], SENT_FIELDS)
    full_address = "admin.view" in g.caller.can
    return page_answer([shown(as_sent(row, full_address), names) for row in rows], total, page)


def as_sent(notification, full_address):
    address, error = notification.email_to, notification.email_error
    if address and not full_address:
        address, error = masked(address), error and re.sub(re.escape(address), masked(address), error, flags=re.I)
    return {
        "id": notification.id,
        "type": notification.type,
        "title": notification.title,
        "data": ids_of(notification),
        "recipient_user_id": notification.recipient_user_id,
        "staff_member_id": notification.staff_member_id,
        "created_at": notification.created_at,
        "due_at": notification.due_at,
        "email": {
            "state": notification.email_state,
            "error": error,
            "attempts": notification.email_attempts,
            "to": address,
        },
        "push": {
            "state": notification.push_state,
            "error": notification.push_error,
            "attempts": notification.push_attempts,
        },
    }


# --- both ---------------------------------------------------------------------------------------------------


def fetched(page, scope, selection):
    """The page's notifications and the total that matches, read in one snapshot; the count is skipped when the
    page itself shows it."""
    with db.atomic():
        rows = list(listing.page_query(Notification, page, scope, selection=selection))
        return rows, listing.page_total(Notification, page, scope, len(rows))


def ids_of(notification):
    """The ids a notification is about, each key always there (null when it is about no such thing)."""
    data = notification.data or {}
    return {key: data.get(key) for key in DATA_KEYS}


def shown(answer, names):
    return {name: value for name, value in answer.items() if name in names}
