"""SPEC §9, answer links in a real browser: a served office invites two members; the first's link, opened in
headless Chromium (Debian's, driven by Playwright), shows the gig and answers only when Accept is clicked, then
says so in plain words; the second's link then says someone else took the role. The page's script runs under
its Content-Security-Policy, as a person's browser enforces it: a violation fails the test."""

import datetime as dt

import pytest
from playwright.sync_api import expect

from domain import signed_links
from models import timestamp
from tests.support import pages
from tests.support.database import connected
from tests.support.served import UNHURRIED, ServedOffice

SECRET_KEY = "answer-browser-test-key"


PHONE = {"width": 390, "height": 844}


@pytest.fixture
def context(browser):
    """A phone's browser in British English, in New York while the gigs are in Vienna; the errors its pages' scripts
    meet fail the test (`pages.watched`)."""
    with pages.watched(browser, locale="en-GB", timezone_id="America/New_York", viewport=PHONE) as context:
        yield context


@pytest.fixture(scope="module")
def office(tmp_path_factory):
    """One office for the module's tests: each invites staff members of its own to a gig of its own. Their pages
    together open more links a minute than a person's browser may (BAND_AUTH_RATE_LIMIT)."""
    settings = {**UNHURRIED, "BAND_SECRET_KEY": SECRET_KEY, "BAND_AUTH_RATE_LIMIT": "1000/minute"}
    office = ServedOffice(tmp_path_factory.mktemp("answer"), **settings).start()
    yield office
    office.service.stop()


# Answer by 02:49 in Vienna (CET), as the mail writes it; 20:49 the evening before in New York
EXPIRES_AT, ANSWER_BY = "2030-01-15T01:49:00Z", "Tue 15.01.2030, 02:49 CET"


def invitations(office, *first_names):
    """Invitations to sing at a wedding at a venue in Vienna's zone, one for each first name, all to one gig role,
    to be answered by EXPIRES_AT."""
    singer = singer_role(office)
    venue = office.call("POST", "/venues", {"name": "Schloss Hof", "city": "Marchegg", "timezone": "Europe/Vienna"})
    gig = office.call(
        "POST",
        "/gigs",
        {"gig_date": "2027-06-12", "title": "Anna & Ben", "venue_id": venue["id"], "start_time": "18:00"},
    )
    role = office.call("POST", "/gig-roles", {"gig_id": gig["id"], "role_id": singer["id"], "pay_cents": 30000})
    made = []
    for first in first_names:
        member = office.call("POST", "/staff-members", {"first_name": first, "last_name": "Player"})
        office.call("POST", "/staff-member-roles", {"staff_member_id": member["id"], "role_id": singer["id"]})
        body = {"gig_role_id": role["id"], "staff_member_id": member["id"], "expires_at": EXPIRES_AT}
        body["message"] = "<b>Black tie</b>, please."
        made.append(office.call("POST", "/gig-role-invitations", body))
    return made


def singer_role(office):
    """The office's role Singer, made by the first test that asks for it."""
    found = office.call("GET", "/roles?filter[name]=Singer")
    return found[0] if found else office.call("POST", "/roles", {"name": "Singer"})


def link(office, invitation):
    config = {"SECRET_KEY": SECRET_KEY, "PUBLIC_URL": office.service.public_url}
    return signed_links.answer_link(config, invitation["id"])


def opened(context, office, invitation):
    page = context.new_page()  # a link that differs only in its fragment would not load the page again
    page.goto(link(office, invitation) if isinstance(invitation, dict) else invitation)
    return page


def status(office, invitation):
    return office.call("GET", f"/gig-role-invitations/{invitation['id']}")["status"]


def test_an_answer_link_opened_in_chromium_shows_the_gig_and_accepts_on_the_click(office, context):
    sam, alex = invitations(office, "Sam", "Alex")
    page = opened(context, office, sam)
    gig = page.locator("#gig")
    expect(gig).to_be_visible()
    for words in ("Anna & Ben", "Saturday, 12 June 2027", "18:00", "Schloss Hof, Marchegg", "Singer", "€300.00"):
        expect(gig).to_contain_text(words)
    expect(page.locator("#message")).to_have_text("<b>Black tie</b>, please.")  # text, never markup
    expect(page.locator("#deadline")).to_have_text(f"Please answer by {ANSWER_BY}.")  # not the phone's 20:49
    expect(page.get_by_role("button", name="Decline")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]  # nothing to scroll sideways
    assert status(office, sam) == "pending"  # opening the link answers nothing

    page.get_by_role("button", name="Accept").click()
    expect(page.locator("#outcome")).to_have_text(
        "Accepted. You are playing Singer on Saturday, 12 June 2027. The office sees your answer."
    )
    expect(page.locator("#buttons")).to_be_hidden()
    assert status(office, sam) == "accepted"

    page = opened(context, office, sam)
    expect(page.locator("#outcome")).to_have_text("You have already accepted this invitation: you are on the lineup.")
    expect_only_the_gig_named(page)

    page = opened(context, office, alex)
    expect(page.locator("#outcome")).to_contain_text("Someone else has taken this role")
    expect_only_the_gig_named(page)
    assert status(office, alex) == "withdrawn"


