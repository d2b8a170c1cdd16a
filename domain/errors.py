"""The service's error types: `ApiError`, the one error a client is answered with (as the envelope of
`web/envelope.py`), the constructors of its common cases, and `ConfigError`, a setting the service cannot run with."""

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

ACCEPT = "POST /gig-role-invitations/{id}/accept"
ANSWER = "POST /invitations/answer"
ANSWERING = ("POST /gig-role-invitations/{id}/decline", "POST /gig-role-invitations/{id}/withdraw", ACCEPT, ANSWER)
STAFFING = ("POST /gig-roles", "PATCH /gig-roles/{id}", "POST /gig-role-invitations", ACCEPT, ANSWER)
ADMINS = ("PATCH /users/{id}", "DELETE /users/{id}", "PATCH /access-roles/{id}")
SEND_QUOTE, ANSWER_QUOTE = "POST /quotes/{id}/send", ("POST /quotes/{id}/accept", "POST /quotes/{id}/decline")
SIGN = "POST /contracts/{id}/sign-on-behalf"
ISSUE = "POST /invoices/{id}/issue"
# The writes of the sales documents that change only while the document (or a line's document) is a draft.
DRAFTS_ONLY = (
    *(f"{method} /{name}/{{id}}" for name in ("quotes", "contracts", "invoices") for method in ("PATCH", "DELETE")),
    *(f"POST /{name}" for name in ("quote-lines", "invoice-lines")),
    *(f"{method} /{name}/{{id}}" for name in ("quote-lines", "invoice-lines") for method in ("PATCH", "DELETE")),
    SEND_QUOTE,
    "POST /contracts/{id}/send",
    ISSUE,
)
# The couple's wishes on their page (SPEC §16), which change until the gig's planning locks.
WISHES = (
    "PATCH /client/moments/{id}",
    "POST /client/songs",
    "PATCH /client/songs/{id}",
    "DELETE /client/songs/{id}",
    "POST /client/notes",
    "DELETE /client/notes/{id}",
)
PAYMENTS = ("POST /payments", "PATCH /payments/{id}", "DELETE /payments/{id}")
# Every `details.reason` a client can meet: what it means, and the operations that answer with it ("METHOD /path",
# as the OpenAPI document writes them), where the document names it (tests/test_reasons.py walks the code for them).
REASONS = {
    "gig_closed": (
        "the gig is completed or cancelled",
        ("POST /gigs/{id}/generate-roles", *STAFFING[2:], "POST /gig-roles"),
    ),
    "gig_role_filled": ("the gig role is filled already", STAFFING[2:]),
    "staff_member_blocked_out": ("a blockout of the staff member covers the gig's date (details.blockout)", STAFFING),
    "double_booked": (
        "the staff member (details.gig_role) or the equipment (details.gig_equipment) is on another gig then",
        (*STAFFING, "POST /gig-equipment", "PATCH /gig-equipment/{id}"),
    ),
    "staff_member_booked": (
        "you play a gig on one of those days (details.gig_role)",
        ("POST /me/blockouts", "PATCH /me/blockouts/{id}"),
    ),
    "equipment_unavailable": (
        "the equipment is in repair or retired",
        ("POST /gig-equipment", "PATCH /gig-equipment/{id}"),
    ),
    "invitation_expired": (
        "the invitation (or its answer link) has expired",
        (*ANSWERING, "PATCH /gig-role-invitations/{id}", "POST /invitations/preview"),
    ),
    "invitation_not_pending": (
        "the invitation was answered or withdrawn (details.status on the answer link)",
        (*ANSWERING, "PATCH /gig-role-invitations/{id}"),
    ),
    "link_expired": ("the answer link's invitation was answered or withdrawn", ("POST /invitations/preview", ANSWER)),
    "member_inactive": ("the invited staff member or their user is inactive", ("POST /invitations/preview", ANSWER)),
    "quota_exceeded": (
        "you hold as many live API keys as one user may (details.limit): revoke one first",
        ("POST /api-keys",),
    ),
    "already_set_up": ("an active admin exists already: sign in instead", ("POST /auth/setup",)),
    "own_admin_capability": ("you cannot take away your own admin capability", ADMINS),
    "last_admin": ("at least one active user keeps every capability", ADMINS),
    "admin_role": ("the admin access role cannot be deleted", ("DELETE /access-roles/{id}",)),
    "endpoint_inactive": (
        "the webhook endpoint is switched off",
        ("POST /webhook-endpoints/{id}/ping", "POST /webhook-deliveries/{id}/redeliver"),
    ),
    "delivery_in_flight": ("an attempt of the delivery is on its way", ("POST /webhook-deliveries/{id}/redeliver",)),
    "email_in_use": (
        "a user with this e-mail address exists already: link them to the staff member instead",
        ("POST /musicians", "POST /staff-members/{id}/sign-in"),
    ),
    "already_signs_in": ("the staff member is linked to a user already", ("POST /staff-members/{id}/sign-in",)),
    "not_editable": ("the document was sent or issued: only a draft changes (details.status)", DRAFTS_ONLY),
    "no_contact": ("the quote has no contact_id", (SEND_QUOTE,)),
    "no_lines": ("the quote or invoice has no lines: add what it charges first", (SEND_QUOTE, ISSUE)),
    "no_text": ("the contract has no body", ("POST /contracts/{id}/send",)),
    "quote_expired": ("past valid_until (details.valid_until)", (SEND_QUOTE, *ANSWER_QUOTE)),
    "not_sent": ("not sent (details.status)", (*ANSWER_QUOTE, SIGN)),
    "quote_accepted": ("the gig has an accepted quote (details.quote_id)", ANSWER_QUOTE[:1]),
    "contract_void": ("void already", ("POST /contracts/{id}/void",)),
    "not_issued": ("the invoice is a draft or void: only an issued one takes payments (details.status)", PAYMENTS),
    "not_creditable": (
        "only an issued invoice is credited, and no more than its gross (details.status)",
        ("POST /invoices/{id}/credit",),
    ),
    "planning_locked": (
        "the gig's planning is locked (details.planning_locks_on): ask the office by phone",
        WISHES,
    ),
    "e_invoice_incomplete": (
        "the invoice's Factur-X XML needs fields /office lacks (details.lacking)",
        (ISSUE, "POST /invoices/{id}/credit"),
    ),
}


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
    `record` what the caller may read, worked out by the one rule of `web.clash_details`."""

    def __init__(self, reason, message, key, record):
        super().__init__(409, "conflict", message, {"reason": reason})
        self.key, self.record = key, record


def flatten(messages, prefix=""):
    """marshmallow's nested messages as {"custom_fields.KEY": [...], "grants.0": [...]}."""
    if isinstance(messages, list):
        return {prefix or "_body": [str(m) for m in messages]}
    flat = {}
    for key, value in messages.items():
        name = f"{prefix}.{key}" if prefix else str(key)
        flat.update(flatten(value, name))
    return flat
