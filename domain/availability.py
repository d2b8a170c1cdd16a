"""Who can be put on a gig role (SPEC §5.2): holding the role, being free (no blockout, no other live gig at
that time), the roles a gig's ensembles call for, and a gig role's candidates. No Flask."""

from peewee import JOIN

from dialects import dialect
from domain.errors import Clash, invalid
from domain.payroll import RateBook
from domain.rules import neighbour_dates, overlap, require_live, window, window_of
from models import (
    INVITATION_STATUS,
    LIVE,
    EnsembleRole,
    Gig,
    GigProduct,
    GigRole,
    GigRoleInvitation,
    GigStatus,
    Role,
    StaffMember,
    StaffMemberBlockout,
    StaffMemberRole,
    now,
)


def holds_role(staff_member_id, role_id):
    """422 on staff_member_id unless the (active) staff member holds the role."""
    member = StaffMember.get_by_id(staff_member_id)
    if not member.active:
        raise invalid({"staff_member_id": ["This staff member is not active."]})
    if (
        not StaffMemberRole.select()
        .where(StaffMemberRole.staff_member == staff_member_id, StaffMemberRole.role == role_id)
        .exists()
    ):
        raise invalid({"staff_member_id": ["This staff member does not hold the role."]})


def blockout_on(staff_member_id, gig_date):
    query = StaffMemberBlockout.select().where(
        StaffMemberBlockout.staff_member == staff_member_id,
        StaffMemberBlockout.start_date <= gig_date,
        StaffMemberBlockout.end_date >= gig_date,
    )
    return query.first()


def clashing_role(staff_member_id, gig):
    """A role of the staff member on another live gig whose time overlaps this gig's, or None."""
    mine = window(gig)
    return next((role for role in other_live_roles([staff_member_id], gig) if overlap(mine, window(role.gig))), None)


def require_available(staff_member_id, gig):
    """409 conflict when a blockout covers the gig's date or the member is on another live gig then."""
    blockout = blockout_on(staff_member_id, gig.gig_date)
    if blockout is not None:
        message = "The staff member is blocked out on the gig's date."
        raise Clash("staff_member_blocked_out", message, "blockout", blockout)
    clash = clashing_role(staff_member_id, gig)
    if clash is not None:
        raise Clash("double_booked", "The staff member is on another gig at that time.", "gig_role", clash)


def require_free_of_roles(staff_member_id, first_date, last_date):
    """409 conflict when the member holds a role on a live gig dated in the range (inclusive): a musician who
    cannot play a gig they are on must tell the office, which takes them off it."""
    held = (
        GigRole.select(GigRole)
        .join(Gig)
        .join(GigStatus, JOIN.LEFT_OUTER)
        .where(GigRole.staff_member == staff_member_id, Gig.gig_date.between(first_date, last_date), LIVE)
        .order_by(Gig.gig_date, GigRole.id)
        .first()
    )
    if held is not None:
        message = "You play a gig on one of those days: ask the office to take you off it first."
        raise Clash("staff_member_booked", message, "gig_role", held)


def put_on_role(gig_role, gig, allow_conflicts=False):
    """The checks for a staff member put on a gig role: the role always, availability unless overridden."""
    holds_role(gig_role.staff_member_id, gig_role.role_id)
    if not allow_conflicts:
        require_available(gig_role.staff_member_id, gig)


def generate_roles(gig):
    """The gig roles the ensembles of the gig's products call for that are not there yet (§5.2)."""
    require_live(gig)
    products = GigProduct.select().where(GigProduct.gig == gig.id, GigProduct.ensemble.is_null(False))
    existing = {}
    for role in GigRole.select().where(GigRole.gig == gig.id, GigRole.gig_product.is_null(False)):
        key = (role.gig_product_id, role.role_id)
        existing[key] = existing.get(key, 0) + 1
    created = []
    for product in products.order_by(GigProduct.position, GigProduct.created_at, GigProduct.id):
        for needed in ensemble_roles(product.ensemble_id):
            missing = needed.quantity - existing.get((product.id, needed.role_id), 0)
            for _ in range(max(missing, 0)):
                stamp = now()
                created.append(
                    GigRole.create(
                        gig=gig.id,
                        role=needed.role_id,
                        gig_product=product.id,
                        status="open",
                        created_at=stamp,
                        updated_at=stamp,
                    )
                )
    return created


