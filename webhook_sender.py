"""The worker's webhook sender (SPEC §8): one thread running an asyncio loop, so that many attempts are on their
way at once and each is cut off at `BAND_WEBHOOK_TIMEOUT` however slowly a receiver answers. The database is the
queue: due deliveries are claimed (a few at a time, in one write transaction), sent with httpx, and what came of
them is recorded in one transaction per batch. A commit that queues deliveries wakes it at once; otherwise it
looks when the next retry is due, and at least every `BAND_WORKER_INTERVAL` (for work another server queued)."""

import asyncio
import collections
import concurrent.futures
import contextlib
import datetime as dt
import logging
import threading

import httpx

import events
import webhooks
import writer
from models import db, now
from routes.webhooks import switch_off

log = logging.getLogger("band.webhooks")
IN_FLIGHT = 32  # attempts on their way at once
GATHER_SECONDS = 0.005
SOONEST_SECONDS = 0.01  # the shortest wait between two looks at the queue
AFTER_A_FAILED_ROUND_SECONDS = 1.0


class Sender:
    def __init__(self, app):
        self.app, self.config = app, app.config
        self.loop = self.stopping = self.woken = None
        self.thread = threading.Thread(target=self.run, name="webhooks", daemon=True)
        # the database work runs in one thread of its own, so that the loop never waits for the write lock
        self.database = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="webhooks-db")
        self.started = threading.Event()
        self.in_flight, self.finished = {}, []  # delivery id -> (attempt, task); outcomes not recorded yet

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
        self.database.shutdown(wait=False)

    def run(self):
        asyncio.run(self.main())

    def halt(self):
        self.stopping.set()
        self.woken.set()

    def wake(self):
        """From any thread: look at the queue now."""
        with contextlib.suppress(RuntimeError):  # the loop has just closed
            self.loop.call_soon_threadsafe(self.woken.set)

    async def main(self):
        self.loop, self.stopping, self.woken = asyncio.get_running_loop(), asyncio.Event(), asyncio.Event()
        events.SENDERS.add(self.wake)
        self.started.set()
        timeout = httpx.Timeout(self.config["WEBHOOK_TIMEOUT"])
        limits = httpx.Limits(max_connections=IN_FLIGHT, max_keepalive_connections=IN_FLIGHT)
        headers = {"user-agent": "Band-Office-Webhooks/1"}
        async with httpx.AsyncClient(timeout=timeout, limits=limits, headers=headers, trust_env=False) as self.client:
            while not self.stopping.is_set():
                try:
                    await self.round()
                except Exception:
                    log.exception("the webhook sender's round failed; it tries again shortly")
                    await self.pause(AFTER_A_FAILED_ROUND_SECONDS)
            await self.abandon()
        events.SENDERS.discard(self.wake)

    async def round(self):
        self.woken.clear()  # before looking: a commit from now on wakes the pause below
        free = IN_FLIGHT - len(self.in_flight)
        wait = self.config["WORKER_INTERVAL"]
        if free:
            due = await self.in_database(webhooks.next_due)  # a read: the write lock is taken only for work
            if due is not None:
                wait = min(wait, (webhooks.parse(due) - dt.datetime.now(dt.UTC)).total_seconds())
        claiming = free if wait <= 0 else 0
        if self.finished or claiming:
            claimed = await self.settle(claiming)
            for attempt in claimed:
                self.in_flight[attempt.delivery_id] = (attempt, asyncio.create_task(self.send(attempt)))
            if claimed:
                await asyncio.sleep(GATHER_SECONDS)  # a moment for more attempts to end: one round records them all
                return
            if claiming:
                wait = self.config["WORKER_INTERVAL"]  # all due go to endpoints at their limit: until one is done
        await self.pause(wait)

    async def settle(self, claiming):
        """In one write transaction: record what the finished attempts came to, and claim up to `claiming` due
        deliveries. If it fails (the database busy), the outcomes are kept for the next round: no answer is
        forgotten."""
        outcomes, self.finished = self.finished, []
        lease = self.config["WEBHOOK_TIMEOUT"] + webhooks.LEASE_MARGIN_SECONDS
        busy = collections.Counter(attempt.endpoint_id for attempt, _ in self.in_flight.values())
        try:
            return await self.in_database(self.record_and_claim, outcomes, claiming, lease, busy)
        except BaseException:
            self.finished = outcomes + self.finished
            raise

    def record_and_claim(self, outcomes, claiming, lease, busy):
        with writer.transaction():
            if outcomes:
                retries, failing_days = self.config["WEBHOOK_RETRIES"], self.config["WEBHOOK_FAILING_DAYS"]
                switch_off(self.app, webhooks.record(outcomes, retries, failing_days))
            return webhooks.claim(claiming, lease, busy) if claiming else []

    async def pause(self, seconds):
        """Until `seconds` pass, an attempt ends, a commit queues work or the service stops."""
        if self.finished or self.stopping.is_set():
            return
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.woken.wait(), max(seconds, SOONEST_SECONDS))

    async def send(self, attempt):
        attempted_at = now()
        try:
            outcome = await asyncio.wait_for(self.post(attempt, attempted_at), self.config["WEBHOOK_TIMEOUT"])
        except TimeoutError:
            error = f"No answer within {self.config['WEBHOOK_TIMEOUT']:g} s."
            outcome = webhooks.Outcome(attempt, attempted_at, error=error)
        except Exception as error:  # whatever stopped it (a refused connection, a malformed answer) is its outcome
            outcome = webhooks.Outcome(attempt, attempted_at, error=describe(error))
        self.in_flight.pop(attempt.delivery_id, None)
        self.finished.append(outcome)
        self.woken.set()

    async def post(self, attempt, attempted_at):
        headers = attempt.headers(dt.datetime.now(dt.UTC))
        request = self.client.build_request("POST", attempt.url, content=attempt.body, headers=headers)
        response = await self.client.send(request, stream=True)
        try:
            excerpt = b""
            async for chunk in response.aiter_bytes():
                excerpt += chunk
                if len(excerpt) >= webhooks.EXCERPT_BYTES:
                    break
        finally:
            await response.aclose()
        code, error, retry_after = response.status_code, None, None
        if response.is_redirect:
            error = f"Redirects are not followed (a {code} to {response.headers.get('location', 'nowhere')})."
        elif not 200 <= code < 300:
            error = f"The receiver answered {code}."
        if code in (429, 503):
            retry_after = webhooks.retry_after_seconds(response.headers.get("retry-after"), dt.datetime.now(dt.UTC))
        text = excerpt[: webhooks.EXCERPT_BYTES].decode("utf-8", "replace") or None
        return webhooks.Outcome(attempt, attempted_at, code, error, text, retry_after)

    async def in_database(self, function, *args):
        return await self.loop.run_in_executor(self.database, connected(function), *args)

    async def abandon(self):
        """On a stop: the finished attempts recorded, those on their way cut off and their claims given back."""
        abandoned = [attempt for attempt, _ in self.in_flight.values()]
        for _, task in self.in_flight.values():
            task.cancel()
        try:
            if self.finished:
                await self.settle(0)
            if abandoned:
                await self.in_database(webhooks.release, abandoned)
        except Exception:  # a claim not given back is simply due again when it runs out
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
