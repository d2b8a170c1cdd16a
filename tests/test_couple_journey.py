"""SPEC §16's whole way for a new couple, end to end in headless Chromium (Debian's, driven by Playwright), the
couple on a phone's 390 × 844: they ask for their date on `/inquire`; the office finds the inquiry gig, prices it,
drafts and sends a quote and makes their link; the couple accepts in one tap, the office sends the contract, the
couple signs it with their typed name, the consent box and a signature drawn with the mouse; the deposit invoice's
PDF downloaded on their page reads back its text, totals and the EPC QR code (zxing-cpp) to the office's IBAN and
the amount; the office records the payment and issues the balance (to the couple's company: its Factur-X XML read
back); the couple adds their first-dance song and the office sees it in the gig's history. Axe on every client page
visited; then the same page in German once the contact's language is `de`."""

import datetime as dt
import io
import pathlib
import re
import time
import urllib.parse

import facturx
import pytest
from babel.dates import format_date
from lxml import etree
from playwright.sync_api import expect
from pypdf import PdfReader

from tests.support.console import PHONE, open_context, serious_accessibility_violations
from tests.support.pdfs import qr_codes
from tests.support.served import ServedOffice
from tests.support.signing import draw
from tests.support.waiting import SLOW_MACHINE_SECONDS, wait_for

pytestmark = pytest.mark.browser

OFFICE = {
    "name": "Elmau Swing Band",
    "email": "office@swing.example",
    "iban": "DE89 3704 0044 0532 0130 00",
    "bic": "COBADEFFXXX",
    "country": "DE",
    "city": "München",
    "vat_id": "DE123456789",
}
IBAN = "DE89370400440532013000"
TEMPLATE = "Agreement between {{ office_name }} and {{ client_names }}.\nThe band plays on {{ gig_date }}."
BAND, DJ = "Band, four sets", "DJ after midnight"
PRICES = {BAND: 412_346, DJ: 65_000}  # cents, net
PERSON_SECONDS = 3.5  # the form keeps nothing sent sooner than 3 s after it was served (a robot's pace)
# The client's link shares sign-in's budget per address (10/minute by default), which each of a couple's requests
# spends, a valid link's too: this journey, a couple's busy minute, asks more often than that
RATES = {"BAND_INQUIRY_RATE": "100/hour", "BAND_AUTH_RATE_LIMIT": "200/minute"}
RAM = {
    "ram": "urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100",
    "rsm": "urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100",
}


@pytest.fixture(scope="module")
def office(tmp_path_factory):
    office = ServedOffice(tmp_path_factory.mktemp("couple-journey"), **RATES).start()
    office.call("PATCH", "/office", {"name": OFFICE["name"]})
    for position, name in enumerate(PRICES, start=1):
        office.call("POST", "/products", {"name": name, "position": position})
    yield office
    office.service.stop()


@pytest.fixture
def couple(browser):
    """The couple's browser on a phone, whose pages' script errors and CSP refusals fail the test."""
    context = open_context(browser, viewport=PHONE)
    context.set_default_timeout(SLOW_MACHINE_SECONDS * 1000)
    yield context
    context.close()
    assert context.problems.unexpected() == []


def euros(cents, language):
    """`€1,234.57` or `1.234,57 €`, as the couple's language writes money."""
    english = f"{cents / 100:,.2f}"
    if language == "en":
        return f"€{english}"
    return english.translate(str.maketrans(",.", ".,")) + "\xa0€"


def pdf_text(pdf):
    """The PDF's text, its spaces made one (a layout's line breaks are not the test's business)."""
    return " ".join(" ".join(page.extract_text().split()) for page in PdfReader(io.BytesIO(pdf)).pages)


def accessible(page):
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert serious_accessibility_violations(page) == []


def inquire(office, page, gig_date):
    """The couple's inquiry sent on `/inquire`, at a person's pace."""
    page.goto(f"{office.service.public_url}/inquire")
    served = time.monotonic()
    expect(page.get_by_label(BAND)).to_be_visible()
    accessible(page)
    page.get_by_label("Your names").fill("Lena & Tom")
    page.get_by_label("E-mail").fill("lena@couple.example")
    page.get_by_label("Date of the celebration").fill(gig_date)
    expect(page.locator("#gig_date-note")).to_have_text("That date is still free.")
    page.get_by_label(BAND).check()
    page.get_by_label(DJ).check()
    page.get_by_label("Your message (optional)").fill("Our first dance: Perfect.")
    page.get_by_label("I agree that Elmau Swing Band keeps these details").check()
    time.sleep(max(0.0, PERSON_SECONDS - (time.monotonic() - served)))  # the least the rule asks, no more
    page.get_by_role("button", name="Send the inquiry").click()
    expect(page.get_by_role("heading", name="Thank you!")).to_be_visible()


