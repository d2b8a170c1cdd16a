"""The event stream as the office reads it (SPEC §8): `GET /events` and a gig's history, each event shown only to
callers who may view its subject's group, pay amounts as `pay_policy` says (to holders of pay.view)."""

from flask import Blueprint, g, request
from peewee import SQL, fn

import events
import listing
from dialects import dialect
from domain import pay_policy
from domain.capabilities import GROUPS
from formats.operation_schemas import EventSchema
from listing import Column
from models import Event
from openapi import operation
from resources import private_fields
from routes.gigs import GIGS
from web.lifecycle import page_answer

blueprint = Blueprint("events", __name__)


def column(name, kind):
    """A filterable column of the events table, or (kind json) a part of the answer that only `fields` names."""
    return Column(name, SQL("NULL") if kind == "json" else getattr(Event, name), kind)


# Filterable and sortable; the answer nests actor and subject (their parts filter as actor_user_id, actor_token_kind:
# `client` for the couple's changes on their page, subject_collection, subject_id).
EVENT_COLUMNS = {
    "id": column("id", "id"),
    "seq": column("seq", "int"),
    "type": column("type", "str"),
    "occurred_at": column("occurred_at", "timestamp"),
    "actor": column("actor", "json"),
    "actor_user_id": column("actor_user_id", "ref"),
    "actor_token_kind": column("actor_token_kind", "str"),
    "request_id": column("request_id", "str"),
    "subject": column("subject", "json"),
    "subject_collection": column("subject_collection", "str"),
    "subject_id": column("subject_id", "ref"),
    "gig_id": column("gig_id", "ref"),
    "data": column("data", "json"),
    "changes": column("changes", "json"),
}
SHOWN_AS = {"actor_user_id": "actor", "actor_token_kind": "actor", "subject_collection": "subject"}
SHOWN_AS["subject_id"] = "subject"


@blueprint.get("/events")
@operation(response=EventSchema, listing=EVENT_COLUMNS, errors=(400,))
def list_events():
    """Every committed change the caller may see, newest first: the audit log."""
    return events_page()


@blueprint.get("/gigs/<id>/history")
@operation(capability="gigs.view", response=EventSchema, listing=EVENT_COLUMNS, errors=(400, 404))
def gig_history(id):
    """The changes of a gig and of everything that belongs to it, newest first."""
    return events_page(Event.gig_id == GIGS.get(id).id)


def events_page(*scope):
    page = listing.parse(request.args, EVENT_COLUMNS, ["-seq"])
    visible = Event.subject_group.in_([group for group in GROUPS if f"{group}.view" in g.caller.can])
    rows = list(listing.page_query(Event, page, [visible, *scope], selection=[Event]))
    total = dialect.counted(Event.select(fn.COUNT(SQL("*"))).where(dialect.all_of([visible, *scope, *page.where])))
    names = {SHOWN_AS.get(column.name, column.name) for column in page.columns}
    hidden = pay_policy.hidden_to_caller(private_fields(), g.caller.can)
    return page_answer([events.shown(event, hidden, names) for event in rows], total, page)
