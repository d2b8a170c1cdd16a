"""waitress, hardened for a LAN anyone may join (SPEC §2.3), answering with the error envelope (§2.2) where it
answers by itself.

- One client address holds at most BAND_MAX_CONNECTIONS_PER_CLIENT connections: the next is answered 429
  `rate_limited` at once and closed. A connection counts until its client has closed it with nothing left to
  answer, or has closed it for good (BandChannel.gone): one whose client only closed its sending end (a
  half-close) counts while its requests wait or are served, and they are answered. A trusted proxy's connections
  carry many clients' requests: there each client holds at most as many requests, on connections still open, as
  it may hold connections, and the proxy is never counted as one client (server/client_addresses.py).
- The app serves at most IN_APP_PER_CLIENT requests of one client at once; the others wait their turn without
  holding a thread. A request whose connection its client closed for good is dropped when its turn comes,
  without running; one already in the app runs to its end.
- A request's line and headers must arrive within BAND_HEADER_TIMEOUT seconds of its first byte; its body must
  keep a pace of MIN_BODY_RATE, with BAND_BODY_TIMEOUT seconds of slack. A slower request is dropped.
  A connection idle between requests is closed after IDLE_SECONDS.
- A body over BAND_MAX_JSON_KB, to any route but the attachment upload (a view marked `upload = True`), is
  refused with 413 as soon as its headers (or its chunks) say so, before it is read.

Here: the server, its limits and its accepting of connections. `channel.py`: one connection, its requests as
they arrive and whether its client is gone; `refusals.py`: what the server answers by itself, as the envelope.
"""

import logging
import re
import time
from dataclasses import dataclass

from waitress.adjustments import Adjustments
from waitress.server import MultiSocketServer, TcpWSGIServer
from waitress.task import ThreadedTaskDispatcher
from werkzeug.exceptions import HTTPException, MethodNotAllowed

from domain.errors import ConfigError, method_not_allowed, no_route, unauthenticated
from server.channel import BandChannel
from server.client_addresses import Proxies, Turns
from server.refusals import refusal_of, refuse, too_many

log = logging.getLogger("band.server")

IDLE_SECONDS = 30
CHECK_SECONDS = 1  # how often the timeouts are looked at
CONNECTION_LIMIT = 500  # all clients together; past it waitress stops accepting until some close


@dataclass(frozen=True)
class Limits:
    per_client: int  # open connections
    header_timeout: float  # seconds
    body_timeout: float  # seconds of slack behind MIN_BODY_RATE
    json_body: int  # bytes
    upload_body: int  # bytes


def create(app, host, port, threads):
    """The server for `app` on host:port, and the port it listens on (the one chosen when `port` is 0)."""
    config = app.config
    upload = config["UPLOAD_BODY_BYTES"]
    limits = Limits(
        config["MAX_CONNECTIONS_PER_CLIENT"],
        config["HEADER_TIMEOUT"],
        config["BODY_TIMEOUT"],
        config["MAX_JSON_KB"] * 1024,
        upload,
    )
    if limits.per_client < 1 or limits.header_timeout <= 0 or limits.body_timeout <= 0:
        raise ConfigError("BAND_MAX_CONNECTIONS_PER_CLIENT, BAND_HEADER_TIMEOUT and BAND_BODY_TIMEOUT must be above 0")
    adj = Adjustments(
        host=host,
        port=port,
        threads=threads,
        ident="band-office",
        max_request_body_size=upload + 1,  # waitress refuses at >=, the app past the limit
        channel_timeout=min(IDLE_SECONDS, limits.header_timeout),  # a silent connection is a slow header too
        cleanup_interval=CHECK_SECONDS,
        connection_limit=CONNECTION_LIMIT,
        # waitress keeps up to this much of an answer per connection, in memory while its client keeps up: at
        # the default (16 MB) each large download in flight costs that much (SPEC §2.3)
        outbuf_high_watermark=1024 * 1024,
        asyncore_use_poll=True,
    )
    dispatcher, sockets = ThreadedTaskDispatcher(), {}
    clients = Proxies(config["TRUSTED_NETWORKS"]), Turns(dispatcher.add_task)
    servers = [
        BandServer(app, limits, clients, map=sockets, dispatcher=dispatcher, adj=adj, sockinfo=info)
        for info in adj.listen
    ]
    dispatcher.set_thread_count(threads)
    first = servers[0]
    if len(servers) == 1:
        return first, int(first.effective_port)
    listening = [(s.effective_host, s.effective_port) for s in servers]
    return MultiSocketServer(sockets, adj, listening, dispatcher, first.log_info), int(first.effective_port)


