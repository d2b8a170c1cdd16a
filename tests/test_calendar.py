"""SPEC §5.6: calendar feeds, a staff member's and the office's, read back with the icalendar library (and
their times with vobject and ics too, as calendar programs read them)."""

import datetime as dt
import itertools
import re
import sqlite3
import zoneinfo

import icalendar
import ics
import pytest
import vobject

from calendar_zones import vtimezone
from models import db
from tests.support.api import error_of
from tests.support.database import count_queries
from tests.support.feeds import office_url, path_of, staff_url, url_of
from tests.support.records import SCHLOSS_HOF, unique
from tests.support.users import make_token, make_user

URL_RE = re.compile(r"http://127\.0\.0\.1:8080/v1/calendar/([A-Za-z0-9_.\-]+)\.ics")
VIENNA = zoneinfo.ZoneInfo("Europe/Vienna")


def day(offset):
    """A date `offset` days from today."""
    return dt.date.today() + dt.timedelta(days=offset)


def fetch(anon, url):
    """The feed at `url`, fetched with no bearer, parsed back."""
    r = anon.get(path_of(url))
    assert r.status_code == 200, r.data[:300]
    assert r.mimetype == "text/calendar"
    calendar = icalendar.Calendar.from_ical(r.data)
    assert calendar.name == "VCALENDAR"
    assert str(calendar["VERSION"]) == "2.0" and str(calendar["PRODID"])
    return calendar


def events(calendar):
    return list(calendar.walk("VEVENT"))


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


@pytest.fixture
def member(build):
    return build("staff-members")


def user_client(anon, *roles):
    """(user id, client) of a new user holding `roles`."""
    user = make_user(roles=roles)
    return user.id, anon.with_token(make_token(user))


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


def test_without_a_venue_zone_the_configured_zone_or_floating_times(app, admin, anon, build, member):
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
    for gig, offset in ((without, 4), (at_plain, 5)):
        [event] = found[gig["title"]]
        start = event["DTSTART"].dt
        assert start == dt.datetime.combine(day(offset), dt.time(19, 0)) and start.tzinfo is None
        assert "TZID" not in event["DTSTART"].params and "TZID" not in event["DTEND"].params
    [event] = found[zoned["title"]]
    assert event["DTSTART"].params["TZID"] == "Europe/Vienna"

    app.config["TIMEZONE"] = "America/New_York"
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


# --- time zones as every reader reads them --------------------------------------------------------------

ZONES = ("Europe/Vienna", "America/New_York", "Asia/Tokyo", "Australia/Sydney")
START, END = dt.time(18, 30), dt.time(23, 15)


def gig_days(zone, first):
    """Days over the next 15 months: one a season from `first` days from today, and the days either
    side of each change of the zone's offset."""
    days = {day(offset) for offset in range(first, 460, 91)}
    tz = zoneinfo.ZoneInfo(zone)
    for offset in range(-55, 460):
        noon, next_noon = (dt.datetime.combine(day(n), dt.time(12), tz) for n in (offset, offset + 1))
        if noon.utcoffset() != next_noon.utcoffset():
            days |= {day(offset), day(offset + 1)}
    return sorted(days)


@pytest.fixture
def zoned_gigs(admin, build, member):
    """{title: (date, zone)} of gigs from START to END at venues in each of ZONES, and the titles of those the
    member plays (one a day: a musician plays one gig a night)."""
    role_id = build.id("roles")
    gigs, members_days = {}, {}
    for n, zone in enumerate(ZONES):
        venue_id = build.id("venues", timezone=zone)
        for date in gig_days(zone, -55 + 7 * n):
            title = f"{zone} {date}"
            fields = {"gig_date": date.isoformat(), "start_time": f"{START:%H:%M}", "end_time": f"{END:%H:%M}"}
            gig = build("gigs", title=title, venue_id=venue_id, **fields)
            gigs[title] = (date, zone)
            if date not in members_days:
                put_on(admin, build, member["id"], gig["id"], role_id)
                members_days[date] = title
    return gigs, set(members_days.values())


def feed_text(anon, url):
    response = anon.get(path_of(url))
    assert response.status_code == 200
    return response.data.decode()


def read_by_icalendar(text):
    return [(str(e["SUMMARY"]), e["DTSTART"].dt, e["DTEND"].dt) for e in icalendar.Calendar.from_ical(text).events]


