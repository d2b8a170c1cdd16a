"""Invitations to gig roles (SPEC §5.3): when one may be sent, how long it lives, and its answers (accept,
decline, withdraw). Plain functions on models that raise a domain error; no Flask."""

import datetime as dt

from peewee import SQL, Case, NodeList, fn

from dialects import dialect
from domain.availability import holds_role, put_on_role, require_available
from domain.errors import ApiError, conflict, invalid
from domain.rules import require_live
from listing import Column
from models import (
    INVITATION_STATUS,
    INVITATION_STATUSES,
    OVERDUE,
    Gig,
    GigRole,
    GigRoleInvitation,
    now,
    timestamp,
)


def stored_statuses(statuses):
    """What the stored status of an invitation reading one of `statuses` is: an index finds those, in a list's order
    too. An invitation that reads `expired` may still be stored `pending`, until the worker marks it; while none
    is (the usual case, `gig_counts_are_exact`), each reads as stored."""
    overdue_may_read_expired = "expired" in statuses and not gig_counts_are_exact()
    stored = sorted(set(statuses) | ({"pending"} if overdue_may_read_expired else set()))
    return GigRoleInvitation.status == stored[0] if len(stored) == 1 else GigRoleInvitation.status.in_(stored)


# An invitation's status as lists filter and sort on it: as it reads now (a pending one past expiry is expired).
STATUS_COLUMN = Column("status", INVITATION_STATUS, "enum", INVITATION_STATUSES, narrowing=stored_statuses)

# --- a gig's pending invitations (SPEC §11: one past its expiry is not pending, whether or not the worker has run)

# The first expiry among the invitations stored as pending, overdue ones included (in the past, some are overdue).
# Written once as SQL: every read of a gig asks it, and writing it each time cost more than the read itself.
FIRST_STORED_PENDING_EXPIRY = (
    GigRoleInvitation.select(fn.MIN(GigRoleInvitation.expires_at)).where(GigRoleInvitation.status == "pending").sql()
)


def gig_counts_are_exact():
    """Whether every gig's stored `pending_invitation_count` (kept by triggers) reads true now: no invitation
    stored as pending is past its expiry. The worker marks those expired, and the triggers count them out; until it
    has (or with no worker) a read subtracts them. One look along the (status, expires_at) index, remembered until
    the database changes (`counted` remembers any one-value query)."""
    first = dialect.counted(FIRST_STORED_PENDING_EXPIRY)
    return first is None or first > now()


# One row (its gig) for each invitation stored as pending past its expiry: few, the worker marks them within its
# interval, and found along the (status, expires_at) index. Written once as SQL of its own, so that it reads the
# same inside any statement.
OVERDUE_GIGS = dialect.subquery(*GigRoleInvitation.select(GigRole.gig).join(GigRole).where(OVERDUE).sql())


def pending_count_now(gig):
    """The SQL of a gig's pending invitations as they read now, for `gig` (Gig, or an alias of it that a page
    joins): the stored count, less the overdue invitations of the gigs that have some."""
    stored = gig.pending_invitation_count
    overdue_here = NodeList(
        (SQL("(SELECT COUNT(*) FROM"), OVERDUE_GIGS, SQL('AS "overdue" WHERE "overdue"."gig_id" ='), gig.id, SQL(")"))
    )
    return Case(None, [(NodeList((gig.id, SQL("IN"), OVERDUE_GIGS)), stored - overdue_here)], stored)


# `pending_invitation_count` while some invitation is overdue (a shape of its own: its SQL differs from the
# stored column's); it follows a reference as computed on the joined gig
PENDING_COUNT_NOW = Column(
    "pending_invitation_count", pending_count_now(Gig), "int", shape=("overdue subtracted",), on=pending_count_now
)


def status_now(invitation):
    """The status the invitation reads as now (INVITATION_STATUS: a pending one past expiry is expired)."""
    return GigRoleInvitation.select(INVITATION_STATUS).where(GigRoleInvitation.id == invitation.id).scalar()


