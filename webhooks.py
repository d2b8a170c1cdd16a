"""Webhooks (SPEC §8): what a delivery is, from its queueing to the record of each attempt. A delivery is queued in
its event's own transaction, one per active endpoint that asked for the event's type; the worker's sender
(`webhook_sender.py`) claims the due ones, sends them signed as the Standard Webhooks specification says, and
records here what each attempt came to."""

import base64
import datetime as dt
import email.utils
import json
import random
import secrets
from dataclasses import dataclass

from standardwebhooks import Webhook

import events
import writer
from models import Event, WebhookDelivery, WebhookEndpoint, new_id, now, timestamp
from resources import private_fields

SECRET_PREFIX_CHARS = 10  # `whsec_` and four characters: enough to tell two secrets apart, nothing to sign with
ROTATION = dt.timedelta(hours=24)  # how long the secret before a rotation still signs
EXCERPT_BYTES = 1024
RETRY_AFTER_MAX_SECONDS = 3600
JITTER = 0.1  # each wait is stretched or shrunk by up to this share, so retries of many deliveries spread out
LEASE_MARGIN_SECONDS = 5  # a claim outlives its attempt's timeout by this much
PING = "ping"  # an event queued to one endpoint alone, on request


def new_secret():
    """`whsec_` + base64 of 24 random bytes, as the Standard Webhooks libraries read it."""
    return "whsec_" + base64.b64encode(secrets.token_bytes(24)).decode()


def set_secret(endpoint, secret):
    endpoint.secret, endpoint.secret_prefix = secret, secret[:SECRET_PREFIX_CHARS]


def rotate_secret(endpoint):
    """A new secret; the old one keeps signing beside it for a day, while receivers move over. Returns it."""
    endpoint.previous_secret = endpoint.secret
    endpoint.previous_secret_until = timestamp(dt.datetime.now(dt.UTC) + ROTATION)
    set_secret(endpoint, new_secret())
    return endpoint.secret


# --- queueing: in the event's own transaction ---------------------------------------------------------------
# An event queues its deliveries to the endpoints asking for it as it is stored (the trigger of
# sql/0006_webhooks.sql); a ping is queued here, to its one endpoint.


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
    """One more attempt now, whatever the delivery's status; its count of attempts goes on."""
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

    def headers(self, moment):
        """The Standard Webhooks headers for an attempt at `moment`: one signature per live secret."""
        signatures = " ".join(Webhook(s).sign(self.message_id, moment, self.body) for s in self.secrets)
        return {
            "content-type": "application/json",
            "webhook-id": self.message_id,
            "webhook-timestamp": str(int(moment.timestamp())),
            "webhook-signature": signatures,
        }


def claim(limit, lease_seconds):
    """Up to `limit` due deliveries to active endpoints, claimed for `lease_seconds` in one write transaction (so
    that no other server takes them meanwhile), as attempts ready to send."""
    with writer.transaction():
        moment = now()
        due = pending_to_claim(moment).where(WebhookDelivery.next_attempt_at <= moment).limit(limit)
        due = due.select(WebhookDelivery.id, WebhookDelivery.event, WebhookEndpoint)
        rows = list(due)
        if not rows:
            return []
        lease = timestamp(dt.datetime.now(dt.UTC) + dt.timedelta(seconds=lease_seconds))
        WebhookDelivery.update(claimed_until=lease).where(WebhookDelivery.id.in_([r.id for r in rows])).execute()
        found = {e.id: e for e in Event.select().where(Event.id.in_([r.event_id for r in rows]))}
    pay = {
        collection: [name for name, g in fields.items() if g == "pay"]
        for collection, fields in private_fields().items()
    }
    return [attempt(row, found[row.event_id], pay) for row in rows]


def attempt(delivery, event, pay_fields):
    endpoint = delivery.endpoint
    shown = events.shown(event, hidden={} if endpoint.include_pay else pay_fields)
    body = json.dumps({"type": event.type, "timestamp": event.occurred_at, "data": shown}, separators=(",", ":"))
    live = [endpoint.secret]
    if endpoint.previous_secret and endpoint.previous_secret_until > now():
        live.append(endpoint.previous_secret)
    return Attempt(delivery.id, endpoint.id, endpoint.url, event.id, body, tuple(live))


def next_due():
    """When the earliest delivery `claim` may take is due (a stored timestamp; past when it is due now), or None."""
    return pending_to_claim(now()).select(WebhookDelivery.next_attempt_at).limit(1).scalar()


