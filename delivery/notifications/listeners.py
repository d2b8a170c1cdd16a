"""Who is told what when something happens (SPEC §9): listeners of the events, each writing its notifications
in the event's own transaction, so that a refused write tells nobody. An invitation's message is held for
`BAND_NOTIFY_DELAY_SECONDS` (answered or withdrawn meanwhile, it is dropped: nobody was told); a gig's changes
are gathered into one message per member while they keep coming within `BAND_GIG_CHANGED_MINUTES`."""

import datetime as dt

from flask import current_app

import events
from delivery.notifications import clients, facts, messages, queue
from delivery.notifications.timed import reminder_topic
from domain import signed_links
from models import Event, GigRoleInvitation, Role, StaffMember

WATCHED = {"gig_date", "start_time", "end_time", "venue_id", "gig_status_id"}
ENDED = ("accepted", "declined", "withdrawn", "expired", "deleted")
ANSWERED = ("gig_role_invitation.accepted", "gig_role_invitation.declined")
UNSENT = "Withdrawn before it went out."


def register():
    """Listen to the events the rules follow (once, however often it is called)."""
    if invitation_created in events.LISTENERS.get("gig_role_invitation.created", ()):
        return
    events.listen("gig_role_invitation.created", invitation_created)
    events.listen("gig_role_invitation.updated", invitation_updated)
    for verb in ENDED:
        events.listen(f"gig_role_invitation.{verb}", invitation_ended)
    events.listen("gig.updated", gig_updated)
    events.listen("gig_role.updated", gig_role_updated)
    events.listen("gig_role.deleted", gig_role_deleted)
    clients.register()


def invitation_topic(invitation_id):
    return f"invitation:{invitation_id}"


def ids_of(about):
    return queue.ids(about.gig.gig.id, about.part.gig_role.id, about.invitation.id)


def invitation_created(happened):
    config = current_app.config
    about = facts.invited(GigRoleInvitation.get_by_id(happened.subject_id))
    message = messages.invitation(about, signed_links.answer_link(config, about.invitation.id))
    # one held for the same member already: this one goes with it, so that they make one mail
    due_at = queue.held_until("invitation", about.member) or queue.later(config["NOTIFY_DELAY_SECONDS"])
    topic = invitation_topic(happened.subject_id)
    queue.add("invitation", message, ids_of(about), member=about.member, topic=topic, due_at=due_at)


def invitation_updated(happened):
    """A new message or expiry while the invitation's message is held: it says the new one."""
    held = queue.held("invitation", invitation_topic(happened.subject_id))
    if held is not None:
        config = current_app.config
        about = facts.invited(GigRoleInvitation.get_by_id(happened.subject_id))
        message = messages.invitation(about, signed_links.answer_link(config, about.invitation.id))
        queue.rewrite(held, message, held.due_at)


def invitation_ended(happened):
    """An invitation's message still held is dropped, and what of it (or of its reminder) has not gone out yet
    never goes; answered (by any way: the link, the member, the office for them), its messages are read; a member
    told of it hears of its withdrawal."""
    topics = {
        "invitation": invitation_topic(happened.subject_id),
        "invitation_reminder": reminder_topic(happened.subject_id),
    }
    if queue.drop_held("invitation", topics["invitation"]):
        return
    told = [queue.unsend(kind, topic, UNSENT) for kind, topic in topics.items()]
    if happened.type in ANSWERED:
        for kind, topic in topics.items():
            queue.mark_read(kind, topic)
    if happened.type != "gig_role_invitation.withdrawn" or not any(told):
        return
    topic = topics["invitation"]
    about = facts.invited(GigRoleInvitation.get_by_id(happened.subject_id))
    message = messages.invitation_withdrawn(about, withdrawal_reason(about))
    queue.add("invitation_withdrawn", message, ids_of(about), member=about.member, topic=f"withdrawn:{topic}")


def withdrawal_reason(about):
    holder = about.part.gig_role.staff_member_id
    if holder is not None and holder != about.member.id:
        return ": the role has been filled"
    if about.gig.status is not None and about.gig.status.kind in ("cancelled", "completed"):
        return f": the gig is {about.gig.status.kind}"
    return ""


