"""Calendar feed URLs as the office reads them, and their paths for the test client; feeds fetched and read
back with the icalendar library, and the gigs and roles that fill them."""

import datetime as dt
import re

import icalendar

from tests.support.users import make_token, make_user
from tests.support.waiting import wait_for


def path_of(url):
    """The path of a feed URL, for the test client."""
    return "/v1/" + url.split("/v1/", 1)[1]


def url_of(response):
    body = response.get_json()
    assert response.status_code == 200, body
    assert set(body) == {"data"} and set(body["data"]) == {"url", "webcal_url", "qr_code"}, body
    return body["data"]["url"]


def staff_url(api, member_id):
    return url_of(api.get(f"/staff-members/{member_id}/calendar-url"))


def office_url(api):
    return url_of(api.get("/calendar-url"))


URL_RE = re.compile(r"http://127\.0\.0\.1:8080/v1/calendar/([A-Za-z0-9_.\-]+)\.ics")


# SPEC §2.3: a feed is made off the request, and shows a change within 60 s of it.
FOLLOWS_SECONDS = 60


def day(offset):
    """A date `offset` days from today."""
    return dt.date.today() + dt.timedelta(days=offset)


def fetch(anon, url):
    """The feed at `url`, fetched with no bearer, parsed back."""
    r = wait_for(lambda: made(anon.get(path_of(url))), timeout=FOLLOWS_SECONDS)
    assert r.status_code == 200, r.data[:300]
    assert r.mimetype == "text/calendar"
    calendar = icalendar.Calendar.from_ical(r.data)
    assert calendar.name == "VCALENDAR"
    assert str(calendar["VERSION"]) == "2.0" and str(calendar["PRODID"])
    return calendar


def made(response):
    """The response, unless it is the 503 of a feed whose first copy is still being made (asked again, as a
    calendar app does)."""
    return response if response.status_code != 503 else None


def fetch_until(anon, url, holds):
    """The feed at `url` once `holds(calendar)`, fetched again until then (FOLLOWS_SECONDS at most)."""

    def fetched():
        calendar = fetch(anon, url)
        return calendar if holds(calendar) else None

    return wait_for(fetched, timeout=FOLLOWS_SECONDS, interval=0.05)


def events(calendar):
    return list(calendar.walk("VEVENT"))


def summaries(calendar):
    return [str(event["SUMMARY"]) for event in events(calendar)]


def by_title(calendar, *titles):
    """The feed's events keyed by the gig title their summary holds; every event must hold one of them."""
    found = {}
    for event in events(calendar):
        [title] = [t for t in titles if t in str(event["SUMMARY"])]
        found.setdefault(title, []).append(event)
    return found


def only_event(calendar):
    [event] = events(calendar)
    return event


def gig_status(build, kind):
    return build.id("gig-statuses", kind=kind)


def put_on(admin, build, member_id, gig_id, role_id=None, **fields):
    """A gig role on `gig_id` filled by the staff member (who is given the role first if need be)."""
    role_id = role_id or build.id("roles")
    held = admin.get(f"/staff-member-roles?filter[staff_member_id]={member_id}&filter[role_id]={role_id}")
    if not held.get_json()["data"]:
        build("staff-member-roles", staff_member_id=member_id, role_id=role_id)
    return admin.create("gig-roles", {"gig_id": gig_id, "role_id": role_id, "staff_member_id": member_id, **fields})


def user_client(anon, *roles):
    """(user id, client) of a new user holding `roles`."""
    user = make_user(roles=roles)
    return user.id, anon.with_token(make_token(user))
