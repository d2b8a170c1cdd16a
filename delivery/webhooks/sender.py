"""The worker's webhook sender (SPEC §8), a queue sender (delivery/queue_sender.py): due deliveries are claimed, POSTed
with httpx, each attempt cut off at `BAND_WEBHOOK_TIMEOUT` however slowly a receiver answers, and what came of
them recorded. A commit that queues deliveries wakes it at once; otherwise it looks when the next retry is due,
and at least every `BAND_WORKER_INTERVAL` (for work another server queued)."""

import asyncio
import datetime as dt

import events
from delivery import backoff
from delivery.outgoing import ClientOnFirstUse
from delivery.queue_sender import QueueSender
from delivery.webhooks import attempts, deliveries
from models import now
from storage import writer

IN_FLIGHT = 32  # attempts on their way at once


class Sender(QueueSender):
    in_flight_limit = IN_FLIGHT

    def __init__(self, app):
        super().__init__(app, "webhooks", events.SENDERS)

    async def open(self):
        limits = {"max_connections": IN_FLIGHT, "max_keepalive_connections": IN_FLIGHT}
        headers = {"user-agent": "Band-Office-Webhooks/1"}
        timeout = self.config["WEBHOOK_TIMEOUT"]
        self.client = ClientOnFirstUse(limits, timeout=timeout, headers=headers, trust_env=False)

    async def close(self):
        await self.client.aclose()

    def next_due(self):
        return deliveries.next_due()

    def record_and_claim(self, outcomes, claiming, busy):
        """What the attempts came to, with the endpoints it switches off; the due deliveries claimed, no destination
        getting more than outgoing.PER_DESTINATION at once."""
        with writer.transaction():
            if outcomes:
                retries, failing_days = self.config["WEBHOOK_RETRIES"], self.config["WEBHOOK_FAILING_DAYS"]
                attempts.switch_off(self.app, attempts.record_outcomes(outcomes, retries, failing_days))
            if not claiming:
                return [], False
            lease = self.config["WEBHOOK_TIMEOUT"] + deliveries.LEASE_MARGIN_SECONDS
            claimed = deliveries.claim(claiming, lease, busy)
            return claimed, bool(claimed)

    def release(self, jobs):
        deliveries.release(jobs)

    async def attempt(self, attempt):
        self.client.ready()
        attempted_at = now()
        try:
            return await asyncio.wait_for(self.post(attempt, attempted_at), self.config["WEBHOOK_TIMEOUT"])
        except TimeoutError:
            error = f"No answer within {self.config['WEBHOOK_TIMEOUT']:g} s."
            return attempts.Outcome(attempt, attempted_at, error=error)
        except Exception as error:  # whatever stopped it (a refused connection, a malformed answer) is its outcome
            return attempts.Outcome(attempt, attempted_at, error=describe(error))

    async def post(self, attempt, attempted_at):
        headers = attempt.headers(dt.datetime.now(dt.UTC))
        request = self.client.build_request("POST", attempt.url, content=attempt.body, headers=headers)
        response = await self.client.send(request, stream=True)
        try:
            excerpt = b""
            async for chunk in response.aiter_bytes():
                excerpt += chunk
                if len(excerpt) >= attempts.EXCERPT_BYTES:
                    break
        finally:
            await response.aclose()
        code, error, retry_after = response.status_code, None, None
        if response.is_redirect:
            error = f"Redirects are not followed (a {code} to {response.headers.get('location', 'nowhere')})."
        elif not 200 <= code < 300:
            error = f"The receiver answered {code}."
        if code in (429, 503):
            retry_after = backoff.retry_after_seconds(response.headers.get("retry-after"), dt.datetime.now(dt.UTC))
        text = excerpt[: attempts.EXCERPT_BYTES].decode("utf-8", "replace") or None
        return attempts.Outcome(attempt, attempted_at, code, error, text, retry_after)


def describe(error):
    """An httpx error on one line, as the delivery log shows it."""
    import httpx  # here: loaded by the first delivery (outgoing.ClientOnFirstUse)

    kind = {
        httpx.ConnectError: "Could not connect",
        httpx.TimeoutException: "Timed out",
        httpx.RemoteProtocolError: "The receiver broke the protocol",
    }
    for cls, text in kind.items():
        if isinstance(error, cls):
            return f"{text}: {error}" if str(error) else f"{text}."
    return f"{type(error).__name__}: {error}"
