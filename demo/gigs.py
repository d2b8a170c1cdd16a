"""The demo's season of gigs: the dates, and for each gig its status, clients, products and timetable, with its
music, staff and equipment added the way the office would have."""

import datetime as dt

from demo.agency import agency_season
from demo.data import CHARITIES, COMPANIES, CUSTOM_FIELDS, FIRST_NAMES, GIG_NOTES, GUESTS, LAST_NAMES, OFFERED, PARKING
from demo.music import plan_music, write_run_of_show
from demo.office import clock
from demo.people import write_contact
from demo.production import equip_gig
from demo.staffing import staff_product
from models import Ensemble, Gig, GigContact, GigProduct, GigStatus, GigType, Product, timestamp

MAX_GIGS = 64
GIG_TYPE_WEIGHTS = {"Wedding": 16, "Corporate event": 2, "Private party": 2, "Gala": 1}
PRODUCT_CODES = {"C": "Ceremony", "H": "Cocktail hour", "R": "Reception", "A": "Afterparty DJ"}


def season(office):
    """The gig dates: mostly Saturdays, busiest from May to September, some Fridays and Sundays."""
    if office.size.gigs is not None:
        return agency_season(office)
    days = []
    for offset in range(-office.size.days_back, office.size.days_ahead + 1):
        day = office.today + dt.timedelta(days=offset)
        days += [day] * gigs_on(office, day)
    # Two summers fall into the range on some days of the year: keep the file about the same size.
    return sorted(office.rng.sample(days, min(len(days), MAX_GIGS)))


def gigs_on(office, day):
    day = office.drawn(day)
    summer = 5 <= day.month <= 9
    if day.weekday() == 5:
        weights = [1, 3, 4, 2] if summer else [2, 5, 3, 0] if day.month in (4, 10) else [5, 5, 0, 0]
        return office.rng.choices(range(4), weights=weights)[0]
    if day.weekday() in (4, 6) and office.rng.random() < (0.25 if summer else 0.05):
        return 1
    return 0


def write_gig(office, day):
    gig_type = office.pick(GIG_TYPE_WEIGHTS)
    status = status_on(office, day)
    booked = office.between(office.founded, min(office.now, office.noon(day)) - dt.timedelta(days=30))
    booked = min(booked, office.now - dt.timedelta(days=14))
    plan = package(office, gig_type)
    planned = status != "Inquiry" or (day != office.last_day and office.rng.random() < 0.5)
    slots = timetable(office, plan, gig_type) if planned else None
    gig = new_gig(office, day, gig_type, status, booked, slots)
    fill_gig(office, gig, plan, slots, booked)
    if status == "Confirmed" and day < office.today:
        gig.gig_status = office.get(GigStatus, "Completed")  # it was played (written at the next flush)


def status_on(office, day):
    """Past gigs were played (a few called off); the further ahead, the more are still tentative, and the
    furthest are inquiries not yet planned."""
    if day == office.last_day:
        return "Inquiry"
    days = (day - office.today).days
    if days < 0:
        return office.pick({"Confirmed": 8, "Cancelled": 1})
    if days < 90:
        return office.pick({"Confirmed": 17, "Hold": 1, "Inquiry": 1, "Cancelled": 1})
    return office.pick({"Confirmed": 12, "Hold": 3, "Inquiry": 3, "Cancelled": 1})


def package(office, gig_type):
    """The products booked, in the order they happen."""
    if gig_type == "Wedding":
        choices = {"C+H+R": 4, "C+R": 3, "R": 2, "C": 1, "C+H+R+A": 1, "R+A": 1}
    elif gig_type == "Private party":
        choices = {"R": 3, "R+A": 1, "H": 1}
    else:
        choices = {"H+R": 2, "R": 2, "H": 1}
    return [PRODUCT_CODES[code] for code in office.pick(choices).split("+")]


def timetable(office, plan, gig_type):
    """{product: (start, end)} in minutes after midnight; the reception may run past midnight."""
    start = office.rng.choice([660, 750, 780, 840, 900, 930]) if plan[0] == "Ceremony" else 1080
    slots = {}
    for product in plan:
        if product == "Reception":
            start = max(start, office.rng.choice([1080, 1110, 1140, 1170]))
        length = {"Ceremony": 45, "Cocktail hour": 90 if gig_type == "Wedding" else 120, "Afterparty DJ": 120}
        minutes = length.get(product) or office.rng.choice([300, 330, 360, 390])
        slots[product] = (start, start + minutes)
        start += minutes + (15 if product == "Ceremony" else 0)
    return slots


