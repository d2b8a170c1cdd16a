"""Calendar feeds (SPEC §5.6) built with the icalendar library: a staff member's gigs, or the office's.
Times are the venue's wall-clock times in its time zone (or the configured default). They are built off the
request, as `feeds/copies.py` says, each build taking what it can from the previous one."""

import datetime as dt
import hashlib
import time
import zoneinfo

from peewee import JOIN

from domain.postal_addresses import one_line
from domain.rules import window
from feeds.time_zones import vtimezone
from models import NOT_CANCELLED, Gig, GigProduct, GigRole, GigStatus, Product, Role, StaffMember, User, Venue, db

EVENT_STATUS = {"inquiry": "TENTATIVE", "tentative": "TENTATIVE", "cancelled": "CANCELLED"}  # else CONFIRMED
CALENDAR_END = b"END:VCALENDAR\r\n"


def feed(subject, default_timezone, past_days, memo):
    """(text, memo) of the feed `subject` names: ("office",) or ("staff", member id); see `assembled`."""
    if subject == ("office",):
        return office_feed(default_timezone, past_days, memo)
    return staff_feed(subject[1], default_timezone, past_days, memo)


def staff_feed(member_id, default_timezone, past_days, memo):
    """The staff member's roles on gigs from `past_days` back onward, one event each."""
    roles = (
        GigRole.select(GigRole, Gig, Role, Venue, GigStatus)
        .join(Gig)
        .join(Venue, JOIN.LEFT_OUTER)
        .join_from(Gig, GigStatus, JOIN.LEFT_OUTER)
        .join_from(GigRole, Role)
        .where(GigRole.staff_member == member_id, Gig.gig_date >= since(past_days))
        .order_by(Gig.gig_date, Gig.start_time, GigRole.id)
    )
    member = StaffMember.get_or_none(StaffMember.id == member_id)
    name = f"Band Office: {member.first_name} {member.last_name}" if member else "Band Office"

    def events_of(chosen):
        found = chosen_rows(roles, GigRole.id, chosen)
        products = products_by_gig([role.gig_id for role in found])
        return {role.id: role_event(role, products, default_timezone) for role in found}

    return assembled(name, roles, GigRole.id, events_of, past_days, memo)


def role_event(role, products, default_timezone):
    played = [p.product.name for p in products.get(role.gig_id, []) if p.id == role.gig_product_id]
    details = [f"Role: {', '.join([role.role.name, *played])}"]
    if role.call_time:
        details.append(f"Call time: {role.call_time}")
    event = gig_event(role.gig, products, default_timezone, details, f"{role.id}@band-office")
    event["summary"] = f"{role.gig.title} ({role.role.name})"
    return event


def office_feed(default_timezone, past_days, memo):
    """Every gig from `past_days` back onward that is not cancelled."""
    gigs = (
        Gig.select(Gig, Venue, GigStatus)
        .join(Venue, JOIN.LEFT_OUTER)
        .join_from(Gig, GigStatus, JOIN.LEFT_OUTER)
        .where(NOT_CANCELLED, Gig.gig_date >= since(past_days))
        .order_by(Gig.gig_date, Gig.start_time, Gig.id)
    )

    def events_of(chosen):
        found = chosen_rows(gigs, Gig.id, chosen)
        products = products_by_gig([gig.id for gig in found])
        return {gig.id: gig_event(gig, products, default_timezone, [], f"{gig.id}@band-office") for gig in found}

    return assembled("Band Office: all gigs", gigs, Gig.id, events_of, past_days, memo)


CHOSEN_AT_ONCE = 500  # ids in one IN list; more, and every row is read


def chosen_rows(query, row_id, chosen):
    """The rows of `query` (models) whose `row_id` is in the set `chosen`."""
    if len(chosen) > CHOSEN_AT_ONCE:
        return [row for row in query if row.id in chosen]
    return list(query.where(row_id.in_(sorted(chosen))))


# What the feeds are made of, as (rows, last change) per table: any write through the API moves one.
FEED_TABLES = (Gig, Venue, GigStatus, GigProduct, Product, GigRole, Role, StaffMember)


def fingerprint():
    """One statement: how many rows, and the last change, of each table the feeds show."""
    parts = [
        f"(SELECT COUNT(*) || ' ' || COALESCE(MAX(updated_at), '') FROM \"{m._meta.table_name}\")" for m in FEED_TABLES
    ]
    return tuple(db.execute_sql(f"SELECT {', '.join(parts)}").fetchone())


def since(past_days):
    return (dt.date.today() - dt.timedelta(days=past_days)).isoformat()


def assembled(name, query, row_id, events_of, past_days, memo):
    """(the feed's text, its events' memo): an event for each row of `query` (`row_id` names it), in its order.
    An event's text is taken from `memo` when the rows it is made of are the same as when it was written (their
    columns as stored, read without making models); the others are made by `events_of(ids)` -> {id: event}.
    Writing an event costs half a millisecond, so writing every event of ten thousand gigs again for each change
    would take seconds where a change touches a few."""
    products = {}
    for *columns, gig_id in yielding(db.execute_sql(*product_rows(query).sql())):
        products.setdefault(gig_id, []).append(columns)
    keys = {}  # row id -> what its event is made of, in the feed's order
    for *columns, row, gig_id in yielding(db.execute_sql(*query.select_extend(row_id, Gig.id).sql())):
        keys[row] = hashlib.blake2b(repr((columns, products.get(gig_id))).encode(), digest_size=16).digest()
    made = events_of({row for row, key in keys.items() if key not in memo})
    kept = {key: memo.get(key) or written(made[row]) for row, key in yielding(keys.items())}
    first_year = int(since(past_days)[:4])
    last_year = max((end_year for _, _, end_year in kept.values()), default=first_year)
    zones = sorted(set().union(*(zones for _, zones, _ in kept.values())))
    calendar = new_calendar(name)
    calendar.subcomponents[:0] = [vtimezone(zone, first_year, last_year) for zone in zones]
    head = calendar.to_ical()  # the calendar's properties and zones, then END:VCALENDAR
    return head[: -len(CALENDAR_END)] + b"".join(text for text, _, _ in kept.values()) + CALENDAR_END, kept


def yielding(items, every=32):
    """The items, the interpreter let go every `every` of them (a millisecond's work or so): a feed is made on a
    thread of its own, and a request's thread waiting for the interpreter then waits that long, not 5 ms a turn."""
    for n, item in enumerate(items, 1):
        yield item
        if n % every == 0:
            time.sleep(0)


def product_rows(query):
    """The products of the gigs of `query`, each with its gig's id last."""
    gig_ids = query.select(Gig.id)
    rows = GigProduct.select(GigProduct, Product).join(Product).where(GigProduct.gig.in_(gig_ids))
    return rows.order_by(GigProduct.position, GigProduct.start_time, GigProduct.id).select_extend(GigProduct.gig)


def written(event):
    """(the event's text, the time zones it names, the year it ends in)."""
    alone = new_calendar("")
    alone.add_component(event)
    return event.to_ical(), alone.get_missing_tzids(), event.end.year


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


def active_member(member_id):
    """The staff member, when active and with their linked user (if any) active too: whose feed may be served,
    who may answer an invitation by its link; else None."""
    query = StaffMember.select().join(User, JOIN.LEFT_OUTER, on=StaffMember.user == User.id)
    return query.where(
        StaffMember.id == member_id,
        StaffMember.active == True,  # noqa: E712
        User.id.is_null() | (User.active == True),  # noqa: E712
    ).get_or_none()
