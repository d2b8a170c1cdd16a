"""One connection to the server: its requests as they arrive (timed from their first byte, refused once their
body is over the limit, from the client a trusted proxy names), the app's view of each, and whether its client
is still there to be answered."""

import socket
import time

from waitress.channel import HTTPChannel
from waitress.parser import HTTPRequestParser, ParsingError
from waitress.task import WSGITask
from waitress.utilities import RequestEntityTooLarge

from server.client_addresses import BadForwarding, origin_of
from server.refusals import JsonErrorTask, refusal

MIN_BODY_RATE = 8 * 1024  # bytes a second
CONTINUE = b"HTTP/1.1 100 Continue\r\n\r\n"


class BandRequest(HTTPRequestParser):
    """One request as it arrives: timed from its first byte, refused as soon as its body is over the limit, and
    from the client its headers name when a trusted proxy sent it."""

    body_started = 0.0
    limit = 0  # bytes its body may have: the route's, once the headers are in
    over_limit = None  # the answer when the body is over `limit` (413, or what the app would answer first)
    origin = None  # client_addresses.Origin, once the headers are in
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
        """Answer this connection's request, then, on the same thread, each request of the same client that was
        waiting for its turn (client_addresses.Turns)."""
        following = self.serve_in_turn()
        while following is not None:
            following = following.serve_in_turn()

    def serve_in_turn(self):
        """Answer the request; the connection whose request takes its client's turn next, if any."""
        request = self.requests[0] if self.requests else None  # none left when the server is stopping
        turns, in_turn = self.server.turns, request is not None and request.in_turn
        try:
            if request is not None:
                if self.gone():  # its client closed the connection for good: nobody waits for the answer
                    self.connected = False  # waitress then skips its requests and closes it
                with self.outbuf_lock:
                    request.serving = True
                super().service()
        except BaseException:
            if in_turn:
                turns.leave(request.origin.client, self)  # the next is started on another thread
            raise
        finally:
            self.served_at = time.monotonic()
        return turns.pass_turn(request.origin.client, self) if in_turn else None

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