def new_gig(office, day, gig_type, status, booked, slots):
    title, contacts = clients(office, gig_type, day)
    changed = last_changed(office, day, status, booked)
    gig = office.add(
        Gig,
        when=booked,
        updated_at=timestamp(changed),
        gig_date=day.isoformat(),
        title=title,
        gig_status=office.get(GigStatus, status),
        gig_type=office.get(GigType, gig_type),
        venue=office.rng.choice(office.venues),
        guest_count=office.rng.randint(*GUESTS[gig_type]),
        notes=office.rng.choice(GIG_NOTES),
        custom_fields=gig_custom_fields(office),
        **gig_times(office, slots),
    )
    if status == "Cancelled":
        office.cancelled[gig.id] = changed
    link_contacts(office, gig, contacts, booked)
    return gig


def last_changed(office, day, status, booked):
    """A cancelled gig was called off after its roles were filled (those take up to 20 days)."""
    if status != "Cancelled":
        return booked
    limit = min(office.now, office.noon(day))
    return office.between(min(booked + dt.timedelta(days=21), limit), limit)


def gig_times(office, slots):
    if slots is None:
        return {}
    start, end = min(s for s, _ in slots.values()), max(e for _, e in slots.values())
    load_in = start - office.rng.choice([60, 90, 120])
    return {"start_time": clock(start), "end_time": clock(end), "load_in_time": clock(load_in)}


def gig_custom_fields(office):
    values = {}
    if office.rng.random() < 0.7:
        values["dress_code"] = office.rng.choice(CUSTOM_FIELDS[0][4])
    if office.rng.random() < 0.35:
        values["parking"] = office.rng.choice(PARKING)
    if office.rng.random() < 0.5:
        values["band_meal"] = office.rng.random() < 0.8
    return values


def clients(office, gig_type, day):
    """The gig's title and its contacts as [(contact, relationship)], the primary first."""
    if gig_type == "Wedding":
        return couple(office)
    first, last = office.rng.choice(office.rng.choice(list(FIRST_NAMES.values()))), office.rng.choice(LAST_NAMES)
    if gig_type == "Private party":
        age = office.rng.choice([40, 50, 60, 70, 80])
        return f"{first} {last}'s {age}th birthday", [(write_contact(office, first, last), "Host")]
    company = office.rng.choice(COMPANIES)
    month = office.drawn(day).month
    occasion = "summer party" if 5 <= month <= 9 else "Christmas party" if month == 12 else "anniversary"
    title = f"{office.rng.choice(CHARITIES)} charity gala" if gig_type == "Gala" else f"{company} {occasion}"
    return title, [(write_contact(office, first, last, company), "Event manager")]


def couple(office):
    relationships = office.pick({("Bride", "Groom"): 8, ("Bride", "Bride"): 1, ("Groom", "Groom"): 1})
    first = office.rng.choice(FIRST_NAMES[relationships[0]])
    partner = office.rng.choice([name for name in FIRST_NAMES[relationships[1]] if name != first])
    last = office.rng.choice(LAST_NAMES)
    partner_last = last if office.rng.random() < 0.3 else office.rng.choice(LAST_NAMES)
    contacts = [
        (write_contact(office, first, last), relationships[0]),
        (write_contact(office, partner, partner_last), relationships[1]),
    ]
    if office.rng.random() < 0.4:
        contacts.append((office.rng.choice(office.planners), "Wedding planner"))
    return f"{first} & {partner}'s wedding", contacts


def link_contacts(office, gig, contacts, booked):
    for rank, (contact, relationship) in enumerate(contacts):
        link = dict(contact=contact, relationship=relationship, is_primary=rank == 0)
        office.add(GigContact, when=booked, gig=gig, **link)


def fill_gig(office, gig, plan, slots, booked):
    status = gig.gig_status.name
    products = [gig_product(office, gig, name, slots, position, booked) for position, name in enumerate(plan, 1)]
    moments = plan_music(office, gig, products, slots, booked)
    for product in products:
        staff_product(office, gig, product, slots, booked)
    # The crew packs for the next two months; what went out on past gigs stays on record.
    if status in ("Confirmed", "Hold") and office.days_until(gig) <= 60:
        equip_gig(office, gig, products, booked)
    if status == "Confirmed" and -60 <= office.days_until(gig) <= 90 and office.rng.random() < 0.5:
        write_run_of_show(office, gig, moments, booked)


def gig_product(office, gig, name, slots, position, booked):
    """The product with an ensemble chosen (not yet for some inquiries) at the catalogue's price."""
    product = office.get(Product, name)
    chosen = gig.gig_status.name != "Inquiry" or office.rng.random() < 0.5
    ensemble = office.get(Ensemble, office.pick(OFFERED[name])) if chosen else None
    start, end = slots[name] if slots else (None, None)
    return office.add(
        GigProduct,
        when=booked,
        gig=gig,
        product=product,
        ensemble=ensemble,
        start_time=clock(start) if slots else None,
        end_time=clock(end) if slots else None,
        price_cents=office.price(product, ensemble, gig.gig_date),
        position=position,
    )
