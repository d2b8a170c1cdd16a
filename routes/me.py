"""A musician's own work under /me (SPEC §10): their staff member record, their gigs, invitations and pay sheet,
their blockouts and their calendar feed. A user reaches these as the staff member linked to them
(`staff_members.user_id`), whatever their access roles; a user no staff member is linked to gets 404. They answer
their invitations with the operations of §5.3, which let the invitee's own user in."""

import datetime as dt

from flask import Blueprint, current_app, g, request

import listing
from domain import availability, own_work, payroll
from domain.errors import not_found
from formats.operation_schemas import (
    CalendarUrlSchema,
    OwnBlockoutSchema,
    OwnGigSchema,
    OwnInvitationSchema,
    OwnPayLineSchema,
)
from models import StaffMember, StaffMemberBlockout, db
from openapi import operation
from resources import reject_parameters
from routes import staffing
from routes.pay import PERIOD, period_of, sheet_answer
from routes.people import STAFF_MEMBERS, rotate_staff_feed, staff_feed_url
from routes.staffing import Blockouts
from schemas import StaffMemberBlockoutSchema, StaffMemberSchema, load
from web.lifecycle import json_body, json_text_response

blueprint = Blueprint("me", __name__)


class OwnBlockouts(Blockouts):
    """The staff-member-blockouts collection as a musician keeps their own: the days they block out may not hold a
    gig they play (the office's blockouts may: it knows what it does)."""

    def before_save(self, write):
        super().before_save(write)
        blockout = write.record
        if write.creating or {"start_date", "end_date"} & write.changes.keys():
            availability.require_free_of_roles(blockout.staff_member_id, blockout.start_date, blockout.end_date)


BLOCKOUTS = OwnBlockouts(StaffMemberBlockout, StaffMemberBlockoutSchema, "staffing", order=staffing.BLOCKOUTS.order)


def own_member():
    """The staff member linked to the caller's user, or 404."""
    member = StaffMember.get_or_none(StaffMember.user == g.caller.user_id)
    if member is None:
        raise not_found("No staff member is linked to your user: the office links you (staff_members.user_id).")
    return member


@blueprint.get("/me/staff-member")
@operation(response=StaffMemberSchema, fields=STAFF_MEMBERS.columns, errors=(400, 404))
def own_staff_member():
    """Your own staff member record."""
    columns = listing.parse_fields_only(request.args, STAFF_MEMBERS.readable_columns())
    return STAFF_MEMBERS.record_answer(own_member().id, columns)


def remembered_page(page, read_page, *depends_on):
    """The answer of `read_page(member)` -> (items, total) for the caller's own staff member, remembered for the
    caller, the parameters and what else it `depends_on` until the database changes (a link to another member
    included) or one of their pending invitations expires: a phone asks for the same page again and again
    (BAND_PAGE_MEMORY_KB of them are kept)."""

    def work_out():
        with db.atomic():  # one snapshot for the page, its parts and its total
            member = own_member()
            items, total = read_page(member)
            until = own_work.first_pending_expiry(member.id)
        return listing.page_text(current_app.json.dumps(items, separators=(",", ":")), total, page), until

    key = (request.endpoint, g.caller.user_id, *depends_on, tuple(request.args.items(multi=True)))
    return json_text_response(current_app.extensions["own_pages"].get(key, work_out))


@blueprint.get("/me/gigs")
@operation(response=OwnGigSchema, listing=own_work.GIG_COLUMNS, errors=(400, 404))
def own_gigs():
    """Your gigs, where you hold a role or have a pending invitation, by date: from today on (the server's date)
    unless you filter on gig_date or id. Each with its venue, times, your roles and pay, the lineup, moments and
    songs."""
    page = listing.parse(request.args, own_work.GIG_COLUMNS, own_work.GIG_ORDER)
    chosen = any(key.startswith(("filter[gig_date]", "filter[id]")) for key in request.args)
    since = None if chosen else dt.date.today().isoformat()
    return remembered_page(page, lambda member: own_work.gigs_page(member.id, page, since), since)


