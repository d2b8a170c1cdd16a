"""A real SMTP server (aiosmtpd) on 127.0.0.1 for the tests of outgoing mail: it keeps what arrives, refuses
for good (550) every recipient whose address starts with `refused` (or every one, with an answer given), may hold
its answer to a message it has taken (a sender may die meanwhile), and can be started on a port a test held closed
until then (an SMTP server that is down, then up)."""

import asyncio
import contextlib
import email
import socket
import threading
from email import policy

from aiosmtpd.controller import Controller

REFUSED = "refused"


class Inbox:
    """An aiosmtpd handler: the messages that arrived, as email.message objects."""

    def __init__(self, refuse=None):
        self.refuse = refuse  # an answer to every recipient, when given
        self.answer_after = 0.0  # seconds the server takes to say it took a message
        self.lock = threading.Lock()
        self.envelopes = []

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if self.refuse:
            return self.refuse
        if address.lower().startswith(REFUSED):
            return f"550 5.1.1 <{address}>: no such user here"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        with self.lock:
            self.envelopes.append(envelope)
        await asyncio.sleep(self.answer_after)
        return "250 OK"

    def messages(self, to=None):
        """The messages that arrived, oldest first; only those to `to` when given."""
        with self.lock:
            found = [email.message_from_bytes(e.content, policy=policy.default) for e in self.envelopes]
        return [m for m in found if to is None or m["To"] == to]


@contextlib.contextmanager
def closed_port():
    """A socket bound to a port of 127.0.0.1 but not listening: a connection to it is refused, and no other
    program can take the port meanwhile."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        yield sock


class SocketController(Controller):
    """aiosmtpd's threaded server on a socket bound already (aiosmtpd cannot be given port 0)."""

    def __init__(self, handler, sock):
        sock.listen()
        super().__init__(handler, hostname="127.0.0.1", port=sock.getsockname()[1])
        self.sock = sock

    def _create_server(self):
        return self.loop.create_server(self._factory_invoker, sock=self.sock, ssl=self.ssl_context)


@contextlib.contextmanager
def smtp_server(sock=None, refuse=None):
    """(inbox, port) of an SMTP server on 127.0.0.1, on `sock` if given, answering every recipient with `refuse`
    if given."""
    inbox = Inbox(refuse)
    with contextlib.ExitStack() as stack:
        controller = SocketController(inbox, sock or stack.enter_context(closed_port()))
        controller.start()
        try:
            yield inbox, controller.port
        finally:
            controller.stop()
