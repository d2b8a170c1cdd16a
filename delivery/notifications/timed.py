"""The timed rules of SPEC §9, run by the worker each round: the reminder of an invitation still pending
`BAND_INVITATION_REMINDER_HOURS` before it expires, the day-before reminder of a gig at
`BAND_GIG_REMINDER_TIME` (server local time), and the office digest every `BAND_DIGEST_MINUTES` when something
happened. Each is looked for first without the write lock, then made in one write transaction that looks again:
two servers on one database never make the same reminder twice (a topic names each one)."""

import datetime as dt
import itertools

from peewee import JOIN, Value, fn

from delivery.notifications import clients, facts, messages, queue, wishes
from delivery.notifications.words import person
from dialects import dialect
from domain import signed_links
from domain.capabilities import held_capabilities
from domain.sales import records
from models import (
    INVITATION_STATUS,
    LIVE,
    NOT_CANCELLED,
    Event,
    Gig,
    GigRole,
    GigRoleInvitation,
    GigStatus,
    Notification,
    NotificationSetting,
    Role,
    Setting,
    StaffMember,
    User,
    timestamp,
)
from storage import writer

AT_ONCE = 200  # reminders made in one transaction: the write lock is never held for long
INVITATIONS_DIGESTED = ("gig_role_invitation.accepted", "gig_role_invitation.declined", "gig_role_invitation.expired")
DIGESTED = (*INVITATIONS_DIGESTED, *clients.DIGESTED)
DIGEST_SEQ, DIGEST_AT = "office_digest_seq", "office_digest_at"
OPEN_ROLE_DAYS = 14


def run(config, moment=None):
    """The timed rules as of `moment` (an aware datetime; now when not given)."""
    moment = moment or dt.datetime.now(dt.UTC)
    claimed(lambda: invitations_to_remind(config, moment), lambda found: remind_invitations(config, found))
    claimed(lambda: gigs_to_remind(config, moment), remind_gigs)
    claimed(lambda: digest_due(config, moment), lambda found: send_digest(moment, found))
    clients.run(config, records.office_today(), claimed)


def claimed(find, make):
    """`make(found)` with what `find()` finds, looked for again in a write transaction that sees the database as
    if alone and is run again if it loses to a concurrent one (`writer.retried`: another server or a request may
    change what it found meanwhile); nothing written when there is nothing to do."""
    if find():
        writer.retried(_make_what_is_found, find, make)


def _make_what_is_found(find, make):
    if found := find():
        make(found)


def told(topics):
    """The topics of `topics` that some notification has already."""
    query = Notification.select(Notification.topic).where(Notification.topic.in_(list(topics)))
    return {topic for (topic,) in query.tuples()}


# --- the invitation's reminder -------------------------------------------------------------------------------


def invitations_to_remind(config, moment):
    """Pending invitations expiring within the reminder's hours that were pending that long before expiry (one
    made closer to it had its own message since) and have had no reminder."""
    window = dt.timedelta(hours=config["INVITATION_REMINDER_HOURS"])
    topic = Value(reminder_topic("")).concat(GigRoleInvitation.id)
    reminded = Notification.select(Notification.id).where(Notification.topic == topic)
    pending = GigRoleInvitation.select().where(
        GigRoleInvitation.status == "pending",
        GigRoleInvitation.expires_at.between(timestamp(moment), timestamp(moment + window)),
        ~fn.EXISTS(reminded),
    )
    old_enough = (one for one in pending.order_by(GigRoleInvitation.expires_at) if made_before_window(one, window))
    return list(itertools.islice(old_enough, AT_ONCE))


def made_before_window(invitation, window):
    return parse(invitation.created_at) <= parse(invitation.expires_at) - window


def reminder_topic(invitation_id):
    return f"invitation_reminder:{invitation_id}"


def remind_invitations(config, found):
    for invitation in found:
        about = facts.invited(invitation)
        message = messages.invitation(about, signed_links.answer_link(config, invitation.id), reminder=True)
        data = queue.ids(about.gig.gig.id, invitation.gig_role_id, invitation.id)
        queue.add("invitation_reminder", message, data, member=about.member, topic=reminder_topic(invitation.id))


def parse(stamp):
    return dt.datetime.fromisoformat(stamp.replace("Z", "+00:00"))


# --- the day before a gig ------------------------------------------------------------------------------------


def gigs_to_remind(config, moment):
    """[(gig id, [member ids])] of tomorrow's gigs (not cancelled) whose holders have not been reminded, once
    the reminder's time of day has come (server local time)."""
    local = moment.astimezone()
    if local.strftime("%H:%M") < config["GIG_REMINDER_TIME"]:
        return []
    tomorrow = (local.date() + dt.timedelta(days=1)).isoformat()
    held = (
        GigRole.select(GigRole.gig, GigRole.staff_member)
        .join(Gig)
        .join(GigStatus, JOIN.LEFT_OUTER)
        .where(Gig.gig_date == tomorrow, NOT_CANCELLED, GigRole.staff_member.is_null(False))
        .distinct()
    )
    pairs = sorted(held.tuples())
    reminded = told(gig_reminder_topic(gig_id, tomorrow, member_id) for gig_id, member_id in pairs)
    due = [pair for pair in pairs if gig_reminder_topic(pair[0], tomorrow, pair[1]) not in reminded][:AT_ONCE]
    return [(gig_id, [member for _, member in of_gig]) for gig_id, of_gig in itertools.groupby(due, lambda p: p[0])]


