"""Mail and push of notifications (SPEC §9), as the database sees them: which are due, how they are claimed (a
lease in the write transaction, so that two servers never send one at once), what each channel sends, and what
is recorded of each attempt. The worker's sender (`notifications.sender`) does the sending.

Where a notification goes is decided when it is sent, not when it was queued: the recipient user's settings
and address, or a member without a user at the member's own address; a channel with nowhere to go is `skipped`."""

import collections
import datetime as dt
import hashlib
import logging
from dataclasses import dataclass

from peewee import fn

from delivery import backoff, mail, push
from delivery.notifications import attachments, queue
from dialects import dialect
from models import Device, Notification, NotificationSetting, StaffMember, User, now, timestamp
from storage import writer

log = logging.getLogger("band.notifications")
CHANNELS = ("email", "push")
MAIL_WINDOW_SECONDS = 24 * 3600  # a mail is retried until the waits between its attempts span a day
PUSH_ATTEMPTS = 3
PUSH_RETRY_SECONDS = (15.0, 60.0)  # waits between push attempts, unless the gateway said how long
PUSH_JITTER = 0.1
# A user's pushes on their way at once (their other notifications wait their turn): devices that hang hold up their
# own user's pushes, never the other users' (SPEC §2.3), however many notifications are due for them.
PUSHES_PER_USER = 2
COMBINED = "invitation"  # several of this type due for one address go out as one mail
SEPARATOR = "\n\n" + "-" * 40 + "\n\n"
ERROR_CHARS = 1000


@dataclass(frozen=True, eq=False)
class Mail:
    """One message to one address, carrying one notification or several invitations."""

    ids: tuple
    to: str
    subject: str
    text: str
    lease: str
    attachments: tuple = ()  # (file name, PDF bytes): delivery/notifications/attachments.py

    @property
    def message_key(self):
        """The local part of its Message-ID (SPEC §2.3): its notification's id, so that a mail sent again after a
        crash is recognisably the same message; a mail of several invitations is named after all of theirs."""
        if len(self.ids) == 1:
            return self.ids[0]
        return hashlib.sha256(" ".join(sorted(self.ids)).encode()).hexdigest()[:32]


@dataclass(frozen=True)
class Target:
    """A device as a push goes to it."""

    id: str
    platform: str
    token: str
    environment: str


@dataclass(frozen=True, eq=False)
class Push:
    """One notification pushed to each of its user's devices on a platform this server pushes to."""

    id: str
    user_id: str
    devices: tuple  # of Target
    message: dict  # {notification_id, type, title, body, data}: no address, no amount
    lease: str

    @property
    def ids(self):
        return (self.id,)


# --- what is due, and its claim --------------------------------------------------------------------------------


def columns(channel):
    return getattr(Notification, f"{channel}_state"), getattr(Notification, f"{channel}_next_at")


def claimable(moment):
    """The notifications no server holds a claim on at `moment`."""
    return Notification.claimed_until.is_null() | (Notification.claimed_until < moment)


def due(channel, moment):
    """The notifications whose `channel` may be attempted at `moment`, earliest first."""
    state, next_at = columns(channel)
    waiting = (state == "pending") & (next_at.is_null() | (next_at <= moment)) & (Notification.due_at <= moment)
    return Notification.select().where(waiting & claimable(moment)).order_by(next_at, Notification.due_at)


def next_due():
    """When the earliest notification `claim` may take is due (a stored timestamp; past when it is due now), or
    None: a channel is due at its `next_at`, and never before the notification's `due_at`."""
    moment, found = now(), []
    for channel in CHANNELS:
        state, next_at = columns(channel)
        earliest = fn.MIN(dialect.greater_of(Notification.due_at, fn.COALESCE(next_at, Notification.due_at)))
        found.append(Notification.select(earliest).where((state == "pending") & claimable(moment)).scalar())
    return min((at for at in found if at), default=None)


def claim(limit, leases, configured, busy=()):
    """In the write transaction under way: up to `limit` due notifications; a channel with nowhere to go is
    settled `skipped` at once, the rest become jobs (Mail, Push), their notifications claimed for the lease
    ({channel: seconds}) of the slowest channel among them. `configured` names the push platforms this server
    pushes to; `busy`, the jobs on their way: a user has PUSHES_PER_USER pushes on their way at most. Returns
    (jobs, how many notifications were looked at)."""
    moment = now()
    pushing = collections.Counter(job.user_id for job in busy if isinstance(job, Push))
    full = [user_id for user_id, count in pushing.items() if count >= PUSHES_PER_USER]
    rows = {}
    for channel in CHANNELS:
        query = due(channel, moment)
        if channel == "push" and full:  # in the query: a user's pushes waiting their turn leave room for others'
            query = query.where(Notification.recipient_user_id.not_in(full))
        for row in dialect.claiming(query.limit(limit)):
            if len(rows) < limit:
                rows.setdefault(row.id, row)
    if not rows:
        return [], 0
    found = Recipients(rows.values(), configured)
    mails, pushes = [], []
    for row in rows.values():
        if is_due(row, "email", moment) and (address := found.address(row)):
            mails.append((row, address))
        its_turn = pushing[row.recipient_user_id] < PUSHES_PER_USER
        if is_due(row, "push", moment) and its_turn and (devices := found.devices(row)):
            pushes.append((row, devices))
            pushing[row.recipient_user_id] += 1
    # one lease for the batch, its slowest channel's: a mail of several notifications holds them all under one
    seconds = [leases["email"]] * bool(mails) + [leases["push"]] * bool(pushes)
    lease = lease_until(max(seconds)) if seconds else None
    claimed = {row.id for row, _ in mails} | {row.id for row, _ in pushes}
    for row in rows.values():
        if row.id in claimed:
            row.claimed_until = lease
        if row.is_dirty():
            row.updated_at = moment
            row.save()
    jobs = [*compose_mails(mails), *(push_job(row, devices) for row, devices in pushes)]
    return jobs, len(rows)


