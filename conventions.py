"""The conventions every endpoint shares (SPEC §2): request ids, the access log, the database connection,
one IMMEDIATE transaction per write request, and JSON bodies."""

import json
import logging
import random
import re
import time

from flask import current_app, g, request

from errors import ApiError
from models import db

WRITE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
REQUEST_ID_RE = re.compile(r"[A-Za-z0-9._:-]{1,128}")

access_log = logging.getLogger("band.access")


def start():
    g.started = time.perf_counter()
    sent = request.headers.get("X-Request-Id", "")
    # not uuid4: its read of os.urandom lets go of the GIL, which under load costs more than the rest of start()
    g.request_id = sent if REQUEST_ID_RE.fullmatch(sent) else f"{random.getrandbits(128):032x}"
    db.connect(reuse_if_open=True)


def begin_write():
    """Open the request's transaction: BEGIN IMMEDIATE takes the write lock up front, so concurrent
    writers queue on the busy timeout instead of failing with `database is locked` mid-transaction."""
    if request.method in WRITE_METHODS:
        g.transaction = db.atomic("IMMEDIATE")
        g.transaction.__enter__()


# Bumped by every write this process commits: what is remembered of the database for a moment (the caller
# behind a token, say) is forgotten as soon as it changes.
generation = 0


def moved():
    global generation
    generation += 1


class RolledBack(Exception):
    """The request failed: its transaction is undone."""


def end_transaction(error=None, status=500):
    transaction = g.pop("transaction", None)
    if transaction is None:
        return
    if error is None and status < 400:
        transaction.__exit__(None, None, None)
        moved()
    else:
        transaction.__exit__(RolledBack, RolledBack(status), None)


# Paths that carry a secret: a calendar feed's signed token, a device's push token.
SECRET_PATH_RE = re.compile(r"^(/v1/calendar/)[^/]+(\.ics)$|^(/v1/devices/).+$")


def finish(response):
    end_transaction(status=response.status_code)
    response.headers["X-Request-Id"] = g.get("request_id", "-")
    elapsed = (time.perf_counter() - g.get("started", time.perf_counter())) * 1000
    path = SECRET_PATH_RE.sub(lambda m: f"{m[1] or m[3]}[token]{m[2] or ''}", request.path)
    access_log.info("%s %s %s %.1fms %s", request.method, path, response.status_code, elapsed, g.get("request_id"))
    return response


def json_body():
    """The request's body parsed as JSON (415, 413, 400 as §2 says); None when no body was sent."""
    mimetype = request.mimetype
    if not mimetype and not request.content_length and "chunked" not in request.headers.get("Transfer-Encoding", ""):
        return None
    if mimetype != "application/json" and not mimetype.endswith("+json"):
        raise ApiError(415, "unsupported_media_type", "Send the body as application/json.")
    raw = read_body(current_app.config["MAX_JSON_KB"] * 1024)
    try:
        return json.loads(raw.decode("utf-8"), parse_constant=_reject_constant)
    except (ValueError, RecursionError):
        raise ApiError(400, "invalid_json", "The body is not valid JSON.") from None


def json_text_response(text, status=200):
    """A response whose body is already JSON text (SQLite writes lists and records: see listing.as_json)."""
    return current_app.response_class(text, status=status, mimetype="application/json")


def read_body(limit):
    """At most `limit` bytes of the body, or 413: the declared length is checked before anything is read."""
    if request.content_length is not None and request.content_length > limit:
        raise too_large(limit)
    raw = request.stream.read(limit + 1)
    if len(raw) > limit:
        raise too_large(limit)
    return raw


def too_large(limit):
    return ApiError(413, "payload_too_large", f"The body is larger than the limit of {limit // 1024} KB.")


def _reject_constant(name):
    raise ValueError(f"{name} is not JSON")
