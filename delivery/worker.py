"""The background worker of `serve` (SPEC §8): one thread that looks for timed work every
`BAND_WORKER_INTERVAL` seconds, beside the webhook sender (`delivery/webhooks/sender.py`) and the notification sender
(`delivery/notifications/sender.py`). It records the expiry of invitations as events (the stored status catching up with
what reads already show), marks sent quotes past their valid_until expired (SPEC §15), issues the balance invoices
due within 14 days (`invoicing.issue_due_balances`), prunes events older than `BAND_EVENT_DAYS` once a day, takes the
daily backup into `BAND_BACKUP_DIR`, and makes the timed notifications (reminders, the office digest:
`notifications.timed`). The database is the queue: each piece of work is one write transaction that claims what it
does, so two servers on one database never do it twice, and each round is done by one of them
(`dialect.one_server_at_a_time`); work not done before a stop is simply found again on the next start."""

import datetime as dt
import logging
import threading
import time
from pathlib import Path

from delivery import invoicing, notifications
from delivery.notifications import sender as notification_sender
from delivery.webhooks import signatures as webhook_signing
from delivery.webhooks.sender import Sender
from dialects import dialect
from domain.invitations import FIRST_STORED_PENDING_EXPIRY
from domain.sales import quoting
from events.resource import recorder_of
from models import BUSY_TABLES, OVERDUE, Event, GigRoleInvitation, Quote, db, now, timestamp
from storage import writer
from storage.private_files import private_directory

log = logging.getLogger("band.worker")
EXPIRE_AT_ONCE = 200  # invitations expired per transaction: the write lock is never held for long
BETWEEN_BATCHES_SECONDS = 0.05  # a catch-up of thousands leaves the server most of its time
BACKUP_GLOB = "band-*.db"


class Worker:
    def __init__(self, app):
        self.app, self.stopping = app, threading.Event()
        self.thread = threading.Thread(target=self.run, name="worker", daemon=True)
        self.sender = Sender(app)
        self.notifier = notification_sender.Sender(app)
        self.pruned_on = None

    def start(self):
        self.thread.start()
        self.sender.start()
        self.notifier.start()
        return self

    def stop(self, timeout=5):
        """Abandon the webhook and notification attempts in flight, let the current piece of timed work finish (each
        is short), then end; all within one `timeout`."""
        deadline = time.monotonic() + timeout
        self.stopping.set()
        self.notifier.halt_soon()  # both senders stop at once
        self.sender.stop(timeout)
        self.notifier.stop(max(deadline - time.monotonic(), 0))
        self.thread.join(max(deadline - time.monotonic(), 0))

    def run(self):
        interval = self.app.config["WORKER_INTERVAL"]
        while not self.stopping.is_set():
            try:
                with self.app.app_context():
                    dialect.connect_in_background()
                    with dialect.one_server_at_a_time("timed work") as ours:
                        if ours:
                            self.tick()
            except Exception:
                log.exception("the worker's round failed; it tries again in %s s", interval)
                self.stopping.wait(interval)  # not sooner, even when an expiry is due: it may be what failed
                continue
            # not ours: another server is doing the round (a backup may take minutes), and looks again after it
            self.stopping.wait(self.pause(interval) if ours else interval)
        db.close()

    def pause(self, interval):
        """Seconds until the next look: `interval`, or less when a pending invitation expires sooner, so that its
        gig's `pending_invitation_count` follows the expiry at once."""
        try:
            with self.app.app_context():
                first = dialect.counted(FIRST_STORED_PENDING_EXPIRY)
        except Exception:
            log.exception("the worker could not look up the next expiry")
            return interval
        if first is None:
            return interval
        due = dt.datetime.fromisoformat(first) - dt.datetime.now(dt.UTC)
        return min(interval, max(due.total_seconds(), 0) + 0.01)

    def tick(self):
        while expire_invitations() == EXPIRE_AT_ONCE and not self.stopping.wait(BETWEEN_BATCHES_SECONDS):
            pass
        while expire_quotes() == EXPIRE_AT_ONCE and not self.stopping.wait(BETWEEN_BATCHES_SECONDS):
            pass
        webhook_signing.forget_old_secrets()
        if self.pruned_on != dt.date.today():
            prune_events(self.app.config["EVENT_DAYS"])
            refresh_statistics()
            self.pruned_on = dt.date.today()
        if self.app.config["BACKUP_DIR"]:
            take_daily_backup(Path(self.app.config["BACKUP_DIR"]), self.app.config["BACKUP_TIME"])
            keep_newest(Path(self.app.config["BACKUP_DIR"]), self.app.config["BACKUP_KEEP"])
        notifications.run_timed(self.app.config)
        invoicing.issue_due_balances()


