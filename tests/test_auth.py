"""SPEC §3: sign-in links, sessions, API keys, /me, devices, capabilities and the rate limit."""

import datetime as dt
import json
import threading
import urllib.parse

import pytest

import auth
from auth import CAPABILITIES
from models import SignInLink, Token, User, db, timestamp
from tests.support.api import error_of
from tests.support.database import count_queries
from tests.support.mail import link_token, mails, request_link, text_of
from tests.support.users import make_token, make_user
from tests.support.waiting import SLOW_MACHINE_SECONDS, wait_for


def ago(**delta):
    return timestamp(dt.datetime.now(dt.UTC) - dt.timedelta(**delta))


@pytest.fixture
def ada(app):
    return make_user("ada@example.com", roles=["office"], name="Ada Lovelace")


def test_sign_in_by_mailed_link(app, anon, ada):
    request_link(anon, "Ada@Example.com ")
    [msg] = mails(app, "ada@example.com")
    assert "Band Office" in msg["Subject"]
    assert "http://127.0.0.1:8080/signin#token=bol_" in text_of(msg)
    r = anon.post("/auth/confirm", json={"token": link_token(msg)})
    assert r.status_code == 200, r.get_json()
    data = r.get_json()["data"]
    assert data["kind"] == "session" and data["token"].startswith("bos_")
    assert data["user"] == {"id": ada.id, "email": "ada@example.com", "name": "Ada Lovelace", "roles": ["office"]}
    expires = dt.datetime.fromisoformat(data["expires_at"])
    assert abs(expires - dt.datetime.now(dt.UTC) - dt.timedelta(days=30)) < dt.timedelta(minutes=1)
    me = anon.with_token(data["token"]).get("/me").get_json()["data"]
    assert me["token"]["kind"] == "session" and me["token"]["label"] is None


def test_link_template_comes_from_configuration(app, anon, ada):
    app.config["SIGNIN_URL"] = "bandoffice://signin?token={token}"
    request_link(anon, ada.email)
    assert "bandoffice://signin?token=bol_" in text_of(mails(app)[0])


@pytest.mark.parametrize("address", ["nobody@example.com", "not an address", "", "inactive@example.com"])
def test_unknown_inactive_and_malformed_addresses_get_the_same_answer_and_no_mail(app, anon, address):
    make_user("inactive@example.com", active=False)
    request_link(anon, address)
    assert mails(app) == []


def test_the_answer_does_the_same_work_for_known_and_unknown_addresses(app, anon, ada, monkeypatch):
    held = threading.Event()
    app.extensions["outbox"].put(lambda: held.wait(10))  # only the answers' own work is counted
    executed = count_queries(monkeypatch)
    answers = []
    for address in ("nobody@example.com", ada.email, ada.email):  # unknown, known, known but absorbed
        executed.clear()
        answers.append((anon.post("/auth/link", json={"email": address}).get_data(), list(executed)))
    held.set()
    assert answers[0] == answers[1] == answers[2]  # the same statements, one row written each time
    assert sum(sql.startswith("INSERT") for sql in answers[0][1]) == 1
    assert len(mails(app, ada.email)) == 1


@pytest.mark.parametrize("body", [{}, {"email": 5}, {"email": None}, {"email": "a@b.c", "x": 1}, ["a@b.c"]])
def test_link_request_needs_an_email_string_and_nothing_else(anon, body):
    error_of(anon.post("/auth/link", json=body), 422, "validation_failed")


def test_repeat_requests_within_a_minute_are_absorbed_even_after_use(app, anon, ada):
    for _ in range(3):
        request_link(anon, ada.email)
    [msg] = mails(app)
    assert anon.post("/auth/confirm", json={"token": link_token(msg)}).status_code == 200
    request_link(anon, ada.email)
    assert len(mails(app)) == 1
    SignInLink.update(created_at=ago(seconds=61)).execute()
    request_link(anon, ada.email)
    assert len(mails(app)) == 2


def test_links_are_single_use_expire_and_a_used_one_spends_the_others(app, anon, ada):
    request_link(anon, ada.email)
    SignInLink.update(created_at=ago(minutes=2)).execute()
    request_link(anon, ada.email)
    first, second = (link_token(m) for m in mails(app))
    assert anon.post("/auth/confirm", json={"token": second}).status_code == 200
    error_of(anon.post("/auth/confirm", json={"token": second}), 401, "unauthenticated")
    error_of(anon.post("/auth/confirm", json={"token": first}), 401, "unauthenticated")

    SignInLink.update(created_at=ago(minutes=2)).execute()
    request_link(anon, ada.email)
    SignInLink.update(expires_at=ago(seconds=1)).where(SignInLink.used_at.is_null()).execute()
    error_of(anon.post("/auth/confirm", json={"token": link_token(mails(app)[-1])}), 401, "unauthenticated")