def is_due(row, channel, moment):
    state, next_at = getattr(row, f"{channel}_state"), getattr(row, f"{channel}_next_at")
    return state == "pending" and (next_at is None or next_at <= moment)


def lease_until(seconds):
    return timestamp(dt.datetime.now(dt.UTC) + dt.timedelta(seconds=seconds))


class Recipients:
    """The users, settings, members and devices of a batch of notifications, read in a few queries; each channel
    without a recipient is marked skipped on its notification, with the reason as its error."""

    def __init__(self, rows, configured):
        user_ids = {row.recipient_user_id for row in rows if row.recipient_user_id}
        member_ids = {row.staff_member_id for row in rows if row.staff_member_id and not row.recipient_user_id}
        self.users = {user.id: user for user in User.select().where(User.id.in_(user_ids))}
        self.settings = {user_id: NotificationSetting.of(user_id) for user_id in self.users}
        members = StaffMember.select(StaffMember.id, StaffMember.email).where(StaffMember.id.in_(member_ids))
        self.members = {member.id: member.email for member in members}
        self.by_user = {}
        on_platforms = Device.select().where(Device.user.in_(user_ids), Device.platform.in_(list(configured)))
        for device in on_platforms.order_by(Device.updated_at.desc()):
            found = Target(device.id, device.platform, device.token, device.environment)
            devices = self.by_user.setdefault(device.user_id, [])
            if len(devices) < push.DEVICES_PER_USER:  # those a user kept from before there was a limit: the latest
                devices.append(found)

    def refusal(self, row, channel):
        """Why the recipient user takes nothing on `channel` (None: they do)."""
        user = self.users.get(row.recipient_user_id)
        if user is None:
            return "No user to mail." if channel == "email" else "No user to push to."
        if not user.active:
            return "The recipient's user is inactive."
        if not getattr(self.settings[user.id], channel):
            return f"{'Mail' if channel == 'email' else 'Push'} is off in the recipient's settings."
        return None

    def address(self, row):
        """The address to mail `row` to, or None (the channel then reads skipped)."""
        if not row.recipient_user_id:
            address = self.members.get(row.staff_member_id) if row.staff_member_id else row.email_to  # a client's
            return address or skip(row, "email", "No address to mail.")
        if why := self.refusal(row, "email"):
            return skip(row, "email", why)
        return self.users[row.recipient_user_id].email

    def devices(self, row):
        """The devices to push `row` to, or None (the channel then reads skipped, or settled when a device got it
        before and those still to try are gone)."""
        if why := self.refusal(row, "push"):
            return skip(row, "push", why)
        devices = self.by_user.get(row.recipient_user_id, [])
        if row.push_devices is None:
            return tuple(devices) or skip(row, "push", "No device on a platform this server pushes to.")
        still = tuple(device for device in devices if row.push_devices.get(device.id) == push.RETRY)
        if not still:
            row.push_error = "The devices still to try are gone."
            return settle_push(row)
        return still


def skip(row, channel, reason):
    queue.skip(row, channel, reason)
    return None


def compose_mails(mails):
    """One Mail per notification, but the invitations due for one address make one."""
    combined, jobs = {}, []
    for row, address in mails:
        if row.type == COMBINED:
            combined.setdefault(address.lower(), []).append((row, address))
        else:
            jobs.append(Mail((row.id,), address, row.title, row.body, row.claimed_until, attachments.of(row)))
    for group in combined.values():
        rows = sorted((row for row, _ in group), key=lambda row: (row.due_at, row.created_at))
        subject = rows[0].title if len(rows) == 1 else f"{len(rows)} new invitations"
        text = SEPARATOR.join(row.body for row in rows)
        jobs.append(Mail(tuple(row.id for row in rows), group[0][1], subject, text, rows[0].claimed_until))
    return jobs


def push_job(row, devices):
    message = {
        "notification_id": row.id,  # the same on every attempt: a repeat after a crash is recognisably this one
        "type": row.type,
        "title": row.title,
        "body": row.summary,
        "data": row.data or {},
    }
    return Push(row.id, row.recipient_user_id, devices, message, row.claimed_until)