def read_by_icalendar_from_vtimezone(text):
    """icalendar's reading with each zone built from the feed's VTIMEZONE rather than looked up by its name."""
    calendar = icalendar.Calendar.from_ical(text)
    zones = {zone.tz_name: zone.to_tz(lookup_tzid=False) for zone in calendar.timezones}
    return [
        (summary, start.replace(tzinfo=zones[start.tzinfo.key]), end.replace(tzinfo=zones[end.tzinfo.key]))
        for summary, start, end in read_by_icalendar(text)
    ]


def read_by_vobject(text):
    return [(e.summary.value, e.dtstart.value, e.dtend.value) for e in vobject.readOne(text).vevent_list]


def read_by_ics(text):
    return [(e.name, e.begin.datetime, e.end.datetime) for e in ics.Calendar(text).events]


def wall_time_and_offset(moment):
    """What a calendar shows, and whether it is the right instant: an hour off changes one or the other."""
    return moment.replace(tzinfo=None), moment.utcoffset()


READERS = (read_by_icalendar, read_by_icalendar_from_vtimezone, read_by_vobject, read_by_ics)


def test_every_reader_reads_every_event_at_its_venue_local_time(admin, anon, member, zoned_gigs):
    gigs, members = zoned_gigs
    feeds = {"office": (office_url(admin), set(gigs)), "member": (staff_url(admin, member["id"]), members)}
    wrong = {}
    for (feed, (url, titles)), reader in itertools.product(feeds.items(), READERS):
        read = reader(feed_text(anon, url))
        assert len(read) == len(titles)
        for summary, start, end in read:
            [title] = [title for title in titles if title in summary]
            date, zone = gigs[title]
            expected = [dt.datetime.combine(date, time, zoneinfo.ZoneInfo(zone)) for time in (START, END)]
            if list(map(wall_time_and_offset, (start, end))) != list(map(wall_time_and_offset, expected)):
                wrong.setdefault((feed, reader.__name__), []).append((summary, start.isoformat(), end.isoformat()))
    assert wrong == {}, {found: f"{len(events)} wrong, first {events[0]}" for found, events in wrong.items()}


def test_each_zone_is_defined_by_yearly_rules_not_a_list_of_dates(admin, anon, build):
    for zone in ZONES:
        venue_id = build.id("venues", timezone=zone)
        build("gigs", gig_date=day(30).isoformat(), venue_id=venue_id, start_time="18:30", end_time="23:00")
    calendar = icalendar.Calendar.from_ical(feed_text(anon, office_url(admin)))
    zones = {zone.tz_name: zone for zone in calendar.timezones}
    assert sorted(zones) == sorted(ZONES)
    for name, zone in zones.items():
        observances = [(part.name, "RRULE" in part, "RDATE" in part) for part in zone.subcomponents]
        if name == "Asia/Tokyo":
            assert observances == [("STANDARD", False, False)], name
        else:
            assert sorted(observances) == [("DAYLIGHT", True, False), ("STANDARD", True, False)], name
    vienna = {part.name: part for part in zones["Europe/Vienna"].subcomponents}
    assert vienna["DAYLIGHT"]["RRULE"].to_ical() == b"FREQ=YEARLY;BYDAY=-1SU;BYMONTH=3"
    assert vienna["STANDARD"]["RRULE"].to_ical() == b"FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10"


# Zones whose rules are not "the nth Sunday": a Friday before the last Sunday (Jerusalem), 23:00 on the Saturday
# before (Nuuk), changes around Ramadan (Casablanca, Gaza), negative summer time (Dublin), half an hour (Lord
# Howe), 02:45 (Chatham), a change at midnight that falls into the next month some years (Cairo).
IRREGULAR_ZONES = (
    "Asia/Jerusalem",
    "America/Nuuk",
    "Africa/Casablanca",
    "Asia/Gaza",
    "Europe/Dublin",
    "Australia/Lord_Howe",
    "Pacific/Chatham",
    "Africa/Cairo",
    "America/Santiago",
)


@pytest.mark.parametrize("zone", IRREGULAR_ZONES)
def test_vobject_reads_any_zones_rules_as_the_tz_database_has_them(zone):
    tz = zoneinfo.ZoneInfo(zone)
    first, last = 2026, 2030
    starts = [dt.datetime.combine(date, START, tz) for date in change_days(tz, first, last)]
    calendar = icalendar.Calendar()
    calendar.add_component(vtimezone(zone, first, last))
    for n, start in enumerate(starts):
        event = icalendar.Event()
        event.add("uid", str(n))
        event.add("dtstart", start)
        calendar.add_component(event)
    read = [event.dtstart.value for event in vobject.readOne(calendar.to_ical().decode()).vevent_list]
    wrong = [(a, b) for a, b in zip(read, starts, strict=True) if wall_time_and_offset(a) != wall_time_and_offset(b)]
    assert wrong == []


