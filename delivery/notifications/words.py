"""How notifications say things (SPEC §9): dates, times, places and money in plain English, and the aligned
lines of facts a message lists. Plain functions on plain values; no database, no Flask."""

import datetime as dt
import zoneinfo

DAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December")  # fmt: skip
TITLE_CHARS = 60  # of a gig's title in a subject line: the subject stays readable at a glance
NOT_SET = "not set"


def day(date_text):
    """`2027-06-12` -> `Sat 12 June 2027` (whatever the server's locale)."""
    date = dt.date.fromisoformat(date_text)
    return f"{DAYS[date.weekday()]} {date.day} {MONTHS[date.month - 1]} {date.year}"


def hours(start, end):
    """The times of a gig: `18:00–23:00`, `from 18:00`, `until 23:00`, or None."""
    if start and end:
        return f"{start}–{end}"
    if start or end:
        return f"from {start}" if start else f"until {end}"
    return None


def when(gig):
    """`Sat 12 June 2027, 18:00–23:00`."""
    return ", ".join(part for part in (day(gig.gig_date), hours(gig.start_time, gig.end_time)) if part)


def moment(stamp, zone_name=None):
    """A stored UTC timestamp as a reader's wall-clock time: `Thu 10 June 2027, 14:03 CEST`, in `zone_name`
    (the venue's, else the service's) or else the server's own zone."""
    instant = dt.datetime.fromisoformat(stamp.replace("Z", "+00:00"))
    local = instant.astimezone(zoneinfo.ZoneInfo(zone_name) if zone_name else None)
    return f"{day(local.date().isoformat())}, {local:%H:%M} {local.tzname()}"


def money(cents, currency):
    """`35000, "EUR"` -> `350.00 EUR`; None when the pay is not known."""
    return None if cents is None else f"{cents / 100:,.2f} {currency}"


def short(text, limit=TITLE_CHARS):
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def person(first_name, last_name):
    return " ".join(part for part in (first_name, last_name) if part)


def listing(names):
    """`["Bass"]` -> `Bass`; `["Bass", "Keys", "Vocals"]` -> `Bass, Keys and Vocals`."""
    names = list(names)
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def facts(pairs):
    """Lines `  Label:  value`, aligned, for the pairs whose value is known."""
    known = [(label, value) for label, value in pairs if value not in (None, "")]
    width = max((len(label) for label, _ in known), default=0) + 2
    return "\n".join(f"  {label + ':':<{width}}{value}" for label, value in known)


def indented(text):
    return "\n".join("  " + line for line in text.strip().splitlines())


def change(old, new):
    return f"{old or NOT_SET} → {new or NOT_SET}"
