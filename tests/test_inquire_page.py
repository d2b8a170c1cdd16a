"""SPEC §16's inquiry form, `/inquire`: its headers (frame-ancestors from `BAND_INQUIRY_EMBED_ORIGINS` on this page
alone, every other page framed by none), and in headless Chromium at a phone's 390 × 844: a couple fills it in,
hears whether their date is free, sends it and reads the thank-you in its place, and the office finds the inquiry
gig; it passes axe and is pictured at 390 and 1280; a website of an allowed origin shows it in an iframe, another
website cannot."""

import contextlib
import http.server
import threading
import time
import urllib.parse

import pytest
from playwright.sync_api import expect

from app import configure
from domain import signed_links
from domain.errors import ConfigError
from service import settings
from tests.support import pages
from tests.support.console import open_context, serious_accessibility_violations
from tests.support.days import today
from tests.support.served import ServedOffice
from tests.support.waiting import wait_for

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
PERSON_SECONDS = 3.5  # a person takes longer than 3 s to fill the form in; faster is a robot's, kept nowhere


def policy_of(response):
    return pages.csp_directives(response.headers["Content-Security-Policy"])


def test_the_form_is_framed_by_no_one_unless_the_setting_names_origins(app, anon):
    r = anon.client.get("/inquire")
    assert r.status_code == 200 and r.headers["Cache-Control"] == "no-store"
    assert policy_of(r)["frame-ancestors"] == ["'none'"] and r.headers["X-Frame-Options"] == "DENY"

    origins = "https://band.example http://localhost:8000"
    configure(app, {**app.config, "INQUIRY_EMBED_ORIGINS": origins})
    r = anon.client.get("/inquire")
    assert policy_of(r)["frame-ancestors"] == ["https://band.example", "http://localhost:8000"]
    assert "X-Frame-Options" not in r.headers  # it would refuse every frame, whatever the policy allows
    for path in ("/answer", "/client", "/signin", "/"):
        other = anon.client.get(path)
        assert policy_of(other)["frame-ancestors"] == ["'none'"] and other.headers["X-Frame-Options"] == "DENY"


@pytest.mark.parametrize("origins", ["https://band.example/contact", "https://band.example;script-src *", "*"])
def test_an_embedding_origin_that_is_not_one_is_refused_at_start(origins):
    with pytest.raises(ConfigError, match="BAND_INQUIRY_EMBED_ORIGINS"):
        settings.load({"INQUIRY_EMBED_ORIGINS": origins}, environ={})


def test_the_form_carries_its_signed_time_and_a_honeypot_under_its_own_nonce(app, anon):
    before = time.time()
    r = anon.client.get("/inquire")
    after = time.time()
    html = pages.Elements(r.get_data(as_text=True))
    [token] = html.find("input", name="form_token")
    [trap] = html.find("input", name="website")
    assert token["type"] == "hidden"
    with app.app_context():
        assert before - 0.001 <= signed_links.form_served_at(app.config, token["value"]) <= after + 0.001
    assert trap["tabindex"] == "-1" and trap["autocomplete"] == "off"
    policy = policy_of(r)
    [nonce] = policy["script-src"]
    assert [attrs["nonce"] for attrs in html.find("script") + html.find("style")] == [nonce[7:-1]] * 2
    assert html.load_from_elsewhere() == []
    later = pages.Elements(anon.client.get("/inquire").get_data(as_text=True)).find("input", name="form_token")
    assert later[0]["value"] != token["value"]  # each serving's own time


# --- in a browser --------------------------------------------------------------------------------------------


