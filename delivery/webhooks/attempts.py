"""What a webhook attempt came to (SPEC §8), and what is recorded of it: the delivery succeeded, failed for good
or is due again after its next wait; an endpoint that answers 410, or has failed for days, is switched off."""

import datetime as dt
import functools
import logging
from dataclasses import dataclass
from urllib.parse import urlsplit

from delivery import backoff
from delivery.mail import message, message_id
from delivery.webhooks.deliveries import Attempt
from dialects import dialect
from domain.capabilities import held_capabilities
from events.resource import recorder_of
from models import User, WebhookDelivery, WebhookEndpoint, now
from storage import writer

log = logging.getLogger("band.webhooks")
EXCERPT_BYTES = 1024
JITTER = 0.1  # each wait is stretched or shrunk by up to this share, so retries of many deliveries spread out


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


@dataclass(frozen=True)
class SwitchOff:
    """An endpoint the service switches off, and why; `tell_admins` for days of failures (a 410 is the
    receiver's own wish)."""

    endpoint_id: str
    reason: str
    tell_admins: bool


def record_outcomes(outcomes, waits, failing_days):
    """Store what the attempts came to, in the transaction under way: each delivery succeeded, failed for good,
    or is due again after the next wait of `waits` (or the receiver's Retry-After, if later), counted from now:
    from the failure, not from the start of an attempt that may have waited the whole timeout. An attempt whose
    claim ran out and was taken by another server meanwhile is theirs to record. Returns [SwitchOff]: a 410, or
    `failing_days` of nothing but failures."""
    moment = now()
    # locked as read (a request may change them meanwhile), endpoints first as a request deleting one locks them
    endpoint_ids = list({outcome.attempt.endpoint_id for outcome in outcomes})
    endpoints = WebhookEndpoint.select().where(WebhookEndpoint.id.in_(endpoint_ids))
    endpoints = {e.id: e for e in dialect.locking(endpoints)}
    stored = WebhookDelivery.select().where(WebhookDelivery.id.in_([o.attempt.delivery_id for o in outcomes]))
    deliveries = {d.id: d for d in dialect.locking(stored)}
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
            delivery.next_attempt_at = None if wait is None else backoff.seconds_after(moment, wait)
            endpoint.failing_since = endpoint.failing_since or outcome.attempted_at
            if outcome.status_code == 410:
                reason = "The receiver answered 410 Gone: it wants no more deliveries."
                switch_offs[endpoint.id] = SwitchOff(endpoint.id, reason, tell_admins=False)
            elif failing_for(outcome, endpoint) >= dt.timedelta(days=failing_days):
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


def failing_for(outcome, endpoint):
    """How long the endpoint had been failing when the outcome's attempt was made."""
    return dt.datetime.fromisoformat(outcome.attempted_at) - dt.datetime.fromisoformat(endpoint.failing_since)


def switch_off(app, switch_offs):
    """Switch endpoints off for the service (a 410, days of failures), each with its event, in the transaction
    under way; once it commits, the admins (admin.edit) are mailed of those that failed for days."""
    for switch in switch_offs:
        endpoint = WebhookEndpoint.get_or_none(WebhookEndpoint.id == switch.endpoint_id)
        if endpoint is None or not endpoint.is_active:
            continue
        recorder_of(WebhookEndpoint).change(endpoint, is_active=False, disabled_reason=switch.reason)
        log.warning("webhook endpoint %s switched off: %s", endpoint.id, switch.reason)
        if switch.tell_admins:
            writer.after_commit(functools.partial(tell_admins, app, endpoint))


def tell_admins(app, endpoint):
    outbox, send, sender = app.extensions["outbox"], app.extensions["mailer"], app.config["MAIL_FROM"]
    where = f"{urlsplit(endpoint.url).hostname} ({endpoint.description or 'no description'}, id {endpoint.id})"
    text = (
        f"The webhook endpoint at {where} was switched off: {endpoint.disabled_reason}\n\n"
        "When its receiver works again, set is_active to true (PATCH /v1/webhook-endpoints/"
        f"{endpoint.id}); the deliveries that waited are then sent.\n"
    )
    for user in User.select().where(User.active == True):  # noqa: E712
        if "admin.edit" in held_capabilities(user.id):
            subject, public_url = "A webhook endpoint was switched off", app.config["PUBLIC_URL"]
            msg = message(sender, user.email, subject, text, message_id(public_url))
            outbox.send(msg, send, window_seconds=24 * 3600)
