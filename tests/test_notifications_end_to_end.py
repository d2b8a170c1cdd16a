"""SPEC §9 end to end, as a band lives it, with every part real: `app.py serve`, an SMTP server (aiosmtpd) and a
UnifiedPush receiver on 127.0.0.1, and headless Chromium. The office invites two members to one role; within
the hold the first's mail and push arrive and the second's mail; the first's mail's answer link, opened in the
browser, accepts; the second is told the invitation was withdrawn; the office digest reports the answer."""

import json
import re

import pytest
from playwright.sync_api import expect

from tests.support.receiver import Receiver
from tests.support.served import ServedOffice
from tests.support.smtp_server import smtp_server
from tests.support.waiting import SLOW_MACHINE_SECONDS, wait_for

SETTINGS = {"BAND_NOTIFY_DELAY_SECONDS": "1", "BAND_DIGEST_MINUTES": "0.05", "BAND_WORKER_INTERVAL": "0.2"}
HOLD_AND_A_FEW_SECONDS = 1 + 5


@pytest.fixture
def inbox():
    with smtp_server() as (inbox, port):
        yield inbox, port


@pytest.fixture
def office(tmp_path, inbox):
    office = ServedOffice(tmp_path, **SETTINGS, BAND_MAIL_URL=f"smtp://127.0.0.1:{inbox[1]}").start()
    yield office
    office.service.stop()


def as_user(office, email):
    """An API key of a new user with the staff role: (user, key)."""
    _, key = office.service.run_all(
        ["create-user", email, "--name", email.split("@")[0].title(), "--role", "staff"],
        ["create-api-key", email, "--label", "phone"],
    )
    [user] = office.call("GET", f"/users?filter[email]={email}")
    return user, key.strip()


def call_as(office, key, method, path, body):
    headers = {"Authorization": f"Bearer {key}", "Content-Type": "application/json"}
    status, _, answer = office.service.request(method, path, json.dumps(body).encode(), headers)
    assert status < 300, answer
    return json.loads(answer)["data"]


def answer_link(message):
    return re.search(r"(http://\S+/answer#token=\S+)", message.get_body(("plain",)).get_content())[1]


def test_an_invitation_reaches_its_member_by_mail_and_push_and_is_answered_from_the_mail(office, inbox, browser):
    inbox = inbox[0]
    kim, kim_key = as_user(office, "kim@example.com")
    with Receiver() as phone:
        call_as(
            office,
            kim_key,
            "POST",
            "/devices",
            {"token": phone.url, "platform": "unifiedpush", "environment": "production", "app_version": "1.0"},
        )
        singer = office.call("POST", "/roles", {"name": "Singer"})
        members = [
            office.call("POST", "/staff-members", {"first_name": "Kim", "last_name": "Low", "user_id": kim["id"]}),
            office.call(
                "POST", "/staff-members", {"first_name": "Lee", "last_name": "Hart", "email": "lee@example.com"}
            ),
        ]
        venue = office.call("POST", "/venues", {"name": "Schloss Hof", "city": "Marchegg"})
        gig = office.call("POST", "/gigs", {"gig_date": "2027-06-12", "title": "Anna & Ben", "venue_id": venue["id"]})
        role = office.call("POST", "/gig-roles", {"gig_id": gig["id"], "role_id": singer["id"], "pay_cents": 30000})
        invitations = []
        for member in members:
            office.call("POST", "/staff-member-roles", {"staff_member_id": member["id"], "role_id": singer["id"]})
            body = {"gig_role_id": role["id"], "staff_member_id": member["id"]}
            invitations.append(office.call("POST", "/gig-role-invitations", body))

        [kims_mail] = wait_for(lambda: inbox.messages("kim@example.com"), timeout=HOLD_AND_A_FEW_SECONDS)
        [lees_mail] = wait_for(lambda: inbox.messages("lee@example.com"), timeout=HOLD_AND_A_FEW_SECONDS)
        for message in (kims_mail, lees_mail):
            assert "Singer" in message["Subject"] and "Anna & Ben" in message.get_body(("plain",)).get_content()
        [push] = wait_for(lambda: phone.received, timeout=HOLD_AND_A_FEW_SECONDS)
        pushed = push.payload
        assert pushed["type"] == "invitation" and pushed["data"]["invitation_id"] == invitations[0]["id"]
        words = pushed["title"] + pushed["body"]  # no amount, no address: `data` holds ids only
        assert "300" not in words and "Marchegg" not in words
        assert set(pushed["data"]) == {"gig_id", "gig_role_id", "invitation_id"}
        [kims_notification] = office.call("GET", f"/notifications?filter[staff_member_id]={members[0]['id']}")
        assert pushed["notification_id"] == kims_notification["id"]  # a repeat after a crash is recognisably it

        page = browser.new_page(locale="en-GB")
        page.goto(answer_link(kims_mail))
        expect(page.locator("#gig")).to_contain_text("Anna & Ben")
        page.get_by_role("button", name="Accept").click()
        expect(page.locator("#outcome")).to_contain_text("Accepted")
        page.close()
        assert office.call("GET", f"/gig-role-invitations/{invitations[0]['id']}")["status"] == "accepted"

        withdrawn = wait_for(lambda: inbox.messages("lee@example.com")[1:], timeout=HOLD_AND_A_FEW_SECONDS)
        assert "withdrawn" in withdrawn[0]["Subject"].lower()

        def told_of_both_by_mail():
            """Lee's notifications once both read "sent": the sender records it in a transaction of its own after
            the SMTP server has answered, so the mail is in the inbox a moment before its notification says so."""
            told = office.call("GET", f"/notifications?filter[staff_member_id]={members[1]['id']}")
            return told if all(n["email"]["state"] == "sent" for n in told) else None

        told = wait_for(told_of_both_by_mail, timeout=SLOW_MACHINE_SECONDS)
        assert {n["type"] for n in told} == {"invitation", "invitation_withdrawn"}
        assert all("body" not in n for n in told)

        def digest_telling_of_kim():
            return [m for m in inbox.messages("ops@example.com") if "Kim" in m.get_body(("plain",)).get_content()]

        [digest, *_] = wait_for(digest_telling_of_kim, timeout=10)
        assert "accepted" in digest.get_body(("plain",)).get_content().lower()
        status, _, answer = office.service.request(
            "GET", "/me/notifications", None, {"Authorization": f"Bearer {kim_key}"}
        )
        [in_app] = json.loads(answer)["data"]
        assert status == 200 and in_app["type"] == "invitation" and "Anna & Ben" in in_app["body"]
