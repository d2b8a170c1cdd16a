"""The worker's notification sender (SPEC §9): mail and push of the `Notification` queue, one thread running an
asyncio loop beside the webhook sender's, built the same way. Due notifications are claimed (a few at a time, in
one write transaction), mailed (the blocking SMTP client in a thread of its own, never on the loop) and pushed
through the gateways of `push`, and what came of them is recorded in one transaction per batch.

Whoever queues notifications calls `notifications.queue.queued()` in the transaction that writes them: the
senders look at the queue as soon as it commits. Otherwise they look when the next attempt is due, and at least
every `BAND_WORKER_INTERVAL` (for work of another server)."""

import asyncio
import concurrent.futures
import contextlib
import datetime as dt
import logging
import threading

import mail
import notification_delivery as delivery
import push
import writer
from errors import ConfigError
from models import db
from notifications.queue import SENDERS
from webhook_sender import connected

log = logging.getLogger("band.notifications")
IN_FLIGHT = 16  # notifications on their way at once
MAIL_SECONDS = 60.0  # a mail's whole send is cut off here (smtplib's own timeout of 30 s is per step)
GATHER_SECONDS = 0.005
SOONEST_SECONDS = 0.01
AFTER_A_FAILED_ROUND_SECONDS = 1.0


class Sender:
    def __init__(self, app):
        self.config, self.mailer = app.config, app.extensions["mailer"]
        self.loop = self.stopping = self.woken = self.gateways = None
        self.thread = threading.Thread(target=self.run, name="notifications", daemon=True)
        # the database work runs in one thread of its own, so that the loop never waits for the write lock
        self.database = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="notifications-db")
        self.started = threading.Event()
        self.in_flight, self.finished = {}, []  # job -> task; outcomes not recorded yet
        # a mail's claim outlives its cut-off, a push's the gateways' timeout, by enough to record the outcome
        margin = writer.BUSY_TIMEOUT_SECONDS + 5
        self.leases = {"email": MAIL_SECONDS + margin, "push": self.config["PUSH_TIMEOUT"] + 1 + margin}

    def start(self):
        self.thread.start()
        self.started.wait(5)
        return self

    def halt_soon(self):
        """From any thread: begin to stop, without waiting (`stop` waits)."""
        if self.loop is not None and self.thread.is_alive():
            with contextlib.suppress(RuntimeError):  # the loop has just closed
                self.loop.call_soon_threadsafe(self.halt)

    def stop(self, timeout=5):
        """Abandon the attempts in flight (their claims are given back: they are due again at once), then end."""
        self.halt_soon()
        self.thread.join(timeout)
        self.database.submit(db.close)
        self.database.shutdown(wait=False)

    def run(self):
        asyncio.run(self.main())

    def halt(self):
        self.stopping.set()
        self.woken.set()

    def wake(self):
        with contextlib.suppress(RuntimeError):  # the loop has just closed
            self.loop.call_soon_threadsafe(self.woken.set)

    async def main(self):
        self.loop, self.stopping, self.woken = asyncio.get_running_loop(), asyncio.Event(), asyncio.Event()
        SENDERS.add(self.wake)
        self.started.set()
        try:
            self.gateways = push.Gateways(self.config)
        except ConfigError as error:
            log.error("push is off: %s", error)
        else:
            if self.gateways.skipped:
                log.info(self.gateways.skipped)
        try:
            while not self.stopping.is_set():
                try:
                    await self.round()
                except Exception:
                    log.exception("the notification sender's round failed; it tries again shortly")
                    await self.pause(AFTER_A_FAILED_ROUND_SECONDS)
            await self.abandon()
        finally:
            SENDERS.discard(self.wake)
            if self.gateways is not None:
                await self.gateways.aclose()

    async def round(self):
        self.woken.clear()  # before looking: a commit from now on wakes the pause below
        free = IN_FLIGHT - len(self.busy())
        wait = self.config["WORKER_INTERVAL"]
        if free > 0:
            due = await self.in_database(delivery.next_due)  # a read: the write lock is taken only for work
            if due is not None:
                wait = min(wait, (dt.datetime.fromisoformat(due) - dt.datetime.now(dt.UTC)).total_seconds())
        claiming = free if free > 0 and wait <= 0 else 0
        if self.finished or claiming:
            jobs, looked_at = await self.settle(claiming)
            for job in jobs:
                self.in_flight[job] = asyncio.create_task(self.send(job))
            if looked_at:
                await asyncio.sleep(GATHER_SECONDS)  # a moment for more attempts to end: one round records them all
                return
            if claiming:
                wait = self.config["WORKER_INTERVAL"]  # another server claimed them first
        await self.pause(wait)

    def busy(self):
        """The notifications with a job on its way."""
        return {row_id for job in self.in_flight for row_id in job.ids}

    async def settle(self, claiming):
        """In one write transaction: record what the finished attempts came to, and claim up to `claiming` due
        notifications. If it fails (the database busy), the outcomes are kept for the next round."""
        outcomes, self.finished = self.finished, []
        finished = {row_id for outcome in outcomes for row_id in outcome.job.ids} - self.busy()
        try:
            return await self.in_database(self.record_and_claim, outcomes, finished, claiming)
        except BaseException:
            self.finished = outcomes + self.finished
            raise

    def record_and_claim(self, outcomes, finished, claiming):
        configured = self.gateways.configured if self.gateways else frozenset()
        with writer.transaction():
            if outcomes:
                delivery.record(outcomes, finished)
            return delivery.claim(claiming, self.leases, configured) if claiming else ([], 0)

    async def pause(self, seconds):
        """Until `seconds` pass, an attempt ends, a commit queues work or the service stops."""
        if self.finished or self.stopping.is_set():
            return
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.woken.wait(), max(seconds, SOONEST_SECONDS))

    async def send(self, job):
        try:
            outcome = await (self.send_mail(job) if isinstance(job, delivery.Mail) else self.send_push(job))
        except Exception:  # a mistake of ours: the claim runs out and the notification is tried again then
            log.exception("a notification job failed")
            return
        finally:
            self.in_flight.pop(job, None)
        self.finished.append(outcome)
        self.woken.set()

    async def send_mail(self, job):
        msg = mail.message(self.config["MAIL_FROM"], job.to, job.subject, job.text)
        waits = self.config["MAIL_RETRIES"]
        try:
            await asyncio.wait_for(in_a_thread(self.mailer, msg), MAIL_SECONDS)
        except TimeoutError:
            return delivery.Mailed(job, waits, f"No answer within {MAIL_SECONDS:g} s.")
        except Exception as error:  # whatever the backend raised: retried unless the server refused for good
            return delivery.Mailed(job, waits, mail.describe(error, [job.to]), mail.permanent(error))
        return delivery.Mailed(job, waits)

    async def send_push(self, job):
        results = await asyncio.gather(*(self.push_to(device, job.message) for device in job.devices))
        return delivery.Pushed(job, tuple(zip(job.devices, results, strict=True)))

    async def push_to(self, device, message):
        try:
            return await self.gateways.send(device.platform, device.token, device.environment, message)
        except Exception as error:  # a message that is not one (data not ids), a gateway's own mistake
            log.exception("notification push to device %s failed", device.id)
            return push.PushResult(push.FAILED, f"{type(error).__name__}: {error}")

    async def in_database(self, function, *args):
        return await self.loop.run_in_executor(self.database, connected(function), *args)

    async def abandon(self):
        """On a stop: the finished attempts recorded, those on their way cut off and their claims given back."""
        abandoned = list(self.in_flight)
        for task in self.in_flight.values():
            task.cancel()
        try:
            if self.finished:
                await self.settle(0)
            if abandoned:
                await self.in_database(delivery.release, abandoned)
        except Exception:  # a claim not given back is simply due again when it runs out
            log.exception("the notification sender could not put its work back before stopping")


def in_a_thread(function, *args):
    """A future of `function(*args)` run in a daemon thread of its own: a stop of the service never waits for it
    (as it would for an executor's thread), and a cut-off attempt ends on its own socket timeout."""
    loop = asyncio.get_running_loop()
    future = loop.create_future()

    def settle(result, error):
        if future.done():
            return
        if error is None:
            future.set_result(result)
        else:
            future.set_exception(error)

    def run():
        try:
            result, error = function(*args), None
        except Exception as raised:
            result, error = None, raised
        with contextlib.suppress(RuntimeError):  # the loop closed meanwhile: nobody waits for it any more
            loop.call_soon_threadsafe(settle, result, error)

    threading.Thread(target=run, name="notifications-mail", daemon=True).start()
    return future
