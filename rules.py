"""Domain rules that span records (SPEC §4, §5): plain functions on models that raise a domain error.
They know nothing of Flask; resources and operations call them inside the request's transaction."""

import datetime as dt

from peewee import JOIN

from errors import ApiError, conflict, invalid
from models import (
    LIVE,
    EnsembleRole,
    Equipment,
    Gig,
    GigEquipment,
    GigProduct,
    GigRole,
    GigRoleInvitation,
    GigStatus,
    Price,
    ProductEnsemble,
    ProductEquipment,
    Role,
    StaffMember,
    StaffMemberBlockout,
    StaffMemberRole,
    as_dict,
    now,
)
from payroll import RateBook
from sqlite_dialect import packed_rows

# --- the shape of records ------------------------------------------------------------------------------


def same_gig(model, record_id, gig_id, field):
    """422 on `field` unless the `model` row `record_id` (when given) belongs to the gig `gig_id`."""
    if record_id is None:
        return
    row = model.get_or_none(model.id == record_id)
    if row is not None and row.gig_id != gig_id:
        raise invalid({field: ["Belongs to another gig."]})


def ensemble_offered(product_id, ensemble_id):
    """422 unless the ensemble is one of the product's product-ensembles (when it has any)."""
    if ensemble_id is None:
        return
    offered = {pe.ensemble_id for pe in ProductEnsemble.select().where(ProductEnsemble.product == product_id)}
    if offered and ensemble_id not in offered:
        raise invalid({"ensemble_id": ["This ensemble is not offered for the product."]})


def not_before(record, start, end):
    """422 on `end` when it comes before `start` (both optional)."""
    first, last = getattr(record, start), getattr(record, end)
    if first is not None and last is not None and last < first:
        raise invalid({end: [f"Must not be before {start}."]})


# --- §5.1 prices ---------------------------------------------------------------------------------------


def catalog_price(product_id, ensemble_id, gig_date):
    """The price of a product on a gig's date, or None.

    Among the product's prices whose validity range holds the date (open ends allowed), one for the gig
    product's ensemble beats one for any ensemble, then the newest `valid_from` wins.
    """
    ensemble = Price.ensemble.is_null() | (Price.ensemble == ensemble_id) if ensemble_id else Price.ensemble.is_null()
    price = (
        Price.select(Price.amount_cents)
        .where(
            Price.product == product_id,
            ensemble,
            Price.valid_from.is_null() | (Price.valid_from <= gig_date),
            Price.valid_to.is_null() | (Price.valid_to >= gig_date),
        )
        .order_by(Price.ensemble.is_null(), Price.valid_from.desc(), Price.created_at.desc())
        .first()
    )
    return price.amount_cents if price else None


# --- gigs: live or not, and when they happen -----------------------------------------------------------


def live_gigs():
    """Gigs whose status is neither completed nor cancelled (a gig without a status is live); join GigStatus."""
    return Gig.select(Gig).join(GigStatus, JOIN.LEFT_OUTER).where(LIVE)


def is_live(gig):
    return live_gigs().where(Gig.id == gig.id).exists()


def require_live(gig):
    if not is_live(gig):
        raise conflict(
            "gig_closed", "The gig is completed or cancelled: it takes no new roles or invitations.", gig_id=gig.id
        )


def window(gig):
    """The gig's time as [start, end) datetimes: its whole date when it has no times, past midnight when
    it ends before it starts."""
    return window_of(gig.gig_date, gig.start_time, gig.end_time)


def window_of(gig_date, start_time, end_time):
    day = dt.date.fromisoformat(gig_date)
    start = dt.datetime.combine(day, dt.time.fromisoformat(start_time or "00:00"))
    if end_time is None:
        end = dt.datetime.combine(day + dt.timedelta(days=1), dt.time())
    else:
        end = dt.datetime.combine(day, dt.time.fromisoformat(end_time))
        if end <= start:
            end += dt.timedelta(days=1)
    return start, end


