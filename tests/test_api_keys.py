"""SPEC §3: API keys: shown once, listed without their value, revoked, expiring."""

import datetime as dt

import pytest

from models import Token
from tests.support.api import error_of
from tests.support.users import ago


def test_api_key_is_shown_once_and_listed_without_its_value(admin):
    r = admin.post("/api-keys", json={"label": " booking site "})
    assert r.status_code == 201 and "Location" not in r.headers
    key = r.get_json()["data"]
    assert set(key) == {"id", "label", "key", "prefix", "expires_at", "created_at"}
    assert key["label"] == "booking site" and key["key"].startswith("bok_") and key["prefix"] == key["key"][:12]
    days = (dt.datetime.fromisoformat(key["expires_at"]) - dt.datetime.now(dt.UTC)).total_seconds() / 86400
    assert 364.99 < days <= 365
    listed = admin.get("/api-keys").get_json()
    assert listed["meta"]["total"] == 1
    [item] = listed["data"]
    assert set(item) == {"id", "label", "prefix", "expires_at", "created_at", "last_used_at"}
    assert key["key"] not in str(listed)
    me = admin.with_token(key["key"]).get("/me").get_json()["data"]["token"]
    assert me == {"id": key["id"], "kind": "api_key", "expires_at": key["expires_at"], "label": "booking site"}


@pytest.mark.parametrize(
    "body, field",
    [
        ({}, "label"),
        ({"label": ""}, "label"),
        ({"label": "x" * 101}, "label"),
        ({"label": 5}, "label"),
        ({"label": "k", "expires_in_days": 0}, "expires_in_days"),
        ({"label": "k", "expires_in_days": 3651}, "expires_in_days"),
        ({"label": "k", "expires_in_days": "5"}, "expires_in_days"),
        ({"label": "k", "expires_in_days": True}, "expires_in_days"),
        ({"label": "k", "prefix": "x"}, "prefix"),
        ({"label": "k", "owner": "x"}, "owner"),
    ],
)
def test_api_key_request_is_validated(admin, body, field):
    assert field in error_of(admin.post("/api-keys", json=body), 422, "validation_failed")["details"]
    assert admin.get("/api-keys").get_json()["meta"]["total"] == 0


def test_api_key_list_holds_only_the_callers_live_keys(admin, signed_in):
    other = signed_in("admin")
    other.post("/api-keys", json={"label": "theirs"})
    keep = admin.post("/api-keys", json={"label": "keep", "expires_in_days": 2}).get_json()["data"]
    gone = admin.post("/api-keys", json={"label": "gone"}).get_json()["data"]
    old = admin.post("/api-keys", json={"label": "old"}).get_json()["data"]
    Token.update(expires_at=ago(seconds=1)).where(Token.id == old["id"]).execute()
    assert admin.delete(f"/api-keys/{gone['id']}").status_code == 204
    assert [k["label"] for k in admin.get("/api-keys").get_json()["data"]] == ["keep"]
    assert admin.get("/api-keys?filter[label][starts_with]=ke&fields=label").get_json()["data"] == [
        {"id": keep["id"], "label": "keep"}
    ]
    error_of(admin.get("/api-keys?limit=0"), 400, "invalid_query")


def test_revoking_a_key_that_is_not_one_of_the_callers_live_keys_is_404(admin, signed_in):
    theirs = signed_in("admin").post("/api-keys", json={"label": "x"}).get_json()["data"]
    error_of(admin.delete(f"/api-keys/{theirs['id']}"), 404, "not_found")
    mine = admin.post("/api-keys", json={"label": "x"}).get_json()["data"]
    assert admin.delete(f"/api-keys/{mine['id']}").status_code == 204
    error_of(admin.delete(f"/api-keys/{mine['id']}"), 404, "not_found")
    error_of(admin.delete("/api-keys/not-an-id"), 404, "not_found")
    error_of(admin.with_token(mine["key"]).get("/me"), 401, "unauthenticated")


def test_using_a_key_records_when_it_was_last_used(admin):
    key = admin.post("/api-keys", json={"label": "script"}).get_json()["data"]
    assert admin.get("/api-keys").get_json()["data"][0]["last_used_at"] is None
    admin.with_token(key["key"]).get("/me")
    used = admin.get("/api-keys").get_json()["data"][0]["last_used_at"]
    assert used is not None and used >= key["created_at"]
