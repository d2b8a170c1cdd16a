"""SPEC §9, answer links: the /answer page and the two public endpoints it calls with the link's token, POST
/v1/invitations/preview (what the invitation is about) and POST /v1/invitations/answer (accept or decline, as
§5.3 does it, with the same events); every outcome, the 401s and 422s, the rate limit, and that a GET answers
nothing. The page itself runs in a real browser in tests/test_answer_browser.py."""

import datetime as dt
import uuid

import pytest

from domain import signed_links
from models import GigRoleInvitation, timestamp
from tests.support.answering import Office
from tests.support.api import error_of
from tests.support.pages import Elements, csp_directives
from tests.support.users import make_user
from web.rate_limits import RateLimiter


@pytest.fixture
def office(app, admin, build):
    return Office(app, admin, build)


def answer(anon, token, choice):
    return anon.post("/invitations/answer", json={"token": token, "answer": choice})


def preview(anon, token):
    return anon.post("/invitations/preview", json={"token": token})


def expire(invitation):
    past = timestamp(dt.datetime.now(dt.UTC) - dt.timedelta(seconds=1))
    GigRoleInvitation.update(expires_at=past).where(GigRoleInvitation.id == invitation["id"]).execute()


# --- what the page shows -----------------------------------------------------------------------------------------


def test_the_preview_shows_the_gig_role_pay_and_message_and_changes_nothing(office, anon):
    office.admin.patch(f"/venues/{office.gig['venue_id']}", {"timezone": "Europe/Vienna"})
    invitation = office.invite(office.sam, message="Black tie, please.", expires_at="2030-01-15T01:49:00Z")
    before = office.events()
    r = preview(anon, office.token(invitation["id"]))
    assert r.status_code == 200 and r.headers["Cache-Control"] == "no-store"
    assert r.get_json()["data"] == {
        "invitation_id": invitation["id"],
        "status": "pending",
        "role_taken": False,
        "expires_at": invitation["expires_at"],
        "gig": {"name": "Anna & Ben", "gig_date": "2027-06-12", "start_time": "18:00", "end_time": "23:30"},
        "answer_by": "Tue 15.01.2030, 02:49 CET",  # the venue's time, as the mail writes it
        "message": "Black tie, please.",
        "first_name": "Sam",
        "venue": {"name": "Schloss Hof", "address": "Schlosshof 1, 2294 Marchegg", "timezone": "Europe/Vienna"},
        "role": "Singer",
        "product": None,
        "call_time": "16:30",
        "pay": {"amount_cents": 30000, "currency": "EUR"},
    }
    assert office.status(invitation) == "pending" and office.events() == before


def test_the_preview_names_the_product_and_takes_the_pay_from_the_rates(office, anon, build):
    gig_product = build("gig-products", gig_id=office.gig["id"], start_time="19:00", end_time="23:00")
    product = office.admin.get(f"/products/{gig_product['product_id']}").get_json()["data"]
    build("rates", role_id=office.singer["id"], product_id=product["id"], amount_cents=45000)
    role = build("gig-roles", gig_id=office.gig["id"], role_id=office.singer["id"], gig_product_id=gig_product["id"])
    invitation = office.admin.create(
        "gig-role-invitations", {"gig_role_id": role["id"], "staff_member_id": office.kim["id"]}
    )
    data = preview(anon, office.token(invitation["id"])).get_json()["data"]
    assert data["product"] == {"name": product["name"], "start_time": "19:00", "end_time": "23:00"}
    assert data["pay"] == {"amount_cents": 45000, "currency": "EUR"} and data["message"] is None


def test_the_preview_says_when_someone_else_took_the_role(office, anon):
    mine, other = office.invite(office.sam), office.invite(office.alex)
    assert answer(anon, office.token(other["id"]), "accept").status_code == 200
    data = preview(anon, office.token(mine["id"])).get_json()["data"]
    assert (data["status"], data["role_taken"]) == ("withdrawn", True)
    accepted = preview(anon, office.token(other["id"])).get_json()["data"]
    assert (accepted["status"], accepted["role_taken"]) == ("accepted", False)


