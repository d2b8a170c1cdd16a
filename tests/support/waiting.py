"""Polling with a deadline: what a test waits for, and how long it may take on a busy machine."""

import time

# How long a test waits for what happens "at once" on a machine of 2 cores shared with other test runs: far
# more than it takes there, far less than what it would take otherwise (a worker's interval of minutes).
SLOW_MACHINE_SECONDS = 30


def wait_for(predicate, timeout=10, interval=0.02):
    """Poll `predicate` until it gives something true, and return that; fail once `timeout` seconds passed."""
    deadline = time.monotonic() + timeout
    while not (value := predicate()):
        assert time.monotonic() < deadline, f"not so within {timeout} s"
        time.sleep(interval)
    return value