@blueprint.get("/me/invitations")
@operation(response=OwnInvitationSchema, listing=own_work.INVITATION_COLUMNS, errors=(400, 404))
def own_invitations():
    """Your invitations, pending first, then the newest: each with its gig, the role and your pay. Answer one
    with the accept or decline operation of invitations."""
    page = listing.parse(request.args, own_work.INVITATION_COLUMNS, own_work.PENDING_FIRST)
    return remembered_page(page, lambda member: own_work.invitations_page(member.id, page))


@blueprint.get("/me/pay-sheet")
@operation(response=OwnPayLineSchema, listing="paged", errors=(400, 404), params=PERIOD)
def own_pay_sheet():
    """Your pay for the roles you filled on gigs not cancelled from `from` to `to` (inclusive), one line each by
    date; meta.total_cents sums them."""
    page, first, last = period_of(request.args)
    return sheet_answer(payroll.member_pay_sheet(own_member().id, first, last), page)


# --- their blockouts ----------------------------------------------------------------------------------------


def own_blockout(id):
    """One of the caller's own blockouts, or 404 (another member's is not found either)."""
    mine = StaffMemberBlockout.staff_member == own_member().id
    found = StaffMemberBlockout.get_or_none(StaffMemberBlockout.id == id, mine) if listing.is_id(id) else None
    if found is None:
        raise not_found("No blockout of yours has this id.")
    return found


@blueprint.get("/me/blockouts")
@operation(response=StaffMemberBlockoutSchema, listing=BLOCKOUTS, errors=(400, 404))
def list_own_blockouts():
    """The days you cannot play, by date."""
    page = BLOCKOUTS.parse_list(request.args)
    return BLOCKOUTS.list_page(page, [StaffMemberBlockout.staff_member == own_member().id])


@blueprint.post("/me/blockouts")
@operation(
    body=OwnBlockoutSchema,
    response=StaffMemberBlockoutSchema,
    status=201,
    errors=(400, 404, 409, 413, 415, 422),
)
def create_own_blockout():
    """Block out days you cannot play (inclusive): the office cannot put you on a gig then."""
    reject_parameters(request.args)
    body = json_body()
    member = own_member()
    values = load(OwnBlockoutSchema(), body)  # every field's error at once, staff_member_id (theirs) among them
    record = BLOCKOUTS.create({**values, "staff_member_id": member.id})
    return BLOCKOUTS.created_answer(record, f"/v1/me/blockouts/{record.id}")


@blueprint.get("/me/blockouts/<id>")
@operation(response=StaffMemberBlockoutSchema, fields=BLOCKOUTS.columns, errors=(400, 404))
def read_own_blockout(id):
    """One of your blockouts."""
    columns = listing.parse_fields_only(request.args, BLOCKOUTS.readable_columns())
    return BLOCKOUTS.record_answer(own_blockout(id).id, columns)


@blueprint.patch("/me/blockouts/<id>")
@operation(
    body=OwnBlockoutSchema,
    partial=True,
    response=StaffMemberBlockoutSchema,
    errors=(400, 404, 409, 413, 415, 422),
)
def change_own_blockout(id):
    """Change the days or the reason of one of your blockouts."""
    reject_parameters(request.args)
    body = json_body()
    record = BLOCKOUTS.update(own_blockout(id), body)
    return {"data": BLOCKOUTS.read(record.id)}


@blueprint.delete("/me/blockouts/<id>")
@operation(status=204, errors=(400, 404))
def delete_own_blockout(id):
    """Delete one of your blockouts."""
    reject_parameters(request.args)
    BLOCKOUTS.delete(own_blockout(id))
    return "", 204


# --- their calendar feed ------------------------------------------------------------------------------------


@blueprint.get("/me/calendar-url")
@operation(response=CalendarUrlSchema, errors=(400, 404))
def own_calendar_url():
    """The address of your calendar feed, for your phone's calendar (it needs no token: keep it to yourself); a
    member no longer active has none."""
    reject_parameters(request.args)
    member = own_member()
    if not member.active:
        raise not_found("You are no longer an active member of the band: you have no calendar feed.")
    return staff_feed_url(member)


@blueprint.post("/me/calendar-url/rotate")
@operation(response=CalendarUrlSchema, errors=(400, 404))
def rotate_own_calendar_url():
    """Give your calendar feed a new address; the old one answers 404 from now on."""
    reject_parameters(request.args)
    return rotate_staff_feed(own_member())
