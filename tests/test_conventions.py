"""SPEC §2: bodies, the error envelope, routing errors, request ids, transactions and error precedence."""

import functools
import io
import json
import logging
import time

import pytest
from flask import g

from dialects import dialect
from models import Team
from resources import REGISTRY
from storage import writer
from tests.support.api import error_of
from web import lifecycle

UNKNOWN_ID = "00000000-0000-4000-8000-000000000000"


def test_body_that_is_not_json_is_400(admin):
    r = admin.post("/teams", data=b"{nope", headers={"Content-Type": "application/json"})
    error_of(r, 400, "invalid_json")


@pytest.mark.parametrize("raw", [b"", b"NaN", b'{"name": Infinity}', b"\xff\xfe", b"[" * 100_000])
def test_json_edge_cases_are_400(admin, raw):
    r = admin.post("/teams", data=raw, headers={"Content-Type": "application/json"})
    error_of(r, 400, "invalid_json")


@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data"])
def test_other_media_type_is_415(admin, content_type):
    r = admin.post("/teams", data=b'{"name": "x"}', headers={"Content-Type": content_type})
    error_of(r, 415, "unsupported_media_type")
    assert Team.select().count() == 0


def test_json_with_charset_and_suffix_types_are_accepted(admin):
    for content_type in ("application/json; charset=utf-8", "application/merge-patch+json"):
        r = admin.post("/teams", data=b'{"name": "%s"}' % content_type.encode(), headers={"Content-Type": content_type})
        assert r.status_code == 201, r.get_json()


@pytest.mark.parametrize("body", [None, [], "team", 3, True])
def test_body_that_is_not_an_object_is_422(admin, body):
    r = admin.post("/teams", data=json.dumps(body), headers={"Content-Type": "application/json"})
    error = error_of(r, 422, "validation_failed")
    assert error["details"] == {"_body": ["Expected a JSON object."]}


def test_missing_body_is_422(admin):
    error = error_of(admin.post("/teams"), 422, "validation_failed")
    assert "_body" in error["details"]


def test_body_over_the_json_limit_is_413_and_stores_nothing(app, admin):
    app.config["MAX_JSON_KB"] = 1
    r = admin.post("/teams", json={"name": "x", "description": "y" * 2000})
    error_of(r, 413, "payload_too_large")
    assert Team.select().count() == 0


def test_body_without_length_over_the_limit_is_413(app, admin):
    """A chunked body declares no length: it is read up to the limit and refused past it."""
    app.config["MAX_JSON_KB"] = 1
    body = b'{"name": "x", "description": "' + b"y" * 2000 + b'"}'
    r = admin.post(
        "/teams",
        input_stream=io.BytesIO(body),
        environ_overrides={"wsgi.input_terminated": True},
        headers={"Content-Type": "application/json", "Transfer-Encoding": "chunked"},
    )
    error_of(r, 413, "payload_too_large")
    assert Team.select().count() == 0


def test_unknown_route_is_404_envelope_even_without_token(anon):
    error_of(anon.get("/no-such-thing"), 404, "not_found")
    error_of(anon.get("/teams/x/y"), 404, "not_found")
    error_of(anon.get("/nowhere", headers={}), 404, "not_found")


def test_wrong_method_is_405_with_allow_header(anon):
    r = anon.request("PUT", "/teams")
    error_of(r, 405, "method_not_allowed")
    assert set(r.headers["Allow"].split(", ")) >= {"GET", "POST"}
    r = anon.post(f"/teams/{UNKNOWN_ID}", json={})
    error_of(r, 405, "method_not_allowed")
    assert "PATCH" in r.headers["Allow"] and "DELETE" in r.headers["Allow"]


def test_every_response_has_a_request_id_and_echoes_the_clients(admin, anon):
    assert len(admin.get("/teams").headers["X-Request-Id"]) >= 16
    assert anon.get("/nothing").headers["X-Request-Id"]
    r = admin.get("/teams", headers={"X-Request-Id": "abc-123"})
    assert r.headers["X-Request-Id"] == "abc-123"
    r = admin.get("/teams", headers={"X-Request-Id": "bad id\twith spaces"})
    assert r.headers["X-Request-Id"] != "bad id\twith spaces"


def test_unexpected_error_is_500_envelope_with_no_traceback_and_is_logged(admin, monkeypatch, caplog):
    def explode(*args, **kwargs):
        raise RuntimeError("secret internals")

    monkeypatch.setattr(REGISTRY["teams"], "list", explode)
    with caplog.at_level(logging.ERROR):
        r = admin.get("/teams", headers={"X-Request-Id": "req-500"})
    error = error_of(r, 500, "internal_error")
    assert "secret" not in r.get_data(as_text=True) and "Traceback" not in r.get_data(as_text=True)
    assert "req-500" in error["message"]
    assert any("req-500" in rec.getMessage() and rec.exc_info for rec in caplog.records)


def test_failed_write_changes_nothing(admin, monkeypatch):
    """One transaction per write: a failure after the row was written leaves no trace of it."""

    def fail_after_save(write):
        raise RuntimeError("after the insert")

    monkeypatch.setattr(REGISTRY["teams"], "after_save", fail_after_save)
    error_of(admin.post("/teams", json={"name": "Ghost"}), 500, "internal_error")
    assert Team.select().count() == 0


