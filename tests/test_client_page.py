"""SPEC §16's client page, read only, in a real browser: a served office sends a couple a quote, a contract and an
invoice and makes their link (`POST /gig-contacts/{id}/client-link`); the link, opened in headless Chromium (Debian's,
driven by Playwright), shows the gig, the documents and how to pay, dates and money in the couple's language, and
takes the token out of the address bar; a bad or revoked link says so in words and asks nothing else. The page's
script runs under its Content-Security-Policy, as a person's browser enforces it: a violation fails the test."""

import re

import pytest
from playwright.sync_api import expect

from tests.support import pages
from tests.support.console import serious_accessibility_violations
from tests.support.served import OPENER, ServedOffice

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
OFFICE = {
    "name": "Elmau Swing Band",
    "iban": "DE89370400440532013000",
    "bic": "COBADEFFXXX",
    "bank_name": "Commerzbank",
    "email": "office@swing.example",
    "phone": "+49 89 123456",
    "address_line1": "Hauptstraße 5",
    "postal_code": "80331",
    "city": "München",
}


@pytest.fixture(scope="module")
def office(tmp_path_factory):
    office = ServedOffice(tmp_path_factory.mktemp("client-page")).start()
    yield office
    office.service.stop()


@pytest.fixture
def context(browser):
    """A browser in British English whose pages' script errors (a CSP refusal, say) fail the test; the requests its
    pages make to the API, in `context.asked`."""
    context = browser.new_context(locale="en-GB", viewport=PHONE)
    problems, context.asked = [], []
    context.on("console", lambda message: message.type == "error" and problems.append(message.text))
    context.on("weberror", lambda error: problems.append(str(error.error)))
    context.on("request", lambda request: "/v1/" in request.url and context.asked.append(request.url))
    yield context
    context.close()
    # Chromium logs every answer of 4xx as an error: the page expects those
    assert [problem for problem in problems if not problem.startswith("Failed to load resource:")] == []


@pytest.fixture(scope="module")
def booked(office):
    """A couple reading German (their contact's `language`) with a gig at a venue, a sent quote, a sent contract
    and an issued deposit invoice; the office's bank details; the couple's gig contact."""
    office.call("PATCH", "/office", OFFICE)
    return booking(office, "Anna & Ben", {"first_name": "Anna", "language": "de"})


def booking(office, title, contact):
    """A gig of `title` at a venue with `contact` its primary contact, a sent quote, a sent contract and an issued
    deposit invoice."""
    venue = office.call("POST", "/venues", {"name": "Schloss Elmau", "address_line1": "Elmau 2", "city": "Krün"})
    gig = {"gig_date": "2027-06-12", "title": title, "venue_id": venue["id"], "start_time": "18:00"}
    gig = office.call("POST", "/gigs", gig)
    band = office.call("POST", "/products", {"name": f"Band, four sets ({title})"})
    office.call("POST", "/gig-products", {"gig_id": gig["id"], "product_id": band["id"], "start_time": "19:00"})
    contact = office.call("POST", "/contacts", {"last_name": "Berger", "email": "anna@couple.example", **contact})
    couple = office.call(
        "POST", "/gig-contacts", {"gig_id": gig["id"], "contact_id": contact["id"], "is_primary": True}
    )
    quote = office.call("POST", "/quotes", {"gig_id": gig["id"], "valid_until": "2027-01-31"})
    line = {"quote_id": quote["id"], "description": "<b>Band</b>, four sets", "unit_price_cents": 350000}
    office.call("POST", "/quote-lines", {**line, "tax_rate_bp": 1900})
    quote = office.call("POST", f"/quotes/{quote['id']}/send")
    contract = office.call("POST", "/contracts", {"gig_id": gig["id"], "body": "We play from eight till late."})
    contract = office.call("POST", f"/contracts/{contract['id']}/send")
    invoice = office.call("POST", "/invoices", {"gig_id": gig["id"], "kind": "deposit", "due_date": "2027-02-15"})
    line = {"invoice_id": invoice["id"], "description": "Deposit", "unit_price_cents": 100000, "tax_rate_bp": 1900}
    office.call("POST", "/invoice-lines", line)
    invoice = office.call("POST", f"/invoices/{invoice['id']}/issue")
    return {"gig_contact": couple, "quote": quote, "contract": contract, "invoice": invoice}


def link_of(office, booked):
    return office.call("POST", f"/gig-contacts/{booked['gig_contact']['id']}/client-link")["url"]


def opened(context, url):
    page = context.new_page()
    page.goto(url)
    return page


