"""Waits between attempts, with jitter: the one back-off of mail, push and webhooks. A schedule is a sequence
of waits in seconds; each wait is stretched or shrunk by up to a share of itself, so that the retries of many
messages that failed together do not arrive in step. A receiver may ask for a longer wait (`Retry-After`)."""

import datetime as dt
import email.utils
import random

from models import timestamp

RETRY_AFTER_MAX_SECONDS = 3600


def jittered(seconds, share):
    """`seconds` stretched or shrunk at random by up to `share` of it."""
    return seconds * random.uniform(1 - share, 1 + share)


def nth_wait(waits, attempts):
    """The wait after `attempts` failed attempts (from 1), the last of `waits` repeating."""
    return waits[min(attempts, len(waits)) - 1]


def retry_after_seconds(value, moment):
    """A `Retry-After` header (seconds or an HTTP date) in seconds from `moment`, at most an hour; None when
    it says nothing usable."""
    if not value:
        return None
    value = value.strip()
    if value.isascii() and value.isdigit():
        seconds = float(value)
    else:
        try:
            seconds = (email.utils.parsedate_to_datetime(value) - moment).total_seconds()
        except (TypeError, ValueError):
            return None
    return min(max(seconds, 0.0), RETRY_AFTER_MAX_SECONDS)


def seconds_after(stored, seconds):
    """The stored timestamp `seconds` after the stored timestamp `stored`: when a wait counted from it ends."""
    return timestamp(dt.datetime.fromisoformat(stored) + dt.timedelta(seconds=seconds))