def expire_invitations():
    """Mark a batch of pending invitations past their expiry `expired`, each with its event, in a few statements
    whatever the batch's size (a database upgraded after months may hold thousands); how many. A claim (locking
    transaction): an invitation a request is answering at this moment is skipped (found again next round), one
    answered meanwhile is read as it is now and left alone."""
    with writer.transaction():
        due = GigRoleInvitation.select(GigRoleInvitation.id).where(OVERDUE)
        ids = [invitation_id for (invitation_id,) in dialect.claiming(due.limit(EXPIRE_AT_ONCE)).tuples()]
        if not ids:
            return 0
        GigRoleInvitation.update(status="expired", updated_at=now()).where(GigRoleInvitation.id.in_(ids)).execute()
        recorder_of(GigRoleInvitation).record_events("expired", ids)
    return len(ids)


def expire_quotes():
    """Mark a batch of sent quotes past their valid_until `expired` (SPEC §15), each with its event; how many. A
    claim, as for invitations: a quote being answered at this moment is found again next round."""
    with writer.transaction():
        due = Quote.select(Quote.id).where(quoting.expiring())
        ids = [quote_id for (quote_id,) in dialect.claiming(due.limit(EXPIRE_AT_ONCE)).tuples()]
        if not ids:
            return 0
        Quote.update(status="expired", updated_at=now()).where(Quote.id.in_(ids)).execute()
        recorder_of(Quote).record_events("expired", ids)
    return len(ids)


def refresh_statistics():
    """Tell the query planner the busy tables' sizes again once they have moved (see dialect.refresh_statistics);
    it changes no row, so a locking transaction does."""
    with writer.transaction():
        if dialect.refresh_statistics(BUSY_TABLES):
            log.info("table statistics refreshed for the query planner")


def prune_events(days):
    """Delete the events older than `days`: one statement by a condition, so a locking transaction does."""
    oldest = timestamp(dt.datetime.now(dt.UTC) - dt.timedelta(days=days))
    with writer.transaction():
        pruned = Event.delete().where(Event.occurred_at < oldest).execute()
    if pruned:
        log.info("pruned %d events older than %d days", pruned, days)


def take_daily_backup(directory, at):
    """A consistent copy into `directory` once a day, at the first round after `at` (server local time)."""
    moment = dt.datetime.now()
    due = moment.replace(hour=int(at[:2]), minute=int(at[3:]), second=0, microsecond=0)
    if moment < due:
        due -= dt.timedelta(days=1)
    if any(dt.datetime.fromtimestamp(p.stat().st_mtime) >= due for p in directory.glob(BACKUP_GLOB)):
        return
    private_directory(directory)
    path = directory / f"band-{moment:%Y%m%d-%H%M%S}.db"
    dialect.copy_database(str(path) + ".part")
    Path(str(path) + ".part").rename(path)  # a backup that is there is whole
    log.info("backed up %s to %s", db.database, path)


def keep_newest(directory, keep):
    for old in sorted(directory.glob(BACKUP_GLOB))[:-keep]:
        old.unlink()
        log.info("removed the old backup %s", old)
