"""What the server answers by itself, before the app sees a request, as the error envelope (SPEC §2.2): a
`Refusal`, the envelope's version of what waitress's parser found, waitress's own answers (`JsonErrorTask`), and
the 429 of a connection over its client's cap (`refuse`)."""

import json
import logging
import socket
import time
import uuid
from http import HTTPStatus

from waitress.rfc7230 import ONLY_DIGIT_RE
from waitress.task import ErrorTask
from waitress.utilities import (
    BadRequest,
    Error,
    RequestEntityTooLarge,
    RequestHeaderFieldsTooLarge,
    ServerNotImplemented,
    build_http_date,
)

from web import lifecycle
from web.lifecycle import REQUEST_ID_RE

log = logging.getLogger("band.server")

RETRY_AFTER_SECONDS = 5


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
    return refusal_of(lifecycle.too_large(limit))


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
