"""SPEC §5.6: a staff member's calendar feed: its address, who may read and rotate it, and its events, read
back with the icalendar library (time zones: test_calendar_zones.py; the office's feed: test_calendar_office.py)."""

import datetime as dt
import re
import zoneinfo

import pytest

from tests.support.api import error_of
from tests.support.feeds import (
    URL_RE,
    by_title,
    day,
    events,
    fetch,
    gig_status,
    office_url,
    only_event,
    path_of,
    put_on,
    staff_url,
    url_of,
    user_client,
)
from tests.support.records import SCHLOSS_HOF, unique

VIENNA = zoneinfo.ZoneInfo("Europe/Vienna")


@pytest.fixture
def member(build):
    return build("staff-members")


# --- the address -----------------------------------------------------------------------------------------


def test_the_feed_url_lives_under_the_public_url(app, admin, anon, member):
    url = staff_url(admin, member["id"])
    assert URL_RE.fullmatch(url), url
    assert staff_url(admin, member["id"]) == url  # asking again does not move the feed
    assert events(fetch(anon, url)) == []
    app.config["PUBLIC_URL"] = "https://office.example.com/band"
    moved = staff_url(admin, member["id"])
    assert re.fullmatch(r"https://office\.example\.com/band/v1/calendar/[A-Za-z0-9_.\-]+\.ics", moved), moved


def test_members_have_feeds_of_their_own(admin, anon, build, member):
    other = build("staff-members")
    gig = build("gigs", gig_date=day(10).isoformat(), title=unique("Mine"))
    theirs = build("gigs", gig_date=day(11).isoformat(), title=unique("Theirs"))
    put_on(admin, build, member["id"], gig["id"])
    put_on(admin, build, other["id"], theirs["id"])
    assert staff_url(admin, member["id"]) != staff_url(admin, other["id"])
    assert gig["title"] in str(only_event(fetch(anon, staff_url(admin, member["id"])))["SUMMARY"])
    assert theirs["title"] in str(only_event(fetch(anon, staff_url(admin, other["id"])))["SUMMARY"])


def test_an_unknown_member_has_no_feed_url(admin):
    error_of(admin.get("/staff-members/00000000-0000-4000-8000-000000000000/calendar-url"), 404, "not_found")
    error_of(admin.get("/staff-members/nope/calendar-url"), 404, "not_found")
    error_of(admin.post("/staff-members/00000000-0000-4000-8000-000000000000/calendar-url/rotate"), 404, "not_found")


# --- who may see and rotate it ----------------------------------------------------------------------------


def test_people_view_reads_any_members_url_and_people_edit_rotates_it(anon, role, member):
    role("people-viewer", "people.view")
    role("people-editor", "people.edit")
    _, viewer = user_client(anon, "people-viewer")
    _, editor = user_client(anon, "people-editor")
    _, nobody = user_client(anon)
    assert URL_RE.fullmatch(staff_url(viewer, member["id"]))
    r = viewer.post(f"/staff-members/{member['id']}/calendar-url/rotate")
    assert error_of(r, 403, "forbidden")["details"] == {"required": "people.edit"}
    assert URL_RE.fullmatch(url_of(editor.post(f"/staff-members/{member['id']}/calendar-url/rotate")))
    assert error_of(editor.get(f"/staff-members/{member['id']}/calendar-url"), 403, "forbidden")["details"] == {
        "required": "people.view"
    }
    r = nobody.get(f"/staff-members/{member['id']}/calendar-url")
    assert error_of(r, 403, "forbidden")["details"] == {"required": "people.view"}
    error_of(anon.get(f"/staff-members/{member['id']}/calendar-url"), 401, "unauthenticated")
    error_of(anon.post(f"/staff-members/{member['id']}/calendar-url/rotate"), 401, "unauthenticated")


def test_a_members_own_user_reads_and_rotates_their_url_only(admin, anon, build):
    user_id, own = user_client(anon)  # no access role at all
    me = build("staff-members", user_id=user_id)
    other = build("staff-members")
    url = staff_url(own, me["id"])
    assert url == staff_url(admin, me["id"])
    rotated = url_of(own.post(f"/staff-members/{me['id']}/calendar-url/rotate"))
    assert rotated != url and rotated == staff_url(admin, me["id"])
    error_of(anon.get(path_of(url)), 404, "not_found")
    fetch(anon, rotated)

    r = own.get(f"/staff-members/{other['id']}/calendar-url")
    assert error_of(r, 403, "forbidden")["details"] == {"required": "people.view"}
    r = own.post(f"/staff-members/{other['id']}/calendar-url/rotate")
    assert error_of(r, 403, "forbidden")["details"] == {"required": "people.edit"}
    # without people.view, whether a member exists is not given away
    r = own.get("/staff-members/00000000-0000-4000-8000-000000000000/calendar-url")
    assert error_of(r, 403, "forbidden")["details"] == {"required": "people.view"}


# --- rotation and tampering -----------------------------------------------------------------------------