def change_days(tz, first_year, last_year):
    """The first of each month and the days either side of each change of the zone's offset."""
    days, date = set(), dt.date(first_year, 1, 1)
    while date.year <= last_year:
        following = date + dt.timedelta(days=1)
        noon, next_noon = (dt.datetime.combine(d, dt.time(12), tz) for d in (date, following))
        if noon.utcoffset() != next_noon.utcoffset() or date.day == 1:
            days |= {date, following}
        date = following
    return sorted(days)


def test_the_feed_follows_changes(admin, anon, build, member):
    gig = build("gigs", gig_date=day(12).isoformat(), title=unique("Before"))
    put_on(admin, build, member["id"], gig["id"])
    url = staff_url(admin, member["id"])
    assert admin.patch(f"/gigs/{gig['id']}", json={"title": "After the change"}).status_code == 200
    assert "After the change" in str(only_event(fetch(anon, url))["SUMMARY"])
    gig_role = admin.get(f"/gig-roles?filter[gig_id]={gig['id']}").get_json()["data"][0]
    assert admin.patch(f"/gig-roles/{gig_role['id']}", json={"staff_member_id": None}).status_code == 200
    assert events(fetch(anon, url)) == []


# --- the office feed ------------------------------------------------------------------------------------


def test_the_office_feed_lists_every_live_gig(admin, anon, build, member):
    tentative, confirmed, closed = (gig_status(build, kind) for kind in ("tentative", "confirmed", "cancelled"))
    gigs = {
        "tentative": build("gigs", gig_date=day(1).isoformat(), gig_status_id=tentative),
        "confirmed": build("gigs", gig_date=day(2).isoformat(), gig_status_id=confirmed),
        "no status": build("gigs", gig_date=day(3).isoformat()),
        "recent": build("gigs", gig_date=day(-10).isoformat(), gig_status_id=confirmed),
        "closed": build("gigs", gig_date=day(4).isoformat(), gig_status_id=closed),
    }
    put_on(admin, build, member["id"], gigs["confirmed"]["id"])
    url = office_url(admin)
    assert URL_RE.fullmatch(url) and url != staff_url(admin, member["id"])
    found = by_title(fetch(anon, url), *(gig["title"] for gig in gigs.values()))
    assert {title: len(found_events) for title, found_events in found.items()} == {
        gigs[name]["title"]: 1 for name in ("tentative", "confirmed", "no status", "recent")
    }
    assert str(found[gigs["tentative"]["title"]][0]["STATUS"]) == "TENTATIVE"
    assert str(found[gigs["confirmed"]["title"]][0]["STATUS"]) == "CONFIRMED"


def test_the_office_url_needs_gigs_view_and_its_rotation_gigs_edit(anon, role):
    role("gig-viewer", "gigs.view")
    role("gig-editor", "gigs.edit")
    role("people-admin", "people.*")
    _, viewer = user_client(anon, "gig-viewer")
    _, editor = user_client(anon, "gig-editor")
    _, people = user_client(anon, "people-admin")
    url = office_url(viewer)
    assert office_url(viewer) == url
    assert error_of(people.get("/calendar-url"), 403, "forbidden")["details"] == {"required": "gigs.view"}
    assert error_of(editor.get("/calendar-url"), 403, "forbidden")["details"] == {"required": "gigs.view"}
    for client in (viewer, people):
        assert error_of(client.post("/calendar-url/rotate"), 403, "forbidden")["details"] == {"required": "gigs.edit"}
    error_of(anon.get("/calendar-url"), 401, "unauthenticated")
    error_of(anon.post("/calendar-url/rotate"), 401, "unauthenticated")
    fetch(anon, url)

    new = url_of(editor.post("/calendar-url/rotate"))
    assert URL_RE.fullmatch(new) and new != url
    assert office_url(viewer) == new
    error_of(anon.get(path_of(url)), 404, "not_found")
    fetch(anon, new)


def test_rotating_the_office_url_leaves_staff_feeds_alone(admin, anon, member):
    staff = staff_url(admin, member["id"])
    old = office_url(admin)
    new = url_of(admin.post("/calendar-url/rotate"))
    error_of(anon.get(path_of(old)), 404, "not_found")
    fetch(anon, new)
    fetch(anon, staff)


# --- cost -----------------------------------------------------------------------------------------------


