"""The request lifecycle, the conventions every endpoint shares (SPEC §2): request ids, the access log, the database
connection, one write transaction per write request (run again when it loses to a concurrent one), JSON bodies in,
and JSON answers out (a record's text, a page)."""

import json
import logging
import random
import re
import time
from urllib.parse import urlsplit, urlunsplit

from flask import current_app, g, request
from werkzeug.exceptions import HTTPException

from dialects import dialect
from domain.errors import ApiError, unavailable
from listing import page_text
from models import db
from storage import writer

WRITE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
REQUEST_ID_RE = re.compile(r"[A-Za-z0-9._:-]{1,128}")

access_log = logging.getLogger("band.access")


def start():
    g.started = time.perf_counter()
    sent = request.headers.get("X-Request-Id", "")
    # not uuid4: its read of os.urandom lets go of the GIL, which under load costs more than the rest of start()
    g.request_id = sent if REQUEST_ID_RE.fullmatch(sent) else f"{random.getrandbits(128):032x}"
    db.connect(reuse_if_open=True)
    budget = None if request.method in WRITE_METHODS else current_app.config["QUERY_BUDGET_MS"]
    dialect.limit_statements(budget)


def lift_budget(error=None):
    """The thread's statements have no budget once its request is answered (see `start`)."""
    dialect.limit_statements(None)


def public_url():
    """How this request's client reaches the service, for the links it is sent: BAND_PUBLIC_URL (its host comes from
    the configuration alone, never from a request); behind a trusted proxy, with the scheme the client used (its
    X-Forwarded-Proto), the port dropped when that scheme is not the configured one's."""
    configured = current_app.config["PUBLIC_URL"]
    scheme, parts = request.environ.get("band.scheme"), urlsplit(configured)
    if scheme is None or scheme == parts.scheme:
        return configured
    host = f"[{parts.hostname}]" if ":" in parts.hostname else parts.hostname
    return urlunsplit((scheme, host, parts.path, "", "")).rstrip("/")


def signin_url():
    """The sign-in link's template for this request's client: BAND_SIGNIN_URL, under this client's public URL when
    it lies under the configured one."""
    template, configured, origin = current_app.config["SIGNIN_URL"], current_app.config["PUBLIC_URL"], public_url()
    if origin != configured and template.startswith(configured + "/"):
        return origin + template.removeprefix(configured)
    return template


def read_write_body():
    """Before a write request's transaction: its body read and parsed (a slow upload never holds a transaction
    open; a write that runs again reads it from here)."""
    if request.method in WRITE_METHODS:
        read_body_first()


class LostToAnother(Exception):
    """A write request's transaction lost a race with a concurrent one (PostgreSQL's SERIALIZABLE, at a statement or
    at its commit: `dialect.lost_to_another`): `in_write_transaction` rolls it back and runs it again."""


def raise_if_lost(error):
    """`error` of a write request raised again as LostToAnother when the database says it lost a race; any other
    error is left to whoever met it."""
    if request.method in WRITE_METHODS and dialect.lost_to_another(error):
        raise LostToAnother() from error


def in_write_transaction(answer):
    """`answer()` (the view's response, errors answered but a lost race) of a write request inside its transaction,
    which commits or rolls back before the response leaves; a write that loses to a concurrent one (`LostToAnother`)
    is rolled back and run again from its start, after a short pause (after a few lost attempts, alone), for up to
    the busy timeout, and only then answered 503 `unavailable` with Retry-After. On SQLite a writer runs alone (the
    writer's queue, then BEGIN IMMEDIATE): it runs once."""
    if request.method not in WRITE_METHODS:
        return answer()
    before = set(vars(g))  # what the request knew before its transaction: kept for another attempt
    for attempt in writer.attempts():
        g.transaction = writer.Transaction(begin=writer.attempt_transaction(attempt))
        try:
            return committed(answer())
        except LostToAnother as lost:
            end_transaction(lost)  # nothing of a lost attempt is kept, nor done after it
        forget_attempt(before)
    raise unavailable()


def committed(response):
    """`response` once its write's transaction has ended: committed, or rolled back for an error it answers."""
    try:
        end_transaction(status=response.status_code)
    except Exception as error:
        raise_if_lost(error)
        raise
    return response


def forget_attempt(before):
    """What an attempt of a write learnt in `g` (capabilities read in its transaction, the moment's columns...) is
    forgotten, and the uploaded files read again from their start."""
    for name in set(vars(g)) - before:
        delattr(g, name)
    for upload in request.files.values() if request.mimetype == "multipart/form-data" else ():
        upload.stream.seek(0)


def read_body_first():
    """Read and parse the body now; what went wrong with it is answered when the view asks for it, so that a
    403 still comes before a 415, 400 or 413 (SPEC §2)."""
    if request.mimetype == "multipart/form-data":
        try:
            request.files  # noqa: B018 (werkzeug parses the form, spooling big files to disk)
        except HTTPException as e:
            g.body_error = e
        return
    try:
        g.body = parse_json_body()
    except ApiError as e:
        g.body_error = e


# Bumped by every write this process commits: what is remembered of the database for a moment (the caller
# behind a token, say) is forgotten as soon as it changes.
generation = 0


def database_changed():
    global generation
    generation += 1


def keep_writes_despite_error():
    """Commit what the request wrote even though it answers with an error (a refused sign-in link is spent)."""
    g.keep_writes = True


def end_transaction(error=None, status=500):
    transaction = g.pop("transaction", None)
    if transaction is None:
        return
    commit = error is None and (status < 400 or g.get("keep_writes", False))
    transaction.end(commit)
    if commit:
        database_changed()