def test_rotating_invalidates_the_old_url_only(admin, anon, build, member):
    other = build("staff-members")
    old, others, office = staff_url(admin, member["id"]), staff_url(admin, other["id"]), office_url(admin)
    new = url_of(admin.post(f"/staff-members/{member['id']}/calendar-url/rotate"))
    assert URL_RE.fullmatch(new) and new != old
    assert staff_url(admin, member["id"]) == new
    error_of(anon.get(path_of(old)), 404, "not_found")
    fetch(anon, new)
    fetch(anon, others)
    fetch(anon, office)
    newer = url_of(admin.post(f"/staff-members/{member['id']}/calendar-url/rotate"))
    assert newer not in (old, new)
    for gone in (old, new):
        error_of(anon.get(path_of(gone)), 404, "not_found")
    fetch(anon, newer)


def tampered(url):
    """The URL with one character of its token changed: in the signed payload, or in the signature (not its
    last character, whose low bits base64 may ignore); and with the signature cut off."""
    token = URL_RE.fullmatch(url)[1]
    payload, signature = token.rsplit(".", 1)
    flip = lambda ch: "A" if ch != "A" else "B"
    yield url.replace(token, f"{flip(payload[0])}{payload[1:]}.{signature}")
    yield url.replace(token, f"{payload}.{signature[:5]}{flip(signature[5])}{signature[6:]}")
    yield url.replace(token, payload)


def test_a_tampered_or_made_up_token_is_not_found(admin, anon, member):
    for url in (staff_url(admin, member["id"]), office_url(admin)):
        for bad in tampered(url):
            error_of(anon.get(path_of(bad)), 404, "not_found")
    for token in ("nope", "eyJzdGFmZiJd.abc", "W10.xyz"):
        error_of(anon.get(f"/v1/calendar/{token}.ics"), 404, "not_found")


# --- the staff member's events ----------------------------------------------------------------------------


def test_the_feed_has_one_event_per_role_from_60_days_back(admin, anon, build, member):
    other = build("staff-members")
    titles = {offset: unique(f"Gig {offset}") for offset in (-200, -61, -60, -1, 0, 30, 400)}
    gigs = {offset: build("gigs", gig_date=day(offset).isoformat(), title=t) for offset, t in titles.items()}
    for offset in titles:
        put_on(admin, build, member["id"], gigs[offset]["id"])
    # two roles of the member on one gig: an event each
    put_on(admin, build, member["id"], gigs[30]["id"])
    # not the member's: another member's role, an open role
    unseen = build("gigs", gig_date=day(5).isoformat(), title=unique("Not mine"))
    put_on(admin, build, other["id"], unseen["id"])
    put_on(admin, build, other["id"], gigs[0]["id"])
    build("gig-roles", gig_id=gigs[0]["id"])

    found = by_title(fetch(anon, staff_url(admin, member["id"])), *titles.values(), unseen["title"])
    assert {title: len(found[title]) for title in found} == {
        titles[-60]: 1,
        titles[-1]: 1,
        titles[0]: 1,
        titles[30]: 2,
        titles[400]: 1,
    }
    calendar = fetch(anon, staff_url(admin, member["id"]))
    assert len({str(event["UID"]) for event in events(calendar)}) == 6
    assert all("DTSTAMP" in event for event in events(calendar))


def test_an_event_tells_title_venue_role_call_time_products_and_status(admin, anon, build, member):
    venue = build("venues", **SCHLOSS_HOF)
    status = build("gig-statuses", name="Booked", kind="confirmed")
    gig = build(
        "gigs",
        gig_date=day(20).isoformat(),
        title="Anna & Ben",
        venue_id=venue["id"],
        gig_status_id=status["id"],
        start_time="18:00",
        end_time="23:30",
    )
    product = build("products", name="Dinner set")
    gig_product = build(
        "gig-products", gig_id=gig["id"], product_id=product["id"], start_time="18:30", end_time="20:00"
    )
    build("gig-products", gig_id=gig["id"], product_id=build.id("products", name="Party"), start_time="20:30")
    role_id = build.id("roles", name="Lead vocals")
    put_on(admin, build, member["id"], gig["id"], role_id, call_time="16:30", gig_product_id=gig_product["id"])

    calendar = fetch(anon, staff_url(admin, member["id"]))
    event = only_event(calendar)
    assert "Anna & Ben" in str(event["SUMMARY"])
    location = str(event["LOCATION"])
    assert location == "Schloss Hof, Schlosshof 1, 2294 Marchegg, AT", location  # as the messages write it
    description = str(event["DESCRIPTION"])
    for part in ("Role: Lead vocals, Dinner set\n", "16:30", "Dinner set: 18:30–20:00", "Party: 20:30", "Booked"):
        assert part in description, description
    assert str(event["STATUS"]) == "CONFIRMED"
    assert event["DTSTART"].params["TZID"] == "Europe/Vienna"
    assert event["DTEND"].params["TZID"] == "Europe/Vienna"
    assert event["DTSTART"].dt == dt.datetime.combine(day(20), dt.time(18, 0), VIENNA)
    assert event["DTEND"].dt == dt.datetime.combine(day(20), dt.time(23, 30), VIENNA)
    assert event["DTSTART"].dt.replace(tzinfo=None) == dt.datetime.combine(day(20), dt.time(18, 0))
    # RFC 5545: every TZID used is defined by a VTIMEZONE of the calendar
    assert [str(zone["TZID"]) for zone in calendar.walk("VTIMEZONE")] == ["Europe/Vienna"]


