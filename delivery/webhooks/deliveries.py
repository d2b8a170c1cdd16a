"""Webhook deliveries (SPEC §8), from their queueing to their claim: a delivery is queued in its event's own
transaction, one per active endpoint that asked for the event's type; the worker's sender (`webhooks.sender`)
claims the due ones as attempts, sends them signed (`webhooks.signatures`) and records what each came to
(`webhooks.attempts`)."""

import collections
import datetime as dt
import json
from dataclasses import dataclass

import events
from delivery.outgoing import PER_DESTINATION, destination
from delivery.webhooks.signatures import live_secrets, signed_headers
from dialects import dialect
from domain import pay_policy
from events.resource import pay_amounts, sales_fields
from models import Event, WebhookDelivery, WebhookEndpoint, new_id, now, timestamp
from storage import writer

# A claim outlives its attempt's timeout by this much: long enough to record the outcome even after waiting the
# writer's whole busy timeout for the lock.
LEASE_MARGIN_SECONDS = writer.BUSY_TIMEOUT_SECONDS + 5
PING = "ping"  # an event queued to one endpoint alone, on request


# --- queueing: in the event's own transaction ---------------------------------------------------------------
# An event queues its deliveries to the endpoints asking for it as it is stored (the trigger of
# sql/sqlite/0006_webhooks.sql); a ping is queued here, to its one endpoint.


def queue(event, endpoint_id):
    """A pending delivery of `event` (events.Recorded) to one endpoint, in the transaction under way; the
    senders are woken once it commits. Returns the delivery's id."""
    moment = event.occurred_at
    delivery = WebhookDelivery.create(
        id=new_id(),
        endpoint=endpoint_id,
        event=event.id,
        event_type=event.type,
        next_attempt_at=moment,
        created_at=moment,
        updated_at=moment,
    )
    writer.after_commit(events.wake_senders)
    return delivery.id


def redeliver(delivery):
    """One more attempt now, whatever the delivery's status: a pending one goes on with its schedule after it, one
    that had ended ends again with it."""
    delivery.one_more = delivery.status != "pending"
    delivery.status, delivery.next_attempt_at = "pending", now()
    delivery.updated_at = delivery.next_attempt_at
    delivery.save()
    writer.after_commit(events.wake_senders)


# --- an attempt: what is sent -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Attempt:
    delivery_id: str
    endpoint_id: str
    url: str
    message_id: str  # the event's id: the same on every attempt, so a receiver can drop a repeat
    body: str
    secrets: tuple
    lease: str  # the claim this attempt is made under (`claimed_until`)

    def headers(self, moment):
        """The Standard Webhooks headers for an attempt at `moment`: one signature per live secret."""
        return signed_headers(self.message_id, self.body, self.secrets, moment)


def claim(limit, lease_seconds, busy):
    """Up to `limit` due deliveries to active endpoints, claimed for `lease_seconds` in the write transaction under
    way (so that no other server takes them meanwhile), as attempts ready to send. `busy` are the attempts on their
    way: no destination (scheme, host and port, whatever the endpoints on it) gets more than PER_DESTINATION at
    once, so one that hangs holds up no other (SPEC §2.3)."""
    moment = now()
    lease = timestamp(dt.datetime.now(dt.UTC) + dt.timedelta(seconds=lease_seconds))
    claimed, sending = [], collections.Counter(destination(attempt.url) for attempt in busy)
    for endpoint in WebhookEndpoint.select().where(WebhookEndpoint.is_active == True):  # noqa: E712
        to = destination(endpoint.url)
        room = min(PER_DESTINATION - sending[to], limit - len(claimed))
        if room > 0:
            due = claimable(moment).where(
                WebhookDelivery.endpoint == endpoint.id, WebhookDelivery.next_attempt_at <= moment
            )
            rows = due.select(WebhookDelivery.id, WebhookDelivery.event).order_by(WebhookDelivery.next_attempt_at)
            found = [(row.id, row.event_id, endpoint) for row in dialect.claiming(rows.limit(room))]
            sending[to] += len(found)
            claimed += found
    if not claimed:
        return []
    ids = [delivery_id for delivery_id, _, _ in claimed]
    WebhookDelivery.update(claimed_until=lease).where(WebhookDelivery.id.in_(ids)).execute()
    found = {e.id: e for e in Event.select().where(Event.id.in_([event_id for _, event_id, _ in claimed]))}
    return [attempt(delivery_id, found[event_id], endpoint, lease) for delivery_id, event_id, endpoint in claimed]


def attempt(delivery_id, event, endpoint, lease):
    hidden = pay_policy.hidden_to_endpoint(endpoint, pay_amounts(), sales_fields())
    shown = events.shown(event, hidden=hidden)
    body = json.dumps({"type": event.type, "timestamp": event.occurred_at, "data": shown}, separators=(",", ":"))
    return Attempt(delivery_id, endpoint.id, endpoint.url, event.id, body, live_secrets(endpoint), lease)


def claimable(moment):
    """The pending deliveries no server holds a claim on at `moment`."""
    return WebhookDelivery.select().where(
        WebhookDelivery.status == "pending",
        WebhookDelivery.claimed_until.is_null() | (WebhookDelivery.claimed_until < moment),
    )


def next_due():
    """When the earliest delivery `claim` may take is due (a stored timestamp; past when it is due now), or None."""
    query = claimable(now()).join(WebhookEndpoint).where(WebhookEndpoint.is_active == True)  # noqa: E712
    return query.select(WebhookDelivery.next_attempt_at).order_by(WebhookDelivery.next_attempt_at).limit(1).scalar()


def release(attempts):
    """Claims given back unused (the service is stopping): those deliveries are due again at once. A claim that
    ran out and was taken by another server meanwhile is theirs."""
    with writer.transaction():
        for attempt in attempts:
            held = (WebhookDelivery.id == attempt.delivery_id) & (WebhookDelivery.claimed_until == attempt.lease)
            WebhookDelivery.update(claimed_until=None).where(held).execute()


def in_flight(delivery):
    """Whether a server holds a claim on the delivery now: an attempt is on its way."""
    return delivery.claimed_until is not None and delivery.claimed_until >= now()
