"""SPEC §5.6: a feed's times in every venue's zone, as the icalendar library, vobject and ics read them."""

import datetime as dt
import itertools
import zoneinfo

import icalendar
import ics
import pytest
import vobject

from feeds.time_zones import vtimezone
from tests.support.feeds import (
    day,
    events,
    fetch,
    fetch_until,
    office_url,
    only_event,
    path_of,
    put_on,
    staff_url,
)
from tests.support.records import unique


@pytest.fixture
def member(build):
    return build("staff-members")


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
    fetch_until(anon, url, lambda calendar: events(calendar) == [])
