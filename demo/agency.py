"""How big the demo office is: the example band's (a season of some sixty gigs, one crew) or, for a number of
gigs, a booking agency's: the days its gigs span, how they fall on them, and how many crews it needs, each with as
many staff, venues, planners and items of equipment as the example band has, under other names."""

import datetime as dt
import itertools
import math
from dataclasses import dataclass

from demo.data import CUSTOM_FIELDS, FIRST_NAMES, LAST_NAMES, STAFF, VENUES

DAYS_BACK, DAYS_AHEAD = 120, 365
GIGS_A_YEAR = 20_000  # an agency with more gigs than this keeps more years on record
MORE_YEARS = 4  # at most, three back and one ahead
GIGS_A_CREW = 3  # the most gigs the example band's staff and equipment play on one day
BLOCKOUTS_A_CREW = 16  # over the example's span of days
BATCH_GIGS = 500  # gigs written between two flushes
MAX_GIGS = 100_000  # the largest office built in minutes on a small machine (docs/benchmarks.md); more is refused

# Monday first: weddings are on Saturdays, then Fridays and Sundays; weekdays have a few corporate events.
WEEKDAY_WEIGHTS = (0.6, 0.6, 0.6, 0.6, 2.5, 6, 2)
SHIRT_SIZES = [*CUSTOM_FIELDS[4][4], None]
VENUE_KINDS = {
    "AT": ["Schloss", "Gut", "Landhaus", "Weingut", "Hotel", "Stift"],
    "DE": ["Schloss", "Gut", "Gutshof", "Villa", "Kloster", "Hofgut"],
    "IT": ["Villa", "Tenuta", "Palazzo", "Castello", "Agriturismo"],
}
VENUE_NAMES = {
    "AT": ["Rosenau", "Falkenstein", "Waldegg", "Sonnberg", "Lindenau", "Mühlbach", "Eichbühel", "Seewinkel"],
    "DE": ["Eichenhain", "Birkenried", "Seeleiten", "Mühlental", "Rosenhang", "Lindenberg", "Wolfsegg"],
    "IT": ["Belvedere", "San Vito", "dei Pini", "Bellavista", "del Sole", "delle Rose", "Montalto"],
}
STREETS = {
    "AT": ["Hauptstraße", "Dorfstraße", "Schlossweg", "Kirchgasse", "Seeuferstraße", "Am Anger"],
    "DE": ["Hauptstraße", "Schlossallee", "Am Weiher", "Klosterstraße", "Gutsweg", "Lindenallee"],
    "IT": ["Via Roma", "Via del Lago", "Strada del Vino", "Via dei Ciliegi", "Via Castello"],
}
PLANNER_FIRMS = ["Events", "Weddings", "Hochzeiten", "Eventi", "Celebrations"]


@dataclass(frozen=True)
class Size:
    """The gigs the office has (None: the example's season), the days they may fall on, and its crews."""

    gigs: int | None = None
    days_back: int = DAYS_BACK
    days_ahead: int = DAYS_AHEAD
    crews: int = 1

    def blockouts(self):
        return round(BLOCKOUTS_A_CREW * self.crews * (self.days_back + self.days_ahead) / (DAYS_BACK + DAYS_AHEAD))


def size_for(gigs, today):
    """An office with `gigs` gigs: a longer record the more it has, and crews enough for its busiest days."""
    if gigs is None:
        return Size()
    more = min(MORE_YEARS, gigs // GIGS_A_YEAR)
    back, ahead = DAYS_BACK + 365 * (more - more // 3), DAYS_AHEAD + 365 * (more // 3)
    weights = [day_weight(day) for day in span(today, back, ahead)]
    busiest = gigs * max(weights) / sum(weights)
    # The busiest days draw more than their share now and then: room for two standard deviations more.
    crews = max(1, math.ceil((busiest + 2 * math.sqrt(busiest)) / GIGS_A_CREW))
    return Size(gigs, back, ahead, crews)


def span(today, back, ahead):
    return [today + dt.timedelta(days=offset) for offset in range(-back, ahead + 1)]


def day_weight(day):
    """How busy the day is: the weekday, and the season (summer weddings, Christmas parties)."""
    month = 2 if 5 <= day.month <= 9 else 1.3 if day.month in (4, 10) else 1.2 if day.month == 12 else 0.7
    return WEEKDAY_WEIGHTS[day.weekday()] * month


def agency_season(office):
    """Exactly the office's number of gig dates, drawn by how busy each day is, in order."""
    days = span(office.today, office.size.days_back, office.size.days_ahead)
    weights = [day_weight(office.drawn(day)) for day in days]
    return sorted(office.rng.choices(days, weights=weights, k=office.size.gigs))


def batches(season):
    """The season's dates in runs of whole days of about BATCH_GIGS gigs (the example's season: one run)."""
    batch = []
    for _, dates in itertools.groupby(season):
        batch += dates
        if len(batch) >= BATCH_GIGS:
            yield batch
            batch = []
    if batch:
        yield batch


def more_staff(office):
    """For each crew after the first, players of the example band's roles (primary first) under other names."""
    first_names = FIRST_NAMES["Bride"] + FIRST_NAMES["Groom"]
    for _ in range(office.size.crews - 1):
        for _, _, roles, _ in STAFF:
            yield office.rng.choice(first_names), office.rng.choice(LAST_NAMES), roles, office.rng.choice(SHIRT_SIZES)


def more_venues(office):
    """For each crew after the first, as many venues as the example band plays at, in the same towns."""
    for _ in range(len(VENUES) * (office.size.crews - 1)):
        *_, postal_code, city, region, country, timezone = office.rng.choice(VENUES)
        name = f"{office.rng.choice(VENUE_KINDS[country])} {office.rng.choice(VENUE_NAMES[country])}"
        street = f"{office.rng.choice(STREETS[country])} {office.rng.randint(1, 120)}"
        yield name, street, postal_code, city, region, country, timezone


def more_planners(office, count):
    """`count` more wedding planners, each with a firm of their own."""
    for _ in range(count):
        first, last = office.rng.choice(FIRST_NAMES["Bride"]), office.rng.choice(LAST_NAMES)
        yield first, last, f"{last} {office.rng.choice(PLANNER_FIRMS)}"
