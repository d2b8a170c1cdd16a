"""Notifications as rows (SPEC §9): a new one with the state of each channel, the one still held under a
topic, and the wake-up of the senders once a commit has given them work. Which channels a notification
actually takes (a user's settings, an address, devices) is the sender's to decide when it is due."""

import datetime as dt
from typing import NamedTuple

from models import Notification, now, timestamp
from storage import writer

SENDERS = set()  # wake-ups of the running notification senders, called once a commit gave them work


class Message(NamedTuple):
    title: str  # a mail's subject: what, where, when at a glance; never an amount or an address
    body: str  # the whole message, as mailed and shown in-app
    summary: str  # for a push (a lock screen): never an amount or an address


def ids(gig_id=None, gig_role_id=None, invitation_id=None):
    """A notification's `data`: the ids an app opens it with, and nothing else."""
    return {"gig_id": gig_id, "gig_role_id": gig_role_id, "invitation_id": invitation_id}


def later(seconds):
    return timestamp(dt.datetime.now(dt.UTC) + dt.timedelta(seconds=seconds))


def add(kind, message, data, *, member=None, user_id=None, to=None, topic=None, due_at=None, created_at=None):
    """A new notification for a staff member (told through their linked user, else by mail to their own
    address), for a user, or for a client (`to`: their address, None when they have none; mail only), in the
    transaction under way."""
    recipient = user_id or (member.user_id if member else None)
    unpushed = "No user is linked to the staff member: told by mail only." if member else "A client is told by mail."
    due_at, stamp = due_at or now(), created_at or now()
    notification = Notification.create(
        type=kind,
        recipient_user=recipient,
        staff_member=member.id if member else None,
        title=message.title,
        body=message.body,
        summary=message.summary,
        data=data,
        topic=topic,
        due_at=due_at,
        created_at=stamp,
        updated_at=stamp,
        email_to=to,
        email_state="pending",
        email_next_at=due_at,
        push_state="pending" if recipient else "skipped",
        push_error=None if recipient else unpushed,
        push_next_at=due_at if recipient else None,
    )
    queued()
    return notification


def rewrite(notification, message, due_at):
    """A held notification says something new, and waits until `due_at`."""
    notification.title, notification.body, notification.summary = message
    notification.due_at = notification.email_next_at = due_at
    notification.push_next_at = due_at if notification.push_state == "pending" else None
    notification.updated_at = now()
    notification.save()
    queued()


def held(kind, topic):
    """The notification of `kind` under `topic` that is not due yet (nobody was told), or None."""
    query = Notification.select().where(Notification.topic == topic, Notification.type == kind)
    return query.where(Notification.due_at > now()).first()


def held_until(kind, member):
    """When the earliest notification of `kind` held for `member` goes out, or None."""
    query = Notification.select(Notification.due_at).where(
        Notification.type == kind, Notification.staff_member == member.id
    )
    return query.where(Notification.due_at > now()).order_by(Notification.due_at).limit(1).scalar()


def drop_held(kind, topic):
    """Delete what is held under `topic`: how many there were."""
    query = Notification.delete().where(Notification.topic == topic, Notification.type == kind)
    return query.where(Notification.due_at > now()).execute()


def unsend(kind, topic, reason):
    """The channels of the notifications of `kind` under `topic` that have not gone out never go (`reason` says
    why). Whether their recipient may have been told: a channel sent or on its way, or the message in-app."""
    moment, told = now(), False
    for row in Notification.select().where(Notification.topic == topic, Notification.type == kind):
        in_app = row.recipient_user_id is not None and row.due_at <= moment
        on_its_way = row.claimed_until is not None and row.claimed_until > moment
        told = told or in_app or on_its_way or "sent" in (row.email_state, row.push_state)
        for channel in ("email", "push"):
            skip(row, channel, reason)
        if row.is_dirty():
            row.updated_at = moment
            row.save()
    return told


def mark_read(kind, topic):
    """The notifications of `kind` under `topic` not read yet are read now: their recipient did what they asked."""
    moment = now()
    query = Notification.update(read_at=moment, updated_at=moment)
    query.where(Notification.topic == topic, Notification.type == kind, Notification.read_at.is_null()).execute()


def skip(row, channel, reason):
    """A channel still pending is skipped, `reason` its error (the row is saved by the caller)."""
    if getattr(row, f"{channel}_state") == "pending":
        setattr(row, f"{channel}_state", "skipped")
        setattr(row, f"{channel}_next_at", None)
        setattr(row, f"{channel}_error", reason)


def queued():
    """In the write transaction that queues notifications: the senders are woken once it commits."""
    writer.after_commit(wake_senders)


def wake_senders():
    """From any thread: every running sender looks at the queue now."""
    for wake in list(SENDERS):
        wake()
