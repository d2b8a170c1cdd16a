"""SPEC §2.3: signed tokens (sign-in links, answer links, calendar feeds, setup links) are accepted in their
canonical spelling only. The last character of unpadded base64 carries spare bits when the bytes do not fill it,
so flipping one of them spells the same bytes (and the same signature) another way."""

import base64

import pytest

from domain import first_run
from tests.support.answering import Office
from tests.support.api import error_of
from tests.support.feeds import path_of, staff_url
from tests.support.mail import link_token, mails, request_link
from tests.support.users import make_user

ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"


def respelled(token):
    """`token` with its last character changed to another spelling of the same bits."""
    last = token.rpartition(".")[2].removeprefix("bol_")  # the signature, or a sign-in link's random part
    assert len(last) % 4 in (2, 3), "the last part has no spare bits to flip"
    twin = token[:-1] + ALPHABET[ALPHABET.index(token[-1]) ^ 1]
    assert decoded(twin.rpartition(".")[2][-len(last) :]) == decoded(last) and twin != token
    return twin


def decoded(part):
    return base64.urlsafe_b64decode(part + "=" * (-len(part) % 4))


def test_a_calendar_feed_answers_only_at_the_address_it_was_given(admin, anon, build):
    member = build("staff-members", first_name="Sam", last_name="Player")
    for url in (staff_url(admin, member["id"]), admin.get("/calendar-url").get_json()["data"]["url"]):
        token = url.rpartition("/")[2].removesuffix(".ics")
        error_of(anon.get(path_of(url.replace(token, respelled(token)))), 404, "not_found")
        assert anon.get(path_of(url)).status_code == 200


@pytest.fixture
def office(app, admin, build):
    return Office(app, admin, build)


def test_an_answer_link_works_only_as_it_was_mailed(office, anon):
    invitation = office.invite(office.sam)
    token = office.token(invitation["id"])
    twin = respelled(token)
    error_of(anon.post("/invitations/preview", json={"token": twin}), 401, "unauthenticated")
    error_of(anon.post("/invitations/answer", json={"token": twin, "answer": "accept"}), 401, "unauthenticated")
    assert office.status(invitation) == "pending"
    assert anon.post("/invitations/answer", json={"token": token, "answer": "decline"}).status_code == 200


def test_a_sign_in_link_works_only_as_it_was_mailed(app, anon):
    make_user("sam@example.com", roles=["staff"])
    request_link(anon, "sam@example.com")
    token = link_token(mails(app, "sam@example.com")[-1])
    error_of(anon.post("/auth/confirm", json={"token": respelled(token)}), 401, "unauthenticated")
    assert anon.post("/auth/confirm", json={"token": token}).status_code == 200


def test_a_setup_link_works_only_as_it_was_printed(app, anon):
    with app.app_context():
        token = first_run.new_setup_link(app.config).split("#token=", 1)[1]
    body = {"name": "Ada", "email": "ada@example.com"}
    error_of(anon.post("/auth/setup", json={"token": respelled(token), **body}), 401, "unauthenticated")
    assert anon.post("/auth/setup", json={"token": token, **body}).status_code == 201