# Paths that carry a secret (a calendar feed's signed token, a device's push token), however they are spelled
# (`//`, a trailing `/`, upper case), and anything shaped like one of our tokens anywhere in a path.
SECRET_PATH_RE = re.compile(r"(?i)(/+v1/+calendar/+)[^/]+?(\.ics)?(/*)$|(/+v1/+devices/+).+$")
TOKEN_RE = re.compile(r"(?i)(bo[slk]_|whsec_)[A-Za-z0-9_.\-]+")
# Any other part of a path as long as a token, but for an id: a feed token on a path of another spelling
UUID_PART = r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}(?:/|$)"
LONG_PART_RE = re.compile(rf"(?<=/)(?!{UUID_PART})[^/]{{32,}}")
# Control characters, and the invisible ones that turn or hide text (bidi marks and overrides, zero widths)
CONTROL_RE = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]")
LOGGED_CHARS = 300  # of one value from a client


def printable(text):
    """`text` from a client, safe for one log line: control and invisible characters escaped, so none can forge a
    line or disguise one, and cut to a few hundred characters."""
    cut = text[:LOGGED_CHARS] + ("…" if len(text) > LOGGED_CHARS else "")
    return CONTROL_RE.sub(lambda m: f"\\x{ord(m[0]):02x}" if ord(m[0]) < 256 else f"\\u{ord(m[0]):04x}", cut)


# The everyday path (`/v1/gigs/<id>`): short plain parts, none of them a secret's, logged as it is.
PLAIN_PATH_RE = re.compile(rf"(?:/(?!calendar|devices)[a-z0-9-]{{1,31}}|/{UUID_PART[:-7]})*/?")


def loggable_path(path):
    if PLAIN_PATH_RE.fullmatch(path):
        return path
    path = SECRET_PATH_RE.sub(lambda m: f"{m[1] or m[4]}[token]{m[2] or ''}{m[3] or ''}", path)
    path = LONG_PART_RE.sub("[token]", TOKEN_RE.sub(lambda m: f"{m[1]}[token]", path))
    return printable(path)


def finish(response):
    end_transaction(status=response.status_code)
    headers = response.headers
    headers["X-Request-Id"] = g.get("request_id", "-")
    headers["X-Content-Type-Options"] = "nosniff"
    if response.mimetype == "application/json" and ("caller" in g or request.method in WRITE_METHODS):
        headers["Cache-Control"] = "no-store"
    if response.mimetype == "text/html":
        policy = headers.setdefault("Content-Security-Policy", "frame-ancestors 'none'")
        if "frame-ancestors" not in policy or "frame-ancestors 'none'" in policy:  # not /inquire's named origins
            headers["X-Frame-Options"] = "DENY"
    elapsed = (time.perf_counter() - g.get("started", time.perf_counter())) * 1000
    path = loggable_path(request.path)
    method = printable(request.method)
    access_log.info("%s %s %s %.1fms %s", method, path, response.status_code, elapsed, g.get("request_id"))
    return response


def raise_body_error():
    """What went wrong reading the body before the transaction began (413, 400), now that the view asks."""
    if "body_error" in g:
        raise g.body_error


def json_body():
    """The request's body parsed as JSON (415, 413, 400 as §2 says); None when no body was sent."""
    raise_body_error()
    if "body" in g:
        return g.body
    return parse_json_body()


def parse_json_body():
    mimetype = request.mimetype
    if not mimetype and not request.content_length and "chunked" not in request.headers.get("Transfer-Encoding", ""):
        return None
    if mimetype != "application/json" and not mimetype.endswith("+json"):
        raise ApiError(415, "unsupported_media_type", "Send the body as application/json.")
    raw = read_body(current_app.config["MAX_JSON_KB"] * 1024)
    try:
        return json.loads(raw.decode("utf-8"), parse_constant=_reject_constant, object_pairs_hook=_unique_keys)
    except (ValueError, RecursionError) as e:
        message = str(e) if isinstance(e, StrictJsonError) else "The body is not valid JSON."
        raise ApiError(400, "invalid_json", message) from None


def json_text_response(text, status=200):
    """A response whose body is already JSON text (SQLite writes lists and records: see dialect.as_json)."""
    return current_app.response_class(text + "\n", status=status, mimetype="application/json")


def page_of(items, page):
    """The answer for a list computed in Python: the page's slice, and the total."""
    return page_answer(items[page.offset : page.offset + page.limit], len(items), page)


def page_answer(rows, total, page):
    """The answer for a page: `rows` a list, or the JSON text of one (as `json_page` gives)."""
    if isinstance(rows, str):
        return json_text_response(page_text(rows, total, page))
    return {"data": rows, "meta": {"total": total, "limit": page.limit, "offset": page.offset}}


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


class StrictJsonError(ValueError):
    """JSON that Python would read but that means nothing sure: a repeated key, a lone UTF-16 surrogate."""


def _unique_keys(pairs):
    """An object's pairs as a dict; a repeated key, or a lone surrogate in a key or string, is refused (§2.3)."""
    result = {}
    for key, value in pairs:
        if key in result:
            raise StrictJsonError(f"The key {key!r} appears twice in one object.")
        for text in (key, *_strings(value)):
            if _SURROGATE_RE.search(text):
                raise StrictJsonError("A string holds a lone UTF-16 surrogate (\\ud800-\\udfff).")
        result[key] = value
    return result


def _strings(value):
    """The strings directly in `value` (nested objects were checked when they were built)."""
    if isinstance(value, str):
        return (value,)
    if isinstance(value, list):
        return [v for item in value for v in _strings(item)]
    return ()


_SURROGATE_RE = re.compile("[\ud800-\udfff]")