def test_once_answered_the_preview_names_the_gig_and_shows_the_status_only(office, anon):
    invitation = office.invite(office.sam, message="Black tie, please.")
    token = office.token(invitation["id"])
    assert answer(anon, token, "decline").status_code == 200
    assert preview(anon, token).get_json()["data"] == {
        "invitation_id": invitation["id"],
        "status": "declined",
        "role_taken": False,
        "expires_at": invitation["expires_at"],
        "gig": {"name": "Anna & Ben", "gig_date": "2027-06-12", "start_time": "18:00", "end_time": "23:30"},
    }


# --- answering ---------------------------------------------------------------------------------------------------


def test_accepting_fills_the_role_withdraws_the_others_and_records_the_same_events(office, anon):
    user = make_user(roles=["staff"], name="Sam Player")
    office.admin.patch(f"/staff-members/{office.sam['id']}", json={"user_id": user.id})
    mine, other = office.invite(office.sam), office.invite(office.alex)
    r = answer(anon, office.token(mine["id"]), "accept")
    assert r.status_code == 200 and r.headers["Cache-Control"] == "no-store", r.get_json()
    assert r.get_json()["data"] == office.admin.get(f"/gig-role-invitations/{mine['id']}").get_json()["data"]
    assert r.get_json()["data"]["status"] == "accepted"
    role = office.admin.get(f"/gig-roles/{office.role['id']}").get_json()["data"]
    assert (role["staff_member_id"], role["status"]) == (office.sam["id"], "filled")
    assert office.status(other) == "withdrawn"
    actor = {"user_id": user.id, "name": "Sam Player", "token_kind": "link"}
    accepted = office.events(mine)[0]
    assert (accepted["type"], accepted["actor"], accepted["gig_id"]) == (
        "gig_role_invitation.accepted",
        actor,
        office.gig["id"],
    )
    assert accepted["data"]["status"] == "accepted"
    withdrawn = office.events(other)[0]
    assert (withdrawn["type"], withdrawn["actor"]) == ("gig_role_invitation.withdrawn", actor)


def test_declining_is_recorded_without_an_actor_when_the_member_has_no_user(office, anon):
    invitation = office.invite(office.sam)
    r = answer(anon, office.token(invitation["id"]), "decline")
    assert r.status_code == 200 and r.get_json()["data"]["status"] == "declined"
    declined = office.events(invitation)[0]
    assert (declined["type"], declined["actor"]) == ("gig_role_invitation.declined", None)
    role = office.admin.get(f"/gig-roles/{office.role['id']}").get_json()["data"]
    assert role["staff_member_id"] is None


def test_a_second_answer_is_refused_and_says_what_the_invitation_is(office, anon):
    invitation = office.invite(office.sam)
    token = office.token(invitation["id"])
    assert answer(anon, token, "accept").status_code == 200
    for choice in ("accept", "decline"):
        error = error_of(answer(anon, token, choice), 409, "conflict")
        assert error["details"] == {"reason": "invitation_not_pending", "status": "accepted"}
    assert office.status(invitation) == "accepted"


def test_a_withdrawn_invitation_cannot_be_answered(office, anon):
    invitation = office.invite(office.sam)
    office.admin.post(f"/gig-role-invitations/{invitation['id']}/withdraw")
    error = error_of(answer(anon, office.token(invitation["id"]), "accept"), 409, "conflict")
    assert error["details"] == {"reason": "invitation_not_pending", "status": "withdrawn"}


