"""SPEC §16's wishes in a real browser (Debian's headless Chromium, driven by Playwright), under the pages' CSP: on a
phone (390 × 844) the couple picks their first-dance song from the band's repertoire by searching for its artist
and writes a note to the band; the office's gig page shows both under "New from the couple". After the planning
lock the page shows the wishes read only, with the office's phone number."""

import datetime as dt

import pytest
from playwright.sync_api import expect

from tests.support import pages
from tests.support.console import PHONE, open_context, serious_accessibility_violations
from tests.support.served import ServedOffice

PHONE_NUMBER = "+49 89 123456"


@pytest.fixture(scope="module")
def office(tmp_path_factory):
    office = ServedOffice(tmp_path_factory.mktemp("client-wishes")).start()
    office.call("PATCH", "/office", {"name": "Elmau Swing Band", "phone": PHONE_NUMBER})
    office.call("POST", "/songs", {"title": "Perfect", "artist": "Ed Sheeran"})
    office.call("POST", "/songs", {"title": "Shallow", "artist": "Lady Gaga"})
    yield office
    office.service.stop()


def wedding(office, days):
    """A gig `days` ahead with its first dance and the couple's link."""
    gig_date = (dt.date.today() + dt.timedelta(days=days)).isoformat()
    gig = office.call("POST", "/gigs", {"gig_date": gig_date, "title": f"Anna & Ben ({days})"})
    office.call("POST", "/gig-moments", {"gig_id": gig["id"], "name": "First dance", "time": "21:00"})
    contact = office.call("POST", "/contacts", {"first_name": "Anna", "last_name": "Berger"})
    couple = office.call("POST", "/gig-contacts", {"gig_id": gig["id"], "contact_id": contact["id"]})
    link = office.call("POST", f"/gig-contacts/{couple['id']}/client-link")["url"]
    return gig, link


@pytest.fixture
def context(browser):
    context = open_context(browser, viewport=PHONE)
    yield context
    context.close()
    assert context.problems.unexpected() == []


def test_the_couple_adds_a_first_dance_song_and_a_note_and_the_office_sees_them(office, browser, context):
    gig, link = wedding(office, 60)
    page = context.new_page()
    page.goto(link)
    wishes = page.locator("#wishes")
    expect(wishes.get_by_role("heading", name="Your wishes")).to_be_visible()

    wishes.get_by_label("Title", exact=True).fill("Our song")
    wishes.get_by_label("A link to hear it (optional)").fill("ftp://example.com/our-song")
    wishes.get_by_role("button", name="Add the song").click()
    expect(page.locator("#wishes-status")).to_have_text("Not a valid http(s) URL.")  # refusal(): the field's words
    wishes.get_by_label("A link to hear it (optional)").fill("")
    wishes.get_by_label("Find a song the band plays (title or artist)").fill("sheer")
    wishes.get_by_role("button", name="Perfect by Ed Sheeran").click()
    wishes.get_by_label("For which moment?").select_option(label="First dance")
    wishes.get_by_role("button", name="Add the song").click()
    expect(page.locator("#wishes-status")).to_have_text("Perfect is on your list.")
    expect(wishes.get_by_role("listitem").filter(has_text="Perfect by Ed Sheeran")).to_contain_text("First dance")
    wishes.get_by_label("Your time for First dance").fill("21:30")
    wishes.get_by_label("Your note on First dance").fill("After the cake")
    wishes.get_by_role("button", name="Save your wish for First dance").click()
    expect(page.locator("#wishes-status")).to_have_text("Your wish for First dance is saved.")
    wishes.get_by_label("Your note to the band").fill("Please <b>no</b> polka!")
    wishes.get_by_role("button", name="Send the note").click()
    expect(page.locator("#wishes-status")).to_have_text("Your note is sent to the band.")
    expect(wishes).to_contain_text("Please <b>no</b> polka!")  # text, not markup

    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert serious_accessibility_violations(page) == []
    pages.picture(wishes, "client-wishes-phone")

    console = open_context(browser, token=office.key, email="ops@example.com")
    gig_page = console.new_page()
    gig_page.goto(f"{office.service.public_url}/gigs/{gig['id']}")
    news = gig_page.get_by_role("region", name="New from the couple")
    expect(news).to_contain_text("Anna Berger added a song wish: “Perfect” by Ed Sheeran for “First dance”")
    expect(news).to_contain_text("Anna Berger wrote to the band: “Please <b>no</b> polka!”")
    expect(news).to_contain_text("Anna Berger proposed 21:30, “After the cake” for “First dance”")
    pages.picture(news, "gig-new-from-couple-desktop")
    gig_page.goto(f"{office.service.public_url}/gigs/{gig['id']}?tab=run-sheet")
    expect(gig_page.locator(".couple-wish")).to_have_text("The couple asks: 21:30 · After the cake")
    expect(gig_page.locator(".song").filter(has_text="Perfect — Ed Sheeran")).to_contain_text("from the couple")
    assert console.problems.unexpected() == []
    console.close()


def test_after_the_lock_the_wishes_read_only_with_the_offices_phone(office, context):
    gig, link = wedding(office, 10)
    office.call("POST", "/gig-songs", {"gig_id": gig["id"], "title": "Macarena", "kind": "do_not_play"})
    page = context.new_page()
    page.goto(link)
    wishes = page.locator("#wishes")

    expect(wishes).to_contain_text("Your wishes are final since")
    expect(wishes.get_by_role("link", name=PHONE_NUMBER)).to_have_attribute("href", "tel:+4989123456")
    expect(wishes).to_contain_text("Macarena · Please don't play")
    expect(wishes).to_contain_text("First dance, planned at 21:00")
    expect(wishes.get_by_role("button")).to_have_count(0)
    expect(wishes.locator("input, textarea, select")).to_have_count(0)
    assert serious_accessibility_violations(page) == []
