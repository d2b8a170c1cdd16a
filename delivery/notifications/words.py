"""How notifications say things (SPEC §9): dates, times, places and money in plain English, dates and times in the
office's date style and clock (a `style`: anything with `date_style` and `clock`, as `domain.office.Office`), and the
aligned lines of facts a message lists. Plain functions on plain values; no database, no Flask."""

import datetime as dt
import zoneinfo

DAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
TITLE_CHARS = 60  # of a gig's title in a subject line: the subject stays readable at a glance
NOT_SET = "not set"


DATES = {  # models.DATE_STYLES: how each writes a date
    "dd.mm.yyyy": "{d:02}.{m:02}.{y:04}",
    "dd/mm/yyyy": "{d:02}/{m:02}/{y:04}",
    "mm/dd/yyyy": "{m:02}/{d:02}/{y:04}",
    "yyyy-mm-dd": "{y:04}-{m:02}-{d:02}",
}


def day(date_text, style):
    """`2027-06-12` -> `Sat 12.06.2027` in the style's date style (whatever the server's locale)."""
    date = dt.date.fromisoformat(date_text)
    return f"{DAYS[date.weekday()]} " + DATES[style.date_style].format(d=date.day, m=date.month, y=date.year)


def clock(time_text, style):
    """`18:00` -> `18:00` on a 24-hour clock, `6:00 PM` on a 12-hour one; None stays None."""
    if not time_text or style.clock == "24h":
        return time_text
    hour, minute = (int(part) for part in time_text.split(":"))
    return f"{(hour - 1) % 12 + 1}:{minute:02} {'AM' if hour < 12 else 'PM'}"


def hours(start, end, style):
    """The times of a gig: `18:00–23:00`, `from 18:00`, `until 23:00`, or None."""
    start, end = clock(start, style), clock(end, style)
    if start and end:
        return f"{start}–{end}"
    if start or end:
        return f"from {start}" if start else f"until {end}"
    return None


def when(gig, style):
    """`Sat 12.06.2027, 18:00–23:00`."""
    return ", ".join(part for part in (day(gig.gig_date, style), hours(gig.start_time, gig.end_time, style)) if part)


def moment(stamp, zone_name, style):
    """A stored UTC timestamp as a reader's wall-clock time in `zone_name` (the venue's, else the office's):
    `Thu 10.06.2027, 14:03 CEST`."""
    local = dt.datetime.fromisoformat(stamp.replace("Z", "+00:00")).astimezone(zoneinfo.ZoneInfo(zone_name))
    return f"{day(local.date().isoformat(), style)}, {clock(f'{local:%H:%M}', style)} {local.tzname()}"


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
