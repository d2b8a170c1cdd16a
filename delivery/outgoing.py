"""Outgoing requests to addresses others chose (push endpoints, webhook receivers; SPEC §2.3): each destination,
its scheme, host and port, has at most PER_DESTINATION requests on their way at once, so that one that hangs
holds up its own requests alone, and never the office's other deliveries."""

import asyncio
import contextlib
import logging
from urllib.parse import urlsplit

from delivery.addresses import PublicOnly

PER_DESTINATION = 4
DEFAULT_PORTS = {"http": 80, "https": 443}

# httpx logs every request's URL at INFO (httpcore its hosts at DEBUG): a push endpoint's URL is a credential, and a
# webhook's may hold one (SPEC §2.3). Their warnings still reach the log.
for library in ("httpx", "httpcore"):
    logging.getLogger(library).setLevel(logging.WARNING)


def destination(url):
    """(scheme, host, port) of `url`, the port spelt out where the scheme implies it; None parts for what a
    malformed URL lacks (its request then fails on its own)."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return (url, None, None)
    scheme = parts.scheme.lower()
    return (scheme, parts.hostname, port or DEFAULT_PORTS.get(scheme))


class Destinations:
    """The requests on their way to each destination, on one event loop: `async with destinations.turn(url)`
    waits until fewer than PER_DESTINATION are. A destination nobody sends to is forgotten."""

    def __init__(self, per_destination=PER_DESTINATION):
        self.per_destination = per_destination
        self.sending = {}  # destination -> [its semaphore, requests holding or waiting for it]

    @contextlib.asynccontextmanager
    async def turn(self, url):
        key = destination(url)
        entry = self.sending.setdefault(key, [asyncio.Semaphore(self.per_destination), 0])
        entry[1] += 1
        try:
            async with entry[0]:
                yield
        finally:
            entry[1] -= 1
            if not entry[1]:
                del self.sending[key]


class ClientOnFirstUse:
    """An httpx.AsyncClient made with `options` the first time it is used (any of its methods but `aclose`): a
    server that sends nothing (no webhook, no push) never loads its TLS certificates and HTTP/2 machinery, some
    6 MB (see docs/benchmarks.md: a server's peak memory)."""

    def __init__(self, limits, public_only=None, **options):
        """`limits`: httpx.Limits' keywords; `public_only`: an addresses.Allowed when the client connects to public
        addresses alone (and those it allows); `options`: httpx.AsyncClient's others."""
        self.limits, self.public_only, self.options, self.client = limits, public_only, options, None

    def ready(self):
        """The client, made now if it is not yet (on the event loop that sends): called before a request's timeout
        starts, as making it takes a moment (longer than a short timeout on a busy machine)."""
        if self.client is None:
            import anyio  # here, as httpx: loaded with the first request sent, not with the server
            import httpx

            limits = httpx.Limits(**self.limits)
            transport = None if self.public_only is None else public_transport(limits, self.public_only)
            self.client = httpx.AsyncClient(limits=limits, transport=transport, **self.options)
            anyio.get_cancelled_exc_class()  # loads now what httpx's first connection would load in its timeout
        return self.client

    def __getattr__(self, name):
        return getattr(self.ready(), name)

    async def aclose(self):
        if self.client is not None:
            await self.client.aclose()


def public_transport(limits, allowed):
    """An httpx transport whose connections go to public addresses alone (addresses.PublicOnly). httpx 0.28 takes
    no network backend, so its pool's is set (the pinned versions' names: a change fails the push tests at once)."""
    import httpx

    transport = httpx.AsyncHTTPTransport(limits=limits, trust_env=False)
    transport._pool._network_backend = PublicOnly(allowed)
    return transport
