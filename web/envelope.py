"""The one place that turns every exception into the error envelope (SPEC §2.2): `ApiError` and its 409 with
a clashing record, marshmallow's ValidationError, peewee's IntegrityError, the HTTP errors of werkzeug, and a 500
that logs with the request id and says nothing else."""

import logging

from flask import g, jsonify
from marshmallow import ValidationError
from peewee import IntegrityError
from werkzeug.exceptions import HTTPException

from dialects import dialect
from domain.errors import ROUTING_MESSAGES, ApiError, Clash, flatten, too_costly, unavailable
from web.clash_details import details_of

log = logging.getLogger("band.errors")

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


def register(app):
    @app.errorhandler(ApiError)
    def api_error(e):
        return error_response(e.status, e.code, e.message, e.details, e.headers)

    @app.errorhandler(Clash)
    def clash(e):
        return error_response(e.status, e.code, e.message, details_of(e))

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
        # (a write request's lost race is run again, not answered: lifecycle.in_write_transaction)
        if dialect.is_busy(e) or dialect.lost_to_another(e):
            busy = unavailable()
            return error_response(busy.status, busy.code, busy.message, headers=busy.headers)
        log.error("request %s failed", g.get("request_id", "-"), exc_info=e)
        message = f"Something went wrong on the server (request {g.get('request_id', '-')})."
        return error_response(500, "internal_error", message)
