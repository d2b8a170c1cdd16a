"""The error answers as the OpenAPI document describes them: what each status means, the codes it carries
(`domain.errors.CODES`), an example of each, the statuses every read and write may meet, and the one `default` answer
of an operation that gives them."""

from marshmallow import Schema, fields

from domain.errors import CODES, REASONS

ERROR_STATUSES = {  # the codes of each status come from errors.CODES
    400: "Invalid JSON or query parameters (one holding U+0000 among them), or a read that would cost the server too "
    "much",
    401: "No valid bearer token",
    403: "The token's roles lack the capability (details.required)",
    404: "No such record",
    409: "A unique rule, a reference (details.referenced_by) or a domain rule (details.reason)",
    413: "The body is over the limit",
    415: "The body is not of the expected media type",
    422: "Invalid fields (details: field -> messages), a text holding U+0000 anywhere in the body among them",
    429: "Too many requests: from this address to sign in or answer by link, or writes of a caller without any "
    "`.edit` capability (see Retry-After)",
    503: "The database is busy or the service is stopping (see Retry-After)",
}
# An example answer for each code, shown by the reference page; a code missing here gets a plain message.
ERROR_EXAMPLES = {
    "invalid_json": ("The body is not valid JSON.", None),
    "invalid_query": ("Invalid query parameters.", {"limit": "Expected an integer from 1 to 200."}),
    "query_too_costly": (
        "This request costs the server too much: narrow the filters or drop the sort through a reference.",
        None,
    ),
    "unauthenticated": ("Sign in: send a valid bearer token.", None),
    "forbidden": ("This needs the gigs.edit capability.", {"required": "gigs.edit"}),
    "not_found": ("No gig with this id.", None),
    "resource_in_use": ("This gig is still referenced by other records.", {"referenced_by": {"gig_products": 3}}),
    "already_exists": ("A record with these values exists already.", {"fields": ["name"]}),
    "conflict": ("The gig role is filled already.", {"reason": "gig_role_filled"}),
    "payload_too_large": ("The body is larger than the limit of 1024 KB.", None),
    "unsupported_media_type": ("Send the body as application/json.", None),
    "validation_failed": ("The request body has invalid fields.", {"title": ["Missing data for required field."]}),
    "rate_limited": ("Too many requests from this address; try again in 42 s.", None),
    "unavailable": ("The database is busy; retry in a moment.", None),
}
READ = (400, 401, 403)
WRITE = (400, 401, 403, 413, 415, 422)


class ErrorDetailSchema(Schema):
    code = fields.String(required=True, metadata={"enum": sorted(CODES)})
    message = fields.String(required=True)
    status = fields.Integer(required=True)
    details = fields.Dict(metadata={"description": "what went wrong, by field or parameter, or a reason"})


class ErrorSchema(Schema):
    error = fields.Nested(ErrorDetailSchema, required=True)


def error_example(code, status):
    message, details = ERROR_EXAMPLES.get(code, (code.replace("_", " ").capitalize() + ".", None))
    error = {"code": code, "message": message, "status": status}
    if details is not None:
        error["details"] = details
    return {"summary": code, "value": {"error": error}}


def error_answer(statuses):
    """(component name, response) of the `default` answer of an operation whose errors have `statuses`.

    One answer for all of an operation's errors rather than one per status, each of which would be one more branch
    of each operation in a generated client, while every error is of one type. Each status keeps its words (what it
    means, its codes), an example of each code, and its place in the schema: `error.status` is one of `statuses`,
    beside the reference to `Error` (OpenAPI 3.1 applies both; a generator that reads only the reference types the
    answer as `Error`), so that a validator still finds an answer of any other status undocumented."""
    statuses = sorted(set(statuses))
    codes = {status: [code for code, code_status in CODES.items() if code_status == status] for status in statuses}
    said = [f"{status}{in_brackets(codes[status])}: {ERROR_STATUSES[status]}" for status in statuses]
    status_schema = {"properties": {"error": {"properties": {"status": {"enum": statuses}}}}}
    media_type = {
        "schema": {"$ref": "#/components/schemas/Error", **status_schema},
        "examples": {code: error_example(code, status) for status in statuses for code in codes[status]},
    }
    description = "An error, its `error.status` one of: " + "; ".join(said)
    response = {"description": description, "content": {"application/json": media_type}}
    return "Errors" + "_".join(map(str, statuses)), response


def in_brackets(codes):
    return f" ({', '.join(f'`{code}`' for code in codes)})" if codes else ""


def name_reasons(operation, method, path):
    """The operation with the reasons (`domain.errors.REASONS`) it may answer with, in its words and `x-reasons`."""
    named = {reason: meaning for reason, (meaning, where) in REASONS.items() if f"{method} {path}" in where}
    if named:
        operation["x-reasons"] = sorted(named)
        said = "; ".join(f"`{reason}`: {meaning}" for reason, meaning in sorted(named.items()))
        operation["description"] = f"An error's `details.reason` here is one of: {said}."