def test_refused_write_rolls_back_what_it_wrote(admin, build, monkeypatch):
    """A domain refusal (409) raised after other rows were touched undoes them too."""
    first = build("gig-statuses", is_default=True)
    from domain.errors import conflict

    def refuse(write):
        REGISTRY["gig-statuses"].__class__.after_save(REGISTRY["gig-statuses"], write)
        raise conflict("test", "refused")

    monkeypatch.setattr(REGISTRY["gig-statuses"], "after_save", refuse)
    error_of(
        admin.post("/gig-statuses", json={"name": "Second", "kind": "tentative", "is_default": True}), 409, "conflict"
    )
    assert admin.get(f"/gig-statuses/{first['id']}").get_json()["data"]["is_default"] is True


class Lost(Exception):
    """Made up: what the database raises for a write that lost a race with a concurrent one (PostgreSQL's
    serialization failure), at any statement or at its commit."""


@pytest.fixture
def losing(monkeypatch):
    """losing(times, at="statement" or "commit"): a write's first `times` attempts lose a race there; answers the
    list that records, for each attempt, whether its transaction began alone."""
    monkeypatch.setattr(dialect, "lost_to_another", lambda error: isinstance(error, Lost))

    def lose(times, at="statement"):
        begun, begin, teams = [], dialect.write_transaction, REGISTRY["teams"]
        after_save, end = teams.after_save, lifecycle.end_transaction

        def write_transaction(alone=False):
            begun.append(alone)
            return begin(alone=alone)

        def after_save_or_lose(write):
            after_save(write)
            if at == "statement" and len(begun) <= times:
                raise Lost()

        def end_or_lose(error=None, status=500):
            if at == "commit" and error is None and "transaction" in g and len(begun) <= times:
                end(Lost())  # rolled back, as a commit that failed is
                raise Lost()
            end(error, status)

        monkeypatch.setattr(dialect, "write_transaction", write_transaction)
        monkeypatch.setattr(teams, "after_save", after_save_or_lose)
        monkeypatch.setattr(lifecycle, "end_transaction", end_or_lose)
        return begun

    return lose


@pytest.mark.parametrize("at", ["statement", "commit"])
def test_a_write_that_lost_a_race_is_run_again_from_its_start_and_alone_after_three_losses(admin, losing, at):
    begun = losing(2, at)
    assert admin.post("/teams", json={"name": "Twice lost"}).status_code == 201
    assert begun == [False, False, False] and Team.select().count() == 1
    begun = losing(3, at)
    assert admin.post("/teams", json={"name": "Thrice lost"}).status_code == 201
    assert begun == [False, False, False, True] and Team.select().count() == 2


def test_a_write_that_keeps_losing_is_503_after_the_busy_timeout_and_leaves_nothing(admin, losing, monkeypatch):
    monkeypatch.setattr(writer, "attempts", functools.partial(writer.attempts, seconds=0.3))
    begun, started = losing(1000), time.monotonic()
    r = admin.post("/teams", json={"name": "Always lost"})
    assert time.monotonic() - started >= 0.3
    error_of(r, 503, "unavailable")
    assert r.headers["Retry-After"] == "1"
    assert begun[:4] == [False, False, False, True] and all(begun[3:]) and Team.select().count() == 0


class TestPrecedence:
    """SPEC §2: route, then 401, then 403, then the body, then the record's 404, then 422, then 409."""

    def test_401_before_body_errors(self, anon):
        error_of(anon.post("/teams", data=b"{", headers={"Content-Type": "application/json"}), 401, "unauthenticated")

    def test_403_before_body_and_record(self, signed_in):
        viewer = signed_in("viewer")
        r = viewer.patch(f"/teams/{UNKNOWN_ID}", data=b"{", headers={"Content-Type": "text/plain"})
        error_of(r, 403, "forbidden")

    def test_body_errors_before_the_records_404(self, admin):
        error_of(
            admin.patch(f"/teams/{UNKNOWN_ID}", data=b"x", headers={"Content-Type": "text/plain"}),
            415,
            "unsupported_media_type",
        )
        error_of(
            admin.patch(f"/teams/{UNKNOWN_ID}", data=b"{", headers={"Content-Type": "application/json"}),
            400,
            "invalid_json",
        )

    def test_404_before_422(self, admin):
        error_of(admin.patch(f"/teams/{UNKNOWN_ID}", json={"nope": 1}), 404, "not_found")

    def test_422_before_409(self, admin, build):
        team = build("teams")
        r = admin.post("/teams", json={"name": team["name"], "unknown": 1})
        error_of(r, 422, "validation_failed")


def test_the_api_root_says_where_to_start_and_the_server_root_is_the_console(anon):
    assert anon.get("/v1/").get_json() == {
        "data": {"name": "Band Office", "version": "1.0.0", "docs": "/v1/docs", "openapi": "/v1/openapi.json"}
    }
    r = anon.client.get("/")
    assert r.status_code == 200 and r.mimetype == "text/html" and b"/console/main.js" in r.data
