"""Events (SPEC §8): every committed change, recorded in the change's own transaction, so that neither is ever
kept without the other. An event names its subject (collection and id), the gig it belongs to, who did it in
which request, the subject as the API shows it, and for an update what changed. The database queues an event's
webhook deliveries as it stores the event, in the same statement: a trigger of each dialect's migrations
(`sql/sqlite/0006_webhooks.sql`, `sql/postgresql/0006_webhooks.sql`). Once such a commit is done, the senders
waiting for work are woken. Listeners registered for an event type (`listen`) are called with each such event as it
is written, in the same transaction (the notifications of §9). What a resource records of its changes is
`events.resource`; the routes that read events, `routes/events.py`."""

import json
from typing import NamedTuple

from flask import g, has_request_context

from models import Event, WebhookDelivery, db, new_id, now
from storage import writer

NOT_CHANGES = ("updated_at",)  # moves with every change: not one itself
INSERT = f"""INSERT INTO "{Event._meta.table_name}" ("id", "type", "occurred_at", "actor_user_id", "actor_name",
  "actor_token_kind", "request_id", "subject_collection", "subject_id", "subject_group", "gig_id", "data", "changes")
  VALUES ({", ".join([db.param] * 13)})"""  # the dialect's placeholder
# Whether the trigger queued a delivery of the event: one look in an index
QUEUED = f'SELECT 1 FROM "{WebhookDelivery._meta.table_name}" WHERE "event_id" = {db.param} LIMIT 1'
SENDERS_WOKEN = "events.senders_woken"  # noted once a transaction's commit is to wake the senders


SENDERS = set()  # the running webhook senders' wake-ups
LISTENERS = {}  # event type: [listener], called in the event's transaction


def listen(event_type, listener):
    """Call `listener(Happened)` with each event of `event_type` as it is written, in its transaction: what the
    listener writes is kept or undone with the event."""
    LISTENERS.setdefault(event_type, []).append(listener)


class Recorded(NamedTuple):
    """An event just written."""

    id: str
    type: str
    occurred_at: str


def wake_senders():
    for wake in list(SENDERS):
        wake()


class Happened(NamedTuple):
    """An event just written, as its listeners hear of it: `data` and `changes` as dicts (or None)."""

    id: str
    type: str
    occurred_at: str
    subject_id: str
    gig_id: str | None
    data: dict | None
    changes: dict | None


class Actor(NamedTuple):
    """Who did it, when it is not the caller behind the request's bearer (someone signing in)."""

    user_id: str
    name: str
    kind: str


def record(event_type, collection, subject_id, group, data, *, changes=None, gig_id=None, actor=None):
    """Write one event now, in the transaction under way. `actor` is the caller unless given (a sign-in's user);
    outside a request (the worker, a command) there is none."""
    actor = actor or (g.get("caller") if has_request_context() else None)
    who = (actor.user_id, actor.name, actor.kind) if actor else (None, None, None)
    request_id = g.get("request_id") if has_request_context() else None
    text = data if isinstance(data, str) or data is None else json.dumps(data, separators=(",", ":"))
    changes_text = None if changes is None else json.dumps(changes, separators=(",", ":"))
    # written as plain SQL: the insert builder would cost a write more than the rest of the event does
    event = Recorded(new_id(), event_type, now())
    row = (event.id, event_type, event.occurred_at, *who, request_id, collection, subject_id, group, gig_id)
    db.execute_sql(INSERT, (*row, text, changes_text))
    if not writer.noted(SENDERS_WOKEN) and db.execute_sql(QUEUED, (event.id,)).fetchone():
        writer.note(SENDERS_WOKEN, True)  # the rest of its events need not look, nor wake them again
        writer.after_commit(wake_senders)
    for listener in LISTENERS.get(event_type, ()):
        listener(Happened(*event, subject_id, gig_id, text and json.loads(text), changes and json.loads(changes_text)))
    return event


def changes_between(before, after):
    """{field: {from, to}} for the fields whose value changed."""
    return {
        name: {"from": before.get(name), "to": value}
        for name, value in after.items()
        if name not in NOT_CHANGES and before.get(name) != value
    }


def shown(event, hidden, names=None):
    """A stored event as the API shows it: `hidden` names, by collection, the fields that read null (pay, to
    whoever `pay_policy` hides it from); `names`, when given, the top-level keys wanted."""
    data, changes = event.data, event.changes
    for name in hidden.get(event.subject_collection, ()):
        data = {**data, name: None} if data and name in data else data
        changes = {**changes, name: {"from": None, "to": None}} if changes and name in changes else changes
    actor = None
    if event.actor_user_id or event.actor_token_kind:  # a client (SPEC §16) acts without a user
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
    return full if names is None else {name: value for name, value in full.items() if name in names}