def gig_updated(happened):
    """The members holding a role are told of a new date, times, venue, or a cancellation, old → new."""
    if not happened.changes or not WATCHED & happened.changes.keys():
        return
    if is_past(happened.data["gig_date"], happened.changes.get("gig_date", {}).get("from")):
        return
    gig_id, view = happened.subject_id, facts.gig_view(happened.subject_id)
    due_at = queue.later(current_app.config["GIG_CHANGED_MINUTES"] * 60)
    since_then = {}  # changes since a moment: members told from the same moment read the same changes
    for member_id, holder in facts.holders(gig_id).items():
        topic = f"gig_changed:{gig_id}:{member_id}"
        held = queue.held("gig_changed", topic)
        since = held.created_at if held else happened.occurred_at
        if since not in since_then:
            since_then[since] = worth_telling(changes_since(gig_id, since))
        changes, status_word = since_then[since]
        if not changes:
            if held:
                held.delete_instance()
            continue
        message = messages.gig_changed(view, holder, changes, facts.NAMES, status_word)
        if held:
            queue.rewrite(held, message, due_at)
        else:
            data = queue.ids(gig_id)
            queue.add("gig_changed", message, data, member=holder.member, topic=topic, due_at=due_at, created_at=since)


def changes_since(gig_id, since):
    """The gig's watched changes since `since`, each from the first `from` to the latest `to`; a field that
    came back to where it was is no change."""
    updates = Event.select(Event.changes).where(
        Event.subject_id == gig_id, Event.type == "gig.updated", Event.occurred_at >= since
    )
    merged = {}
    for update in updates.order_by(Event.seq):
        for field in WATCHED & update.changes.keys():
            merged.setdefault(field, {"from": update.changes[field]["from"]})["to"] = update.changes[field]["to"]
    return {field: change for field, change in merged.items() if change["from"] != change["to"]}


def worth_telling(changes):
    """(changes, `Cancelled` | `Back on` | None): a change of status counts when it cancels or un-cancels."""
    if "gig_status_id" not in changes:
        return changes, None
    before, after = (facts.status_of(changes["gig_status_id"][end]) for end in ("from", "to"))
    if after is not None and after.kind == "cancelled":
        return changes, "Cancelled"
    if before is not None and before.kind == "cancelled":
        return changes, "Back on"
    return {field: change for field, change in changes.items() if field != "gig_status_id"}, None


def is_past(*dates):
    """Changes to a gig that was and is in the past (a correction for the books) tell nobody."""
    today = dt.date.today().isoformat()
    return all(date < today for date in dates if date)


def gig_role_updated(happened):
    moved = (happened.changes or {}).get("staff_member_id")
    if moved and moved["from"]:
        role_removed(happened, moved["from"])
    if moved and moved["to"]:  # put back while the news was held: there is none
        queue.drop_held("role_removed", removed_topic(happened.subject_id, moved["to"]))


def gig_role_deleted(happened):
    if happened.data.get("staff_member_id"):
        role_removed(happened, happened.data["staff_member_id"])


def removed_topic(gig_role_id, member_id):
    return f"role_removed:{gig_role_id}:{member_id}"


def role_removed(happened, member_id):
    """The member taken off a gig role is told (held as an invitation is: an undone slip tells nobody); a
    change of that gig held for them is dropped once they hold no role on it."""
    gig_id = happened.data["gig_id"]
    view = facts.gig_view(gig_id)
    if is_past(view.gig.gig_date):
        return
    member, role = StaffMember.get_by_id(member_id), Role.get_by_id(happened.data["role_id"]).name
    message = messages.role_removed(view, member, role)
    topic, data = removed_topic(happened.subject_id, member_id), queue.ids(gig_id, happened.subject_id)
    due_at = queue.later(current_app.config["NOTIFY_DELAY_SECONDS"])
    queue.add("role_removed", message, data, member=member, topic=topic, due_at=due_at)
    if member_id not in facts.holders(gig_id, except_gig_role=happened.subject_id):
        queue.drop_held("gig_changed", f"gig_changed:{gig_id}:{member_id}")