def test_of_two_invitees_the_second_learns_someone_else_took_the_role(office, anon):
    first, second = office.invite(office.sam), office.invite(office.alex)
    assert answer(anon, office.token(first["id"]), "accept").status_code == 200
    error = error_of(answer(anon, office.token(second["id"]), "accept"), 409, "conflict")
    assert error["details"] == {"reason": "gig_role_filled"}
    assert office.status(second) == "withdrawn"


def test_accepting_rechecks_availability(office, anon, build):
    invitation = office.invite(office.sam)
    build("staff-member-blockouts", staff_member_id=office.sam["id"], start_date="2027-06-12", end_date="2027-06-12")
    error = error_of(answer(anon, office.token(invitation["id"]), "accept"), 409, "conflict")
    assert error["details"]["reason"] == "staff_member_blocked_out"
    assert office.status(invitation) == "pending"


# --- refused tokens and bodies -----------------------------------------------------------------------------------


def test_an_expired_invitation_is_401_and_says_it_expired(office, anon):
    invitation = office.invite(office.sam)
    token = office.token(invitation["id"])
    expire(invitation)
    for r in (answer(anon, token, "accept"), preview(anon, token)):
        error = error_of(r, 401, "unauthenticated")
        assert error["details"] == {"reason": "invitation_expired"} and "expired" in error["message"]
    assert office.status(invitation) == "expired"


def test_the_link_of_an_answered_invitation_ends_at_its_expiry(office, anon):
    invitation = office.invite(office.sam)
    token = office.token(invitation["id"])
    assert answer(anon, token, "decline").status_code == 200
    expire(invitation)
    error = error_of(preview(anon, token), 401, "unauthenticated")
    assert error["details"] == {"reason": "link_expired"} and "expired" in error["message"]


@pytest.mark.parametrize("mangle", ["tampered", "unknown", "feed", "garbage"])
def test_a_tampered_or_unknown_token_is_401(office, anon, mangle):
    invitation = office.invite(office.sam)
    good = office.token(invitation["id"])
    token = {
        "tampered": good[:-2] + ("AA" if not good.endswith("AA") else "BB"),
        "unknown": office.token(str(uuid.uuid4())),
        "feed": signed_links.feed_token(office.app.config, "staff", office.sam["id"], 1),
        "garbage": "not a token",
    }[mangle]
    for r in (answer(anon, token, "accept"), preview(anon, token)):
        error = error_of(r, 401, "unauthenticated")
        assert "details" not in error
    assert office.status(invitation) == "pending"


@pytest.mark.parametrize(
    "body, field",
    [
        ({"answer": "accept"}, "token"),
        ({"token": 42, "answer": "accept"}, "token"),
        ({"token": "T"}, "answer"),
        ({"token": "T", "answer": "maybe"}, "answer"),
        ({"token": "T", "answer": None}, "answer"),
        ({"token": "T", "answer": "accept", "as": "admin"}, "as"),
    ],
)
def test_a_bad_body_is_422_naming_the_field(office, anon, body, field):
    invitation = office.invite(office.sam)
    body = {key: office.token(invitation["id"]) if value == "T" else value for key, value in body.items()}
    error = error_of(anon.post("/invitations/answer", json=body), 422, "validation_failed")
    assert list(error["details"]) == [field]
    assert office.status(invitation) == "pending"


@pytest.mark.parametrize("path, body", [("answer", {"answer": "accept"}), ("preview", {})])
def test_an_empty_token_is_422_naming_it(anon, path, body):
    for token in ("", " "):
        r = anon.post(f"/invitations/{path}", json={"token": token, **body})
        assert list(error_of(r, 422, "validation_failed")["details"]) == ["token"]


@pytest.mark.parametrize("path", ["/invitations/answer", "/invitations/preview"])
def test_an_unknown_query_parameter_is_400(office, anon, path):
    invitation = office.invite(office.sam)
    body = {"token": office.token(invitation["id"]), "answer": "accept"}
    error = error_of(anon.post(f"{path}?as=admin", json=body), 400, "invalid_query")
    assert list(error["details"]) == ["as"]
    assert office.status(invitation) == "pending"


