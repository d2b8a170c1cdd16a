"""The one domain error type, and the one place that turns every exception into the error envelope."""

import logging

from flask import g, jsonify
from marshmallow import ValidationError
from peewee import IntegrityError
from werkzeug.exceptions import HTTPException

from dialects import dialect

log = logging.getLogger("band.errors")

# Every code the service answers with, by status: the OpenAPI document and its lint test read this.
CODES = {
    "invalid_json": 400,
    "invalid_query": 400,
    "query_too_costly": 400,
    "unauthenticated": 401,
    "forbidden": 403,
    "not_found": 404,
    "method_not_allowed": 405,
    "resource_in_use": 409,
    "already_exists": 409,
    "conflict": 409,
    "payload_too_large": 413,
    "unsupported_media_type": 415,
    "validation_failed": 422,
    "rate_limited": 429,
    "internal_error": 500,
    "unavailable": 503,
}

# The codes of errors the HTTP layers (werkzeug, waitress) raise by themselves; any other 4xx they raise is
# about a body that cannot be read.
HTTP_CODES = {
    404: "not_found",
    405: "method_not_allowed",
    413: "payload_too_large",
    415: "unsupported_media_type",
}
UNREADABLE = (400, "invalid_json", "The request body cannot be read.")


def http_status_code(status):
    """(status, code) of the §2.2 table for an HTTP error a server layer raised with `status`."""
    if status in HTTP_CODES:
        return status, HTTP_CODES[status]
    return UNREADABLE[:2]


class ConfigError(Exception):
    """A setting or command-line value the service cannot run with."""


class ApiError(Exception):
    """An error the client caused or must know about, answered as the envelope."""

    def __init__(self, status, code, message, details=None, headers=None):
        super().__init__(message)
        self.status, self.code, self.message = status, code, message
        self.details, self.headers = details, headers or {}


def not_found(message="No such record."):
    return ApiError(404, "not_found", message)


def invalid(details, message="The request body has invalid fields."):
    """422 with `details` as {field: [messages]}."""
    return ApiError(422, "validation_failed", message, details)


ROUTING_MESSAGES = {404: "No such route.", 405: "Method not allowed here."}


def no_route():
    return ApiError(404, "not_found", ROUTING_MESSAGES[404])


def method_not_allowed(allowed):
    return ApiError(405, "method_not_allowed", ROUTING_MESSAGES[405], headers={"Allow": ", ".join(allowed)})


def unauthenticated(message="Sign in: send a valid bearer token."):
    return ApiError(401, "unauthenticated", message, headers={"WWW-Authenticate": "Bearer"})


def unavailable(message="The database is busy; retry in a moment."):
    """503: come back in a moment (SPEC §2.2)."""
    return ApiError(503, "unavailable", message, headers={"Retry-After": str(RETRY_AFTER_SECONDS)})


RETRY_AFTER_SECONDS = 1


def too_costly():
    """400: a statement of a read ran past its budget of CPU time (SPEC §2.3)."""
    message = "This request costs the server too much: narrow the filters or drop the sort through a reference."
    return ApiError(400, "query_too_costly", message)


def conflict(reason, message, **details):
    return ApiError(409, "conflict", message, {"reason": reason, **details})


class Clash(ApiError):
    """409 conflict with a stored record (a gig role on the same night, a blockout): `details[key]` shows of
    `record` what the caller may read, worked out by the one rule of `clashes`."""

    def __init__(self, reason, message, key, record):
        super().__init__(409, "conflict", message, {"reason": reason})
        self.key, self.record = key, record


def envelope(status, code, message, details=None):
    error = {"code": code, "message": message, "status": status}
    if details is not None:
        error["details"] = details
    return {"error": error}


def error_response(status, code, message, details=None, headers=None):
    response = jsonify(envelope(status, code, message, details))
    response.status_code = status
    response.headers.update(headers or {})
    return response


def flatten(messages, prefix=""):
    """marshmallow's nested messages as {"custom_fields.KEY": [...], "grants.0": [...]}."""
    if isinstance(messages, list):
        return {prefix or "_body": [str(m) for m in messages]}
    flat = {}
    for key, value in messages.items():
        name = f"{prefix}.{key}" if prefix else str(key)
        flat.update(flatten(value, name))
    return flat


def register(app):
    @app.errorhandler(ApiError)
    def api_error(e):
        return error_response(e.status, e.code, e.message, e.details, e.headers)

    @app.errorhandler(ValidationError)
    def validation_error(e):
        details = flatten(e.messages if isinstance(e.messages, dict) else {"_body": e.messages})
        return error_response(422, "validation_failed", "The request body has invalid fields.", details)

    @app.errorhandler(IntegrityError)
    def integrity_error(e):
        # Unique rules live in the schema's indexes; the database names the columns of the one broken.
        columns = dialect.unique_violation(e)
        if columns is None:
            return unexpected(e)
        return error_response(409, "already_exists", "A record with these values exists already.", {"fields": columns})

    @app.errorhandler(HTTPException)
    def http_error(e):
        if e.code >= 500:
            return unexpected(getattr(e, "original_exception", None) or e)
        status, code = http_status_code(e.code)
        headers = {k: v for k, v in e.get_headers() if k.lower() == "allow"}
        message = ROUTING_MESSAGES.get(status, e.description)
        if code == UNREADABLE[1]:
            message = UNREADABLE[2]
        return error_response(status, code, message, headers=headers)

    @app.errorhandler(Exception)
    def unexpected(e):
        if dialect.over_budget(e):
            costly = too_costly()
            return error_response(costly.status, costly.code, costly.message)
        if dialect.lost_to_another(e):
            g.lost_to_another = True  # the write is run again (conventions.in_write_transaction)
        if dialect.is_busy(e) or dialect.lost_to_another(e):
            busy = unavailable()
            return error_response(busy.status, busy.code, busy.message, headers=busy.headers)
        log.error("request %s failed", g.get("request_id", "-"), exc_info=e)
        message = f"Something went wrong on the server (request {g.get('request_id', '-')})."
        return error_response(500, "internal_error", message)
