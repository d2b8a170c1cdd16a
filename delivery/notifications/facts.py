"""What a notification tells, read from the database in the transaction under way: a gig with its venue and
status, a gig role's role and product, a member's pay for it, who holds the roles of a gig."""

import functools
from typing import NamedTuple

from domain import office
from domain.pay_policy import offered_pay
from models import Gig, GigProduct, GigRole, GigStatus, Product, Role, StaffMember, Venue


class GigView(NamedTuple):
    gig: Gig
    venue: Venue | None
    status: GigStatus | None

    @property
    def cancelled(self):
        return self.status is not None and self.status.kind == "cancelled"

    def zone(self, settings=None):
        """The time zone its people read times in: the venue's, else the office's (`settings`, when read already)."""
        return (self.venue.timezone if self.venue else None) or (settings or office.current()).time_zone


class Part(NamedTuple):
    """A gig role as its holder or invitee reads it."""

    gig_role: GigRole
    role: str
    product: str | None


class Holder(NamedTuple):
    member: StaffMember
    parts: list


def gig_view(gig_id):
    gig = Gig.get_by_id(gig_id)
    venue = Venue.get_or_none(Venue.id == gig.venue_id) if gig.venue_id else None
    status = GigStatus.get_or_none(GigStatus.id == gig.gig_status_id) if gig.gig_status_id else None
    return GigView(gig, venue, status)


def status_of(status_id):
    return GigStatus.get_or_none(GigStatus.id == status_id) if status_id else None


def part(gig_role):
    role = Role.get_by_id(gig_role.role_id).name
    product = None
    if gig_role.gig_product_id:
        product = Product.select(Product.name).join(GigProduct).where(GigProduct.id == gig_role.gig_product_id)
        product = product.scalar()
    return Part(gig_role, role, product)


def holders(gig_id, except_gig_role=None):
    """{member id: Holder} of the members holding a role on the gig (but `except_gig_role`), their parts in
    the order the roles were made."""
    query = GigRole.select(GigRole, Role.name.alias("role_name")).join(Role)
    query = query.where(GigRole.gig == gig_id, GigRole.staff_member.is_null(False))
    if except_gig_role:
        query = query.where(GigRole.id != except_gig_role)
    roles = list(query.order_by(GigRole.created_at, GigRole.id).objects())
    members = StaffMember.select().where(StaffMember.id.in_({role.staff_member_id for role in roles}))
    members = {member.id: member for member in members}
    found = {}
    for role in roles:
        holder = found.setdefault(role.staff_member_id, Holder(members[role.staff_member_id], []))
        holder.parts.append(Part(role, role.role_name, None))
    return found


class Invited(NamedTuple):
    """An invitation with what its message says."""

    invitation: object
    member: StaffMember
    gig: GigView
    part: Part
    pay_cents: int | None


def invited(invitation):
    gig_role = GigRole.get_by_id(invitation.gig_role_id)
    member = StaffMember.get_by_id(invitation.staff_member_id)
    return Invited(invitation, member, gig_view(gig_role.gig_id), part(gig_role), offered_pay(gig_role, member.id))


def called(model, record_id):
    """What a record of `model` (a venue, a gig status) is called, by its id (None: none; gone since: said so)."""
    if record_id is None:
        return None
    found = model.get_or_none(model.id == record_id)
    return found.name if found else "(no longer on record)"


NAMES = {"venue_id": functools.partial(called, Venue), "gig_status_id": functools.partial(called, GigStatus)}
