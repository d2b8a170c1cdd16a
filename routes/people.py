"""The people group: the band's staff members and the clients' contacts; and the calendar feeds (§5.6)."""

from flask import Blueprint, Response, current_app, request

import events
from auth import public
from dialects import dialect
from domain import office, signed_links
from domain.errors import not_found, unavailable
from feeds import calendars, qr_codes
from formats.operation_schemas import CalendarUrlSchema
from models import Contact, StaffMember
from openapi import operation
from resources import Resource, reject_parameters
from schemas import ContactSchema, StaffMemberSchema
from web import lifecycle

blueprint = Blueprint("people", __name__)


class StaffMembers(Resource):
    def before_save(self, write):
        member = write.record
        if member.email:
            member.email = member.email.lower()  # unique when set, whatever the case it was typed in


STAFF_MEMBERS = StaffMembers(StaffMember, StaffMemberSchema, "people", order=["last_name", "first_name"])
RESOURCES = [
    STAFF_MEMBERS,
    Resource(Contact, ContactSchema, "people", order=["last_name", "first_name"]),
]


def feed_url(*subject):
    """A feed's address to copy, the same as a `webcal://` address to open (a phone's calendar subscribes), and
    that as a QR code to scan off a screen."""
    token = signed_links.feed_token(current_app.config, *subject)
    url = f"{lifecycle.public_url()}/v1/calendar/{token}.ics"
    webcal_url = "webcal:" + url.split(":", 1)[1]
    return {"data": {"url": url, "webcal_url": webcal_url, "qr_code": list(qr_codes.rows_of(webcal_url))}}


def member_or_own(id, action):
    """The staff member, when the caller holds people.<action> or is the member's own user."""
    reject_parameters(request.args)
    return STAFF_MEMBERS.get_own_or(id, action, lambda member: member.id)


@blueprint.get("/staff-members/<id>/calendar-url")
@operation(
    response=CalendarUrlSchema,
    errors=(400, 404),
)
def staff_calendar_url(id):
    """The address of the staff member's calendar feed, for their phone (people.view, or their own user)."""
    return staff_feed_url(member_or_own(id, "view"))


@blueprint.post("/staff-members/<id>/calendar-url/rotate")
@operation(
    response=CalendarUrlSchema,
    errors=(400, 404),
)
def rotate_staff_calendar_url(id):
    """Give the staff member's feed a new address; the old one answers 404 (people.edit, or their own user)."""
    return rotate_staff_feed(member_or_own(id, "edit"))


def rotate_staff_feed(member):
    """A new address for the staff member's feed (the old one answers 404 from now on), and its event."""
    member.calendar_version += 1
    member.save(only=[StaffMember.calendar_version])
    events.record("calendar_url.rotated", "staff_members", member.id, "people", {"feed": "staff"})
    return staff_feed_url(member)


def staff_feed_url(member):
    return feed_url("staff", member.id, member.calendar_version)


@blueprint.get("/calendar-url")
@operation(capability="gigs.view", response=CalendarUrlSchema, errors=(400,))
def office_calendar_url():
    """The address of the office feed: every gig from BAND_FEED_PAST_DAYS back that is not cancelled."""
    reject_parameters(request.args)
    return feed_url("office", signed_links.office_feed_version())


@blueprint.post("/calendar-url/rotate")
@operation(capability="gigs.edit", response=CalendarUrlSchema, errors=(400,))
def rotate_office_calendar_url():
    """Give the office feed a new address; the old one answers 404 from now on."""
    reject_parameters(request.args)
    version = signed_links.rotate_office_feed()
    events.record("calendar_url.rotated", "calendar_urls", OFFICE_FEED_ID, "gigs", {"feed": "office"})
    return feed_url("office", version)


OFFICE_FEED_ID = "00000000-0000-4000-8000-000000000000"  # the office feed's subject id in its events


@blueprint.get("/calendar/<token>.ics")
@public
@operation(media_type="text/calendar", errors=(400, 404, 503))
def calendar(token):
    """An iCalendar feed; its signed address is its only key (calendar apps send no bearer). It is served from a
    copy kept up to date within seconds of a change; 503 while its first copy is being made."""
    subject = signed_links.feed_subject(current_app.config, token) or []
    if subject[:1] == ["office"] and subject[1:] == [signed_links.office_feed_version()]:
        feed = ("office",)
    elif subject[:1] == ["staff"] and len(subject) == 3:
        member = calendars.active_member(subject[1])
        if member is None or member.calendar_version != subject[2]:
            raise not_found("No such calendar feed.")
        feed = ("staff", member.id)
    else:
        raise not_found("No such calendar feed.")
    body = feed_copies().body(feed, feed_settings())
    if body is None:
        raise unavailable("The calendar feed is being made; retry in a moment.")
    return Response(body, mimetype="text/calendar", headers={"Cache-Control": "private, max-age=300"})


def feed_copies():
    return current_app.extensions["feeds"]


def feed_settings():
    """(the zone of gigs whose venue names none: the office's, days back): a copy per setting, made anew on a change.
    The one row of the office's settings is read whatever the budget, as the feed itself is made."""
    with dialect.without_budget():
        zone = office.current().time_zone
    return zone, current_app.config["FEED_PAST_DAYS"]