def overlap(first, second):
    return first[0] < second[1] and second[0] < first[1]


def neighbour_dates(gig_date):
    """The gig's date and the days either side: a gig past midnight can meet one on the next date."""
    day = dt.date.fromisoformat(gig_date)
    return [(day + dt.timedelta(days=d)).isoformat() for d in (-1, 0, 1)]


# --- §5.2 staff on gig roles ---------------------------------------------------------------------------


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
        raise conflict(
            "staff_member_blocked_out", "The staff member is blocked out on the gig's date.", blockout=as_dict(blockout)
        )
    clash = clashing_role(staff_member_id, gig)
    if clash is not None:
        raise conflict("double_booked", "The staff member is on another gig at that time.", gig_role=as_dict(clash))


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


# --- §5.3 invitations ----------------------------------------------------------------------------------

# Comparable with stored timestamps: SQLite gives milliseconds, the three zeros pad them to microseconds.
SQL_NOW = "strftime('%Y-%m-%dT%H:%M:%f000Z', 'now')"


def invitation_state(invitation):
    """The status an invitation reads as: a pending one past its expiry is `expired`."""
    if invitation.status == "pending" and invitation.expires_at <= now():
        return "expired"
    return invitation.status


def require_pending(invitation):
    state = invitation_state(invitation)
    if state == "expired":
        raise conflict("invitation_expired", "The invitation has expired.")
    if state != "pending":
        raise conflict("invitation_not_pending", f"The invitation is {state}, no longer pending.")


def check_new_invitation(invitation, gig_role, gig):
    """§5.3: a member who holds the role, an open role on a live gig, the member free, no pending twin."""
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
    return GigRoleInvitation.select().where(
        GigRoleInvitation.gig_role == gig_role_id,
        GigRoleInvitation.status == "pending",
        GigRoleInvitation.expires_at > now(),
    )


def accept(invitation):
    """The invitee takes the gig role; the role's other pending invitations are withdrawn.

    Precedence (§5.3): an invitation its invitee already answered is not pending, even when the role is
    filled (by them, say); for a pending or withdrawn one, a role another took is reported first, so that of
    two invitees accepting at once the second learns that the role is taken."""
    if invitation.status in ("accepted", "declined"):
        require_pending(invitation)
    gig_role = GigRole.get_by_id(invitation.gig_role_id)
    if gig_role.staff_member_id is not None:
        raise conflict("gig_role_filled", "Someone else has taken this gig role.")
    require_pending(invitation)
    gig = Gig.get_by_id(gig_role.gig_id)
    require_live(gig)
    gig_role.staff_member_id = invitation.staff_member_id
    put_on_role(gig_role, gig)
    stamp = now()
    gig_role.status, gig_role.updated_at = "filled", stamp
    gig_role.save()
    respond(invitation, "accepted", stamp)
    withdraw_pending(GigRoleInvitation.gig_role == gig_role.id, stamp)
    return invitation


def respond(invitation, status, stamp=None):
    require_pending(invitation)
    stamp = stamp or now()
    invitation.status, invitation.responded_at, invitation.updated_at = status, stamp, stamp
    invitation.save()
    return invitation


def withdraw_pending(condition, stamp=None):
    """Withdraw the pending invitations matching `condition`."""
    stamp = stamp or now()
    query = GigRoleInvitation.update(status="withdrawn", updated_at=stamp)
    query.where(condition, GigRoleInvitation.status == "pending").execute()


def withdraw_for_gigs(gig_ids):
    """Closing gigs withdraws the pending invitations to their roles."""
    roles = GigRole.select(GigRole.id).where(GigRole.gig.in_(gig_ids))
    withdraw_pending(GigRoleInvitation.gig_role.in_(roles))


# --- §5.4 equipment on gigs ----------------------------------------------------------------------------