def priced_and_quoted(office, gig):
    """The office's part before the couple answers: the letterhead, the template, the gig's products priced, a quote
    drafted from them and sent. The quote."""
    office.call("PATCH", "/office", OFFICE)
    office.call("POST", "/contract-templates", {"name": "Standard", "body": TEMPLATE, "is_default": True})
    products = {p["id"]: p["name"] for p in office.call("GET", "/products")}
    wanted = office.call("GET", f"/gig-products?filter[gig_id]={gig['id']}")
    assert sorted(products[item["product_id"]] for item in wanted) == sorted(PRICES)
    for item in wanted:
        office.call("PATCH", f"/gig-products/{item['id']}", {"price_cents": PRICES[products[item["product_id"]]]})
    draft = office.call("POST", f"/gigs/{gig['id']}/quotes")
    return office.call("POST", f"/quotes/{draft['id']}/send")


def invoice_shown(page, invoice):
    """The article of `invoice` on the couple's page (another invoice names it: the balance its deposit)."""
    heading = page.get_by_role("heading", name=re.compile(f"{re.escape(invoice['number'])}$"))
    return page.locator("#invoices article").filter(has=heading)


def link_of(office, gig_contact):
    return office.call("POST", f"/gig-contacts/{gig_contact['id']}/client-link")["url"]


def invoices_of(office, gig):
    return {invoice["kind"]: invoice for invoice in office.call("GET", f"/invoices?filter[gig_id]={gig['id']}")}


