"""SPEC §16's couple acting on their page, in headless Chromium at a phone's 390 × 844 (and a desktop's 1280): they
accept the quote in one tap, then sign the contract the office sent with their typed name, the consent box and a
signature drawn with the mouse on the pad; the page shows it signed with the time, the deposit invoice with its QR
code drawn and its PDF downloaded byte for byte as the office's. Axe finds nothing serious; the page's script runs
under its Content-Security-Policy without an error."""

import pathlib
import re

import pytest
from playwright.sync_api import expect

from tests.support import pages
from tests.support.console import serious_accessibility_violations
from tests.support.served import ServedOffice
from tests.support.signing import draw

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
TEMPLATE = "Agreement between {{ office_name }} and {{ client_names }}.\nThe band plays on {{ gig_date }}."
OFFICE = {
    "name": "Elmau Swing Band",
    "iban": "DE89370400440532013000",
    "bic": "COBADEFFXXX",
    "email": "o@swing.example",
}


@pytest.fixture(scope="module")
def office(tmp_path_factory):
    office = ServedOffice(tmp_path_factory.mktemp("client-signing"), BAND_AUTH_RATE_LIMIT="200/minute").start()
    office.call("PATCH", "/office", OFFICE)
    office.call("POST", "/contract-templates", {"name": "Standard", "body": TEMPLATE, "is_default": True})
    yield office
    office.service.stop()


def booked(office, title):
    """A gig (an inquiry) with a priced product for a couple, its quote sent. (gig contact, quote)."""
    gig = office.call("POST", "/gigs", {"gig_date": "2027-06-12", "title": title, "start_time": "18:00"})
    band = office.call("POST", "/products", {"name": f"Band, four sets ({title})"})
    office.call("POST", "/gig-products", {"gig_id": gig["id"], "product_id": band["id"], "price_cents": 400000})
    contact = office.call(
        "POST", "/contacts", {"first_name": "Anna", "last_name": "Berger", "email": "a@couple.example"}
    )
    couple = office.call(
        "POST", "/gig-contacts", {"gig_id": gig["id"], "contact_id": contact["id"], "is_primary": True}
    )
    quote = office.call("POST", f"/gigs/{gig['id']}/quotes")
    return couple, office.call("POST", f"/quotes/{quote['id']}/send")


def link_of(office, couple):
    return office.call("POST", f"/gig-contacts/{couple['id']}/client-link")["url"]


@pytest.fixture
def context(browser):
    context = browser.new_context(locale="en-GB", viewport=PHONE, accept_downloads=True)
    context.problems = []
    context.on("console", lambda message: message.type == "error" and context.problems.append(message.text))
    context.on("weberror", lambda error: context.problems.append(str(error.error)))
    yield context
    context.close()
    assert [problem for problem in context.problems if not problem.startswith("Failed to load resource:")] == []


def pdf_bytes(office, path):
    status, _, body = office.service.request("GET", path, None, {"Authorization": f"Bearer {office.key}"})
    assert status == 200
    return body


