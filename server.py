"""waitress, hardened for a LAN anyone may join (SPEC §2.3), answering with the error envelope (§2.2) where it
answers by itself.

- One client address holds at most BAND_MAX_CONNECTIONS_PER_CLIENT connections: the next is answered 429
  `rate_limited` at once and closed. A connection counts until its client has closed it with nothing left to
  answer, or has closed it for good (BandChannel.gone): one whose client only closed its sending end (a
  half-close) counts while its requests wait or are served, and they are answered. A trusted proxy's connections
  carry many clients' requests: there each client holds at most as many requests, on connections still open, as
  it may hold connections, and the proxy is never counted as one client (clients.py).
- The app serves at most IN_APP_PER_CLIENT requests of one client at once; the others wait their turn without
  holding a thread. A request whose connection its client closed for good is dropped when its turn comes,
  without running; one already in the app runs to its end.
- A request's line and headers must arrive within BAND_HEADER_TIMEOUT seconds of its first byte; its body must
  keep a pace of MIN_BODY_RATE, with BAND_BODY_TIMEOUT seconds of slack. A slower request is dropped.
  A connection idle between requests is closed after IDLE_SECONDS.
- A body over BAND_MAX_JSON_KB, to any route but the attachment upload (a view marked `upload = True`), is
  refused with 413 as soon as its headers (or its chunks) say so, before it is read.
"""

import json
import logging
import re
import socket
import time
import uuid
from dataclasses import dataclass
from http import HTTPStatus

from waitress.adjustments import Adjustments
from waitress.channel import HTTPChannel
from waitress.parser import HTTPRequestParser, ParsingError
from waitress.rfc7230 import ONLY_DIGIT_RE
from waitress.server import MultiSocketServer, TcpWSGIServer
from waitress.task import ErrorTask, ThreadedTaskDispatcher, WSGITask
from waitress.utilities import (
    BadRequest,
    Error,
    RequestEntityTooLarge,
    RequestHeaderFieldsTooLarge,
    ServerNotImplemented,
    build_http_date,
)
from werkzeug.exceptions import HTTPException, MethodNotAllowed

import conventions
from clients import BadForwarding, Proxies, Turns, origin_of
from conventions import REQUEST_ID_RE
from errors import ConfigError, method_not_allowed, no_route, unauthenticated

log = logging.getLogger("band.server")

MIN_BODY_RATE = 8 * 1024  # bytes a second
IDLE_SECONDS = 30
CHECK_SECONDS = 1  # how often the timeouts are looked at
CONNECTION_LIMIT = 500  # all clients together; past it waitress stops accepting until some close
RETRY_AFTER_SECONDS = 5
CONTINUE = b"HTTP/1.1 100 Continue\r\n\r\n"


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


class Refusal(Error):
    """An answer the server makes before the app sees the request: a status and a code of §2.2."""

    def __init__(self, status, code, message, headers=()):
        super().__init__(message)
        self.code, self.reason, self.band_code, self.headers = status, HTTPStatus(status).phrase, code, list(headers)

    def answer(self, request_id):
        """(status line, headers, body) of the envelope."""
        error = {"code": self.band_code, "message": self.body, "status": self.code}
        body = (json.dumps({"error": error}, ensure_ascii=False, separators=(",", ":")) + "\n").encode()
        headers = [
            ("Content-Type", "application/json"),
            ("X-Content-Type-Options", "nosniff"),
            ("X-Request-Id", request_id),
            *self.headers,
        ]
        return f"{self.code} {self.reason}", headers, body


def refusal_of(error):
    """The app's own ApiError, as waitress answers it."""
    return Refusal(error.status, error.code, error.message, error.headers.items())


def too_large(limit):
    return refusal_of(conventions.too_large(limit))


