"""SPEC §12, first run: the setup link `serve` prints names the first admin through `POST /v1/auth/setup` and signs
them in; it works once, within the hour, only the newest one printed, and not at all once an admin exists. Its
refusals are the API's envelope; a refused name or address spends nothing."""

import time

import pytest
from itsdangerous import URLSafeSerializer

from domain import first_run, signed_links
from tests.support.api import error_of
from tests.support.pages import Elements, csp_directives
from tests.support.users import make_user
from web.rate_limits import RateLimiter

HOSTILE = "<img src=x onerror=alert(1)> \u202eAda"


@pytest.fixture
def link(app):
    """A new setup link's token, as serve makes it."""

    def make():
        with app.app_context():
            return first_run.new_setup_link(app.config).split("/setup#token=", 1)[1]

    return make


def set_up(anon, token, name="Ada Admin", email="Ada@Example.com"):
    return anon.post("/auth/setup", {"token": token, "name": name, "email": email})


def test_the_setup_link_names_the_first_admin_and_signs_them_in(anon, link, documented):
    r = set_up(anon, link(), name=HOSTILE)
    assert r.status_code == 201, r.get_json()
    documented.check("POST", "/auth/setup", r)
    session = r.get_json()["data"]
    assert session["kind"] == "session" and session["token"].startswith("bos_")
    assert session["user"]["name"] == HOSTILE and session["user"]["email"] == "ada@example.com"
    me = anon.with_token(session["token"]).get("/me").get_json()["data"]
    assert me["roles"] == ["admin"] and all(me["can"].values()) and me["name"] == HOSTILE
    history = anon.with_token(session["token"]).get("/events?sort=occurred_at").get_json()["data"]
    assert [event["type"] for event in history] == ["user.created", "user.signed_in"]
    assert history[0]["actor"]["name"] == HOSTILE and history[0]["data"]["roles"] == ["admin"]


def test_an_existing_user_with_the_address_becomes_the_admin(anon, link):
    sam = make_user("sam@example.com", roles=["staff"], active=False, name="Sam")
    r = set_up(anon, link(), name="Sam Player", email="SAM@example.com")
    assert r.status_code == 201 and r.get_json()["data"]["user"]["id"] == sam.id
    me = anon.with_token(r.get_json()["data"]["token"]).get("/me").get_json()["data"]
    assert me["roles"] == ["staff", "admin"] and me["name"] == "Sam Player"


def test_the_link_works_once(anon, link):
    token = link()
    assert set_up(anon, token).status_code == 201
    again = error_of(set_up(anon, token, email="eve@example.com"), 409, "conflict")
    assert again["details"]["reason"] == "already_set_up" and "/signin" in again["message"]
    error_of(set_up(anon, link(), email="eve@example.com"), 409, "conflict")  # nor does a new one


def test_no_link_works_once_an_admin_exists(anon, link, signed_in):
    token = link()
    signed_in("admin")
    error_of(set_up(anon, token), 409, "conflict")
    r = anon.client.get("/setup")
    assert "has an admin already" in r.get_data(as_text=True)
    assert not Elements(r.get_data(as_text=True)).find("form")


def test_only_the_newest_link_works(anon, link):
    older, newer = link(), link()
    assert "used" in error_of(set_up(anon, older), 401, "unauthenticated")["message"]
    assert set_up(anon, newer).status_code == 201


def test_an_expired_or_forged_link_is_refused_and_spends_nothing(app, anon, link):
    token = link()
    with app.app_context():
        nonce, _ = signed_links.setup_subject(app.config, token)
        expired = signed_links.setup_token(app.config, nonce, issued_at=time.time() - first_run.SETUP_MINUTES * 60 - 1)
    forged = URLSafeSerializer("not our key", salt=signed_links.SETUP_SALT).dumps([nonce, int(time.time())])
    for refused in (expired, forged, "bos_guess", token + "x"):
        assert "hour" in error_of(set_up(anon, refused), 401, "unauthenticated")["message"]
    assert set_up(anon, token).status_code == 201


@pytest.mark.parametrize(
    "change, field",
    [
        ({"name": "  "}, "name"),
        ({"name": "x" * 201}, "name"),
        ({"name": 7}, "name"),
        ({"email": "not an address"}, "email"),
        ({"email": None}, "email"),
        ({"roles": ["admin"]}, "roles"),
        ({"token": None}, "token"),
    ],
)
def test_a_refused_field_is_named_and_the_link_still_works(anon, link, change, field):
    token = link()
    body = {"token": token, "name": "Ada", "email": "ada@example.com", **change}
    error = error_of(anon.post("/auth/setup", body), 422, "validation_failed")
    assert list(error["details"]) == [field]
    assert set_up(anon, token).status_code == 201


def test_setting_up_is_rate_limited_like_sign_in(app, anon, link):
    app.extensions["auth_rate"] = RateLimiter(1, 60)
    error_of(set_up(anon, "bos_guess"), 401, "unauthenticated")
    r = set_up(anon, link())
    error_of(r, 429, "rate_limited")
    assert r.headers["Retry-After"].isdigit()


def test_the_setup_page_runs_under_a_nonce_of_its_policy_and_spends_nothing(anon, link):
    token = link()
    r = anon.client.get("/setup")
    assert r.status_code == 200 and r.mimetype == "text/html" and r.headers["Cache-Control"] == "no-store"
    directives = csp_directives(r.headers["Content-Security-Policy"])
    [nonce] = [source[len("'nonce-") : -1] for source in directives["script-src"]]
    html = Elements(r.get_data(as_text=True))
    assert [attrs["nonce"] for _, attrs in html.tags if _ in ("script", "style")] == [nonce, nonce]
    assert html.find("input", name="name") and html.find("input", name="email", type="email")
    [keep] = html.find("input", type="checkbox", name="keep")
    assert "checked" not in keep
    assert set_up(anon, token).status_code == 201