BEARER_RE = re.compile(r"(?i)bearer +\S")


class BandServer(TcpWSGIServer):
    channel_class = BandChannel

    def __init__(self, app, limits, clients, **kw):
        self.limits = limits
        self.proxies, self.turns = clients
        self.routes = app.url_map.bind("localhost")
        self.views = app.view_functions
        super().__init__(app, **kw)

    def body_limit(self, method, path, headers):
        """(bytes the body may have, the answer past them): the upload limit for the upload's view when a bearer
        token comes with it, the JSON limit elsewhere. Past the limit, what the app would answer before reading
        a body comes first: 404 for no route, 401 without a bearer token (SPEC §2 precedence)."""
        try:
            endpoint, _ = self.routes.match(path, method)
        except MethodNotAllowed as e:
            return self.limits.json_body, refusal_of(method_not_allowed(e.valid_methods or ()))
        except HTTPException:  # no such route, a redirect: the app answers without reading a body
            return self.limits.json_body, refusal_of(no_route())
        view = self.views.get(endpoint)
        if not getattr(view, "public", False) and not BEARER_RE.match(headers.get("AUTHORIZATION", "")):
            return self.limits.json_body, refusal_of(unauthenticated())
        upload = getattr(view, "upload", False)
        return (self.limits.upload_body if upload else self.limits.json_body), None

    def handle_accept(self):
        try:
            pair = self.accept()
            if pair is None:
                return
            conn, addr = pair
            self.set_socket_options(conn)
        except OSError:  # the client went away before its connection was accepted
            return
        addr = self.fix_addr(addr)
        if not self.proxies.trust(addr[0]) and self.connections_from(addr[0]) >= self.limits.per_client:
            refuse(conn)
            return
        self.channel_class(self, conn, addr, self.adj, map=self._map)

    def connections_from(self, host):
        """The connections the client at `host` holds open. One it has closed may still be here (waitress reads a
        connection's end only between requests), and a client that closes some and opens as many at once must
        not be refused: so at the cap each is looked at (BandChannel.gone)."""
        held = [channel for channel in self.active_channels.values() if channel.addr[0] == host]
        if len(held) < self.limits.per_client:
            return len(held)
        return sum(1 for channel in held if not channel.gone())

    def add_task(self, channel):
        """Hand the channel's next request to the threads when its client's turn comes (client_addresses.Turns). A
        refusal is answered at once, as is a forwarded client holding as many requests as it may connections."""
        request, cap = channel.requests[0], self.limits.per_client
        if request.error is None and request.origin.forwarded and self.turns.held(request.origin.client) >= cap:
            request.error = too_many(f"Too many requests from your address at once (at most {cap}).")
        if request.error is not None:
            self.task_dispatcher.add_task(channel)
            return
        request.in_turn = True
        self.turns.enter(request.origin.client, channel)

    def maintenance(self, now):
        super().maintenance(now)  # closes the connections idle past IDLE_SECONDS
        clock = time.monotonic()
        for channel in self.active_channels.values():
            if not channel.will_close and channel.too_slow(clock, self.limits):
                log.info("dropped a request from %s: it arrived slower than the timeouts allow", channel.addr[0])
                channel.will_close = True
