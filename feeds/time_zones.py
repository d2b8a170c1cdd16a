"""VTIMEZONE components as calendar programs write them (SPEC §5.6): one STANDARD and one DAYLIGHT rule that
recur yearly (RRULE), derived from the zone's changes as zoneinfo knows them, rather than a list of every change
date, which some readers (vobject) get wrong. A zone whose rule changed, or whose changes follow no yearly rule
(around Ramadan), gets a rule with UNTIL for each run of years and a single change where no rule fits."""

import calendar
import datetime as dt
import functools
import zoneinfo
from typing import NamedTuple

STEP = 86400  # a zone may change and change back within a week (Gaza, around Ramadan); not within a day
WEEKDAYS = ("MO", "TU", "WE", "TH", "FR", "SA", "SU")
RULE_PREFERENCE = ("nth", "date", "from")  # "the last Sunday" before "the 25th" before "a Sunday from the 25th"


class State(NamedTuple):
    offset: dt.timedelta
    name: str
    is_dst: bool


class Change(NamedTuple):
    """One change of the zone's offset or name: the wall time it happens at (in the offset before it), the
    instant in UTC, and the states before and after."""

    local: dt.datetime
    utc: dt.datetime
    before: State
    after: State


@functools.lru_cache(maxsize=256)
def vtimezone(zone_name, first_year, last_year):
    """The VTIMEZONE of `zone_name` for events from `first_year` to `last_year`: the zone's changes from a year
    before to a year after, the last yearly rules going on."""
    zone = zoneinfo.ZoneInfo(zone_name)
    start = dt.datetime(first_year - 1, 1, 1, tzinfo=dt.UTC)
    changes = changes_between(zone, start, start.replace(year=last_year + 2))
    import icalendar  # here: some 3 MB, loaded by the first feed asked for, not by every server

    component = icalendar.Timezone()
    component.add("tzid", zone_name)
    if not changes or changes[0].utc.year >= first_year:  # nothing in force before the first event yet
        opening = state_at(zone, start.timestamp())
        component.add_component(observance(opening, opening, start.replace(tzinfo=None)))
    for run in yearly_runs(changes):
        component.add_component(observance_of_run(run, open_ended=run[-1].utc.year > last_year))
    return component


def state_at(zone, stamp):
    local = dt.datetime.fromtimestamp(stamp, zone)
    return State(local.utcoffset(), local.tzname(), bool(local.dst()))


def changes_between(zone, start, end):
    """Every change of the zone's state from `start` to `end` (UTC), found a day at a time, then to the second."""
    found, moment, state = [], int(start.timestamp()), state_at(zone, start.timestamp())
    end_stamp = int(end.timestamp())
    while moment < end_stamp:
        step = moment + STEP
        if state_at(zone, step) == state:
            moment = step
            continue
        moment = first_second_after(zone, moment, step, state)
        after = state_at(zone, moment)
        found.append(Change(utc(moment).replace(tzinfo=None) + state.offset, utc(moment), state, after))
        state = after
    return found


def utc(stamp):
    return dt.datetime.fromtimestamp(stamp, dt.UTC)


def first_second_after(zone, low, high, state):
    """The first second in (low, high] at which the zone is no longer in `state`."""
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (middle, high) if state_at(zone, middle) == state else (low, middle)
    return high


def yearly_runs(changes):
    """The changes grouped into runs of one change a year that one yearly rule describes."""
    runs = {}  # (before, after) -> list of runs, each [rules, change, change...]
    for change in changes:
        same_kind = runs.setdefault((change.before, change.after), [])
        rules = rules_for(change.local)
        last = same_kind[-1] if same_kind else None
        if last and change.local.year == last[-1].local.year + 1 and last[0] & rules:
            last[0] &= rules
            last.append(change)
        else:
            same_kind.append([rules, change])
    return sorted((run for kind in runs.values() for run in kind), key=lambda run: run[1].utc)


def rules_for(local):
    """Every yearly rule that puts a change on this wall time: (month, time, kind, number, weekday)."""
    day, month_length, weekday = local.day, calendar.monthrange(local.year, local.month)[1], WEEKDAYS[local.weekday()]
    key = (local.month, local.time())
    rules = {(*key, "date", day, None)}
    if day <= 28:
        rules.add((*key, "nth", (day - 1) // 7 + 1, weekday))
    if day + 7 > month_length:
        rules.add((*key, "nth", -1, weekday))
    rules |= {(*key, "from", first, weekday) for first in range(max(1, day - 6), min(day, month_length - 6) + 1)}
    return rules


def observance_of_run(run, open_ended):
    rules, first, *rest = run
    component = observance(first.before, first.after, first.local)
    if rest:
        rule = recurrence(min(rules, key=lambda rule: (RULE_PREFERENCE.index(rule[2]), rule)))
        # A day past the last change: some readers (dateutil's) compare UNTIL to local times as if it were one.
        component.add("rrule", rule if open_ended else {**rule, "UNTIL": rest[-1].utc + dt.timedelta(days=1)})
    return component


def observance(before, after, local):
    import icalendar  # here: some 3 MB, loaded by the first feed asked for, not by every server

    component = icalendar.TimezoneDaylight() if after.is_dst else icalendar.TimezoneStandard()
    component.add("tzname", after.name)
    component.add("tzoffsetfrom", before.offset)
    component.add("tzoffsetto", after.offset)
    component.add("dtstart", local)
    return component


def recurrence(rule):
    month, _, kind, number, weekday = rule
    if kind == "nth":
        return {"FREQ": "YEARLY", "BYMONTH": month, "BYDAY": f"{number}{weekday}"}
    if kind == "date":
        return {"FREQ": "YEARLY", "BYMONTH": month, "BYMONTHDAY": number}
    return {"FREQ": "YEARLY", "BYMONTH": month, "BYDAY": weekday, "BYMONTHDAY": list(range(number, number + 7))}
