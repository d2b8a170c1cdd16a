"""SPEC §3: sign-in links, sessions, /me, capabilities and the rate limit (API keys: test_api_keys.py;
devices: test_devices.py)."""

import datetime as dt
import threading

import pytest

import auth
from domain.capabilities import CAPABILITIES
from models import MODELS, SignInLink, Token, User, db
from tests.support import postgresql
from tests.support.api import error_of
from tests.support.database import count_queries
from tests.support.mail import link_token, mails, request_link, text_of
from tests.support.users import ago, make_token, make_user
from tests.support.waiting import SLOW_MACHINE_SECONDS, wait_for


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


def test_after_the_answer_known_and_unknown_addresses_set_off_the_same_work(app, anon, ada):
    """Issue 33: a known address was answered some milliseconds later, its mail handed to the outbox's thread in
    the request. Now every address hands it a mail to compose (sent only to a known one), after the answer."""
    outbox, held = app.extensions["outbox"], threading.Event()
    outbox.put(lambda: held.wait(60))  # the jobs queue behind it, to be counted
    handed = []
    for address in ("nobody@example.com", ada.email, ada.email):  # unknown, known, known but absorbed
        before = outbox.unfinished
        assert anon.post("/auth/link", json={"email": address}).status_code == 200
        handed.append(outbox.unfinished - before)
    held.set()
    assert handed == [1, 1, 1]
    assert len(mails(app, ada.email)) == 1 and len(mails(app)) == 1


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


def dumped():
    """Every row of the database as text."""
    if not postgresql.on_postgresql():
        return "\n".join(db.connection().iterdump())
    tables = [model._meta.table_name for model in MODELS]
    return "\n".join(str(row) for table in tables for row in db.execute_sql(f'SELECT * FROM "{table}"').fetchall())


def test_tokens_are_stored_only_as_hashes(app, anon, ada):
    request_link(anon, ada.email)
    link = link_token(mails(app)[0])
    session = anon.post("/auth/confirm", json={"token": link}).get_json()["data"]["token"]
    key = anon.with_token(session).post("/api-keys", json={"label": "k"}).get_json()["data"]["key"]
    dump = dumped()
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
    assert set(me) == {"id", "email", "name", "roles", "token", "can", "office", "staff_member_id"}
    assert me["roles"] == [role_name]
    assert set(me["can"]) == set(CAPABILITIES) and len(CAPABILITIES) == 16
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


# --- rate limit and the sign-in page ----------------------------------------------------------------------


def test_link_and_confirm_share_one_rate_limit_per_client(app, anon):
    from web.rate_limits import RateLimiter

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
    from web.rate_limits import RateLimiter

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


def test_the_signin_page_and_its_mail_say_the_offices_name(app, anon, ada):
    admin = anon.with_token(make_token(make_user(roles=("admin",))))
    assert admin.patch("/office", json={"name": "Hofer Hochzeitsband"}).status_code == 200
    page = anon.get("/signin").get_data(as_text=True)
    assert "<title>Sign in · Hofer Hochzeitsband</title>" in page and ">Hofer Hochzeitsband</a>" in page
    request_link(anon, ada.email)
    [msg] = mails(app, "ada@example.com")
    assert msg["Subject"] == "Your Hofer Hochzeitsband sign-in link"
    assert "to sign in to Hofer Hochzeitsband, open this link" in text_of(msg)
    assert "Band Office" not in text_of(msg)


def test_me_names_the_offices_currency_for_amounts_without_their_own(app, anon, ada, documented):
    admin = anon.with_token(make_token(make_user(roles=("admin",))))
    assert admin.patch("/office", json={"currency": "CHF"}).status_code == 200
    r = anon.with_token(make_token(ada)).get("/me")
    assert r.get_json()["data"]["office"] == {"currency": "CHF"}
    documented.check("GET", "/me", r)
    answer = documented.resolved(documented.response("GET", "/me", 200)["content"]["application/json"]["schema"])
    me = documented.resolved(answer["properties"]["data"])
    office = documented.resolved(me["properties"]["office"])
    assert "/office" in documented.resolved(office["properties"]["currency"])["description"]
