"""Webhooks (SPEC §8): what a delivery is, from its queueing to the record of each attempt. A delivery is queued in
its event's own transaction, one per active endpoint that asked for the event's type; the worker's sender
(`webhook_sender.py`) claims the due ones, sends them signed as the Standard Webhooks specification says, and
records here what each attempt came to."""

import base64
import collections
import datetime as dt
import email.utils
import json
import secrets
from dataclasses import dataclass

from standardwebhooks import Webhook

import backoff
import events
import pay_policy
import writer
from models import Event, WebhookDelivery, WebhookEndpoint, new_id, now, timestamp
from outgoing import PER_DESTINATION, destination
from resources import pay_amounts

SECRET_PREFIX_CHARS = 10  # `whsec_` and four characters: enough to tell two secrets apart, nothing to sign with
ROTATION = dt.timedelta(hours=24)  # how long the secret before a rotation still signs
EXCERPT_BYTES = 1024
RETRY_AFTER_MAX_SECONDS = 3600
JITTER = 0.1  # each wait is stretched or shrunk by up to this share, so retries of many deliveries spread out
# A claim outlives its attempt's timeout by this much: long enough to record the outcome even after waiting the
# writer's whole busy timeout for the lock.
LEASE_MARGIN_SECONDS = writer.BUSY_TIMEOUT_SECONDS + 5
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
        signatures = " ".join(Webhook(s).sign(self.message_id, moment, self.body) for s in self.secrets)
        return {
            "content-type": "application/json",
            "webhook-id": self.message_id,
            "webhook-timestamp": str(int(moment.timestamp())),
            "webhook-signature": signatures,
        }


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
            found = [(row.id, row.event_id, endpoint) for row in rows.limit(room)]
            sending[to] += len(found)
            claimed += found
    if not claimed:
        return []
    ids = [delivery_id for delivery_id, _, _ in claimed]
    WebhookDelivery.update(claimed_until=lease).where(WebhookDelivery.id.in_(ids)).execute()
    found = {e.id: e for e in Event.select().where(Event.id.in_([event_id for _, event_id, _ in claimed]))}
    return [attempt(delivery_id, found[event_id], endpoint, lease) for delivery_id, event_id, endpoint in claimed]


def attempt(delivery_id, event, endpoint, lease):
    shown = events.shown(event, hidden=pay_policy.hidden_to_endpoint(endpoint, pay_amounts()))
    body = json.dumps({"type": event.type, "timestamp": event.occurred_at, "data": shown}, separators=(",", ":"))
    live = [endpoint.secret]
    if endpoint.previous_secret and endpoint.previous_secret_until > now():
        live.append(endpoint.previous_secret)
    return Attempt(delivery_id, endpoint.id, endpoint.url, event.id, body, tuple(live), lease)


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


def forget_old_secrets():
    """A secret replaced over a day ago signs nothing any more: it is not kept either."""
    with writer.transaction():
        expired = WebhookEndpoint.previous_secret_until < now()
        WebhookEndpoint.update(previous_secret=None, previous_secret_until=None).where(expired).execute()


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


@dataclass(frozen=True)
class SwitchOff:
    """An endpoint the service switches off, and why; `tell_admins` for days of failures (a 410 is the
    receiver's own wish)."""

    endpoint_id: str
    reason: str
    tell_admins: bool


def record(outcomes, waits, failing_days):
    """Store what the attempts came to, in the transaction under way: each delivery succeeded, failed for good,
    or is due again after the next wait of `waits` (or the receiver's Retry-After, if later), counted from now:
    from the failure, not from the start of an attempt that may have waited the whole timeout. An attempt whose
    claim ran out and was taken by another server meanwhile is theirs to record. Returns [SwitchOff]: a 410, or
    `failing_days` of nothing but failures."""
    moment = now()
    stored = WebhookDelivery.select().where(WebhookDelivery.id.in_([o.attempt.delivery_id for o in outcomes]))
    deliveries = {d.id: d for d in stored}
    endpoint_ids = list({outcome.attempt.endpoint_id for outcome in outcomes})
    endpoints = {e.id: e for e in WebhookEndpoint.select().where(WebhookEndpoint.id.in_(endpoint_ids))}
    switch_offs = {}
    for outcome in outcomes:
        delivery = deliveries.get(outcome.attempt.delivery_id)
        endpoint = endpoints.get(outcome.attempt.endpoint_id)
        if delivery is None or endpoint is None or delivery.claimed_until != outcome.attempt.lease:
            continue  # deleted with its endpoint, pruned with its event, or claimed anew by another server
        delivery.attempts += 1
        delivery.last_attempt_at, delivery.last_status_code = outcome.attempted_at, outcome.status_code
        delivery.last_error, delivery.response_excerpt = outcome.error, outcome.excerpt
        delivery.claimed_until, delivery.updated_at = None, moment
        if outcome.succeeded:
            delivery.status, delivery.next_attempt_at = "succeeded", None
            endpoint.failing_since = None
        else:
            last = outcome.status_code == 410 or delivery.one_more
            wait = None if last else next_wait(delivery.attempts, waits, outcome.retry_after)
            delivery.status = "failed" if wait is None else "pending"
            delivery.next_attempt_at = None if wait is None else later(moment, wait)
            endpoint.failing_since = endpoint.failing_since or outcome.attempted_at
            if outcome.status_code == 410:
                reason = "The receiver answered 410 Gone: it wants no more deliveries."
                switch_offs[endpoint.id] = SwitchOff(endpoint.id, reason, tell_admins=False)
            elif moment_of(outcome) - parse(endpoint.failing_since) >= dt.timedelta(days=failing_days):
                reason = f"Every delivery failed since {endpoint.failing_since}."
                switch_offs.setdefault(endpoint.id, SwitchOff(endpoint.id, reason, tell_admins=True))
        delivery.one_more = False
        delivery.save()
    for endpoint in endpoints.values():
        WebhookEndpoint.update(failing_since=endpoint.failing_since).where(WebhookEndpoint.id == endpoint.id).execute()
    return list(switch_offs.values())


def next_wait(attempts, waits, retry_after):
    """Seconds until the next attempt after `attempts` failed ones, with jitter; None when they are all used."""
    if attempts > len(waits):
        return None
    wait = backoff.jittered(waits[attempts - 1], JITTER)
    return max(wait, retry_after or 0.0)


def parse(stored):
    return dt.datetime.fromisoformat(stored)


def moment_of(outcome):
    return parse(outcome.attempted_at)


def later(stored, seconds):
    return timestamp(parse(stored) + dt.timedelta(seconds=seconds))