@pytest.mark.parametrize("inactive", ["staff_member", "user"])
def test_a_member_no_longer_active_cannot_use_the_link(office, anon, inactive):
    user = make_user(roles=["staff"], name="Sam Player")
    office.admin.patch(f"/staff-members/{office.sam['id']}", json={"user_id": user.id})
    invitation = office.invite(office.sam)
    path = f"/staff-members/{office.sam['id']}" if inactive == "staff_member" else f"/users/{user.id}"
    assert office.admin.patch(path, json={"active": False}).status_code == 200
    token = office.token(invitation["id"])
    for r in (answer(anon, token, "accept"), preview(anon, token)):
        error = error_of(r, 401, "unauthenticated")
        assert error["details"] == {"reason": "member_inactive"}
    assert office.status(invitation) == "pending"


def test_answers_are_rate_limited_in_the_budget_of_sign_in(app, office, anon):
    invitation = office.invite(office.sam)
    token = office.token(invitation["id"])
    app.extensions["auth_rate"] = RateLimiter(2, 60)
    assert anon.post("/auth/link", json={"email": "nobody@example.com"}).status_code == 200
    assert preview(anon, token).status_code == 200
    for r in (answer(anon, token, "accept"), preview(anon, token)):
        error = error_of(r, 429, "rate_limited")
        assert r.headers["Retry-After"].isdigit() and "sign-in" not in error["message"]
    assert office.status(invitation) == "pending"


# --- the page ----------------------------------------------------------------------------------------------------


def test_a_get_answers_nothing(office, anon):
    invitation = office.invite(office.sam)
    before = office.events()
    token = office.token(invitation["id"])
    for path in ("/answer", f"/answer?token={token}", f"/answer?token={token}&answer=accept"):
        r = anon.client.get(path)
        assert r.status_code == 200 and r.mimetype == "text/html"
    for path in ("/v1/invitations/answer", "/v1/invitations/preview", f"/v1/invitations/answer?token={token}"):
        error_of(anon.client.get(path), 405, "method_not_allowed")
    assert office.status(invitation) == "pending" and office.events() == before


def test_the_page_is_served_with_the_headers_of_a_sign_in_page_and_a_strict_policy(anon):
    r = anon.client.get("/answer")
    assert r.headers["X-Frame-Options"] == "DENY" and r.headers["X-Content-Type-Options"] == "nosniff"
    assert r.headers["Cache-Control"] == "no-store" and r.headers["Referrer-Policy"] == "no-referrer"
    policy = csp_directives(r.headers["Content-Security-Policy"])
    assert policy["frame-ancestors"] == ["'none'"] and policy["default-src"] == ["'none'"]
    assert policy["connect-src"] == ["'self'"]
    [nonce] = policy["script-src"]
    html = Elements(r.get_data(as_text=True))
    assert [attrs["nonce"] for attrs in html.find("script") + html.find("style")] == [nonce[7:-1]] * 2
    assert csp_directives(anon.client.get("/answer").headers["Content-Security-Policy"])["script-src"] != [nonce]


def test_the_page_posts_where_the_api_answers(office, anon):
    [main] = Elements(anon.client.get("/answer").get_data(as_text=True)).find("main", id="answer")
    invitation = office.invite(office.sam)
    token = office.token(invitation["id"])
    assert anon.client.post(main["data-preview-url"], json={"token": token}).status_code == 200
    r = anon.client.post(main["data-answer-url"], json={"token": token, "answer": "accept"})
    assert r.status_code == 200 and office.status(invitation) == "accepted"


def test_the_page_loads_nothing_from_elsewhere_and_has_no_inline_event_handlers(anon):
    text = anon.client.get("/answer").get_data(as_text=True)
    assert Elements(text).load_from_elsewhere() == []
    assert "innerHTML" not in text and "url(" not in text and "javascript:" not in text