def refusal(error, request, in_body):
    """The envelope's version of an error waitress's parser found."""
    if isinstance(error, Refusal):
        return error
    if isinstance(error, RequestEntityTooLarge):
        return too_large(request.limit)
    if isinstance(error, RequestHeaderFieldsTooLarge):
        return Refusal(413, "payload_too_large", "The request's headers are larger than the server accepts.")
    if isinstance(error, ServerNotImplemented):  # a Transfer-Encoding other than chunked
        return Refusal(415, "unsupported_media_type", "Send the body with Content-Length or chunked, not encoded.")
    if isinstance(error, BadRequest) and request.bad_forwarding:
        log.info("refused a trusted proxy's request: %s", request.bad_forwarding)
        return Refusal(400, "invalid_query", f"{request.bad_forwarding}.")
    if isinstance(error, BadRequest) and (in_body or bad_length(request)):
        return Refusal(400, "invalid_json", "The body's length or chunked framing is broken.")
    if isinstance(error, BadRequest):
        return Refusal(400, "invalid_query", "The request line or a header is malformed.")
    return Refusal(500, "internal_error", "The server could not answer this request.")


def bad_length(request):
    length = request.headers.get("CONTENT_LENGTH")
    return length is not None and not ONLY_DIGIT_RE.match(length.encode("latin-1"))


class BandRequest(HTTPRequestParser):
    """One request as it arrives: timed from its first byte, refused as soon as its body is over the limit, and
    from the client its headers name when a trusted proxy sent it."""

    body_started = 0.0
    limit = 0  # bytes its body may have: the route's, once the headers are in
    over_limit = None  # the answer when the body is over `limit` (413, or what the app would answer first)
    origin = None  # clients.Origin, once the headers are in
    in_turn = False  # whether it holds one of its client's turns in the app
    serving = False  # whether its answer has begun (set under the channel's outbuf_lock)
    bad_forwarding = None  # what is wrong with a trusted proxy's forwarding headers

    def __init__(self, adj, body_limit, peer, via_proxy):
        super().__init__(adj)
        self.started = time.monotonic()
        self.body_limit, self.peer, self.via_proxy = body_limit, peer, via_proxy

    def parse_header(self, header_plus):
        super().parse_header(header_plus)
        self.body_started = time.monotonic()
        try:
            self.origin = origin_of(self.peer, self.via_proxy, self.headers)
        except BadForwarding as e:
            self.bad_forwarding = str(e)
            raise ParsingError(str(e)) from None
        if self.origin.scheme:
            self.url_scheme = self.origin.scheme
        if self.body_rcv is not None:  # matched only then: most requests have no body
            self.limit, self.over_limit = self.body_limit(self.command, self.path, self.headers)

    def received(self, data):
        in_body = self.body_rcv is not None
        consumed = super().received(data)
        if self.error is None and self.body_rcv is not None and self.body_size() > self.limit:
            self.error, self.completed = self.over_limit or RequestEntityTooLarge(""), True
        if self.error is not None:
            self.error = refusal(self.error, self, in_body)
        return consumed

    def body_size(self):
        """The declared length, or for a chunked body what has arrived of it."""
        return len(self.body_rcv) if self.chunked else self.content_length


class JsonErrorTask(ErrorTask):
    """waitress's own answers (a malformed request, a body over the limit, a crash) as the envelope."""

    def execute(self):
        error = self.request.error
        if not isinstance(error, Refusal):
            error = Refusal(500, "internal_error", "The server met an unexpected error.")
        request_id = sent_request_id(self.request.headers)
        self.status, headers, body = error.answer(request_id)
        self.response_headers.extend(headers)
        self.set_close_on_finish()
        self.content_length = len(body)
        self.write(body)
        log.info("refused before the app: %s %s %s", self.status, error.band_code, request_id)


def sent_request_id(headers):
    sent = headers.get("X_REQUEST_ID", "")
    return sent if REQUEST_ID_RE.fullmatch(sent) else uuid.uuid4().hex


class BandTask(WSGITask):
    """The app's view of a request: the client's address (a trusted proxy's forwarded one), and the scheme the
    client used (`band.scheme`: what a trusted proxy's X-Forwarded-Proto said, else None)."""

    def get_environment(self):
        environ = super().get_environment()
        origin = self.request.origin
        environ["REMOTE_ADDR"] = environ["REMOTE_HOST"] = origin.client
        environ["band.scheme"] = origin.scheme
        return environ


