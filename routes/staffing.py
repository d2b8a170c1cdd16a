"""The staffing group: who plays which role on a gig, the invitations to do so, and who can play what when.
Operations: generate a gig's roles, a gig role's candidates, and answering invitations (§5.2, §5.3)."""

from flask import Blueprint, current_app, g, request

import listing
from domain import availability, invitations, office, pay_policy, rules
from formats.operation_schemas import CandidateSchema
from models import (
    Gig,
    GigProduct,
    GigRole,
    GigRoleInvitation,
    StaffMemberBlockout,
    StaffMemberRole,
)
from openapi import operation
from resources import Flag, Resource, reject_parameters
from routes.gigs import GIGS
from schemas import GigRoleInvitationSchema, GigRoleSchema, StaffMemberBlockoutSchema, StaffMemberRoleSchema
from web.lifecycle import page_of

blueprint = Blueprint("staffing", __name__)


class GigRoles(Resource):
    write_flags = (
        Flag(
            "allow_conflicts", "put a staff member on the role despite a blockout or another gig (never the role check)"
        ),
    )

    def before_save(self, write):
        role = write.record
        gig = Gig.get_by_id(role.gig_id)
        rules.same_gig(GigProduct, role.gig_product_id, role.gig_id, "gig_product_id")
        if write.creating:
            rules.require_live(gig)
        if role.staff_member_id is not None and {"staff_member_id", "role_id"} & write.changes.keys():
            availability.put_on_role(role, gig, allow_conflicts=write.options.get("allow_conflicts", False))
        role.status = "filled" if role.staff_member_id else "open"

    def after_save(self, write):
        if write.record.staff_member_id is not None and "staff_member_id" in write.changes:
            withdrawn = invitations.withdraw_pending(GigRoleInvitation.gig_role == write.record.id)
            INVITATIONS.record_events("withdrawn", withdrawn)


class Invitations(Resource):
    def gig_of(self, record):
        return GigRole.get_by_id(record.gig_role_id).gig_id

    def gigs_of(self, record_ids):
        of_role = GigRoleInvitation.select(GigRoleInvitation.id, GigRole.gig).join(GigRole)
        return dict(of_role.where(GigRoleInvitation.id.in_(list(record_ids))).tuples())

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.columns["status"] = invitations.STATUS_COLUMN

    def before_save(self, write):
        invitation = write.record
        if write.creating or "expires_at" in write.changes:
            invitations.expiry_for(invitation, current_app.config["INVITATION_HOURS"])
        if write.creating:
            gig_role = GigRole.get_by_id(invitation.gig_role_id)
            invitations.check_new_invitation(invitation, gig_role, Gig.get_by_id(gig_role.gig_id))
        else:
            invitations.require_pending(invitation)


class Blockouts(Resource):
    def before_save(self, write):
        rules.not_before(write.record, "start_date", "end_date")


GIG_ROLES = GigRoles(GigRole, GigRoleSchema, "staffing")
INVITATIONS = Invitations(GigRoleInvitation, GigRoleInvitationSchema, "staffing", order=["created_at"])
BLOCKOUTS = Blockouts(StaffMemberBlockout, StaffMemberBlockoutSchema, "staffing", order=["start_date", "end_date"])
RESOURCES = [GIG_ROLES, INVITATIONS, Resource(StaffMemberRole, StaffMemberRoleSchema, "staffing"), BLOCKOUTS]


@blueprint.post("/gigs/<id>/generate-roles")
@operation(
    capability="staffing.edit",
    response=GigRoleSchema,
    many=True,
    errors=(400, 404, 409),
)
def generate_roles(id):
    """Create the gig roles the ensembles of the gig's products call for; a second call creates none."""
    reject_parameters(request.args)
    gig = GIGS.get(id)
    created = availability.generate_roles(gig)
    GIGS.record_event("roles_generated", gig)
    return {"data": GIG_ROLES.read_many([role.id for role in created])}


@blueprint.get("/gig-roles/<id>/candidates")
@operation(
    capability="staffing.view",
    response=CandidateSchema,
    listing="paged",
    errors=(400, 404),
)
def candidates(id):
    """The staff members who hold the gig role's role: free or not (and why), primary or not, their pay (in
    meta.currency)."""
    page = listing.parse_paging(request.args)
    found = availability.candidates(GIG_ROLES.get(id))
    body = page_of(gigs_shown(pay_policy.candidates_shown(found, g.caller.can), g.caller.can), page)
    body["meta"]["currency"] = office.current().currency
    return body


def gigs_shown(candidates, can):
    """The candidates as a caller reads the other gigs they play: not at all without gigs.view."""
    if "gigs.view" in can:
        return candidates
    return [{**candidate, "busy_with": None} for candidate in candidates]


def invitation_for_invitee(id):
    """The invitation, when the caller may answer it: with staffing.edit, or as the invited member's user."""
    return INVITATIONS.get_own_or(id, "edit", lambda invitation: invitation.staff_member_id)


def answer_invitation(invitation, answer, actor=None):
    """The invitee's answer, `accept` or `decline`, with its events: an accept fills the gig role and withdraws
    its other pending invitations. `actor`: who answered, when not the caller (events.record). Returns the
    invitation."""
    if answer == "accept":
        invitation, withdrawn = invitations.accept(invitation)
        INVITATIONS.record_event("accepted", invitation, actor=actor)
        INVITATIONS.record_events("withdrawn", withdrawn, actor=actor)
    else:
        invitation = invitations.answer(invitation, "declined")
        INVITATIONS.record_event("declined", invitation, actor=actor)
    return invitation


@blueprint.post("/gig-role-invitations/<id>/accept")
@operation(
    response=GigRoleInvitationSchema,
    errors=(400, 404, 409, 422),
)
def accept_invitation(id):
    """Accept (staffing.edit, or the invitee's own user): the invitee fills the gig role, and its other pending
    invitations are withdrawn."""
    reject_parameters(request.args)
    invitation = answer_invitation(invitation_for_invitee(id), "accept")
    return {"data": INVITATIONS.read(invitation.id)}


@blueprint.post("/gig-role-invitations/<id>/decline")
@operation(
    response=GigRoleInvitationSchema,
    errors=(400, 404, 409),
)
def decline_invitation(id):
    """Decline a pending invitation (staffing.edit, or the invitee's own user)."""
    reject_parameters(request.args)
    invitation = answer_invitation(invitation_for_invitee(id), "decline")
    return {"data": INVITATIONS.read(invitation.id)}


@blueprint.post("/gig-role-invitations/<id>/withdraw")
@operation(capability="staffing.edit", response=GigRoleInvitationSchema, errors=(400, 404, 409))
def withdraw_invitation(id):
    """Withdraw a pending invitation."""
    reject_parameters(request.args)
    invitation = invitations.answer(INVITATIONS.get(id), "withdrawn")
    INVITATIONS.record_event("withdrawn", invitation)
    return {"data": INVITATIONS.read(invitation.id)}