def equipment_free(equipment, gig, exclude=None):
    """409 when the equipment is in repair or retired, or on another live gig that date."""
    if equipment.status != "available":
        raise conflict(
            "equipment_unavailable",
            f"The equipment is {equipment.status.replace('_', ' ')}.",
            equipment_id=equipment.id,
        )
    booked = booked_elsewhere(gig).where(GigEquipment.equipment == equipment.id)
    if exclude is not None:
        booked = booked.where(GigEquipment.id != exclude)
    clash = booked.first()
    if clash is not None:
        raise conflict("double_booked", "The equipment is on another gig that date.", gig_equipment=as_dict(clash))


def booked_elsewhere(gig):
    """Gig equipment on the other live gigs of the gig's date."""
    return (
        GigEquipment.select(GigEquipment)
        .join(Gig)
        .join(GigStatus, JOIN.LEFT_OUTER)
        .where(Gig.gig_date == gig.gig_date, Gig.id != gig.id, LIVE)
    )


def generate_equipment(gig):
    """Assign free equipment for what the gig's products need (§5.4); returns (assigned, shortages)."""
    needs = {}
    per_product = (
        ProductEquipment.select(ProductEquipment.equipment_type, ProductEquipment.quantity)
        .join(GigProduct, on=GigProduct.product == ProductEquipment.product)
        .where(GigProduct.gig == gig.id)
    )
    for need in per_product:  # one row per gig product: a product sold twice needs its kit twice
        needs[need.equipment_type_id] = needs.get(need.equipment_type_id, 0) + need.quantity
    on_gig = list(Equipment.select().join(GigEquipment).where(GigEquipment.gig == gig.id))
    busy = {ge.equipment_id for ge in booked_elsewhere(gig)} | {e.id for e in on_gig}
    assigned, shortages = [], []
    for type_id, quantity in sorted(needs.items()):
        missing = quantity - sum(1 for e in on_gig if e.equipment_type_id == type_id)
        free = (
            Equipment.select()
            .where(Equipment.equipment_type == type_id, Equipment.status == "available")
            .order_by(Equipment.name, Equipment.id)
        )
        for equipment in (e for e in free if e.id not in busy):
            if missing <= 0:
                break
            stamp = now()
            assigned.append(GigEquipment.create(gig=gig.id, equipment=equipment.id, created_at=stamp, updated_at=stamp))
            missing -= 1
        if missing > 0:
            shortages.append({"equipment_type_id": type_id, "missing": missing})
    return assigned, shortages


# --- §5.2 candidates for a gig role --------------------------------------------------------------------


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
    holders = packed_rows(holding.select(*member, StaffMemberRole.is_primary))
    reasons = {member_id: [] for member_id, *_ in holders}
    blocked = StaffMemberBlockout.select(StaffMemberBlockout.staff_member).where(
        StaffMemberBlockout.staff_member.in_(holding),
        StaffMemberBlockout.start_date <= gig.gig_date,
        StaffMemberBlockout.end_date >= gig.gig_date,
    )
    for (member_id,) in packed_rows(blocked):
        add_reason(reasons, member_id, "blocked_out")
    mine = window(gig)
    others = other_live_roles(holding, gig).select(GigRole.staff_member, Gig.gig_date, Gig.start_time, Gig.end_time)
    for member_id, *times in packed_rows(others):
        if "double_booked" not in reasons[member_id] and overlap(mine, window_of(*times)):
            add_reason(reasons, member_id, "double_booked")
    for invitation in GigRoleInvitation.select().where(GigRoleInvitation.gig_role == gig_role.id):
        state = invitation_state(invitation)
        if state in ("pending", "declined"):
            add_reason(reasons, invitation.staff_member_id, "invited" if state == "pending" else "declined")
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
        }
        for member_id, first_name, last_name, is_primary in holders
    ]
    return sorted(
        items,
        key=lambda c: (not c["available"], not c["is_primary"], c["last_name"], c["first_name"], c["staff_member_id"]),
    )


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