class BandChannel(HTTPChannel):
    task_class = BandTask
    error_task_class = JsonErrorTask
    served_at = 0.0  # when the last request in flight was answered: the client was waiting on us till then
    probed = None  # the request a `100 Continue` went ahead of, to learn whether its client still waits (`probe`)
    abandoned = False  # the client closed the connection for good: what it sent is not answered

    def __init__(self, server, sock, addr, adj, map=None):
        super().__init__(server, sock, addr, adj, map=map)
        self.via_proxy = server.proxies.trust(addr[0])

    def parser_class(self, adj):
        return BandRequest(adj, self.server.body_limit, self.addr[0], self.via_proxy)

    def service(self):
        request = self.requests[0] if self.requests else None  # none left when the server is stopping
        try:
            if request is not None:
                if self.gone():  # its client closed the connection for good: nobody waits for the answer
                    self.connected = False  # waitress then skips its requests and closes it
                with self.outbuf_lock:
                    request.serving = True
                super().service()
        finally:
            if request is not None and request.in_turn:
                self.server.turns.leave(request.origin.client, self)
        self.served_at = time.monotonic()

    def gone(self):
        """Whether the client has closed the connection, leaving nothing to answer or nobody to answer it to.
        waitress reads a connection only between requests, so while one waits or is served it does not know yet:
        a look at the socket tells whether the client closed its sending end (see `probe` for the rest)."""
        if self.abandoned:
            return True
        try:
            if self.socket.recv(1, socket.MSG_PEEK) != b"":
                return False
        except BlockingIOError:
            return False
        except OSError:
            self.abandoned = True
            return True
        pending = self.requests[:1]  # a copy: the threads may empty the list meanwhile
        if not pending and not self.total_outbufs_len:
            return True
        if pending:
            self.probe(pending[0])
        return self.abandoned

    def probe(self, request):
        """Learn whether a client that closed its sending end with a request unanswered still waits for the answer
        (a half-close) or closed the connection for good: the socket looks the same. A request not yet served is
        sent `100 Continue` first (once), an interim answer HTTP/1.1 clients skip; a connection closed for good
        answers it with a reset, at once on loopback, a round trip later on the LAN."""
        with self.outbuf_lock:
            unanswered = not request.serving and not self.total_outbufs_len  # nothing of its answer sent
            if unanswered and self.probed is not request and request.version == "1.1":
                self.probed = request
                try:
                    self.socket.send(CONTINUE)
                except OSError:
                    self.abandoned = True
        if self.probed is not None:
            try:
                self.abandoned = self.abandoned or bool(self.socket.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR))
            except OSError:  # closed meanwhile
                self.abandoned = True

    def too_slow(self, now, limits):
        """Whether the request arriving has taken longer than the limits allow."""
        request = self.request
        if request is None or request.completed or self.requests:
            return False
        if not request.headers_finished:
            return now - max(request.started, self.served_at) > limits.header_timeout
        if request.expect_continue:  # waiting for our 100 Continue, not sending
            return False
        allowed = limits.body_timeout + request.body_bytes_received / MIN_BODY_RATE
        return now - max(request.body_started, self.served_at) > allowed


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
        """Hand the channel's next request to the threads when its client's turn comes (clients.Turns). A
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


def too_many(message):
    return Refusal(429, "rate_limited", message, [("Retry-After", str(RETRY_AFTER_SECONDS))])


def refuse(conn):
    """Answer a connection over the per-client cap with 429 and close it, without waiting on the client."""
    status, headers, body = too_many("Too many open connections from your address: close some, then try again.").answer(
        uuid.uuid4().hex
    )
    headers += [("Content-Length", str(len(body))), ("Connection", "close"), ("Date", build_http_date(time.time()))]
    head = "".join(f"{name}: {value}\r\n" for name, value in headers)
    try:
        conn.setblocking(False)
        conn.send(f"HTTP/1.1 {status}\r\n{head}\r\n".encode("latin-1") + body)  # a fresh socket's buffer takes it
        conn.shutdown(socket.SHUT_WR)
        conn.recv(65536)  # what the client sent already: closing with it unread would reset the connection
    except OSError:
        pass  # the client is gone already
    finally:
        conn.close()