def test_a_new_couple_asks_books_signs_pays_and_wishes_and_reads_it_all_in_german(office, couple):
    today = dt.datetime.now(dt.UTC).date()
    gig_date = today + dt.timedelta(days=240)
    page = couple.new_page()
    inquire(office, page, gig_date.isoformat())

    # The office finds the inquiry and answers it with a quote and the couple's link
    titled = "/gigs?" + urllib.parse.urlencode({"filter[title]": "Lena & Tom"})
    [gig] = wait_for(lambda: office.call("GET", titled), timeout=SLOW_MACHINE_SECONDS)
    [gig_contact] = office.call("GET", f"/gig-contacts?filter[gig_id]={gig['id']}")
    contact = office.call("GET", f"/contacts/{gig_contact['contact_id']}")
    assert (contact["email"], contact["language"]) == ("lena@couple.example", "en")
    quote = priced_and_quoted(office, gig)

    # The couple accepts in one tap
    page.goto(link_of(office, gig_contact))
    article = page.locator("#quotes article")
    expect(article).to_contain_text("Waiting for your answer")
    expect(article.locator("tfoot")).to_contain_text(euros(quote["gross_cents"], "en"))
    accessible(page)
    article.get_by_role("button", name="Accept the quote").click()
    expect(page.locator("#done")).to_have_text(f"Thank you: you accepted the quote {quote['number']}.")
    expect(article).to_contain_text("Accepted")

    # The office sends the contract drafted on accept; the couple signs it with a drawn signature
    [contract] = office.call("GET", f"/contracts?filter[gig_id]={gig['id']}")
    contract = office.call("POST", f"/contracts/{contract['id']}/send")  # its mail carries a link of its own
    page.reload()  # and the one the couple opened works on
    form = page.locator("form.sign")
    expect(page.locator("#contract")).to_contain_text("Agreement between Elmau Swing Band and Lena & Tom.")
    form.get_by_label("Your full name").fill("Lena Brandt")
    form.get_by_label("I agree to sign this contract electronically").check()
    draw(page)
    accessible(page)
    form.get_by_role("button", name="Sign the contract").click()
    expect(page.locator("#done")).to_contain_text(f"you signed the contract {contract['number']}")
    expect(page.locator("#contract")).to_contain_text("Signedby Lena Brandt")
    signed = office.call("GET", f"/contracts/{contract['id']}")
    assert (signed["status"], signed["signed_by"], signed["signed_name"]) == ("signed", "client", "Lena Brandt")
    statuses = {status["id"]: status["kind"] for status in office.call("GET", "/gig-statuses?limit=100")}
    assert statuses[office.call("GET", f"/gigs/{gig['id']}")["gig_status_id"]] == "confirmed"

    # The deposit invoice's PDF, downloaded on the couple's page, read back
    deposit = invoices_of(office, gig)["deposit"]
    assert deposit["status"] == "issued" and 0 < deposit["gross_cents"] < quote["gross_cents"]
    shown = invoice_shown(page, deposit)
    expect(shown).to_contain_text("Deposit invoice")
    expect(shown.get_by_role("img", name=re.compile("QR code to pay invoice"))).to_be_visible()
    accessible(page)
    with page.expect_download() as downloading:
        shown.get_by_role("button", name=f"Download {deposit['number']} as PDF").click()
    pdf = pathlib.Path(downloading.value.path()).read_bytes()
    text = pdf_text(pdf)
    for expected in (f"Deposit invoice {deposit['number']}", "Elmau Swing Band", "Lena & Tom", IBAN, "COBADEFFXXX"):
        assert expected in text
    for cents in (deposit["net_cents"], deposit["tax_cents"], deposit["gross_cents"]):
        assert euros(cents, "en") in text
    [epc] = qr_codes(pdf)
    lines = epc.split("\n")
    assert lines[:2] == ["BCD", "002"]
    assert lines[4:8] == ["COBADEFFXXX", "Elmau Swing Band", IBAN, f"EUR{deposit['gross_cents'] / 100:.2f}"]
    assert deposit["number"] in lines[8:]
    assert PdfReader(io.BytesIO(pdf)).attachments == {}  # a couple's invoice: no e-invoice XML (SPEC §15)

    # The office records the payment, then issues the balance, addressed to the company the couple books through
    office.call(
        "POST",
        "/payments",
        {"invoice_id": deposit["id"], "amount_cents": deposit["gross_cents"], "received_on": today.isoformat()},
    )
    office.call("PATCH", f"/contacts/{contact['id']}", {"company": "Brandt Events GmbH"})
    balance = office.call("POST", f"/invoices/{invoices_of(office, gig)['balance']['id']}/issue")
    assert deposit["gross_cents"] + balance["gross_cents"] == quote["gross_cents"]
    page.reload()  # the link the couple opened stays theirs beside the one the balance's mail carried
    expect(invoice_shown(page, deposit)).to_contain_text("Paid")
    expect(invoice_shown(page, balance)).to_contain_text(euros(balance["open_cents"], "en"))
    accessible(page)
    found = facturx.get_facturx_xml_from_pdf(io.BytesIO(pdf_of(office, balance)), check_xsd=True)
    xml = etree.fromstring(found[1])
    assert xml.findtext("rsm:ExchangedDocument/ram:ID", namespaces=RAM) == balance["number"]
    assert xml.findtext(".//ram:IBANID", namespaces=RAM) == IBAN
    assert xml.findtext(".//ram:GrandTotalAmount", namespaces=RAM) == f"{balance['gross_cents'] / 100:.2f}"
    assert xml.findtext(".//ram:DuePayableAmount", namespaces=RAM) == f"{balance['open_cents'] / 100:.2f}"
    assert xml.findtext(".//ram:BuyerTradeParty/ram:Name", namespaces=RAM) == "Brandt Events GmbH"

    # The couple adds their first-dance song; the office sees it in the gig's history
    office.call("POST", "/gig-moments", {"gig_id": gig["id"], "name": "First dance", "time": "21:00"})
    office.call("POST", "/songs", {"title": "Perfect", "artist": "Ed Sheeran"})
    page.reload()
    wishes = page.locator("#wishes")
    wishes.get_by_label("Find a song the band plays (title or artist)").fill("sheer")
    wishes.get_by_role("button", name="Perfect by Ed Sheeran").click()
    wishes.get_by_label("For which moment?").select_option(label="First dance")
    wishes.get_by_role("button", name="Add the song").click()
    expect(page.locator("#wishes-status")).to_have_text("Perfect is on your list.")
    accessible(page)
    history = office.call("GET", f"/gigs/{gig['id']}/history")
    [wished] = [
        event for event in history if event["type"].startswith("gig_song") and event["actor"]["token_kind"] == "client"
    ]
    assert wished["data"]["title"] == "Perfect"

    # The same page in German
    office.call("PATCH", f"/contacts/{contact['id']}", {"language": "de"})
    page.reload()
    expect(page.get_by_role("heading", name="Rechnungen")).to_be_visible()
    expect(page.locator("#gig")).to_contain_text(format_date(gig_date, "full", locale="de"))
    expect(page.locator("#quotes article tfoot")).to_contain_text(euros(quote["gross_cents"], "de"))
    expect(invoice_shown(page, balance)).to_contain_text(euros(balance["open_cents"], "de"))
    assert page.evaluate("document.documentElement.lang") == "de"
    accessible(page)


def pdf_of(office, invoice):
    status, _, body = office.service.request(
        "GET", f"/invoices/{invoice['id']}/pdf", None, {"Authorization": f"Bearer {office.key}"}
    )
    assert status == 200
    return body
