"""The staffing of demo gigs: the gig roles each product's ensemble calls for, the staff members on them, and the
invitations the office sent for them."""

import bisect
import datetime as dt
import functools

from demo.data import ENSEMBLES, INVITATION_MESSAGES, MUSICIAN_PENDING, ROLE_POSITION, ROLE_RATE
from demo.office import clock
from domain.rules import neighbour_dates, overlap, window
from models import GigRole, GigRoleInvitation, Role, timestamp

CREW = ("Sound engineer", "Lighting tech")
SCAN_LIMIT = 40  # holders of a role to look through one by one; of more, a few are drawn at random
DRAWS, WANTED = 12, 2


def staff_product(office, gig, gig_product, slots, booked):
    """The gig roles the product's ensemble calls for (as generate-roles makes them), most filled."""
    if gig_product.ensemble is None:
        return
    start = slots[gig_product.product.name][0] if slots else None
    playing = set()  # the staff members on the product so far
    for name in roles_called_for(gig_product.ensemble):
        gig_role = office.add(
            GigRole,
            when=booked,
            gig=gig,
            role=office.get(Role, name),
            gig_product=gig_product,
            call_time=call_time(name, start),
            status="open",
        )
        fill_role(office, gig_role, gig, playing, booked)
        office.staffed.append((gig_role, gig, booked))


def roles_called_for(ensemble):
    """The names of the ensemble's roles, once for each player, in the roles' order."""
    roles = sorted(ENSEMBLES[ensemble.name][1].items(), key=lambda r: ROLE_POSITION[r[0]])
    return [name for name, quantity in roles for _ in range(quantity)]


def call_time(role_name, start):
    """The crew is called two hours before the product starts, the players one."""
    if start is None:
        return None
    return clock(start - (120 if role_name in CREW else 60))


def fill_rate(office, gig):
    status, days = gig.gig_status.name, office.days_until(gig)
    if status == "Confirmed":
        return 1.0 if days < 0 else 0.95 if days < 60 else 0.85 if days < 180 else 0.7
    return {"Hold": 0.3, "Cancelled": 0.6}.get(status, 0.0)


def fill_role(office, gig_role, gig, playing, booked):
    """Put a free holder of the role on it (primary holders first), unless the office has not yet."""
    if office.rng.random() >= fill_rate(office, gig):
        return
    free = free_holders(office, gig_role.role_id, lambda m: m.id not in playing and is_free(office, m.id, gig))
    if not free:
        return
    member = office.rng.choices([m for m, _ in free], weights=[4 if primary else 1 for _, primary in free])[0]
    filled = office.between(booked + dt.timedelta(days=2), min(office.now, booked + dt.timedelta(days=20)))
    assign(office, gig_role, member, filled)
    playing.add(member.id)
    office.booked[gig.gig_date].setdefault(member.id, (gig.id, times(office, gig)[0]))


def free_holders(office, role_id, fits):
    """The active holders of the role that fit, as [(member, is_primary)]: all of them where the role has a few
    holders; where it has many, the first few that fit of some drawn at random (all only when none of those do)."""
    holders = office.holders[role_id]
    if len(holders) > SCAN_LIMIT:
        found = {}
        for member, primary in (office.rng.choice(holders) for _ in range(DRAWS)):
            if member.id not in found and fits(member):
                found[member.id] = (member, primary)
                if len(found) == WANTED:
                    break
        if found:
            return list(found.values())
    return [(member, primary) for member, primary in holders if fits(member)]


def assign(office, gig_role, member, filled):
    """The member on the gig role since `filled`; a few are paid a travel allowance on top of the role's rate."""
    gig_role.staff_member, gig_role.status, gig_role.updated_at = member, "filled", timestamp(filled)
    if office.rng.random() < 0.05:
        gig_role.pay_cents = ROLE_RATE[gig_role.role.name] + 5000
        gig_role.notes = "Includes the travel allowance."
    office.filled[gig_role.id] = filled


def is_free(office, member_id, gig):
    """No blockout that day, and no other gig that day or overlapping in time (§5.2)."""
    day = gig.gig_date
    if any(start <= day <= end for start, end in office.blocked[member_id]):
        return False
    mine, dates = times(office, gig)
    for date in dates:
        other = office.booked[date].get(member_id)
        if other is not None and other[0] != gig.id and (date == day or overlap(mine, other[1])):
            return False
    return True


def times(office, gig):
    """The gig's window and the dates of the gigs it may meet, worked out once for each gig."""
    if gig.id not in office.windows:
        office.windows[gig.id] = window(gig), neighbour_dates(gig.gig_date)
    return office.windows[gig.id]


def plays(office, member_id, gig):
    return office.booked[gig.gig_date].get(member_id, (None,))[0] == gig.id


