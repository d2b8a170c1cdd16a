"""Rate limits (SPEC §2.3), all sliding windows of `RateLimiter`: per client address, for the endpoints that take a
secret without a bearer (sign-in, answer links, a client link that is not live: `limit_rate`), a live client link's
and the public ones of new couples (SPEC §16: an inquiry, a date's availability: `limit_address`); and per user,
for the writes of a user who may edit nothing (`limit_user_writes`)."""

import collections
import math
import threading
import time

from flask import current_app, request

from domain.errors import ApiError


class RateLimiter:
    """A sliding window per key (a client address, a user id): at most `limit` requests in any `window` seconds."""

    def __init__(self, limit, window):
        self.limit, self.window = limit, window
        self.hits = collections.defaultdict(collections.deque)
        self.lock = threading.Lock()

    def retry_after(self, address):
        """0 when the request may go ahead (and is counted), else the seconds to wait."""
        moment = time.monotonic()
        with self.lock:
            hits = self.hits[address]
            while hits and hits[0] <= moment - self.window:
                hits.popleft()
            if len(hits) >= self.limit:
                return max(1, math.ceil(hits[0] + self.window - moment))
            hits.append(moment)
            if len(self.hits) > 10_000:
                self._forget_idle(moment)
            return 0

    def _forget_idle(self, moment):
        for address in [a for a, h in self.hits.items() if not h or h[-1] <= moment - self.window]:
            del self.hits[address]


def limit_rate():
    """429 past the sign-in rate of the client's address (behind a trusted
    proxy, the one it forwards: server/client_addresses.py)."""
    limit_address("auth_rate")


def limit_address(limiter):
    """429 past the rate of the app's limiter named `limiter` (an `app.extensions` key) for the client's address."""
    wait = current_app.extensions[limiter].retry_after(request.remote_addr or "-")
    if wait:
        message = f"Too many requests from this address; try again in {wait} s."
        raise ApiError(429, "rate_limited", message, headers={"Retry-After": str(wait)})


def limit_user_writes(user_id):
    """The write rate of a user without any `.edit` capability (SPEC §2.3), counted per user wherever they write
    from: a musician's phone and laptop share one budget."""
    wait = current_app.extensions["member_writes"].retry_after(user_id)
    if wait:
        message = f"Too many changes in a short time; try again in {wait} s."
        raise ApiError(429, "rate_limited", message, headers={"Retry-After": str(wait)})
