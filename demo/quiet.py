"""A quiet demo (SPEC §12.1): serving a copy sends none of the demo's mail or push. The worker's timed rules remind
each pending invitation once and each holder of a gig's roles the day before it; the demo holds those reminders as
told already (both channels skipped, saying why), so a served copy finds nothing of the demo's to send."""

from delivery.notifications.timed import gig_reminder_topic, reminder_topic
from models import Gig, GigRole, GigRoleInvitation, Notification, timestamp

REASON = "The demo office sends no mail and no push."


def write_quiet(office):
    """The reminders of the pending invitations and of the gigs from today on, as told (written at the next flush)."""
    for invitation in GigRoleInvitation.select().where(GigRoleInvitation.status == "pending"):
        told(office, "invitation_reminder", reminder_topic(invitation.id), invitation.staff_member_id)
    held = (
        GigRole.select(GigRole.gig, Gig.gig_date, GigRole.staff_member)
        .join(Gig, on=GigRole.gig == Gig.id)
        .where(GigRole.staff_member.is_null(False), Gig.gig_date >= office.today.isoformat())
        .distinct()
    )
    for gig_id, gig_date, member_id in held.tuples():
        told(office, "gig_reminder", gig_reminder_topic(gig_id, gig_date, member_id), member_id)


def told(office, kind, topic, member_id):
    office.add(
        Notification,
        when=office.now,
        type=kind,
        staff_member=member_id,
        title=REASON,
        body=REASON,
        summary=REASON,
        topic=topic,
        due_at=timestamp(office.now),
        email_state="skipped",
        email_error=REASON,
        push_state="skipped",
        push_error=REASON,
    )