def settle(office, until=None):
    """Write the invitations for the gig roles of the gigs dated before `until` (all of them when None), whose
    neighbours' staff are known by now, then forget what the gigs after them do not need."""
    cut = len(office.staffed)  # the gig roles are in the order of their gigs' dates
    if until:
        cut = bisect.bisect_left(office.staffed, until.isoformat(), key=lambda staffed: staffed[1].gig_date)
    settled, office.staffed = office.staffed[:cut], office.staffed[cut:]
    for gig_role, gig, booked in settled:
        write_invitations(office, gig_role, gig, booked)
    for gig_role, gig, _ in settled:
        office.filled.pop(gig_role.id, None)
        office.cancelled.pop(gig.id, None)
    office.windows.clear()
    if until:
        forget_bookings(office, (until - dt.timedelta(days=1)).isoformat())


def forget_bookings(office, before):
    for date in [date for date in office.booked if date < before]:
        del office.booked[date]


def write_invitations(office, gig_role, gig, booked):
    """The invitations the office sent for the gig role, as they stand today (§5.3)."""
    others = functools.partial(other_holders, office, gig_role, gig)  # looked for only where needed
    status, upcoming = gig.gig_status.name, gig.gig_date >= office.today.isoformat()
    if gig_role.staff_member_id is not None:
        invite_to_filled_role(office, gig_role, others, booked)
    elif status == "Cancelled":
        invite_to_cancelled_gig(office, gig_role, others(), booked, office.cancelled[gig.id])
    elif status != "Inquiry" and upcoming and (free := others()):
        invite_to_open_role(office, gig_role, free, booked)


def other_holders(office, gig_role, gig):
    """The holders of the role the office could have invited: free for the gig, and not on it already."""
    fits = lambda m: not plays(office, m.id, gig) and is_free(office, m.id, gig)
    return [member for member, _ in free_holders(office, gig_role.role_id, fits)]


def invite_to_cancelled_gig(office, gig_role, others, booked, cancelled):
    """Calling the gig off withdrew the invitations still awaiting an answer."""
    if others and office.rng.random() < 0.3:
        sent = office.between(booked, cancelled)
        write_invitation(office, gig_role, office.rng.choice(others), sent, "withdrawn", changed=cancelled)


def invite_to_filled_role(office, gig_role, find_others, booked):
    """Most filled roles were filled by an invitation; some after another holder said no."""
    if office.rng.random() >= 0.45:
        return
    filled = office.filled[gig_role.id]
    sent = max(booked, filled - dt.timedelta(hours=office.rng.randint(2, 40)))
    write_invitation(office, gig_role, gig_role.staff_member, sent, "accepted", responded=filled)
    others = find_others()
    if others and office.rng.random() < 0.2:
        declined = office.between(booked, sent)
        answered = min(declined + dt.timedelta(hours=5), office.now)
        write_invitation(office, gig_role, others.pop(0), declined, "declined", responded=answered)
    if others and office.rng.random() < 0.15:
        write_invitation(office, gig_role, others.pop(), sent, "withdrawn", changed=filled)


def invite_to_open_role(office, gig_role, others, booked):
    """An open role on an upcoming gig: an answer awaited, an invitation that ran out, or a no. The musician of
    staff@band.example is asked first, until a few of her invitations await her answer."""
    if office.musician in others and office.musician_invited < MUSICIAN_PENDING:
        office.musician_invited += 1
        write_invitation(office, gig_role, office.musician, office.now - dt.timedelta(hours=office.rng.randint(1, 47)))
        return
    chance = office.rng.random()
    member = office.rng.choice(others)
    if chance < 0.45:
        write_invitation(office, gig_role, member, office.now - dt.timedelta(hours=office.rng.randint(1, 47)))
    elif chance < 0.6:
        write_invitation(office, gig_role, member, office.now - dt.timedelta(days=office.rng.randint(4, 12)))
    elif chance < 0.7:
        sent = office.between(booked, office.now - dt.timedelta(days=2))
        write_invitation(office, gig_role, member, sent, "declined", responded=sent + dt.timedelta(hours=9))


def write_invitation(office, gig_role, member, sent, status="pending", responded=None, changed=None):
    """An invitation as it stands today: one that ran out unanswered is stored expired, as the worker would have
    recorded it then (the first start of a new demo has no backlog of expiries to record)."""
    expires = sent + dt.timedelta(hours=72)
    if status == "pending" and expires <= office.now:
        status, changed = "expired", expires
    office.add(
        GigRoleInvitation,
        when=sent,
        updated_at=timestamp(changed or responded or sent),
        gig_role=gig_role,
        staff_member=member,
        message=office.rng.choice(INVITATION_MESSAGES),
        expires_at=timestamp(expires),
        status=status,
        responded_at=timestamp(responded) if responded else None,
    )
