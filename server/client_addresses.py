"""Who a request comes from, and how many of a client's requests the app serves at once (SPEC §2.3).

A client address is the address of the machine that sent the request. Behind a reverse proxy named in
BAND_TRUSTED_PROXIES it is the address the proxy forwards in X-Forwarded-For (and the scheme the client used, from
X-Forwarded-Proto); from anyone else those headers change nothing. X-Forwarded-Host is never read: the host of every
link comes from BAND_PUBLIC_URL (web.lifecycle.public_url).

waitress has a `trusted_proxy` setting of its own, but it takes one address (no networks) and translates the
headers in the app's thread, after the request was handed to it: too late for what is counted per client before
(its connections, its turn in the app). So the headers are read here, as soon as a request's headers are in.
"""

import collections
import ipaddress
import threading
from typing import NamedTuple

IN_APP_PER_CLIENT = 4  # requests of one client address the app serves at once; the rest wait their turn


class BadForwarding(ValueError):
    """A trusted proxy sent a forwarding header that names no address or scheme."""


def proxy_networks(text, name="BAND_TRUSTED_PROXIES"):
    """`127.0.0.1, ::1` -> the networks; a bad entry is a ValueError naming it."""
    networks = []
    for part in filter(None, (p.strip() for p in text.split(","))):
        try:
            networks.append(ipaddress.ip_network(part, strict=False))
        except ValueError:
            raise ValueError(f"{name}: {part!r} is not an address or a network such as 10.0.0.0/8") from None
    return tuple(networks)


class Proxies:
    """The peers whose forwarding headers are believed."""

    def __init__(self, networks):
        self.networks = networks

    def trust(self, peer):
        if not self.networks:
            return False
        return any(address_of(peer) in network for network in self.networks)


def address_of(text):
    """The address `text` names, an IPv4-mapped IPv6 address as its IPv4 one (a ValueError when it names none)."""
    address = ipaddress.ip_address(text.partition("%")[0])
    if address.version == 6 and address.ipv4_mapped:
        return address.ipv4_mapped
    return address


class Origin(NamedTuple):
    """Where one request comes from: the client's address, whether a trusted proxy forwarded it, and the scheme the
    client used (None: as the request itself says)."""

    client: str
    forwarded: bool = False
    scheme: str | None = None


def origin_of(peer, trusted, headers):
    """The origin of a request from `peer` with waitress's `headers` (HTTP_ names without the prefix)."""
    if not trusted:
        return Origin(peer)
    hops = headers.get("X_FORWARDED_FOR")
    client = peer if hops is None else forwarded_address(hops)
    scheme = headers.get("X_FORWARDED_PROTO", "").strip().lower() or None
    if scheme not in (None, "http", "https"):
        raise BadForwarding(f"X-Forwarded-Proto {scheme!r} is neither http nor https")
    return Origin(client, hops is not None or scheme is not None, scheme)


def forwarded_address(hops):
    """The last address of X-Forwarded-For: the one the trusted proxy saw (those before it, the client may forge)."""
    last = hops.split(",")[-1].strip().strip('"').removeprefix("[").removesuffix("]")
    try:
        return str(address_of(last))
    except ValueError:
        raise BadForwarding(f"X-Forwarded-For ends in {last[:50]!r}, not an address") from None


class Turns:
    """At most IN_APP_PER_CLIENT requests of one client in the app at once. The others wait in a queue of their
    client's, holding no thread, and go to the threads one by one as that client's requests finish: another
    client's request is never queued behind more than a few of one client's. A task (a connection with a request)
    knows whether its client has gone (`gone()`): its request then holds nothing, and when its turn comes it is
    dropped without running (server.BandChannel.service)."""

    def __init__(self, start, limit=IN_APP_PER_CLIENT):
        self.start, self.limit = start, limit  # start(task): hand a task to the threads
        self.lock = threading.Lock()
        self.in_app = collections.defaultdict(list)
        self.waiting = collections.defaultdict(collections.deque)

    def held(self, client):
        """The client's requests in the app or waiting for their turn, on connections still open."""
        with self.lock:
            tasks = [*self.in_app.get(client, ()), *self.waiting.get(client, ())]
        return sum(1 for task in tasks if not task.gone())

    def enter(self, client, task):
        with self.lock:
            if len(self.in_app[client]) >= self.limit:
                self.waiting[client].append(task)
                return
            self.in_app[client].append(task)
        self.start(task)

    def leave(self, client, task):
        """One of the client's requests is done: the next of its queue takes the place, started on a thread."""
        following = self.pass_turn(client, task)
        if following is not None:
            self.start(following)

    def pass_turn(self, client, task):
        """One of the client's requests is done: the next of its queue takes the place, and is answered for the
        caller to run (the thread just freed serves it: no other thread is woken, which on a busy CPU costs more
        than a small request)."""
        with self.lock:
            self.in_app[client].remove(task)
            queue = self.waiting.get(client)
            following = queue.popleft() if queue else None
            if queue is not None and not queue:
                del self.waiting[client]
            if following is not None:
                self.in_app[client].append(following)
            elif not self.in_app[client]:
                del self.in_app[client]
        return following
