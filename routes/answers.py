"""Answering an invitation from its message (SPEC §9): the scanner-safe /answer page, and the two public endpoints
it calls, whose credential is the answer link's signed token (`signed_links.answer_link`): what the invitation is
about, and the answer itself, through the same domain code and events as the invitee's own accept and decline."""

import contextlib

from flask import Blueprint, current_app, request

import events
from auth import public
from delivery.notifications.facts import gig_view
from delivery.notifications.words import moment
from domain import invitations, office, pay_policy, signed_links
from domain.errors import ApiError
from domain.postal_addresses import place
from feeds.calendars import active_member
from formats.operation_schemas import InvitationAnswerSchema, InvitationPreviewSchema, InvitationTokenSchema
from models import GigProduct, GigRole, GigRoleInvitation, Product, Role, User, now
from openapi import operation
from resources import reject_parameters
from routes.staffing import INVITATIONS, answer_invitation
from schemas import GigRoleInvitationSchema, load
from web.html_pages import page_with_nonce
from web.lifecycle import json_body
from web.rate_limits import limit_rate

blueprint = Blueprint("answers", __name__)
pages = Blueprint("answer_pages", __name__)


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
    reject_parameters(request.args)
    invitation, member = invitation_of(load(InvitationTokenSchema(), json_body())["token"])
    return {"data": invitation_summary(invitation, member)}


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
    reject_parameters(request.args)
    values = load(InvitationAnswerSchema(), json_body())
    invitation, member = invitation_of(values["token"])
    with status_told(invitation):
        invitation = answer_invitation(invitation, values["answer"], invitee(member))
    return {"data": INVITATIONS.read(invitation.id, list(INVITATIONS.columns.values()))}


def invitation_of(token):
    """The invitation an answer token names while the link is good (until the invitation's expires_at) and its
    staff member, active (and their user, if any), or 401."""
    found = signed_links.answered_invitation(current_app.config, token)
    invitation = GigRoleInvitation.get_or_none(GigRoleInvitation.id == found) if found else None
    member = invitation and active_member(invitation.staff_member_id)
    if invitation is not None and invitation.expires_at > now() and member is not None:
        return invitation, member
    if invitation is None:
        raise ApiError(401, "unauthenticated", "This answer link is not valid. Ask the office for a new invitation.")
    if invitations.status_now(invitation) == "expired":
        message = f"This invitation expired at {invitation.expires_at}: it can no longer be answered."
        raise ApiError(401, "unauthenticated", message, {"reason": "invitation_expired"})
    if invitation.expires_at <= now():
        message = f"This answer link expired with its invitation at {invitation.expires_at}."
        raise ApiError(401, "unauthenticated", message, {"reason": "link_expired"})
    message = "This answer link is for a staff member who is no longer active. Ask the office."
    raise ApiError(401, "unauthenticated", message, {"reason": "member_inactive"})


def invitee(member):
    """Who answers with the link, for the events: the invited staff member's user, if they have one."""
    user = User.get_or_none(User.id == member.user_id) if member.user_id else None
    return events.Actor(user.id, user.name, "link") if user else None


@contextlib.contextmanager
def status_told(invitation):
    """A refusal because the invitation is no longer pending says what it is now (accepted, declined, withdrawn),
    so the page can say it in plain words."""
    try:
        yield
    except ApiError as e:
        if e.code == "conflict" and (e.details or {}).get("reason") == "invitation_not_pending":
            e.details = {**e.details, "status": invitations.status_now(invitation)}
        raise


def invitation_summary(invitation, member):
    """What the invited member needs to answer: the gig (date, times, venue), the role, what is played, their pay,
    the office's message, by when to answer (the venue's time, as the mail writes it), and the invitation's state;
    once it is no longer pending, its state and the gig's name, date and times only."""
    gig_role = GigRole.get_by_id(invitation.gig_role_id)
    view = gig_view(gig_role.gig_id)
    gig = view.gig
    summary = {
        "invitation_id": invitation.id,
        "status": invitations.status_now(invitation),
        "role_taken": gig_role.staff_member_id not in (None, member.id),
        "expires_at": invitation.expires_at,
        "gig": {"name": gig.title, "gig_date": gig.gig_date, "start_time": gig.start_time, "end_time": gig.end_time},
    }
    if summary["status"] != "pending":
        return summary
    gig_product = GigProduct.get_or_none(GigProduct.id == gig_role.gig_product_id)
    product = Product.get_by_id(gig_product.product_id) if gig_product else None
    settings = office.current()
    return {
        **summary,
        "answer_by": moment(invitation.expires_at, view.zone(settings), settings),
        "message": invitation.message,
        "first_name": member.first_name,
        "venue": place(view.venue),
        "role": Role.get_by_id(gig_role.role_id).name,
        "product": product and {"name": product.name, **times(gig_product)},
        "call_time": gig_role.call_time,
        "pay": {"amount_cents": pay_policy.offered_pay(gig_role, member.id), "currency": settings.currency},
    }


def times(record):
    return {"start_time": record.start_time, "end_time": record.end_time}


@pages.get("/answer")
@public
def answer_page():
    """The page an answer link opens: it shows the gig and two buttons; a GET answers nothing (mail scanners open
    links). Its script and style run under a nonce of this answer's Content-Security-Policy."""
    return page_with_nonce("answer.html")