def test_link_lifetime_is_fifteen_minutes(app, anon, ada):
    request_link(anon, ada.email)
    app.extensions["outbox"].join()
    link = SignInLink.get()
    created = dt.datetime.fromisoformat(link.created_at)
    assert abs(dt.datetime.fromisoformat(link.expires_at) - created - dt.timedelta(minutes=15)) < dt.timedelta(
        seconds=5
    )


@pytest.mark.parametrize(
    "body, status",
    [
        ({"token": "bol_nothing"}, 401),
        ({"token": ""}, 401),
        ({}, 422),
        ({"token": 7}, 422),
        ({"token": "x", "more": 1}, 422),
    ],
)
def test_confirm_refuses_unknown_tokens_and_bad_bodies(anon, body, status):
    error_of(anon.post("/auth/confirm", json=body), status, "unauthenticated" if status == 401 else "validation_failed")


def test_a_deactivated_user_cannot_confirm_a_link(app, anon, ada):
    request_link(anon, ada.email)
    User.update(active=False).execute()
    error_of(anon.post("/auth/confirm", json={"token": link_token(mails(app)[0])}), 401, "unauthenticated")


def test_signing_in_again_keeps_other_sessions(app, anon, ada):
    first = make_token(ada)
    request_link(anon, ada.email)
    anon.post("/auth/confirm", json={"token": link_token(mails(app)[0])})
    assert anon.with_token(first).get("/me").status_code == 200


def test_tokens_are_stored_only_as_hashes(app, anon, ada):
    request_link(anon, ada.email)
    link = link_token(mails(app)[0])
    session = anon.post("/auth/confirm", json={"token": link}).get_json()["data"]["token"]
    key = anon.with_token(session).post("/api-keys", json={"label": "k"}).get_json()["data"]["key"]
    dump = "\n".join(db.connection().iterdump())
    for secret in (link, session, key):
        assert secret not in dump


def test_signout_revokes_that_bearer_only(anon, ada):
    one, two = make_token(ada), make_token(ada)
    r = anon.with_token(one).post("/auth/signout")
    assert r.status_code == 204 and r.data == b""
    error_of(anon.with_token(one).get("/me"), 401, "unauthenticated")
    assert anon.with_token(two).get("/me").status_code == 200


def test_signout_with_an_api_key_revokes_the_key(anon, ada):
    key = make_token(ada, kind="api_key", label="script")
    assert anon.with_token(key).post("/auth/signout").status_code == 204
    error_of(anon.with_token(key).get("/me"), 401, "unauthenticated")


@pytest.mark.parametrize(
    "header",
    ["", "Bearer", "Bearer ", "Basic dXNlcjpwYXNz", "Bearer bos_unknown", "Token {token}", "bearer{token}"],
)
def test_missing_or_wrong_bearer_is_401_with_www_authenticate(anon, ada, header):
    token = make_token(ada)
    r = anon.get("/me", headers={"Authorization": header.format(token=token)})
    error_of(r, 401, "unauthenticated")
    assert r.headers["WWW-Authenticate"] == "Bearer"


def test_lowercase_scheme_is_accepted(anon, ada):
    assert anon.get("/me", headers={"Authorization": f"bearer {make_token(ada)}"}).status_code == 200


def test_expired_revoked_and_inactive_are_401(anon, ada):
    expired = make_token(ada)
    Token.update(expires_at=ago(seconds=1)).execute()
    error_of(anon.with_token(expired).get("/me"), 401, "unauthenticated")
    live = make_token(ada)
    User.update(active=False).execute()
    error_of(anon.with_token(live).get("/me"), 401, "unauthenticated")


def test_a_remembered_caller_is_forgotten_at_the_servers_next_write(admin, anon, ada):
    token = make_token(ada)
    assert anon.with_token(token).get("/me").status_code == 200  # now remembered
    assert admin.patch(f"/users/{ada.id}", json={"active": False}).status_code == 200
    error_of(anon.with_token(token).get("/me"), 401, "unauthenticated")
    key = admin.post("/api-keys", json={"label": "script"}).get_json()["data"]
    assert admin.with_token(key["key"]).get("/me").status_code == 200
    assert admin.delete(f"/api-keys/{key['id']}").status_code == 204
    error_of(admin.with_token(key["key"]).get("/me"), 401, "unauthenticated")