def add_gigs(admin, build, member, first, count):
    """`count` gigs on consecutive days, each at a venue, with a product, a status and the member on it."""
    status = gig_status(build, "confirmed")
    role_id, product_id = build.id("roles"), build.id("products")
    for n in range(first, first + count):
        venue = build("venues", timezone="Europe/Vienna" if n % 2 else "Europe/London", address_line1=f"Street {n}")
        gig = build(
            "gigs",
            gig_date=day(n).isoformat(),
            venue_id=venue["id"],
            gig_status_id=status,
            start_time="18:00",
            end_time="01:00",
        )
        body = {"gig_id": gig["id"], "product_id": product_id, "start_time": "19:00", "end_time": "20:00"}
        admin.create("gig-products", body)
        put_on(admin, build, member["id"], gig["id"], role_id, call_time="17:00")


def test_a_feed_costs_the_same_queries_whatever_the_number_of_gigs(admin, anon, build, member, monkeypatch):
    staff, office = staff_url(admin, member["id"]), office_url(admin)
    executed = count_queries(monkeypatch)
    counts = {}
    for first, count in ((1, 2), (3, 10)):
        add_gigs(admin, build, member, first, count)
        for name, url in (("staff", staff), ("office", office)):
            executed.clear()
            assert len(events(fetch(anon, url))) == first + count - 1
            counts.setdefault(name, []).append(len(executed))
    assert counts["staff"][0] == counts["staff"][1], counts
    assert counts["office"][0] == counts["office"][1], counts
    assert max(counts["staff"] + counts["office"]) <= 5, counts


def test_the_office_feed_holds_played_gigs_and_none_older_than_sixty_days(admin, anon, build):
    inquiry, completed, confirmed = (gig_status(build, kind) for kind in ("inquiry", "completed", "confirmed"))
    gigs = {
        "inquiry": build("gigs", gig_date=day(5).isoformat(), gig_status_id=inquiry),
        "played": build("gigs", gig_date=day(-3).isoformat(), gig_status_id=completed),
        "old": build("gigs", gig_date=day(-61).isoformat(), gig_status_id=confirmed),
    }
    found = by_title(fetch(anon, office_url(admin)), *(gig["title"] for gig in gigs.values()))
    assert set(found) == {gigs["inquiry"]["title"], gigs["played"]["title"]}
    assert str(found[gigs["inquiry"]["title"]][0]["STATUS"]) == "TENTATIVE"
    assert str(found[gigs["played"]["title"]][0]["STATUS"]) == "CONFIRMED"


def test_the_office_feed_is_served_from_a_copy_until_the_database_changes(admin, anon, build, monkeypatch):
    gig = build("gigs", gig_date=day(3).isoformat())
    url = office_url(admin)
    fetch(anon, url)
    executed = count_queries(monkeypatch)
    assert by_title(fetch(anon, url), gig["title"])
    assert not any('"gigs"' in sql for sql in executed)  # the copy: no gig was read
    assert admin.patch(f"/gigs/{gig['id']}", json={"title": gig["title"] + " (moved)"}).status_code == 200
    assert str(only_event_titled(fetch(anon, url), gig["title"])["SUMMARY"]) == gig["title"] + " (moved)"
    # a change made by another process counts too (every writer of this schema keeps updated_at)
    other = sqlite3.connect(db.database)
    renamed = "UPDATE gigs SET title = 'Renamed elsewhere', updated_at = ? WHERE id = ?"
    other.execute(renamed, ("2099-01-01T00:00:00.000000Z", gig["id"]))
    other.commit()
    other.close()
    assert str(only_event_titled(fetch(anon, url), "Renamed elsewhere")["SUMMARY"]) == "Renamed elsewhere"
    # a write the feed does not show (a team, a sign-in link asked for) leaves the copy as it is
    admin.post("/teams", json={"name": "Unrelated"})
    anon.post("/auth/link", json={"email": "nobody@example.com"})
    executed.clear()
    fetch(anon, url)
    assert not any('"gigs" AS' in sql for sql in executed), executed


def only_event_titled(calendar, title):
    [event] = [e for e in events(calendar) if title in str(e["SUMMARY"])]
    return event


def test_a_member_whose_user_is_inactive_has_no_feed(admin, anon, build):
    user = build("users", roles=[])
    member = build("staff-members", user_id=user["id"])
    url = staff_url(admin, member["id"])
    fetch(anon, url)
    assert admin.patch(f"/users/{user['id']}", json={"active": False}).status_code == 200
    error_of(anon.get(path_of(url)), 404, "not_found")