class Website(http.server.ThreadingHTTPServer):
    """A band's website on 127.0.0.1 (its own origin): a page that shows `/inquire` of `form_url` in an iframe."""

    def __init__(self):
        self.form_url = None
        site = self

        class Page(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                frame = f'<iframe src="{site.form_url}" title="Ask for your date"></iframe>'
                body = f"<!doctype html><title>Our band</title>{frame}"
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.end_headers()
                self.wfile.write(body.encode())

            def log_message(self, *args):
                pass

        super().__init__(("127.0.0.1", 0), Page)
        self.origin = f"http://127.0.0.1:{self.server_address[1]}"

    @contextlib.contextmanager
    def serving(self):
        thread = threading.Thread(target=self.serve_forever, daemon=True)
        thread.start()
        try:
            yield self
        finally:
            self.shutdown()
            self.server_close()


@pytest.fixture(scope="module")
def websites():
    """Two websites: the band's, whose origin the office names in BAND_INQUIRY_EMBED_ORIGINS, and another."""
    with Website().serving() as band, Website().serving() as other:
        yield band, other


@pytest.fixture(scope="module")
def office(tmp_path_factory, websites):
    band, _ = websites
    office = ServedOffice(tmp_path_factory.mktemp("inquire"), BAND_INQUIRY_EMBED_ORIGINS=band.origin).start()
    office.call("PATCH", "/office", {"name": "Elmau Swing Band"})
    office.call("POST", "/products", {"name": "Band, four sets", "position": 1})
    office.call("POST", "/products", {"name": "DJ after midnight", "position": 2})
    office.call("POST", "/products", {"name": "Retired brass trio", "active": False})
    yield office
    office.service.stop()


@pytest.fixture
def context(browser):
    """A browser at a phone's size whose pages' script errors fail the test (`pages.watched`)."""
    with pages.watched(browser, locale="en-GB", viewport=PHONE) as context:
        yield context


def status_named(office, kind):
    statuses = office.call("GET", "/gig-statuses?sort=position&limit=100")
    return next(status for status in statuses if status["kind"] == kind)


def gigs_titled(office, title):
    return office.call("GET", "/gigs?" + urllib.parse.urlencode({"filter[title]": title}))


def test_a_couple_sends_the_form_on_a_phone_and_the_office_sees_their_inquiry(office, context, browser):
    taken, free = today(200), today(207)
    confirmed = status_named(office, "confirmed")
    office.call("POST", "/gigs", {"gig_date": taken, "title": "Müller wedding", "gig_status_id": confirmed["id"]})
    page = context.new_page()
    page.goto(f"{office.service.public_url}/inquire")
    served = time.monotonic()
    expect(page.get_by_role("heading", level=1)).to_have_text("Ask Elmau Swing Band for your date")
    expect(page.get_by_label("Band, four sets")).to_be_visible()
    expect(page.get_by_label("Retired brass trio")).to_have_count(0)

    page.get_by_label("Your names").fill("Clara & Dev")
    page.get_by_label("E-mail").fill("clara@")
    page.get_by_role("button", name="Send the inquiry").click()
    expect(page.locator("#email-error")).to_have_text("Please check this e-mail address.")
    page.get_by_label("E-mail").fill("clara@couple.example")
    page.get_by_label("Date of the celebration").fill(taken)
    expect(page.locator("#gig_date-note")).to_contain_text("That date is already taken")
    page.get_by_label("Date of the celebration").fill(free)
    expect(page.locator("#gig_date-note")).to_have_text("That date is still free.")
    page.get_by_label("Venue (optional)").fill("Gut Sonnenhausen")
    page.get_by_label("Number of guests (optional)").fill("90")
    page.get_by_label("DJ after midnight").check()
    page.get_by_label("Your message (optional)").fill("A summer wedding in the garden.")
    page.get_by_role("button", name="Send the inquiry").click()
    expect(page.locator("#consent-error")).to_have_text("Please fill this in.")  # the box is not ticked yet
    page.get_by_label("I agree that Elmau Swing Band keeps these details").check()
    time.sleep(max(0.0, PERSON_SECONDS - (time.monotonic() - served)))  # a person's pace, which the form asks for
    page.get_by_role("button", name="Send the inquiry").click()

    expect(page.get_by_role("heading", name="Thank you!")).to_be_visible()
    expect(page.locator("#thanks")).to_contain_text("A confirmation is on its way to clara@couple.example.")
    expect(page.locator("#form")).to_be_hidden()
    [gig] = wait_for(lambda: gigs_titled(office, "Clara & Dev"))
    assert gig["gig_date"] == free and gig["guest_count"] == 90
    assert gig["gig_status_id"] == status_named(office, "inquiry")["id"]
    assert "Gut Sonnenhausen" in gig["notes"] and "A summer wedding in the garden." in gig["notes"]
    [played] = office.call("GET", f"/gig-products?filter[gig_id]={gig['id']}")
    products = office.call("GET", "/products?" + urllib.parse.urlencode({"filter[name]": "DJ after midnight"}))
    assert played["product_id"] == products[0]["id"]

    console = open_context(browser, office.key, "ops@example.com")  # the office, in its console
    gig_page = console.new_page()
    gig_page.goto(f"{office.service.public_url}/gigs/{gig['id']}")
    expect(gig_page.get_by_role("heading", level=1)).to_contain_text("Clara & Dev")
    expect(gig_page.get_by_text("Inquiry", exact=True).first).to_be_visible()
    assert console.problems.unexpected() == []
    console.close()


def test_the_form_fits_a_phone_passes_axe_and_is_pictured(office, browser):
    for viewport, name in ((DESKTOP, "inquire-desktop"), (PHONE, "inquire-phone")):
        context = browser.new_context(locale="en-GB", viewport=viewport)
        page = context.new_page()
        page.goto(f"{office.service.public_url}/inquire")
        expect(page.get_by_label("DJ after midnight")).to_be_visible()
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        assert serious_accessibility_violations(page) == []
        pages.picture(page, name, full_page=True)
        context.close()


@pytest.mark.parametrize(("locale", "path"), [("de-DE", "/inquire"), ("en-GB", "/inquire?lang=de")])
def test_a_german_couple_reads_the_form_in_german_on_a_phone_and_becomes_a_german_contact(
    office, browser, locale, path
):
    """The browser's language, or the website's `?lang=de` whatever the browser speaks: German at 390 px, axe clean;
    the couple sent becomes a contact reading German (their acknowledgement: tests/test_inquiry_language.py)."""
    context = browser.new_context(locale=locale, viewport=PHONE)
    page = context.new_page()
    page.goto(f"{office.service.public_url}{path}")
    served = time.monotonic()
    expect(page.get_by_role("heading", level=1)).to_have_text("Fragen Sie Ihren Termin bei Elmau Swing Band an")
    assert page.evaluate("document.documentElement.lang") == "de"
    expect(page.get_by_label("DJ after midnight")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert serious_accessibility_violations(page) == []
    if locale == "de-DE":
        pages.picture(page, "inquire-phone-de", full_page=True)
    names = f"Greta & Hans {locale}"
    page.get_by_label("Ihre Namen").fill(names)
    page.get_by_label("E-Mail").fill("greta@paar.example")
    page.get_by_label("Datum der Feier").fill(today(-3))  # the service refuses it in English: the form in German
    expect(page.locator("#gig_date-error")).to_have_text("Bitte wählen Sie einen Termin von heute bis in drei Jahren.")
    page.get_by_label("Datum der Feier").fill(today(300))
    expect(page.locator("#gig_date-note")).to_have_text("Dieser Termin ist noch frei.")
    page.get_by_role("button", name="Anfrage senden").click()
    expect(page.locator("#consent-error")).to_have_text("Bitte füllen Sie dieses Feld aus.")
    page.get_by_label("Ich bin einverstanden, dass Elmau Swing Band diese Angaben speichert").check()
    time.sleep(max(0.0, PERSON_SECONDS - (time.monotonic() - served)))  # a person's pace, which the form asks for
    page.get_by_role("button", name="Anfrage senden").click()
    expect(page.get_by_role("heading", name="Vielen Dank!")).to_be_visible()
    expect(page.locator("#thanks")).to_contain_text("Eine Bestätigung ist unterwegs an greta@paar.example.")
    context.close()
    [gig] = wait_for(lambda: gigs_titled(office, names))
    [link] = office.call("GET", f"/gig-contacts?filter[gig_id]={gig['id']}")
    assert office.call("GET", f"/contacts/{link['contact_id']}")["language"] == "de"


def test_the_bands_website_shows_the_form_in_an_iframe_and_another_website_cannot(office, websites, browser):
    band, other = websites
    form_url = f"{office.service.public_url}/inquire"
    band.form_url = other.form_url = form_url
    context = browser.new_context(locale="en-GB", viewport=DESKTOP)
    page = context.new_page()
    page.goto(band.origin)
    framed = page.frame_locator("iframe")
    expect(framed.get_by_role("heading", level=1)).to_have_text("Ask Elmau Swing Band for your date")

    page.goto(other.origin)
    wait_for(lambda: any(frame.url.startswith("chrome-error:") for frame in page.frames), timeout=30)
    assert not any(frame.url == form_url for frame in page.frames)
    context.close()
