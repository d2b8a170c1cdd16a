"""The worker's webhook sender (SPEC §8): one thread running an asyncio loop, so that many attempts are on their
way at once and each is cut off at `BAND_WEBHOOK_TIMEOUT` however slowly a receiver answers. The database is the
queue: due deliveries are claimed (a few at a time, in one write transaction), sent with httpx, and what came of
them is recorded in one transaction per batch. A commit that queues deliveries wakes it at once; otherwise it
looks when the next retry is due, and at least every `BAND_WORKER_INTERVAL` (for work another server queued)."""

import asyncio
import concurrent.futures
import contextlib
import datetime as dt
import logging
import threading

import httpx

import events
import webhooks
import writer
from auth import held_capabilities
from mail import message
from models import User, db, now
from routes.webhooks import disable

log = logging.getLogger("band.webhooks")
IN_FLIGHT = 16  # attempts on their way at once
SOONEST_SECONDS = 0.01  # the shortest wait between two looks at the queue


class Sender:
    def __init__(self, app):
        self.app = app
        self.config = app.config
        self.loop = None
        self.stopping = None
        self.thread = threading.Thread(target=self.run, name="webhooks", daemon=True)
        # the database work runs in one thread of its own, so that the loop never waits for the write lock
        self.database = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="webhooks-db")
        self.started = threading.Event()

    def start(self):
        self.thread.start()
        self.started.wait(5)
        return self

    def stop(self, timeout=5):
        """Abandon the attempts in flight (their claims are given back: they are due again at once), then end."""
        if self.loop is not None and self.thread.is_alive():
            self.loop.call_soon_threadsafe(self.halt)
        self.thread.join(timeout)
        self.database.submit(db.close)
        self.database.shutdown(wait=True, cancel_futures=False)

    def run(self):
        asyncio.run(self.main())

    def halt(self):
        self.stopping.set()
        self.woken.set()

    async def main(self):
        self.loop, self.stopping, self.woken = asyncio.get_running_loop(), asyncio.Event(), asyncio.Event()
        waker = self.wake
        events.SENDERS.add(waker)
        self.started.set()
        self.in_flight, self.finished = {}, []
        timeout = httpx.Timeout(self.config["WEBHOOK_TIMEOUT"])
        limits = httpx.Limits(max_connections=IN_FLIGHT, max_keepalive_connections=IN_FLIGHT)
        headers = {"user-agent": "Band-Office-Webhooks/1"}
        async with httpx.AsyncClient(timeout=timeout, limits=limits, headers=headers, trust_env=False) as self.client:
            while not self.stopping.is_set():
                try:
                    await self.round()
                except Exception:
                    log.exception("the webhook sender's round failed; it tries again shortly")
                    await self.pause(self.config["WORKER_INTERVAL"])
            await self.abandon()
        events.SENDERS.discard(waker)

    async def round(self):
        if self.finished:
            outcomes, self.finished = self.finished, []
            await self.in_database(self.record, outcomes)
        free = IN_FLIGHT - len(self.in_flight)
        wait = self.config["WORKER_INTERVAL"]
        if free:
            due = await self.in_database(webhooks.next_due)  # a read: the write lock is taken only for work
            if due is not None:
                wait = min(wait, (webhooks.parse(due) - dt.datetime.now(dt.UTC)).total_seconds())
            if wait <= 0:
                lease = self.config["WEBHOOK_TIMEOUT"] + webhooks.LEASE_MARGIN_SECONDS
                claimed = await self.in_database(webhooks.claim, free, lease)
                for attempt in claimed:
                    self.in_flight[attempt.delivery_id] = asyncio.create_task(self.send(attempt))
                if claimed:
                    return  # there may be more due: look again at once
        await self.pause(wait)

    async def pause(self, seconds):
        """Until `seconds` pass, an attempt ends, a commit queues work or the service stops."""
        if self.finished or self.stopping.is_set():
            return
        self.woken.clear()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.woken.wait(), max(seconds, SOONEST_SECONDS))

    def wake(self):
        """From any thread: look at the queue now."""
        with contextlib.suppress(RuntimeError):  # the loop has just closed
            self.loop.call_soon_threadsafe(self.woken.set)

    async def send(self, attempt):
        moment = dt.datetime.now(dt.UTC)
        attempted_at = now()
        try:
            outcome = await asyncio.wait_for(self.post(attempt, moment, attempted_at), self.config["WEBHOOK_TIMEOUT"])
        except TimeoutError:
            outcome = webhooks.Outcome(
                attempt, attempted_at, error=f"No answer within {self.config['WEBHOOK_TIMEOUT']:g} s."
            )
        except Exception as error:  # whatever stopped it (a refused connection, a malformed answer) is its outcome
            outcome = webhooks.Outcome(attempt, attempted_at, error=describe(error))
        self.in_flight.pop(attempt.delivery_id, None)
        self.finished.append(outcome)
        self.woken.set()

    async def post(self, attempt, moment, attempted_at):
        request = self.client.build_request("POST", attempt.url, content=attempt.body, headers=attempt.headers(moment))
        response = await self.client.send(request, stream=True)
        try:
            excerpt = b""
            async for chunk in response.aiter_raw():
                excerpt += chunk
                if len(excerpt) >= webhooks.EXCERPT_BYTES:
                    break
        finally:
            await response.aclose()
        code = response.status_code
        error = None
        if response.is_redirect:
            error = f"Redirects are not followed (a {code} to {response.headers.get('location', 'nowhere')})."
        elif not 200 <= code < 300:
            error = f"The receiver answered {code}."
        retry_after = None
        if code in (429, 503):
            retry_after = webhooks.retry_after_seconds(response.headers.get("retry-after"), dt.datetime.now(dt.UTC))
        text = excerpt[: webhooks.EXCERPT_BYTES].decode("utf-8", "replace") or None
        return webhooks.Outcome(attempt, attempted_at, code, error, text, retry_after)

    def record(self, outcomes):
        """What the attempts came to, in one write transaction; endpoints to disable are disabled in it too, and
        the admins are told of those that failed for days."""
        with writer.transaction():
            to_disable = webhooks.record(outcomes, self.config["WEBHOOK_RETRIES"], self.config["WEBHOOK_FAILING_DAYS"])
            disabled = [disable(endpoint_id, reason) for endpoint_id, reason in to_disable.items()]
        for endpoint in disabled:
            log.warning("webhook endpoint %s disabled: %s", endpoint.url, endpoint.disabled_reason)
            if endpoint.disabled_reason.startswith("Every delivery failed"):
                self.tell_admins(endpoint)

    def tell_admins(self, endpoint):
        outbox, send = self.app.extensions["outbox"], self.app.extensions["mailer"]
        text = (
            f"The webhook endpoint {endpoint.url} ({endpoint.description or 'no description'}) was switched off: "
            f"{endpoint.disabled_reason}\n\nWhen its receiver works again, set is_active to true "
            "(PATCH /v1/webhook-endpoints/" + endpoint.id + "); the deliveries that waited are then sent.\n"
        )
        for user in User.select().where(User.active == True):  # noqa: E712
            if "admin.edit" in held_capabilities(user.id):
                msg = message(self.config["MAIL_FROM"], user.email, "A webhook endpoint was switched off", text)
                outbox.send(msg, send, window_seconds=24 * 3600)

    async def in_database(self, function, *args):
        return await self.loop.run_in_executor(self.database, connected(function), *args)

    async def abandon(self):
        for task in self.in_flight.values():
            task.cancel()
        abandoned = list(self.in_flight)
        try:
            if self.finished:
                await self.in_database(self.record, self.finished)
            if abandoned:
                await self.in_database(webhooks.release, abandoned)
        except Exception:  # a claim not given back is simply due again when its lease ends
            log.exception("the webhook sender could not put its work back before stopping")


def connected(function):
    def call(*args):
        db.connect(reuse_if_open=True)
        return function(*args)

    return call


def describe(error):
    """An httpx error on one line, as the delivery log shows it."""
    kind = {
        httpx.ConnectError: "Could not connect",
        httpx.TimeoutException: "Timed out",
        httpx.RemoteProtocolError: "The receiver broke the protocol",
    }
    for cls, text in kind.items():
        if isinstance(error, cls):
            return f"{text}: {error}" if str(error) else f"{text}."
    return f"{type(error).__name__}: {error}"