def gig_reminder_topic(gig_id, gig_date, member_id):
    """A gig moved to another day is reminded again the day before that one."""
    return f"gig_reminder:{gig_id}:{gig_date}:{member_id}"


def remind_gigs(found):
    for gig_id, member_ids in found:
        view, holders = facts.gig_view(gig_id), facts.holders(gig_id)
        lineup = list(holders.values())
        for member_id in member_ids:
            message = messages.gig_reminder(view, holders[member_id], lineup)
            topic = gig_reminder_topic(gig_id, view.gig.gig_date, member_id)
            queue.add("gig_reminder", message, queue.ids(gig_id), member=holders[member_id].member, topic=topic)


# --- the office digest ---------------------------------------------------------------------------------------


def digest_due(config, moment):
    """The invitations answered or expired, money in's news and the couple's wishes since the last digest (their
    events), once its minutes have passed."""
    minutes_ago = timestamp(moment - dt.timedelta(minutes=config["DIGEST_MINUTES"]))
    last_at = setting(DIGEST_AT)
    if last_at is not None and last_at > minutes_ago:
        return []
    since = setting(DIGEST_SEQ)
    if since is None:  # the first digest: what happened within its minutes, not the whole history
        since = Event.select(fn.MAX(Event.seq)).where(Event.occurred_at < minutes_ago).scalar() or 0
    told = Event.type.in_(DIGESTED) | wishes.BY_THE_COUPLE
    query = Event.select().where(Event.seq > int(since), told).order_by(Event.seq)
    return list(query)


def send_digest(moment, happened):
    """The digest to each of its readers (none when the records of what happened are gone since): the invitations'
    news to those holding staffing.edit, money in's and the couple's wishes to those holding sales.edit."""
    told_of = answered([event for event in happened if event.type in INVITATIONS_DIGESTED])
    money_in = clients.digest_lines([event for event in happened if event.type in clients.DIGESTED])
    money_in += wishes.digest_lines([event for event in happened if wishes.of_the_couple(event)])
    topic, written = f"office_digest:{happened[-1].seq}", {}
    for user_id, staffing, sales in digest_readers():
        if not ((staffing and told_of) or (sales and money_in)):
            continue
        if (staffing, sales) not in written:
            roles = open_roles(moment) if staffing else None
            written[staffing, sales] = messages.office_digest(told_of * staffing, roles, money_in * sales)
        queue.add("office_digest", written[staffing, sales], queue.ids(), user_id=user_id, topic=topic)
    store(DIGEST_SEQ, str(happened[-1].seq))
    store(DIGEST_AT, timestamp(moment))


def answered(happened):
    """(accepted|declined|expired, member, role, gig title, gig date) of each event, where its records remain."""
    role_ids = {event.data["gig_role_id"] for event in happened}
    roles = GigRole.select(GigRole, Role.name.alias("role_name"), Gig.title.alias("gig_title"), Gig.gig_date)
    roles = roles.join(Role).switch(GigRole).join(Gig).where(GigRole.id.in_(role_ids)).objects()
    roles = {role.id: role for role in roles}
    members = StaffMember.select().where(StaffMember.id.in_({event.data["staff_member_id"] for event in happened}))
    members = {member.id: person(member.first_name, member.last_name) for member in members}
    lines = []
    for event in happened:
        role, member = roles.get(event.data["gig_role_id"]), members.get(event.data["staff_member_id"])
        if role and member:
            lines.append((event.type.rpartition(".")[2], member, role.role_name, role.gig_title, role.gig_date))
    return lines


def open_roles(moment):
    """(gig date, gig title, [(role, pending invitations)]) of the open roles on live gigs of the next 14 days."""
    today = moment.astimezone().date()
    last = (today + dt.timedelta(days=OPEN_ROLE_DAYS)).isoformat()
    query = (
        GigRole.select(GigRole.id, GigRole.gig, Role.name.alias("role_name"), Gig.title, Gig.gig_date)
        .join(Role)
        .switch(GigRole)
        .join(Gig)
        .join(GigStatus, JOIN.LEFT_OUTER)
        .where(GigRole.status == "open", Gig.gig_date.between(today.isoformat(), last), LIVE)
        .order_by(Gig.gig_date, Gig.start_time, Gig.id, GigRole.created_at, GigRole.id)
    )
    roles = list(query.objects())
    invited = (
        GigRoleInvitation.select(GigRoleInvitation.gig_role, fn.COUNT(GigRoleInvitation.id))
        .where(GigRoleInvitation.gig_role.in_([role.id for role in roles]), INVITATION_STATUS == "pending")
        .group_by(GigRoleInvitation.gig_role)
    )
    pending = dict(invited.tuples())
    return [
        (of_gig[0].gig_date, of_gig[0].title, [(role.role_name, pending.get(role.id, 0)) for role in of_gig])
        for of_gig in (list(group) for _, group in itertools.groupby(roles, lambda role: role.gig_id))
    ]


def digest_readers():
    """(user id, holds staffing.edit, holds sales.edit) of the active users holding either who did not turn the
    digest off."""
    users = User.select(User.id).where(User.active == True)  # noqa: E712
    found = []
    for (user_id,) in users.tuples():
        held = held_capabilities(user_id)
        staffing, sales = "staffing.edit" in held, "sales.edit" in held
        if (staffing or sales) and NotificationSetting.of(user_id).office_digest:
            found.append((user_id, staffing, sales))
    return found


def setting(key):
    found = Setting.get_or_none(Setting.key == key)
    return found.value if found else None


def store(key, value):
    dialect.upsert(Setting, key=key, value=value)