def test_a_change_made_outside_the_server_counts_within_a_moment(anon, ada, monkeypatch):
    monkeypatch.setattr(auth, "CALLER_MEMORY_SECONDS", 0.2)
    token = make_token(ada)
    assert anon.with_token(token).get("/me").status_code == 200
    User.update(active=False).execute()  # as a command in another process would
    wait_for(lambda: anon.with_token(token).get("/me").status_code == 401, timeout=SLOW_MACHINE_SECONDS)
    error_of(anon.with_token(token).get("/me"), 401, "unauthenticated")


EXPECTED_CAPABILITIES = {
    "admin": set(CAPABILITIES),
    "office": {c for c in CAPABILITIES if not c.startswith("admin.")},
    "staff": {"catalog.view"},  # a musician's own work is under /me (SPEC §10)
    "crew": {"gigs.view", "catalog.view", "production.view", "production.edit"},
    "viewer": {c for c in CAPABILITIES if c.endswith(".view") and c != "admin.view"},
}


@pytest.mark.parametrize("role_name", sorted(EXPECTED_CAPABILITIES))
def test_me_shows_the_full_can_map_of_each_default_role(signed_in, role_name):
    me = signed_in(role_name).get("/me").get_json()["data"]
    assert set(me) == {"id", "email", "name", "roles", "token", "can"}
    assert me["roles"] == [role_name]
    assert set(me["can"]) == set(CAPABILITIES) and len(CAPABILITIES) == 14
    assert {c for c, held in me["can"].items() if held} == EXPECTED_CAPABILITIES[role_name]
    assert set(me["token"]) == {"id", "kind", "expires_at", "label"}


def test_capabilities_are_the_union_over_roles_and_edit_does_not_imply_view(signed_in, role):
    role("editor", "gigs.edit")
    role("reader", "catalog.view", "bogus.view")
    c = signed_in("editor", "reader")
    assert {k for k, v in c.get("/me").get_json()["data"]["can"].items() if v} == {"gigs.edit", "catalog.view"}
    assert c.post("/gigs", json={"gig_date": "2027-01-01", "title": "Edit only"}).status_code == 201
    assert error_of(c.get("/gigs"), 403, "forbidden")["details"] == {"required": "gigs.view"}
    assert c.get("/teams").status_code == 200
    assert error_of(c.post("/teams", json={"name": "x"}), 403, "forbidden")["details"] == {"required": "catalog.edit"}


def test_a_user_without_roles_can_still_use_me_keys_and_devices(signed_in):
    c = signed_in()
    assert not any(c.get("/me").get_json()["data"]["can"].values())
    assert c.post("/api-keys", json={"label": "mine"}).status_code == 201
    error_of(c.get("/gigs"), 403, "forbidden")


# --- API keys ---------------------------------------------------------------------------------------------


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


# --- devices ----------------------------------------------------------------------------------------------

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
    "unifiedpush": "http://nas.local:8080/up/abc?x=1",  # a distributor on the LAN is fine
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


# --- rate limit and the sign-in page ----------------------------------------------------------------------


def test_link_and_confirm_share_one_rate_limit_per_client(app, anon):
    from rate_limit import RateLimiter

    app.extensions["auth_rate"] = RateLimiter(3, 60)
    request_link(anon, "a@example.com")
    request_link(anon, "b@example.com")
    error_of(anon.post("/auth/confirm", json={"token": "x"}), 401, "unauthenticated")
    r = anon.post("/auth/link", json={"email": "c@example.com"})
    error_of(r, 429, "rate_limited")
    assert 1 <= int(r.headers["Retry-After"]) <= 60
    other_client = anon.post("/auth/link", json={"email": "d@example.com"}, environ_base={"REMOTE_ADDR": "10.0.0.9"})
    assert other_client.status_code == 200


def test_rate_limiter_window_slides():
    from rate_limit import RateLimiter

    limiter = RateLimiter(2, 1)
    assert limiter.retry_after("x") == 0 and limiter.retry_after("x") == 0
    assert limiter.retry_after("x") == 1
    limiter.hits["x"] = type(limiter.hits["x"])(t - 1.1 for t in limiter.hits["x"])
    assert limiter.retry_after("x") == 0


def test_signin_page_posts_the_token_only_on_a_click(anon):
    r = anon.get("/signin")
    assert r.status_code == 200 and r.mimetype == "text/html"
    page = r.get_data(as_text=True)
    assert "<button" in page and "/v1/auth/confirm" in page and 'addEventListener("click"' in page
    assert ".submit(" not in page and "http://" not in page and "https://" not in page
