"""SPEC §16, the client's page in the client's language, in a real browser (Debian's Chromium driven by Playwright): a
German couple reads German words, dates and money whatever their browser speaks, an English couple English ones;
before the page knows whose link it is (a broken link), it speaks the browser's language. Pictured in German at
390 px."""

import pytest
from playwright.sync_api import expect

from tests.support import pages
from tests.support.console import serious_accessibility_violations
from tests.support.served import ServedOffice

PHONE = {"width": 390, "height": 844}
OFFICE = {"name": "Elmau Swing Band", "iban": "DE89370400440532013000", "bic": "COBADEFFXXX", "city": "München"}


@pytest.fixture(scope="module")
def office(tmp_path_factory):
    office = ServedOffice(tmp_path_factory.mktemp("client-language")).start()
    office.call("PATCH", "/office", OFFICE)
    yield office
    office.service.stop()


def link_of_a_couple(office, language):
    """The client link of a couple reading `language`, with a sent quote and an issued deposit invoice."""
    gig = office.call("POST", "/gigs", {"gig_date": "2027-04-03", "title": "Anna & Ben"})
    couple = office.call(
        "POST", "/contacts", {"first_name": "Anna", "email": "anna@couple.example", "language": language}
    )
    link = office.call("POST", "/gig-contacts", {"gig_id": gig["id"], "contact_id": couple["id"], "is_primary": True})
    quote = office.call("POST", "/quotes", {"gig_id": gig["id"], "valid_until": "2027-01-31"})
    office.call(
        "POST",
        "/quote-lines",
        {"quote_id": quote["id"], "description": "Band", "unit_price_cents": 123457, "tax_rate_bp": 0},
    )
    office.call("POST", f"/quotes/{quote['id']}/send")
    invoice = office.call("POST", "/invoices", {"gig_id": gig["id"], "kind": "deposit", "due_date": "2027-02-15"})
    line = {"invoice_id": invoice["id"], "description": "Deposit", "unit_price_cents": 100000, "tax_rate_bp": 1900}
    office.call("POST", "/invoice-lines", line)
    office.call("POST", f"/invoices/{invoice['id']}/issue")
    return office.call("POST", f"/gig-contacts/{link['id']}/client-link")["url"]


def opened(browser, url, locale):
    context = browser.new_context(locale=locale, viewport=PHONE)
    problems = []
    context.on("weberror", lambda error: problems.append(str(error.error)))
    page = context.new_page()
    page.goto(url)
    return context, page, problems


def test_a_german_couple_reads_their_page_in_german_in_an_english_browser(office, browser):
    context, page, problems = opened(browser, link_of_a_couple(office, "de"), "en-GB")
    expect(page.locator("#gig")).to_contain_text("DatumSamstag, 3. April 2027")
    for heading in ("Ihr Tag", "Angebote", "Rechnungen", "So erreichen Sie Elmau Swing Band"):
        expect(page.get_by_role("heading", name=heading)).to_be_visible()
    quote = page.locator("#quotes article")
    expect(quote).to_contain_text("StatusWartet auf Ihre Antwort")
    expect(quote).to_contain_text("Gültig bis31. Januar 2027")
    expect(quote.locator("tfoot")).to_contain_text("Gesamtbetrag1.234,57\xa0€")
    invoice = page.locator("#invoices article")
    expect(invoice.get_by_role("heading")).to_contain_text("Anzahlungsrechnung")
    expect(invoice).to_contain_text("Bitte überweisen Sie 1.190,00\xa0€ bis zum 15. Februar 2027 an:")
    expect(invoice).to_contain_text("Noch zu zahlen1.190,00\xa0€")
    assert page.evaluate("document.documentElement.lang") == "de"
    assert page.title().startswith("Ihre Buchung")
    assert "Your" not in page.locator("main").inner_text()
    assert serious_accessibility_violations(page) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    pages.picture(page, "client-page-german", full_page=True)
    context.close()
    assert problems == []


def test_an_english_couple_reads_english_in_a_german_browser(office, browser):
    context, page, problems = opened(browser, link_of_a_couple(office, "en"), "de-DE")
    expect(page.locator("#gig")).to_contain_text("DateSaturday, April 3, 2027")
    expect(page.get_by_role("heading", name="Your day", exact=True)).to_be_visible()
    expect(page.locator("#quotes article")).to_contain_text("StatusWaiting for your answer")
    expect(page.locator("#invoices article")).to_contain_text("Please transfer €1,190.00 by February 15, 2027 to:")
    assert page.evaluate("document.documentElement.lang") == "en"
    context.close()
    assert problems == []


@pytest.mark.parametrize(
    ("locale", "words"),
    [
        ("de-AT", "Dieser Link gilt nicht mehr: Bitten Sie Elmau Swing Band um einen neuen."),
        ("en-US", "This link does not work any more: ask Elmau Swing Band for a new one."),
    ],
)
def test_a_broken_link_speaks_the_browsers_language(office, browser, locale, words):
    context, page, _ = opened(browser, f"{office.service.public_url}/client#token=bcl_cut-short", locale)
    expect(page.locator("#outcome")).to_have_text(words)
    context.close()
