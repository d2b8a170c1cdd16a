"""Events (SPEC §8): every committed change, recorded in the change's own transaction, so that neither is ever
kept without the other. An event names its subject (collection and id), the gig it belongs to, who did it in
which request, the subject as the API shows it, and for an update what changed."""

from typing import NamedTuple

from flask import g, has_request_context

from models import Event, now

NOT_CHANGES = ("updated_at",)  # moves with every change: not one itself


class Actor(NamedTuple):
    """Who did it, when it is not the caller behind the request's bearer (someone signing in)."""

    user_id: str
    name: str
    kind: str


def record(event_type, collection, subject_id, group, data, *, changes=None, gig_id=None, actor=None):
    """Write one event now, in the transaction under way. `actor` is the caller unless given (a sign-in's user);
    outside a request (the worker, a command) there is none."""
    actor = actor or (g.get("caller") if has_request_context() else None)
    Event.insert(
        type=event_type,
        occurred_at=now(),
        actor_user_id=actor.user_id if actor else None,
        actor_name=actor.name if actor else None,
        actor_token_kind=actor.kind if actor else None,
        request_id=g.get("request_id") if has_request_context() else None,
        subject_collection=collection,
        subject_id=subject_id,
        subject_group=group,
        gig_id=gig_id,
        data=data,
        changes=changes,
    ).execute()


def changes_between(before, after):
    """{field: {from, to}} for the fields whose value changed."""
    return {
        name: {"from": before.get(name), "to": value}
        for name, value in after.items()
        if name not in NOT_CHANGES and before.get(name) != value
    }
