"""SPEC §2.3: every error reason a client can meet (`details.reason`: quota_exceeded, last_admin, already_set_up, …)
is named in the OpenAPI document at the operations that answer it. The reasons are declared once
(`domain.errors.REASONS`); the code is walked for every reason it raises, and a few are met through the API."""

import ast

import pytest

from domain.errors import REASONS
from tests.support import PROJECT
from tests.support.api import error_of
from tests.support.users import make_token, make_user

RAISERS = {"conflict", "Clash"}  # called with the reason first


def raised_reasons():
    """{reason: [file:line]} of every reason the service's code gives: a raiser's first argument, or a `reason`
    key of a details dict."""
    found = {}
    for path in sorted(PROJECT.rglob("*.py")):
        parts = path.relative_to(PROJECT).parts
        if parts[0] in ("tests", "scripts") or any(p.startswith(".") for p in parts):
            continue
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            reason = None
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) in RAISERS and node.args:
                reason = node.args[0]
            elif isinstance(node, ast.Dict):
                reason = next(
                    (v for k, v in zip(node.keys, node.values) if getattr(k, "value", None) == "reason"), None
                )
            if isinstance(reason, ast.Constant) and isinstance(reason.value, str):
                found.setdefault(reason.value, []).append(f"{path.relative_to(PROJECT)}:{node.lineno}")
    return found


@pytest.fixture
def document(anon):
    return anon.get("/openapi.json").get_json()


def operation_of(document, where):
    method, path = where.split(" ", 1)
    return document["paths"][path][method.lower()]


def test_every_reason_the_code_gives_is_declared_and_every_declared_one_is_given():
    raised = raised_reasons()
    assert set(raised) - set(REASONS) == set(), {r: raised[r] for r in set(raised) - set(REASONS)}
    assert set(REASONS) - set(raised) == set()


def test_the_document_names_each_reason_at_the_operations_that_answer_it(document):
    missing = []
    for reason, (meaning, operations) in REASONS.items():
        for where in operations:
            operation = operation_of(document, where)
            if reason not in operation.get("x-reasons", ()) or f"`{reason}`: {meaning}" not in operation["description"]:
                missing.append((reason, where))
    assert missing == []


def named_where_answered(document, where, response, status=409):
    reason = error_of(response, status, "conflict" if status == 409 else "unauthenticated")["details"]["reason"]
    assert reason in operation_of(document, where)["x-reasons"], (where, reason)
    return reason


def test_quota_exceeded_is_named_at_the_creation_of_an_api_key(admin, document):
    for number in range(25):
        assert admin.post("/api-keys", {"label": f"key {number}"}).status_code == 201
    answer = admin.post("/api-keys", {"label": "one too many"})
    assert named_where_answered(document, "POST /api-keys", answer) == "quota_exceeded"


def test_last_admin_is_named_at_a_users_change(admin, anon, role, document):
    role("user-admins", "admin.*")
    keeper = anon.with_token(make_token(make_user(roles=["user-admins"])))
    only_admin = admin.get("/me").get_json()["data"]["id"]
    answer = keeper.patch(f"/users/{only_admin}", {"active": False})
    assert named_where_answered(document, "PATCH /users/{id}", answer) == "last_admin"


def test_already_set_up_is_named_at_the_setup(app, admin, anon, document):
    from domain import first_run

    with app.app_context():
        token = first_run.new_setup_link(app.config).rsplit("#token=", 1)[1]
    answer = anon.post("/auth/setup", {"token": token, "name": "Second", "email": "second@example.com"})
    assert named_where_answered(document, "POST /auth/setup", answer) == "already_set_up"
