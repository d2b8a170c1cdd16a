"""SPEC §3 and §9: a user's devices, the push tokens their phones and browsers register."""

import json
import urllib.parse

import pytest

from tests.support.api import error_of

DEVICE = {"token": "push-1", "platform": "ios", "environment": "production", "app_version": "1.0.0"}


def test_device_registration_is_an_upsert_of_the_callers_own_device(admin):
    r = admin.post("/devices", json=DEVICE)
    assert r.status_code == 201 and "Location" not in r.headers
    device = r.get_json()["data"]
    assert set(device) == {"id", "token", "platform", "environment", "app_version", "label", "created_at", "updated_at"}
    r = admin.post("/devices", json={**DEVICE, "app_version": "1.1.0", "label": "office iPad"})
    assert r.status_code == 200 and r.get_json()["data"]["id"] == device["id"]
    assert r.get_json()["data"]["app_version"] == "1.1.0"


def test_a_token_another_user_holds_moves_to_the_caller_answered_as_a_new_one(admin, signed_in):
    """The answer tells the caller nothing of the token's past: not its status, not its id nor its age."""
    held = admin.post("/devices", json={**DEVICE, "label": "Ada's phone"}).get_json()["data"]
    other = signed_in("staff")
    unseen = other.post("/devices", json={**DEVICE, "token": "push-never-seen"})
    taken = other.post("/devices", json=DEVICE)
    assert (taken.status_code, unseen.status_code) == (201, 201)
    assert set(taken.headers.keys()) == set(unseen.headers.keys())
    device = taken.get_json()["data"]
    assert device["created_at"] > held["updated_at"] and device["label"] is None
    assert admin.get("/devices").get_json()["data"] == []
    assert {d["token"] for d in other.get("/devices").get_json()["data"]} == {"push-1", "push-never-seen"}


def test_a_user_keeps_ten_devices_and_an_eleventh_drops_the_least_recently_updated(admin):
    tokens = [f"push-{n}" for n in range(10)]
    for token in tokens:
        assert admin.post("/devices", json={**DEVICE, "token": token}).status_code == 201
    assert admin.post("/devices", json={**DEVICE, "token": "push-0", "app_version": "1.1"}).status_code == 200
    assert admin.post("/devices", json={**DEVICE, "token": "push-10"}).status_code == 201
    kept = {d["token"] for d in admin.get("/devices?limit=50").get_json()["data"]}
    assert kept == {*tokens, "push-10"} - {"push-1"}  # push-0 was updated after push-1 was registered


@pytest.mark.parametrize(
    "change, field",
    [
        ({"platform": "windows"}, "platform"),
        ({"environment": "staging"}, "environment"),
        ({"token": ""}, "token"),
        ({"token": "x" * 1025}, "token"),  # 1 KB at most
        ({"token": "é" * 513}, "token"),  # 1026 bytes in UTF-8
        ({"token": "push\x01-1"}, "token"),
        ({"token": "push\u0085-1"}, "token"),
        ({"app_version": None}, "app_version"),
        ({"user_id": "x"}, "user_id"),
    ],
)
def test_device_fields_are_validated(admin, change, field):
    assert field in error_of(admin.post("/devices", json={**DEVICE, **change}), 422, "validation_failed")["details"]


P256DH = "B" + "A" * 86  # base64url of a 65-byte uncompressed P-256 point (starts with 0x04)
AUTH = "c2l4dGVlbiBieXRlIGtleQ"  # base64url of 16 bytes


def subscription(endpoint="https://push.example.com/send/abc/def?x=1", **keys):
    """A browser's PushSubscription, as JSON.stringify gives it."""
    return json.dumps({"endpoint": endpoint, "expirationTime": None, "keys": {"p256dh": P256DH, "auth": AUTH, **keys}})


TOKENS = {
    "ios": "a3f0" * 16,
    "android": "fcm:registration-token_1",
    "web": subscription(),
    "unifiedpush": "http://nas.local:8080/up/abc?x=1",  # a LAN name this machine cannot resolve: each push checks it
}


def test_every_push_platform_registers_a_device(admin):
    long_subscription = subscription("https://push.example.com/send/" + "a" * 1500)  # over 1 KB: a web token's 2 KB
    for platform, token in [*TOKENS.items(), ("web", long_subscription)]:
        r = admin.post("/devices", json={**DEVICE, "token": token, "platform": platform})
        assert r.status_code == 201 and r.get_json()["data"]["platform"] == platform
    assert len(admin.get("/devices").get_json()["data"]) == 5


@pytest.mark.parametrize(
    "platform, token",
    [
        ("unifiedpush", "push-1"),
        ("unifiedpush", "ftp://nas.local/up"),
        ("unifiedpush", "https://user:secret@ntfy.example.com/up"),
        ("web", "https://push.example.com/send/abc"),  # the endpoint alone: no keys to encrypt with
        ("web", "{"),
        ("web", "[]"),
        ("web", subscription("http://push.example.com/send/abc")),
        ("web", subscription("https://user@push.example.com/send/abc")),
        ("web", json.dumps({"endpoint": "https://push.example.com/send/abc"})),
        ("web", subscription(p256dh="not base64!")),
        ("web", subscription(auth="")),
        ("web", subscription(p256dh=AUTH)),  # 16 bytes: not a P-256 point
        ("web", subscription(auth=P256DH)),
        ("web", subscription("https://push.example.com/send/" + "a" * 2048)),  # a subscription is 2 KB at most
        ("web", subscription("https://push.example.com/send/\u0000abc")),  # JSON's escape of a control character
        ("unifiedpush", "https://ntfy.example.com/up\u0000abc"),
        ("unifiedpush", "https://ntfy.example.com/up\nabc"),
        ("unifiedpush", "https://ntfy.example.com/up" + "a" * 1000),  # over 1 KB
    ],
)
def test_a_push_token_of_the_wrong_shape_for_its_platform_is_refused(admin, platform, token):
    r = admin.post("/devices", json={**DEVICE, "token": token, "platform": platform})
    assert set(error_of(r, 422, "validation_failed")["details"]) == {"token"}
    assert admin.get("/devices").get_json()["data"] == []


def test_devices_are_removed_by_token_and_only_the_callers(admin, signed_in):
    web_token = subscription()
    assert admin.post("/devices", json={**DEVICE, "token": web_token, "platform": "web"}).status_code == 201
    other = signed_in("staff")
    error_of(other.delete("/devices/" + urllib.parse.quote(web_token, safe="")), 404, "not_found")
    assert admin.delete("/devices/" + urllib.parse.quote(web_token, safe="")).status_code == 204
    assert admin.get("/devices").get_json()["data"] == []
    error_of(admin.delete("/devices/nothing"), 404, "not_found")