def test_the_link_opens_the_couples_booking_in_their_language_and_leaves_no_token_in_the_address(
    office, booked, context
):
    url = link_of(office, booked)
    page = opened(context, url)
    expect(page.get_by_role("heading", level=1)).to_have_text("Anna & Ben")
    expect(page.locator("#gig")).to_contain_text("Samstag, 12. Juni 2027")  # the couple's German, not en-GB
    for words in ("18:00", "Schloss Elmau, Elmau 2", "Band, four sets (Anna & Ben) (ab 19:00)"):
        expect(page.locator("#gig")).to_contain_text(words)

    quote = page.locator("#quotes article")
    expect(quote.get_by_role("heading")).to_have_text(f"Angebot {booked['quote']['number']}")
    for words in ("Wartet auf Ihre Antwort", "31. Januar 2027", "<b>Band</b>, four sets", "4.165,00\xa0€"):
        expect(quote).to_contain_text(words)  # markup shown as text

    contract = page.locator("#contract")
    expect(contract).to_contain_text("Wartet auf Ihre Unterschrift")
    expect(contract).to_contain_text("We play from eight till late.")

    invoice = page.locator("#invoices article")
    number = booked["invoice"]["number"]
    expect(invoice.get_by_role("heading")).to_have_text(f"Anzahlungsrechnung {number}")
    for words in (
        "Offen",
        "15. Februar 2027",
        "1.190,00\xa0€",
        "Bitte überweisen Sie 1.190,00\xa0€ bis zum 15. Februar",
    ):
        expect(invoice).to_contain_text(words)
    pay = invoice.locator(".pay")
    expect(pay).to_contain_text("KontoinhaberElmau Swing Band")
    expect(pay).to_contain_text("IBANDE89 3704 0044 0532 0130 00")
    expect(pay).to_contain_text("BICCOBADEFFXXX")
    expect(pay).to_contain_text(f"Verwendungszweck{number}")
    expect(page.get_by_role("heading", name="So erreichen Sie Elmau Swing Band")).to_be_visible()
    expect(page.get_by_role("link", name="office@swing.example")).to_have_attribute(
        "href", "mailto:office@swing.example"
    )
    expect(quote.get_by_role("button", name="Angebot annehmen")).to_be_visible()  # static/client/actions.js
    expect(contract.get_by_role("button", name="Vertrag unterschreiben")).to_be_visible()
    qr_code = f"QR-Code, um die Rechnung {number} mit einer Banking-App zu bezahlen"
    expect(invoice.get_by_role("img", name=qr_code)).to_be_visible()

    assert page.url == url.split("#")[0]  # the token is out of the address bar
    assert "#" not in page.evaluate("location.href")
    page.reload()  # the tab kept it
    expect(page.locator("#invoices article")).to_contain_text(number)


def test_the_page_fits_a_phone_passes_axe_and_is_pictured(office, booked, browser):
    url = link_of(office, booked)
    for viewport, name in ((DESKTOP, "client-page-desktop"), (PHONE, "client-page-phone")):
        context = browser.new_context(locale="en-GB", viewport=viewport)
        page = opened(context, url)
        expect(page.locator("#invoices .pay")).to_be_visible()
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]  # nothing to scroll sideways
        assert serious_accessibility_violations(page) == []
        pages.picture(page, name, full_page=True)
        context.close()


WORDS = "This link does not work any more: ask Elmau Swing Band for a new one."


def test_a_signed_contract_says_who_signed_and_a_paid_invoice_asks_for_nothing(office, booked, context):
    """In the office's language (English) when the contact names none."""
    done = booking(office, "Cleo & Dan", {"first_name": "Cleo"})
    office.call("POST", f"/contracts/{done['contract']['id']}/sign-on-behalf", {"signed_name": "Cleo Berger"})
    paid = {"invoice_id": done["invoice"]["id"], "amount_cents": 119000, "received_on": "2027-01-20"}
    office.call("POST", "/payments", paid)
    page = opened(context, link_of(office, done))
    contract = page.locator("#contract")
    expect(contract).to_contain_text("StatusSigned")
    expect(contract).to_contain_text(re.compile(r"Signedby Cleo Berger, \w+ \d{1,2}, 20\d\d at \d{1,2}:\d\d.?[AP]M"))
    invoice = page.locator("#invoices article")
    expect(invoice).to_contain_text("StatusPaid")
    expect(invoice).to_contain_text("Total€1,190.00")
    expect(invoice.locator(".pay")).to_have_count(0)
    expect(invoice).not_to_contain_text("Still to pay")
    expect(page.locator("#gig")).to_contain_text("Saturday, June 12, 2027")  # the office's `en`, not en-GB


@pytest.mark.parametrize("fragment", ["#token=bcl_cut-short", "", "#token="])
def test_a_wrong_or_missing_token_says_so_and_asks_nothing_else(office, booked, context, fragment):
    page = opened(context, f"{office.service.public_url}/client{fragment}")
    expect(page.locator("#outcome")).to_have_text(WORDS)
    expect(page.locator("#booking")).to_be_hidden()
    expected = [] if fragment in ("", "#token=") else [f"{office.service.public_url}/v1/client"]
    assert context.asked == expected


def test_a_revoked_link_says_so_in_words(office, booked, context):
    url = link_of(office, booked)
    office.call("DELETE", f"/gig-contacts/{booked['gig_contact']['id']}/client-link")
    page = opened(context, url)
    expect(page.locator("#outcome")).to_have_text(WORDS)
    expect(page.locator("#booking")).to_be_hidden()
    assert page.evaluate("sessionStorage.length") == 0  # a dead token is not kept


def test_the_page_is_never_cached_and_runs_only_its_own_nonced_script(office):
    with OPENER.open(f"{office.service.public_url}/client", timeout=10) as answer:
        headers, body = answer.headers, answer.read()
    policy = pages.csp_directives(headers["Content-Security-Policy"])
    nonce = re.search(r"'nonce-([^']+)'", " ".join(policy["script-src"])).group(1)
    assert policy["default-src"] == ["'none'"] and policy["script-src"] == [f"'nonce-{nonce}'"]
    assert headers["Cache-Control"] == "no-store" and headers["X-Frame-Options"] == "DENY"
    assert pages.Elements(body.decode()).load_from_elsewhere() == []