def test_the_couple_accepts_the_quote_and_signs_with_a_drawn_signature_on_a_phone(office, context):
    couple, quote = booked(office, "Anna & Ben")
    page = context.new_page()
    page.goto(link_of(office, couple))
    article = page.locator("#quotes article")
    expect(article).to_contain_text("Waiting for your answer")

    article.get_by_role("button", name="Accept the quote").click()

    expect(page.locator("#done")).to_have_text(f"Thank you: you accepted the quote {quote['number']}.")
    expect(article).to_contain_text("Accepted")
    expect(article.get_by_role("button", name="Accept the quote")).to_have_count(0)
    [contract] = office.call("GET", f"/contracts?filter[gig_id]={quote['gig_id']}")
    contract = office.call("POST", f"/contracts/{contract['id']}/send")  # its mail carries a new link

    page.goto(link_of(office, couple))
    form = page.locator("form.sign")
    expect(page.locator("#contract")).to_contain_text("Agreement between Elmau Swing Band and Anna Berger.")
    form.get_by_role("button", name="Sign the contract").click()
    expect(form.get_by_role("alert")).to_have_text("Type your full name.")
    form.get_by_label("Your full name").fill("Anna Berger")
    form.get_by_label("I agree to sign this contract electronically").check()
    form.get_by_role("button", name="Sign the contract").click()
    expect(form.get_by_role("alert")).to_have_text("Draw your signature in the box.")
    draw(page)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert serious_accessibility_violations(page) == []
    pages.picture(page, "client-signing-phone", full_page=True)

    form.get_by_role("button", name="Sign the contract").click()

    expect(page.locator("#done")).to_contain_text(f"you signed the contract {contract['number']}")
    expect(page.locator("#contract")).to_contain_text("StatusSigned")
    expect(page.locator("#contract")).to_contain_text(
        re.compile(r"Signedby Anna Berger, \w+ \d{1,2}, 20\d\d at \d{1,2}:\d\d.?[AP]M")
    )
    expect(page.locator("form.sign")).to_have_count(0)
    signed = office.call("GET", f"/contracts/{contract['id']}")
    assert (signed["status"], signed["signed_by"], signed["signed_ip"]) == ("signed", "client", "127.0.0.1")
    assert "HeadlessChrome" in signed["signed_user_agent"] or "Chrome" in signed["signed_user_agent"]

    deposit = page.locator("#invoices article")
    expect(deposit).to_contain_text("Deposit invoice")
    expect(deposit.get_by_role("img", name=re.compile("QR code to pay invoice"))).to_be_visible()
    [invoice] = [i for i in office.call("GET", f"/invoices?filter[gig_id]={quote['gig_id']}") if i["kind"] == "deposit"]
    with page.expect_download() as downloading:
        deposit.get_by_role("button", name=f"Download {invoice['number']} as PDF").click()
    download = downloading.value
    assert download.suggested_filename == f"{invoice['number']}.pdf"
    assert pathlib.Path(download.path()).read_bytes() == pdf_bytes(office, f"/invoices/{invoice['id']}/pdf")
    assert serious_accessibility_violations(page) == []


def test_the_signed_booking_at_desktop_width_is_pictured(office, browser):
    couple, quote = booked(office, "Cleo & Dan")
    office.call("POST", f"/quotes/{quote['id']}/accept", {"note": "by phone"})
    [contract] = office.call("GET", f"/contracts?filter[gig_id]={quote['gig_id']}")
    office.call("POST", f"/contracts/{contract['id']}/send")
    context = browser.new_context(locale="en-GB", viewport=DESKTOP)
    page = context.new_page()
    page.goto(link_of(office, couple))
    expect(page.locator("canvas.pad")).to_be_visible()
    assert serious_accessibility_violations(page) == []
    pages.picture(page, "client-signing-desktop", full_page=True)
    context.close()


def test_the_couple_declines_with_a_message_in_one_tap(office, context):
    couple, quote = booked(office, "Eva & Finn")
    page = context.new_page()
    page.goto(link_of(office, couple))
    article = page.locator("#quotes article")
    article.get_by_label("A message to the office, if you decline (optional)").fill("We chose a DJ, sorry!")

    article.get_by_role("button", name="Decline with a message").click()

    expect(page.locator("#done")).to_have_text(f"You declined the quote {quote['number']}; the office has been told.")
    expect(article).to_contain_text("Declined")
    expect(article.get_by_role("button", name="Decline with a message")).to_have_count(0)
    history = office.call("GET", f"/gigs/{quote['gig_id']}/history")
    [declined] = [event for event in history if event["type"] == "quote.declined"]
    assert declined["data"]["note"] == "We chose a DJ, sorry!" and declined["actor"]["token_kind"] == "client"
