"""Waits between attempts, with jitter: the one back-off of mail, push and webhooks. A schedule is a sequence
of waits in seconds; each wait is stretched or shrunk by up to a share of itself, so that the retries of many
messages that failed together do not arrive in step."""

import random


def jittered(seconds, share):
    """`seconds` stretched or shrunk at random by up to `share` of it."""
    return seconds * random.uniform(1 - share, 1 + share)


def nth_wait(waits, attempts):
    """The wait after `attempts` failed attempts (from 1), the last of `waits` repeating."""
    return waits[min(attempts, len(waits)) - 1]