def ensemble_roles(ensemble_id):
    return (
        EnsembleRole.select(EnsembleRole, Role)
        .join(Role)
        .where(EnsembleRole.ensemble == ensemble_id)
        .order_by(Role.position, Role.name)
    )


def candidates(gig_role):
    """Every active staff member who holds the gig role's role, with whether they are free for it, why not,
    and the pay they would get: available first, then primary holders, then by last and first name.

    An agency has hundreds of holders and as many roles on neighbouring dates: the holders are a subquery
    (not a list of ids to bind again in each query), and rows come packed (one step of each statement) as
    plain values rather than model objects."""
    gig = Gig.get_by_id(gig_role.gig_id)
    holding = (
        StaffMemberRole.select(StaffMemberRole.staff_member)
        .join(StaffMember)
        .where(StaffMemberRole.role == gig_role.role_id, StaffMember.active == True)  # noqa: E712
    )
    member = (StaffMember.id, StaffMember.first_name, StaffMember.last_name)
    holders = dialect.packed_rows(holding.select(*member, StaffMemberRole.is_primary))
    reasons = {member_id: [] for member_id, *_ in holders}
    blocked = StaffMemberBlockout.select(StaffMemberBlockout.staff_member).where(
        StaffMemberBlockout.staff_member.in_(holding),
        StaffMemberBlockout.start_date <= gig.gig_date,
        StaffMemberBlockout.end_date >= gig.gig_date,
    )
    for (member_id,) in dialect.packed_rows(blocked):
        add_reason(reasons, member_id, "blocked_out")
    busy_with = other_gigs_at_that_time(holding, gig)
    for member_id in busy_with:
        add_reason(reasons, member_id, "double_booked")
    invited = GigRoleInvitation.select(GigRoleInvitation.staff_member, INVITATION_STATUS)
    for member_id, state in invited.where(GigRoleInvitation.gig_role == gig_role.id).tuples():
        if state in ("pending", "declined"):
            add_reason(reasons, member_id, "invited" if state == "pending" else "declined")
    product_id = GigProduct.get_by_id(gig_role.gig_product_id).product_id if gig_role.gig_product_id else None
    book = RateBook({gig_role.role_id}, {product_id}, holding)
    items = [
        {
            "staff_member_id": member_id,
            "first_name": first_name,
            "last_name": last_name,
            "is_primary": bool(is_primary),
            "available": not reasons[member_id],
            "reasons": reasons[member_id],
            "amount_cents": book.pay(gig_role.role_id, product_id, member_id, gig_role.pay_cents)[0],
            "busy_with": busy_with.get(member_id),
        }
        for member_id, first_name, last_name, is_primary in holders
    ]
    return sorted(
        items,
        key=lambda c: (not c["available"], not c["is_primary"], c["last_name"], c["first_name"], c["staff_member_id"]),
    )


def other_gigs_at_that_time(holding, gig):
    """{staff member id: the first other live gig they play at the gig's time, {gig_id, title, gig_date,
    start_time, end_time}} of the members in `holding`."""
    mine = window(gig)
    columns = (GigRole.staff_member, Gig.id, Gig.title, Gig.gig_date, Gig.start_time, Gig.end_time)
    others = other_live_roles(holding, gig).select(*columns).order_by(Gig.gig_date, Gig.start_time, Gig.id)
    busy = {}
    for member_id, gig_id, title, *times in dialect.packed_rows(others):
        if member_id not in busy and overlap(mine, window_of(*times)):
            busy[member_id] = dict(
                zip(("gig_id", "title", "gig_date", "start_time", "end_time"), (gig_id, title, *times))
            )
    return busy


def add_reason(reasons, member_id, reason):
    if reason not in reasons[member_id]:
        reasons[member_id].append(reason)


def other_live_roles(staff_member_ids, gig):
    return (
        GigRole.select(GigRole, Gig)
        .join(Gig)
        .join(GigStatus, JOIN.LEFT_OUTER)
        .where(
            GigRole.staff_member.in_(staff_member_ids),
            Gig.id != gig.id,
            Gig.gig_date.in_(neighbour_dates(gig.gig_date)),
            LIVE,
        )
    )
