"""The event stream as the office reads it (SPEC §8): `GET /events` and a gig's history, each event shown only to
callers who may view its subject's group, pay amounts only to holders of pay.view."""

from flask import Blueprint, g, request
from peewee import SQL

import listing
import sqlite_dialect as dialect
from auth import GROUPS, require
from bodies import EventSchema
from listing import Column
from models import Event
from openapi import operation
from resources import REGISTRY
from routes.gigs import GIGS

blueprint = Blueprint("events", __name__)


def column(name, kind):
    return Column(name, getattr(Event, name) if hasattr(Event, name) and kind != "json" else SQL("NULL"), kind)


# Filterable and sortable; the answer nests actor and subject (their parts filter as actor_user_id,
# subject_collection, subject_id).
EVENT_COLUMNS = {
    "id": column("id", "id"),
    "seq": column("seq", "int"),
    "type": column("type", "str"),
    "occurred_at": column("occurred_at", "timestamp"),
    "actor": column("actor", "json"),
    "actor_user_id": column("actor_user_id", "ref"),
    "request_id": column("request_id", "str"),
    "subject": column("subject", "json"),
    "subject_collection": column("subject_collection", "str"),
    "subject_id": column("subject_id", "ref"),
    "gig_id": column("gig_id", "ref"),
    "data": column("data", "json"),
    "changes": column("changes", "json"),
}
SHOWN_AS = {"actor_user_id": "actor", "subject_collection": "subject", "subject_id": "subject"}


@blueprint.get("/events")
@operation(response=EventSchema, listing=EVENT_COLUMNS, errors=(400,))
def list_events():
    """Every committed change the caller may see, newest first: the audit log."""
    return events_page()


@blueprint.get("/gigs/<id>/history")
@operation(response=EventSchema, listing=EVENT_COLUMNS, errors=(400, 404))
def gig_history(id):
    """The changes of a gig and of everything that belongs to it, newest first."""
    require("gigs", "view")
    return events_page(Event.gig_id == GIGS.get(id).id)


def events_page(*scope):
    page = listing.parse(request.args, EVENT_COLUMNS, ["-seq"])
    visible = Event.subject_group.in_([group for group in GROUPS if f"{group}.view" in g.caller.can])
    where = dialect.all_of([visible, *scope, *page.where])
    query = Event.select().where(where)
    order = [column.expr.desc() if descending else column.expr.asc() for column, descending in page.order]
    rows = list(query.order_by(*order).limit(page.limit).offset(page.offset))
    total = dialect.counted(Event.select(Event.seq).where(where).select(SQL("COUNT(*)")))
    shown = {SHOWN_AS.get(column.name, column.name) for column in page.columns}
    return listing.page_answer([answer(event, shown) for event in rows], total, page)


def answer(event, shown):
    """The event as the API shows it, with pay amounts hidden from a caller without pay.view."""
    data, changes = event.data, event.changes
    hidden = private_fields().get(event.subject_collection, {})
    for name, group in hidden.items():
        if f"{group}.view" not in g.caller.can:
            data = {**data, name: None} if data and name in data else data
            changes = {**changes, name: {"from": None, "to": None}} if changes and name in changes else changes
    actor = None
    if event.actor_user_id:
        actor = {"user_id": event.actor_user_id, "name": event.actor_name, "token_kind": event.actor_token_kind}
    full = {
        "id": event.id,
        "seq": event.seq,
        "type": event.type,
        "occurred_at": event.occurred_at,
        "actor": actor,
        "request_id": event.request_id,
        "subject": {"collection": event.subject_collection, "id": event.subject_id},
        "gig_id": event.gig_id,
        "data": data,
        "changes": changes,
    }
    return {name: value for name, value in full.items() if name in shown}


def private_fields():
    """{collection: {field: group}} of the fields private to another group (gig roles' pay_cents: pay)."""
    return {
        resource.model._meta.table_name: {c.name: c.group for c in resource.columns.values() if c.group}
        for resource in REGISTRY.values()
    }