def pending_to_claim(moment):
    """The pending deliveries to active endpoints that no server holds a claim on at `moment`, the earliest first."""
    return (
        WebhookDelivery.select()
        .join(WebhookEndpoint)
        .where(
            WebhookDelivery.status == "pending",
            WebhookDelivery.claimed_until.is_null() | (WebhookDelivery.claimed_until < moment),
            WebhookEndpoint.is_active == True,  # noqa: E712
        )
        .order_by(WebhookDelivery.next_attempt_at)
    )


def release(delivery_ids):
    """Claims given back unused (the service is stopping): those deliveries are due again at once."""
    with writer.transaction():
        WebhookDelivery.update(claimed_until=None).where(WebhookDelivery.id.in_(list(delivery_ids))).execute()


# --- an attempt: what came of it ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Outcome:
    """What one attempt came to: the receiver's status code and the start of its answer, or why there was none."""

    attempt: Attempt
    attempted_at: str
    status_code: int | None = None
    error: str | None = None
    excerpt: str | None = None
    retry_after: float | None = None  # seconds the receiver asked us to wait (429, 503)

    @property
    def succeeded(self):
        return self.status_code is not None and 200 <= self.status_code < 300


def retry_after_seconds(value, moment):
    """A `Retry-After` header (seconds or an HTTP date) in seconds from `moment`, at most an hour; None when
    it says nothing usable."""
    if not value:
        return None
    value = value.strip()
    if value.isascii() and value.isdigit():
        seconds = float(value)
    else:
        try:
            seconds = (email.utils.parsedate_to_datetime(value) - moment).total_seconds()
        except (TypeError, ValueError):
            return None
    return min(max(seconds, 0.0), RETRY_AFTER_MAX_SECONDS)


def record(outcomes, waits, failing_days):
    """Store what the attempts came to, in the transaction under way: each delivery succeeded, failed for good,
    or is due again after the next wait of `waits` (or the receiver's Retry-After, if later), counted from now:
    from the failure, not from the start of an attempt that may have waited the whole timeout. Returns {endpoint
    id: why it must be disabled}: a 410, or `failing_days` of nothing but failures."""
    to_disable, moment = {}, now()
    stored = WebhookDelivery.select().where(WebhookDelivery.id.in_([o.attempt.delivery_id for o in outcomes]))
    deliveries = {d.id: d for d in stored}
    endpoint_ids = list({outcome.attempt.endpoint_id for outcome in outcomes})
    endpoints = {e.id: e for e in WebhookEndpoint.select().where(WebhookEndpoint.id.in_(endpoint_ids))}
    for outcome in outcomes:
        delivery = deliveries.get(outcome.attempt.delivery_id)
        endpoint = endpoints.get(outcome.attempt.endpoint_id)
        if delivery is None or endpoint is None:
            continue  # deleted with its endpoint or pruned with its event while it was on its way
        delivery.attempts += 1
        delivery.last_attempt_at, delivery.last_status_code = outcome.attempted_at, outcome.status_code
        delivery.last_error, delivery.response_excerpt = outcome.error, outcome.excerpt
        delivery.claimed_until, delivery.updated_at = None, now()
        if outcome.succeeded:
            delivery.status, delivery.next_attempt_at = "succeeded", None
            endpoint.failing_since = None
        else:
            wait = None if outcome.status_code == 410 else next_wait(delivery.attempts, waits, outcome.retry_after)
            delivery.status = "failed" if wait is None else "pending"
            delivery.next_attempt_at = None if wait is None else later(moment, wait)
            endpoint.failing_since = endpoint.failing_since or outcome.attempted_at
            if outcome.status_code == 410:
                to_disable[endpoint.id] = "The receiver answered 410 Gone: it wants no more deliveries."
            elif moment_of(outcome) - parse(endpoint.failing_since) >= dt.timedelta(days=failing_days):
                to_disable[endpoint.id] = f"Every delivery failed since {endpoint.failing_since}."
        delivery.save()
    for endpoint in endpoints.values():
        WebhookEndpoint.update(failing_since=endpoint.failing_since).where(WebhookEndpoint.id == endpoint.id).execute()
    return to_disable


def next_wait(attempts, waits, retry_after):
    """Seconds until the next attempt after `attempts` failed ones, with jitter; None when they are all used."""
    if attempts > len(waits):
        return None
    wait = waits[attempts - 1] * random.uniform(1 - JITTER, 1 + JITTER)
    return max(wait, retry_after or 0.0)


def parse(stored):
    return dt.datetime.fromisoformat(stored)


def moment_of(outcome):
    return parse(outcome.attempted_at)


def later(stored, seconds):
    return timestamp(parse(stored) + dt.timedelta(seconds=seconds))