def expect_only_the_gig_named(page):
    """Once answered, a link still names the gig, its date and times (the venue's), but no place, pay or buttons."""
    gig = page.locator("#gig")
    expect(gig.locator("#gig-name")).to_have_text("Anna & Ben")
    expect(gig.locator("#facts")).to_have_text("DateSaturday, 12 June 2027Timefrom 18:00")
    for gone in ("Schloss Hof", "€300.00", "Black tie", "Please answer"):
        expect(gig).not_to_contain_text(gone)
    expect(page.locator("#buttons")).to_be_hidden()


def test_the_page_says_in_plain_words_what_became_of_every_other_answer(office, context):
    kim, lee, max_, noa = invitations(office, "Kim", "Lee", "Max", "Noa")
    page = opened(context, office, kim)
    page.get_by_role("button", name="Decline").click()
    declined = "Declined. The office sees your answer; thank you for letting them know."
    expect(page.locator("#outcome")).to_have_text(declined)
    assert status(office, kim) == "declined"
    expect(opened(context, office, kim).locator("#outcome")).to_have_text("You have already declined this invitation.")

    page = opened(context, office, lee)
    expect(page.locator("#buttons")).to_be_visible()
    office.call("POST", f"/gig-role-invitations/{lee['id']}/withdraw")  # while the page is open
    page.get_by_role("button", name="Accept").click()
    expect(page.locator("#outcome")).to_contain_text("The office has withdrawn this invitation")

    past = timestamp(dt.datetime.now(dt.UTC) - dt.timedelta(seconds=1))
    with connected(office.db) as db:
        db.execute("UPDATE gig_role_invitations SET expires_at = ? WHERE id = ?", (past, max_["id"]))
    page = opened(context, office, max_)
    expect(page.locator("#outcome")).to_contain_text("This invitation has expired")
    expect(page.locator("#gig")).to_be_hidden()

    office.call("PATCH", f"/staff-members/{noa['staff_member_id']}", {"active": False})
    page = opened(context, office, noa)
    expect(page.locator("#outcome")).to_contain_text("no longer on the office's active staff")
    expect(page.locator("#gig")).to_be_hidden()

    page = opened(context, office, f"{office.service.public_url}/answer#token=cut-sho")
    expect(page.locator("#outcome")).to_contain_text("This link is not valid")
    assert [status(office, invitation) for invitation in (lee, max_, noa)] == ["withdrawn", "expired", "pending"]


def test_an_accept_refused_for_a_clash_names_the_gig_or_the_days_in_the_way(office, context):
    """The public answer's 409 gives the clashing gig's date and title only (SPEC §2.3): the page says them."""
    ola, pia = invitations(office, "Ola", "Pia")
    party = office.call("POST", "/gigs", {"gig_date": "2027-06-12", "title": "Müller party", "start_time": "20:00"})
    role_id = office.call("GET", f"/gig-roles/{ola['gig_role_id']}")["role_id"]
    booked = {"gig_id": party["id"], "role_id": role_id, "staff_member_id": ola["staff_member_id"]}
    office.call("POST", "/gig-roles", booked)
    page = opened(context, office, ola)
    page.get_by_role("button", name="Accept").click()
    expect(page.locator("#outcome")).to_have_text(
        "Not accepted: you are already playing Müller party at that time (Saturday, 12 June 2027)."
        " Please call the office."
    )
    days = {"start_date": "2027-06-11", "end_date": "2027-06-13", "reason": "Surgery"}
    office.call("POST", "/staff-member-blockouts", {"staff_member_id": pia["staff_member_id"], **days})
    page = opened(context, office, pia)
    page.get_by_role("button", name="Accept").click()
    expect(page.locator("#outcome")).to_have_text(
        "Not accepted: you have blocked out Friday, 11 June 2027 to Sunday, 13 June 2027. Please call the office."
    )
    assert [status(office, invitation) for invitation in (ola, pia)] == ["pending", "pending"]
