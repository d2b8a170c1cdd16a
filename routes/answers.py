"""Answering an invitation from its message (SPEC §9): the scanner-safe /answer page, and the two public endpoints
it calls, whose credential is the answer link's signed token (`signing.answer_link`): what the invitation is
about, and the answer itself, through the same domain code and events as the invitee's own accept and decline."""

import contextlib
import secrets

from flask import Blueprint, current_app, render_template
from marshmallow import fields

import conventions
import events
import invitations
import signing
from auth import public
from conventions import json_body
from errors import ApiError
from field_types import Date, Enum, Time, Timestamp
from models import Gig, GigProduct, GigRole, GigRoleInvitation, Product, Role, StaffMember, User, Venue, now
from openapi import operation
from payroll import RateBook
from rate_limit import limit_rate
from routes.staffing import INVITATIONS
from schemas import BaseSchema, GigRoleInvitationSchema, load

blueprint = Blueprint("answers", __name__)
pages = Blueprint("answer_pages", __name__)

TOKEN = fields.String(
    required=True,
    metadata={
        "description": "the answer link's token (after `#token=`); past the invitation's expires_at it is refused "
        "(401, details.reason invitation_expired, or link_expired when the invitation was answered or withdrawn)"
    },
)


class InvitationTokenSchema(BaseSchema):
    token = TOKEN


class InvitationAnswerSchema(BaseSchema):
    token = TOKEN
    answer = Enum(
        "accept",
        "decline",
        required=True,
        metadata={"description": "a 409 invitation_not_pending names the invitation's status in details.status"},
    )


class PlaceSchema(BaseSchema):
    name = fields.String(dump_only=True)
    address = fields.String(dump_only=True, allow_none=True, metadata={"description": "one line; null: none known"})
    timezone = fields.String(dump_only=True, allow_none=True)


class TimesSchema(BaseSchema):
    name = fields.String(dump_only=True)
    start_time = Time(dump_only=True)
    end_time = Time(dump_only=True)


class GigSummarySchema(TimesSchema):
    gig_date = Date(dump_only=True, allow_none=False)


class PaySchema(BaseSchema):
    amount_cents = fields.Integer(dump_only=True, allow_none=True, metadata={"description": "null: not agreed yet"})
    currency = fields.String(dump_only=True)


class InvitationPreviewSchema(BaseSchema):
    invitation_id = fields.UUID(dump_only=True)
    status = Enum("pending", "accepted", "declined", "withdrawn", "expired", dump_only=True, allow_none=False)
    role_taken = fields.Boolean(
        dump_only=True, metadata={"description": "someone else holds the gig role (the invitation was withdrawn)"}
    )
    expires_at = Timestamp(dump_only=True, allow_none=False)
    message = fields.String(dump_only=True, allow_none=True)
    first_name = fields.String(dump_only=True, metadata={"description": "the invited staff member's"})
    gig = fields.Nested(GigSummarySchema, dump_only=True, metadata={"description": "`name`: the gig's title"})
    venue = fields.Nested(PlaceSchema, dump_only=True, allow_none=True)
    role = fields.String(dump_only=True, metadata={"description": "the role's name"})
    product = fields.Nested(TimesSchema, dump_only=True, allow_none=True, metadata={"description": "what is played"})
    call_time = Time(dump_only=True)
    pay = fields.Nested(PaySchema, dump_only=True)


@blueprint.post("/invitations/preview")
@public
@operation(
    body=InvitationTokenSchema,
    response=InvitationPreviewSchema,
    errors=(400, 401, 413, 415, 422, 429),
)
def preview():
    """Read the gig an answer link's invitation is about, with the link's token instead of a bearer; answers
    nothing."""
    limit_rate()
    token = load(InvitationTokenSchema(), json_body(), blanks=False)["token"]
    return {"data": invitation_summary(invitation_of(token), current_app.config["CURRENCY"])}


@blueprint.post("/invitations/answer")
@public
@operation(
    body=InvitationAnswerSchema,
    response=GigRoleInvitationSchema,
    errors=(400, 401, 409, 413, 415, 422, 429),
)
def answer():
    """Accept or decline an invitation with its answer link's token instead of a bearer, as its invitee may."""
    limit_rate()
    values = load(InvitationAnswerSchema(), json_body(), blanks=False)
    invitation = invitation_of(values["token"])
    actor = invitee(invitation)
    with status_told(invitation):
        if values["answer"] == "accept":
            invitation, withdrawn = invitations.accept(invitation)
            INVITATIONS.record_event("accepted", invitation, actor=actor)
            INVITATIONS.record_events("withdrawn", withdrawn, actor=actor)
        else:
            invitation = invitations.answer(invitation, "declined")
            INVITATIONS.record_event("declined", invitation, actor=actor)
    return {"data": INVITATIONS.read(invitation.id, list(INVITATIONS.columns.values()))}


