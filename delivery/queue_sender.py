"""What the worker's senders share (SPEC §8, §9): one thread running an asyncio loop, so that many jobs are on their
way at once; the database work in a one-thread executor of its own, so that the loop never waits for the write
lock. A round records what the finished jobs came to and claims the due ones in one write transaction, then waits
until the next is due, a job ends, a commit queues work (a wake-up) or the service stops; on a stop the jobs on
their way are abandoned and their claims given back.

A sender says what its queue is and how one job goes: `next_due()`, `record_and_claim(outcomes, claiming, busy)`
(in the executor: its transaction, returning the jobs claimed and whether there may be more), `attempt(job)` (on
the loop: the job's outcome), `release(jobs)`, and `open()`/`close()` for what lives as long as its loop."""

import asyncio
import concurrent.futures
import contextlib
import datetime as dt
import logging
import threading

from dialects import dialect
from models import db

GATHER_SECONDS = 0.005  # after a claim, a moment for more jobs to end: one round records them all
SOONEST_SECONDS = 0.01  # the shortest wait between two looks at the queue
AFTER_A_FAILED_ROUND_SECONDS = 1.0


class QueueSender:
    in_flight_limit = 16

    def __init__(self, app, name, wakers):
        """`wakers`: the set a commit that queued work calls the wake-ups of."""
        self.app, self.config, self.name, self.wakers = app, app.config, name, wakers
        self.log = logging.getLogger(f"band.{name}")
        self.loop = self.stopping = self.woken = None
        self.thread = threading.Thread(target=self.run, name=name, daemon=True)
        self.database = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix=f"{name}-db")
        self.started = threading.Event()
        self.in_flight, self.finished = {}, []  # job -> its task; outcomes not recorded yet

    # --- what a sender says ---------------------------------------------------------------------------------

    def next_due(self):
        """When the earliest job a claim may take is due (a stored timestamp), or None."""
        raise NotImplementedError

    def record_and_claim(self, outcomes, claiming, busy):
        """Record `outcomes` and claim up to `claiming` due jobs, `busy` being those on their way: (jobs, more)."""
        raise NotImplementedError

    async def attempt(self, job):
        raise NotImplementedError

    def release(self, jobs):
        """Give back the claims of `jobs` (abandoned on a stop): due again at once."""
        raise NotImplementedError

    async def open(self):
        """On the loop, before the first round."""

    async def close(self):
        """On the loop, after the last."""

    # --- from other threads ---------------------------------------------------------------------------------

    def start(self):
        self.thread.start()
        self.started.wait(5)
        return self

    def halt_soon(self):
        """Begin to stop, without waiting (`stop` waits)."""
        if self.loop is not None and self.thread.is_alive():
            with contextlib.suppress(RuntimeError):  # the loop has just closed
                self.loop.call_soon_threadsafe(self.halt)

    def stop(self, timeout=5):
        """Abandon the jobs on their way (their claims are given back: they are due again at once), then end."""
        self.halt_soon()
        self.thread.join(timeout)
        self.database.submit(db.close)
        self.database.shutdown(wait=False)

    def wake(self):
        """Look at the queue now."""
        with contextlib.suppress(RuntimeError):  # the loop has just closed
            self.loop.call_soon_threadsafe(self.woken.set)

    def run(self):
        asyncio.run(self.main())

    # --- on the loop ----------------------------------------------------------------------------------------

    def halt(self):
        self.stopping.set()
        self.woken.set()

    async def main(self):
        self.loop, self.stopping, self.woken = asyncio.get_running_loop(), asyncio.Event(), asyncio.Event()
        self.wakers.add(self.wake)
        self.started.set()
        try:
            await self.open()
            while not self.stopping.is_set():
                try:
                    await self.round()
                except Exception:
                    self.log.exception("the %s sender's round failed; it tries again shortly", self.name)
                    await self.pause(AFTER_A_FAILED_ROUND_SECONDS)
            await self.abandon()
        finally:
            self.wakers.discard(self.wake)
            await self.close()

    async def round(self):
        self.woken.clear()  # before looking: a commit from now on wakes the pause below
        free = self.in_flight_limit - len(self.in_flight)
        wait = self.config["WORKER_INTERVAL"]
        if free > 0:
            due = await self.in_database(self.next_due)  # a read: the write lock is taken only for work
            if due is not None:
                wait = min(wait, (dt.datetime.fromisoformat(due) - dt.datetime.now(dt.UTC)).total_seconds())
        claiming = free if free > 0 and wait <= 0 else 0
        if self.finished or claiming:
            jobs, more = await self.settle(claiming)
            for job in jobs:
                self.in_flight[job] = asyncio.create_task(self.send(job))
            if more:
                await asyncio.sleep(GATHER_SECONDS)
                return
            if claiming:
                wait = self.config["WORKER_INTERVAL"]  # another server took them, or their receivers are at a limit
        await self.pause(wait)

    async def settle(self, claiming):
        """In one write transaction: record what the finished jobs came to, and claim up to `claiming` due ones.
        If it fails (the database busy), the outcomes are kept for the next round: no answer is forgotten."""
        outcomes, self.finished = self.finished, []
        try:
            return await self.in_database(self.record_and_claim, outcomes, claiming, list(self.in_flight))
        except BaseException:
            self.finished = outcomes + self.finished
            raise

    async def pause(self, seconds):
        """Until `seconds` pass, a job ends, a commit queues work or the service stops."""
        if self.finished or self.stopping.is_set():
            return
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.woken.wait(), max(seconds, SOONEST_SECONDS))

    async def send(self, job):
        try:
            outcome = await self.attempt(job)
        except Exception:  # a mistake of ours: the claim runs out and the job is tried again then
            self.log.exception("a %s job failed", self.name)
            return
        finally:
            self.in_flight.pop(job, None)
        self.finished.append(outcome)
        self.woken.set()

    async def in_database(self, function, *args):
        return await self.loop.run_in_executor(self.database, connected(function), *args)

    async def abandon(self):
        """On a stop: the finished jobs recorded, those on their way cut off and their claims given back."""
        abandoned = list(self.in_flight)
        for task in self.in_flight.values():
            task.cancel()
        try:
            if self.finished:
                await self.settle(0)
            if abandoned:
                await self.in_database(self.release, abandoned)
        except Exception:  # a claim not given back is simply due again when it runs out
            self.log.exception("the %s sender could not put its work back before stopping", self.name)


def connected(function):
    """`function` as the executor runs it: on its thread's own connection."""

    def call(*args):
        dialect.connect_in_background()
        return function(*args)

    return call