def expiry_for(invitation, lifetime_hours):
    """Complete a new or changed invitation's `expires_at`: by default the lifetime from now; in the future."""
    if invitation.expires_at is None:
        invitation.expires_at = timestamp(dt.datetime.now(dt.UTC) + dt.timedelta(hours=lifetime_hours))
    elif invitation.expires_at <= now():
        raise invalid({"expires_at": ["Must be in the future."]})


def require_pending(invitation):
    refuse_unless_pending(status_now(invitation))


def refuse_unless_pending(found):
    if found == "expired":
        raise conflict("invitation_expired", "The invitation has expired.")
    if found != "pending":
        raise conflict("invitation_not_pending", f"The invitation is {found}, no longer pending.")


def check_new_invitation(invitation, gig_role, gig):
    """A member who holds the role, an open role on a live gig, the member free, no pending twin."""
    holds_role(invitation.staff_member_id, gig_role.role_id)
    require_live(gig)
    if gig_role.staff_member_id is not None:
        raise conflict("gig_role_filled", "The gig role is filled already.")
    require_available(invitation.staff_member_id, gig)
    twin = pending_invitations(gig_role.id).where(GigRoleInvitation.staff_member == invitation.staff_member_id)
    if twin.exists():
        raise ApiError(
            409,
            "already_exists",
            "A pending invitation for this staff member exists already.",
            {"fields": ["gig_role_id", "staff_member_id"]},
        )


def pending_invitations(gig_role_id):
    return GigRoleInvitation.select().where(GigRoleInvitation.gig_role == gig_role_id, INVITATION_STATUS == "pending")


def accept(invitation):
    """The invitee takes the gig role; the role's other pending invitations are withdrawn. Returns the
    invitation and the ids of those withdrawn.

    Precedence: an invitation its invitee already answered is not pending, even when the role is filled (by
    them, say); for a pending or withdrawn one, a role another took is reported first, so that of two
    invitees accepting at once the second learns that the role is taken."""
    found = status_now(invitation)
    if found in ("accepted", "declined"):
        refuse_unless_pending(found)
    gig_role = GigRole.get_by_id(invitation.gig_role_id)
    if gig_role.staff_member_id is not None:
        raise conflict("gig_role_filled", "Someone else has taken this gig role.")
    refuse_unless_pending(found)
    gig = Gig.get_by_id(gig_role.gig_id)
    require_live(gig)
    gig_role.staff_member_id = invitation.staff_member_id
    put_on_role(gig_role, gig)
    stamp = now()
    gig_role.status, gig_role.updated_at = "filled", stamp
    gig_role.save()
    record_answer(invitation, "accepted", stamp)
    return invitation, withdraw_pending(GigRoleInvitation.gig_role == gig_role.id, stamp)


def answer(invitation, status):
    """A pending invitation becomes `status` (declined or withdrawn)."""
    require_pending(invitation)
    return record_answer(invitation, status, now())


def record_answer(invitation, status, stamp):
    invitation.status, invitation.responded_at, invitation.updated_at = status, stamp, stamp
    invitation.save()
    return invitation


def withdraw_pending(condition, stamp=None):
    """Withdraw the pending invitations matching `condition`: their ids (each withdrawal is an event)."""
    pending = GigRoleInvitation.select(GigRoleInvitation.id).where(condition, INVITATION_STATUS == "pending")
    ids = [invitation_id for (invitation_id,) in pending.tuples()]
    if ids:
        query = GigRoleInvitation.update(status="withdrawn", updated_at=stamp or now())
        query.where(condition, INVITATION_STATUS == "pending").execute()
    return ids


def withdraw_for_gigs(gig_ids):
    """A gig that is no longer live (completed, cancelled) withdraws the pending invitations to its roles: their
    ids."""
    roles = GigRole.select(GigRole.id).where(GigRole.gig.in_(gig_ids))
    return withdraw_pending(GigRoleInvitation.gig_role.in_(roles))
