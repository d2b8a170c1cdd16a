"""Calendar feeds (SPEC §5.6) built with the icalendar library: a staff member's gigs, or the office's.
Times are the venue's wall-clock times in its time zone (or the configured default)."""

import datetime as dt
import threading
import zoneinfo

from peewee import JOIN

from dialects import dialect
from domain.postal_addresses import one_line
from domain.rules import window
from feeds.time_zones import vtimezone
from models import NOT_CANCELLED, Gig, GigProduct, GigRole, GigStatus, Product, Role, StaffMember, User, Venue, db

DAYS_BACK = 60
EVENT_STATUS = {"inquiry": "TENTATIVE", "tentative": "TENTATIVE", "cancelled": "CANCELLED"}  # else CONFIRMED


def staff_feed(member, default_timezone):
    """The staff member's roles on gigs from 60 days back onward, one event each."""
    roles = (
        GigRole.select(GigRole, Gig, Role, Venue, GigStatus)
        .join(Gig)
        .join(Venue, JOIN.LEFT_OUTER)
        .join_from(Gig, GigStatus, JOIN.LEFT_OUTER)
        .join_from(GigRole, Role)
        .where(GigRole.staff_member == member.id, Gig.gig_date >= since())
        .order_by(Gig.gig_date, Gig.start_time, GigRole.id)
    )
    roles = list(roles)
    products = products_by_gig([role.gig_id for role in roles])
    calendar = new_calendar(f"Band Office: {member.first_name} {member.last_name}")
    for role in roles:
        played = [p.product.name for p in products.get(role.gig_id, []) if p.id == role.gig_product_id]
        details = [f"Role: {', '.join([role.role.name, *played])}"]
        if role.call_time:
            details.append(f"Call time: {role.call_time}")
        event = gig_event(role.gig, products, default_timezone, details, f"{role.id}@band-office")
        event["summary"] = f"{role.gig.title} ({role.role.name})"
        calendar.add_component(event)
    return finish(calendar)


class OfficeFeedCopy:
    """The office feed, built once per database change and served from that copy: calendar apps poll it, and
    building it for every poll would take the server down at ten thousand gigs."""

    def __init__(self):
        self.lock = threading.Lock()
        self.watch = dialect.ChangeWatch()
        self.version, self.key, self.body = None, None, None

    def get(self, default_timezone):
        with self.lock:  # one build at a time; who waited gets the copy just built
            version = self.watch.version()
            fresh = self.key and version == self.version and self.key[1:] == (default_timezone, since())
            if not fresh:  # something changed: was it anything the feed shows? Asked and built once per change
                with dialect.without_budget():  # for every poll until the next: the server's work, not a request's
                    key = (fingerprint(), default_timezone, since())
                    if key != self.key:
                        self.body, self.key = office_feed(default_timezone), key
                self.version = version
            return self.body


# What the office feed is made of, as (rows, last change) per table: any write through the API moves one.
FEED_TABLES = (Gig, Venue, GigStatus, GigProduct, Product)


def fingerprint():
    """One statement: how many rows, and the last change, of each table the feed shows."""
    parts = [
        f"(SELECT COUNT(*) || ' ' || COALESCE(MAX(updated_at), '') FROM \"{m._meta.table_name}\")" for m in FEED_TABLES
    ]
    return tuple(db.execute_sql(f"SELECT {', '.join(parts)}").fetchone())


def office_feed(default_timezone):
    """Every gig from 60 days back onward that is not cancelled."""
    gigs = list(
        Gig.select(Gig, Venue, GigStatus)
        .join(Venue, JOIN.LEFT_OUTER)
        .join_from(Gig, GigStatus, JOIN.LEFT_OUTER)
        .where(NOT_CANCELLED, Gig.gig_date >= since())
        .order_by(Gig.gig_date, Gig.start_time, Gig.id)
    )
    products = products_by_gig([gig.id for gig in gigs])
    calendar = new_calendar("Band Office: all gigs")
    for gig in gigs:
        calendar.add_component(gig_event(gig, products, default_timezone, [], f"{gig.id}@band-office"))
    return finish(calendar)


def since():
    return (dt.date.today() - dt.timedelta(days=DAYS_BACK)).isoformat()


def products_by_gig(gig_ids):
    rows = (
        GigProduct.select(GigProduct, Product)
        .join(Product)
        .where(GigProduct.gig.in_(gig_ids))
        .order_by(GigProduct.position, GigProduct.start_time, GigProduct.id)
    )
    found = {}
    for row in rows:
        found.setdefault(row.gig_id, []).append(row)
    return found


def new_calendar(name):
    import icalendar  # here: some 3 MB, loaded by the first feed asked for, not by every server

    calendar = icalendar.Calendar()
    calendar.add("prodid", "-//Band Office//Band Office 1.0//EN")
    calendar.add("version", "2.0")
    calendar.add("x-wr-calname", name)
    return calendar


def gig_event(gig, products, default_timezone, details, uid):
    """One event for the gig: its time in the venue's zone (its whole date when it has no times)."""
    venue = gig.venue if gig.venue_id else None
    zone_name = (venue.timezone if venue else None) or default_timezone
    zone = zoneinfo.ZoneInfo(zone_name) if zone_name else None  # None: floating, the same wall-clock anywhere
    import icalendar  # here: some 3 MB, loaded by the first feed asked for, not by every server

    event = icalendar.Event()
    event.add("uid", uid)
    event.add("summary", gig.title)
    event.add("dtstamp", dt.datetime.fromisoformat(gig.updated_at))
    if gig.start_time is None and gig.end_time is None:
        event.add("dtstart", dt.date.fromisoformat(gig.gig_date))
        event.add("dtend", dt.date.fromisoformat(gig.gig_date) + dt.timedelta(days=1))
    else:
        start, end = window(gig)
        event.add("dtstart", start.replace(tzinfo=zone))
        event.add("dtend", end.replace(tzinfo=zone))
    status = gig.gig_status if gig.gig_status_id else None
    event.add("status", EVENT_STATUS.get(status.kind if status else None, "CONFIRMED"))
    if venue:
        event.add("location", one_line(venue))
    lines = [*details, *(product_line(p) for p in products.get(gig.id, []))]
    if gig.load_in_time:
        lines.append(f"Load-in: {gig.load_in_time}")
    if status:
        lines.append(f"Status: {status.name}")
    if lines:
        event.add("description", "\n".join(lines))
    return event


def product_line(gig_product):
    times = "–".join(filter(None, [gig_product.start_time, gig_product.end_time]))
    return f"{gig_product.product.name}: {times}" if times else gig_product.product.name


def finish(calendar):
    """The feed's text, every zone its events name defined first, by yearly rules (time_zones)."""
    first_year = int(since()[:4])
    last_year = max((event.end.year for event in calendar.events), default=first_year)
    zones = sorted(calendar.get_missing_tzids())
    calendar.subcomponents[:0] = [vtimezone(name, first_year, last_year) for name in zones]
    return calendar.to_ical()


def active_member(member_id):
    """The staff member, when active and with their linked user (if any) active too: whose feed may be served,
    who may answer an invitation by its link; else None."""
    query = StaffMember.select().join(User, JOIN.LEFT_OUTER, on=StaffMember.user == User.id)
    return query.where(
        StaffMember.id == member_id,
        StaffMember.active == True,  # noqa: E712
        User.id.is_null() | (User.active == True),  # noqa: E712
    ).get_or_none()