def test_a_gig_past_midnight_ends_the_next_day(admin, anon, build, member):
    venue = build("venues", timezone="Europe/Vienna")
    gig = build("gigs", gig_date=day(7).isoformat(), venue_id=venue["id"], start_time="21:00", end_time="02:00")
    put_on(admin, build, member["id"], gig["id"])
    event = only_event(fetch(anon, staff_url(admin, member["id"])))
    assert event["DTSTART"].dt == dt.datetime.combine(day(7), dt.time(21, 0), VIENNA)
    assert event["DTEND"].dt == dt.datetime.combine(day(8), dt.time(2, 0), VIENNA)
    assert event["DTEND"].params["TZID"] == "Europe/Vienna"


def test_a_gig_without_times_is_an_all_day_event(admin, anon, build, member):
    venue = build("venues", timezone="Europe/Vienna")
    gig = build("gigs", gig_date=day(3).isoformat(), venue_id=venue["id"])
    put_on(admin, build, member["id"], gig["id"])
    event = only_event(fetch(anon, staff_url(admin, member["id"])))
    start, end = event["DTSTART"].dt, event["DTEND"].dt
    assert type(start) is dt.date and start == day(3)
    assert type(end) is dt.date and end == day(4)
    assert "TZID" not in event["DTSTART"].params


@pytest.mark.parametrize(("kind", "expected"), [("tentative", "TENTATIVE"), ("confirmed", "CONFIRMED")])
def test_the_event_status_follows_the_gig_status(admin, anon, build, member, kind, expected):
    gig = build("gigs", gig_date=day(9).isoformat(), gig_status_id=gig_status(build, kind))
    put_on(admin, build, member["id"], gig["id"])
    assert str(only_event(fetch(anon, staff_url(admin, member["id"])))["STATUS"]) == expected


def test_a_closed_gig_is_a_cancelled_event(admin, anon, build, member):
    gig = build("gigs", gig_date=day(9).isoformat(), gig_status_id=gig_status(build, "confirmed"))
    put_on(admin, build, member["id"], gig["id"])
    closed = gig_status(build, "cancelled")
    assert admin.patch(f"/gigs/{gig['id']}", json={"gig_status_id": closed}).status_code == 200
    event = only_event(fetch(anon, staff_url(admin, member["id"])))
    assert gig["title"] in str(event["SUMMARY"]) and str(event["STATUS"]) == "CANCELLED"


def test_without_a_venue_zone_the_offices_zone(app, admin, anon, build, member):
    plain_venue = build("venues")  # no time zone
    without = build("gigs", gig_date=day(4).isoformat(), start_time="19:00", end_time="23:00")
    at_plain = build(
        "gigs", gig_date=day(5).isoformat(), venue_id=plain_venue["id"], start_time="19:00", end_time="23:00"
    )
    zoned_venue = build("venues", timezone="Europe/Vienna")
    zoned = build("gigs", gig_date=day(6).isoformat(), venue_id=zoned_venue["id"], start_time="19:00", end_time="23:00")
    for gig in (without, at_plain, zoned):
        put_on(admin, build, member["id"], gig["id"])
    titles = (without["title"], at_plain["title"], zoned["title"])
    url = staff_url(admin, member["id"])

    found = by_title(fetch(anon, url), *titles)
    for gig, offset in ((without, 4), (at_plain, 5)):  # a new database's zone
        [event] = found[gig["title"]]
        assert event["DTSTART"].dt == dt.datetime.combine(day(offset), dt.time(19, 0), zoneinfo.ZoneInfo("UTC"))
    [event] = found[zoned["title"]]
    assert event["DTSTART"].params["TZID"] == "Europe/Vienna"

    assert admin.patch("/office", json={"time_zone": "America/New_York"}).status_code == 200
    calendar = fetch(anon, url)
    found = by_title(calendar, *titles)
    new_york = zoneinfo.ZoneInfo("America/New_York")
    for gig, offset in ((without, 4), (at_plain, 5)):
        [event] = found[gig["title"]]
        assert event["DTSTART"].params["TZID"] == "America/New_York"
        assert event["DTSTART"].dt == dt.datetime.combine(day(offset), dt.time(19, 0), new_york)
        assert event["DTEND"].dt == dt.datetime.combine(day(offset), dt.time(23, 0), new_york)
    [event] = found[zoned["title"]]  # the venue's own zone still wins
    assert event["DTSTART"].params["TZID"] == "Europe/Vienna"
    assert event["DTSTART"].dt == dt.datetime.combine(day(6), dt.time(19, 0), VIENNA)
    assert sorted(str(zone["TZID"]) for zone in calendar.walk("VTIMEZONE")) == ["America/New_York", "Europe/Vienna"]