def release(jobs):
    """Claims given back unused (the service is stopping): those notifications are due again at once. A claim
    that ran out and was taken by another server meanwhile is theirs."""
    with writer.transaction():
        for job in jobs:
            held = Notification.id.in_(job.ids) & (Notification.claimed_until == job.lease)
            Notification.update(claimed_until=None).where(held).execute()


# --- what came of an attempt -------------------------------------------------------------------------------


def record_outcomes(outcomes, finished):
    """Store what the attempts came to, in the transaction under way: each channel sent, failed for good, or due
    again after a wait counted from now. `finished` names the notifications none of whose jobs is still on its
    way: their claim is given back. An attempt whose claim ran out and was taken by another server meanwhile is
    theirs to record."""
    moment, held = now(), set()
    ids = [row_id for outcome in outcomes for row_id in outcome.job.ids]
    rows = {row.id: row for row in dialect.locking(Notification.select().where(Notification.id.in_(ids)))}
    for outcome in outcomes:
        for row in (rows[row_id] for row_id in outcome.job.ids if row_id in rows):
            if row.claimed_until == outcome.job.lease:
                outcome.apply(row, moment)
                held.add(row.id)
    for row_id in held & set(finished):
        rows[row_id].claimed_until = None
    for row in rows.values():
        if row.is_dirty():
            row.updated_at = moment
            row.save()


@dataclass(frozen=True)
class Mailed:
    """What an attempt to send a mail came to: sent (no error), refused for good, or to be tried again after the
    next of `waits` (the mail retry schedule)."""

    job: Mail
    waits: tuple
    error: str | None = None
    refused: bool = False

    def apply(self, row, moment):
        row.email_attempts += 1
        row.email_to, row.email_error = self.job.to, self.error and self.error[:ERROR_CHARS]
        who = f"notification {row.id}: mail to {mail.masked(self.job.to)}"
        wait = None if self.refused or self.error is None else mail_wait(row.email_attempts, self.waits)
        if self.error is None:
            row.email_state, row.email_next_at = "sent", None
        elif wait is None:
            row.email_state, row.email_next_at = "failed", None
            why = "refused" if self.refused else f"given up after {row.email_attempts} attempts"
            log.error("%s %s: %s", who, why, self.error)
        else:
            row.email_next_at = backoff.seconds_after(moment, wait)
            log.warning("%s not sent yet, attempt %d: %s; next in %.1f s", who, row.email_attempts, self.error, wait)


def mail_wait(attempts, waits):
    """Seconds until the next attempt after `attempts` failed ones (the last wait repeating, with jitter); None
    once the waits before it span MAIL_WINDOW_SECONDS: the mail has been tried for a day."""
    spent = sum(waits[: attempts - 1]) + max(attempts - 1 - len(waits), 0) * waits[-1]
    if spent >= MAIL_WINDOW_SECONDS:
        return None
    return min(backoff.jittered(backoff.nth_wait(waits, attempts), mail.JITTER), MAIL_WINDOW_SECONDS - spent)


@dataclass(frozen=True)
class Pushed:
    """What one push attempt came to on each device: ((Target, push.PushResult), ...)."""

    job: Push
    results: tuple

    def apply(self, row, moment):
        """A dead token deletes its device; the devices a gateway asked to try again are tried again
        (PUSH_ATTEMPTS in all); then the push is sent if any device got it, else failed."""
        row.push_attempts += 1
        for device, result in self.results:
            if result.outcome == push.DEAD:
                Device.delete().where(Device.id == device.id, Device.token == device.token).execute()
                log.info("notification %s: push device %s removed: %s", row.id, device.id, result.error)
        row.push_devices = {**(row.push_devices or {}), **{d.id: result.outcome for d, result in self.results}}
        errors = dict.fromkeys(result.error for _, result in self.results if result.error)
        row.push_error = "; ".join(errors)[:ERROR_CHARS] or None
        retried = [result for _, result in self.results if result.outcome == push.RETRY]
        wait = push_wait(row.push_attempts, [r.retry_after for r in retried if r.retry_after is not None])
        if retried and wait is not None:
            row.push_next_at = backoff.seconds_after(moment, wait)
            return
        settle_push(row)
        if row.push_state == "failed":
            log.warning("notification %s: push failed after %d attempts: %s", row.id, row.push_attempts, row.push_error)


def settle_push(row):
    """Nothing more to try: the push is sent if any device got it, else failed."""
    got_it = push.SENT in (row.push_devices or {}).values()
    row.push_state, row.push_next_at = ("sent" if got_it else "failed"), None


def push_wait(attempts, asked):
    """Seconds until the next push attempt after `attempts`: the longest any gateway asked for, if one did (up to
    an hour), else the back-off with jitter; None once PUSH_ATTEMPTS were made."""
    if attempts >= PUSH_ATTEMPTS:
        return None
    if asked:
        return max(asked)
    return backoff.jittered(backoff.nth_wait(PUSH_RETRY_SECONDS, attempts), PUSH_JITTER)