def invitation_of(token):
    """The invitation an answer token names while the link is good (until the invitation's expires_at), or 401."""
    found = signing.answered_invitation(current_app.config, token)
    invitation = GigRoleInvitation.get_or_none(GigRoleInvitation.id == found) if found else None
    if invitation is not None and invitation.expires_at > now():
        return invitation
    # This request may have made the service's secret key (signing.secret_key): kept, or links made with it
    # later by this process would stop working at its next start.
    conventions.keep_writes_despite_error()
    if invitation is None:
        raise ApiError(401, "unauthenticated", "This answer link is not valid. Ask the office for a new invitation.")
    if invitations.state(invitation) == "expired":
        message = f"This invitation expired at {invitation.expires_at}: it can no longer be answered."
        raise ApiError(401, "unauthenticated", message, {"reason": "invitation_expired"})
    message = f"This answer link expired with its invitation at {invitation.expires_at}."
    raise ApiError(401, "unauthenticated", message, {"reason": "link_expired"})


def invitee(invitation):
    """Who answers with the link, for the events: the invited staff member's user, if they have one."""
    user = User.select().join(StaffMember, on=StaffMember.user == User.id)
    user = user.where(StaffMember.id == invitation.staff_member_id).first()
    return events.Actor(user.id, user.name, "link") if user else None


@contextlib.contextmanager
def status_told(invitation):
    """A refusal because the invitation is no longer pending says what it is now (accepted, declined, withdrawn),
    so the page can say it in plain words."""
    try:
        yield
    except ApiError as e:
        if e.code == "conflict" and (e.details or {}).get("reason") == "invitation_not_pending":
            e.details = {**e.details, "status": invitations.state(invitation)}
        raise


def invitation_summary(invitation, currency):
    """What the invited member needs to answer: the gig (date, times, venue), the role, what is played, their pay,
    the office's message, and the invitation's state."""
    gig_role = GigRole.get_by_id(invitation.gig_role_id)
    gig = Gig.get_by_id(gig_role.gig_id)
    gig_product = GigProduct.get_or_none(GigProduct.id == gig_role.gig_product_id)
    product = Product.get_by_id(gig_product.product_id) if gig_product else None
    member = StaffMember.get_by_id(invitation.staff_member_id)
    book = RateBook([gig_role.role_id], [product.id] if product else [], [member.id])
    amount, _ = book.pay(gig_role.role_id, product and product.id, member.id, gig_role.pay_cents)
    return {
        "invitation_id": invitation.id,
        "status": invitations.state(invitation),
        "role_taken": gig_role.staff_member_id not in (None, member.id),
        "expires_at": invitation.expires_at,
        "message": invitation.message,
        "first_name": member.first_name,
        "gig": {"name": gig.title, "gig_date": gig.gig_date, "start_time": gig.start_time, "end_time": gig.end_time},
        "venue": place(Venue.get_or_none(Venue.id == gig.venue_id)),
        "role": Role.get_by_id(gig_role.role_id).name,
        "product": product and {"name": product.name, **times(gig_product)},
        "call_time": gig_role.call_time,
        "pay": {"amount_cents": amount, "currency": currency},
    }


def place(venue):
    if venue is None:
        return None
    town = " ".join(part for part in (venue.postal_code, venue.city) if part)
    parts = (venue.address_line1, venue.address_line2, town, venue.region, venue.country)
    address = ", ".join(part for part in parts if part)
    return {"name": venue.name, "address": address or None, "timezone": venue.timezone}


def times(record):
    return {"start_time": record.start_time, "end_time": record.end_time}


@pages.get("/answer")
@public
def answer_page():
    """The page an answer link opens: it shows the gig and two buttons; a GET answers nothing (mail scanners open
    links). Its script and style run under a nonce of this answer's Content-Security-Policy."""
    nonce = secrets.token_urlsafe(18)
    policy = (
        f"default-src 'none'; script-src 'nonce-{nonce}'; style-src 'nonce-{nonce}'; connect-src 'self'; "
        "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    )
    headers = {"Content-Security-Policy": policy, "Cache-Control": "no-store", "Referrer-Policy": "no-referrer"}
    return render_template("answer.html", nonce=nonce), headers
