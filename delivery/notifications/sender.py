"""The worker's notification sender (SPEC §9), a queue sender (`delivery/queue_sender.py`) beside the webhook sender:
due notifications are claimed, mailed (the blocking SMTP client in a thread of its own, never on the loop) and pushed
through the gateways of `push`, and what came of them recorded.

Whoever queues notifications calls `notifications.queue.queued()` in the transaction that writes them: the
senders look at the queue as soon as it commits. Otherwise they look when the next attempt is due, and at least
every `BAND_WORKER_INTERVAL` (for work of another server)."""

import asyncio
import contextlib
import threading

from delivery import mail, push
from delivery.notifications import delivery
from delivery.notifications.queue import SENDERS
from delivery.queue_sender import QueueSender
from domain.errors import ConfigError
from storage import writer

IN_FLIGHT = 16  # notifications on their way at once
MAIL_SECONDS = 60.0  # a mail's whole send is cut off here (smtplib's own timeout of 30 s is per step)


class Sender(QueueSender):
    in_flight_limit = IN_FLIGHT

    def __init__(self, app):
        super().__init__(app, "notifications", SENDERS)
        self.mailer, self.gateways = app.extensions["mailer"], None
        # a mail's claim outlives its cut-off, a push's the gateways' timeout, by enough to record the outcome
        margin = writer.BUSY_TIMEOUT_SECONDS + 5
        self.leases = {"email": MAIL_SECONDS + margin, "push": self.config["PUSH_TIMEOUT"] + 1 + margin}

    async def open(self):
        try:
            self.gateways = push.Gateways(self.config, connections=IN_FLIGHT * push.DEVICES_PER_USER)
        except ConfigError as error:
            self.log.error("push is off: %s", error)
        else:
            if self.gateways.skipped:
                self.log.info(self.gateways.skipped)

    async def close(self):
        if self.gateways is not None:
            await self.gateways.aclose()

    def next_due(self):
        return delivery.next_due()

    def record_and_claim(self, outcomes, claiming, busy):
        """What the jobs came to (a notification whose other job is still on its way is not finished yet); the
        due notifications claimed, each channel as one job (invitations due together for one address: one mail)."""
        configured = self.gateways.configured if self.gateways else frozenset()
        on_their_way = {row_id for job in busy for row_id in job.ids}
        finished = {row_id for outcome in outcomes for row_id in outcome.job.ids} - on_their_way
        with writer.transaction():
            if outcomes:
                delivery.record_outcomes(outcomes, finished)
            if not claiming:
                return [], False
            jobs, looked_at = delivery.claim(claiming, self.leases, configured, busy)
            return jobs, bool(looked_at)

    def release(self, jobs):
        delivery.release(jobs)

    async def attempt(self, job):
        return await (self.send_mail(job) if isinstance(job, delivery.Mail) else self.send_push(job))

    async def send_mail(self, job):
        message_id = mail.message_id(self.config["PUBLIC_URL"], job.message_key)
        msg = mail.message(self.config["MAIL_FROM"], job.to, job.subject, job.text, message_id, job.attachments)
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
            self.log.exception("notification push to device %s failed", device.id)
            return push.PushResult(push.FAILED, f"{type(error).__name__}: {error}")


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
