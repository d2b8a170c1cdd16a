"""SPEC §15 in the console: Admin's letterhead on the served demo office in Chromium. An admin types the office's
address, tax and bank details (a mistyped IBAN said at its field, nothing saved), uploads a logo (an SVG shown as the
API kept it; a file that is no image refused at the logo), removes it; the screen fits 360 px; axe finds nothing
serious. CONSOLE_SHOTS names a folder for its pictures at 1280 and 360 px (docs/screenshots/letterhead-*.png)."""

import re

import pytest
from playwright.sync_api import expect

from tests.support import console, pages
from tests.support.console import DESKTOP, serious_accessibility_violations

pytestmark = pytest.mark.browser

demo_office, signed_in = console.demo_office, console.signed_in
NARROW = {"width": 360, "height": 800}
LOGO = b"""<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 240 60" onload="alert('logo')">
  <script>alert('script')</script>
  <rect width="240" height="60" rx="8" fill="#8a1538"/>
  <text x="120" y="40" font-size="28" text-anchor="middle" fill="#fff" font-family="Georgia">Swing Kings</text>
</svg>"""
TYPED = {
    "Street and number": "Praterstraße 1",
    "Postal code": "1020",
    "Town or city": "Wien",
    "Country": "AT",
    "E-mail": "office@swingkings.example",
    "VAT number": "ATU12345678",
    "Bank": "Bank Austria",
    "BIC": "BKAUATWW",
    "Footer": "Danke, dass ihr mit uns feiert!",
}


def letterhead_of(office):
    return office.api("/office")["data"]


def test_an_admin_keeps_the_letterhead_and_a_mistyped_iban_is_said_at_its_field(demo_office, signed_in):
    page = signed_in()
    page.goto(demo_office.url("/admin"))
    page.get_by_role("link", name="The letterhead").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Letterhead")
    for label, value in TYPED.items():
        page.get_by_label(label, exact=True).fill(value)
    page.get_by_label("IBAN").fill("AT61 1904 3002 3457 3202")
    page.get_by_role("button", name="Save the letterhead").click()
    iban = page.get_by_label("IBAN")
    expect(page.locator("#letterhead-iban-message")).to_have_text(
        "The check digits do not match the rest: a character is mistyped."
    )
    expect(iban).to_have_attribute("aria-invalid", "true")
    expect(iban).to_be_focused()
    assert letterhead_of(demo_office)["city"] is None  # nothing of a refused save is kept
    iban.fill("at61 1904 3002 3457 3201")
    page.get_by_role("button", name="Save the letterhead").click()
    expect(page.locator(".happened")).to_have_text("Saved the letterhead.")
    expect(iban).to_have_value("AT611904300234573201")
    expect(page.locator("#letterhead-iban-message")).to_have_count(0)
    saved = letterhead_of(demo_office)
    kept = {key: saved[key] for key in ("iban", "city", "country", "bic")}
    assert kept == {"iban": "AT611904300234573201", "city": "Wien", "country": "AT", "bic": "BKAUATWW"}
    page.get_by_label("Second line").fill("")
    page.get_by_label("Footer").fill("")
    page.get_by_role("button", name="Save the letterhead").click()
    expect(page.locator(".happened")).to_have_text("Saved the letterhead.")
    assert letterhead_of(demo_office)["invoice_footer"] is None


def test_an_admin_uploads_a_logo_sees_it_and_removes_it_and_a_file_that_is_no_image_is_refused(
    demo_office, signed_in, tmp_path
):
    logo, words = tmp_path / "logo.svg", tmp_path / "notes.txt"
    logo.write_bytes(LOGO)
    words.write_text("not a picture")
    page = signed_in()
    page.goto(demo_office.url("/admin/letterhead"))
    expect(page.get_by_text("No logo yet.")).to_be_visible()
    page.locator("#letterhead-logo-file").set_input_files(str(words))
    expect(page.locator("#letterhead-logo-message")).to_have_text(
        "Not a PNG or SVG image (an SVG must be well-formed XML without entities)."
    )
    assert letterhead_of(demo_office)["logo"] is None
    page.locator("#letterhead-logo-file").set_input_files(str(logo))
    expect(page.locator(".happened")).to_have_text("Saved the logo.")
    shown = page.get_by_role("img", name="The office's logo")
    expect(shown).to_be_visible()
    assert shown.evaluate("(img) => img.complete && img.naturalWidth > 0")
    assert letterhead_of(demo_office)["logo"]["media_type"] == "image/svg+xml"
    page.get_by_role("button", name="Remove the logo").click()
    expect(page.locator(".happened")).to_have_text("Removed the logo.")
    expect(page.get_by_text("No logo yet.")).to_be_visible()
    assert letterhead_of(demo_office)["logo"] is None


def test_the_letterhead_fits_a_phone_passes_axe_and_is_pictured(demo_office, signed_in, tmp_path):
    logo = tmp_path / "logo.svg"
    logo.write_bytes(LOGO)
    for viewport, name in ((DESKTOP, "letterhead-desktop"), (NARROW, "letterhead-phone")):
        page = signed_in(viewport=viewport)
        page.goto(demo_office.url("/admin/letterhead"))
        expect(page.get_by_role("heading", level=1)).to_have_text("Letterhead")
        if letterhead_of(demo_office)["logo"] is None:
            page.locator("#letterhead-logo-file").set_input_files(str(logo))
        expect(page.get_by_role("img", name="The office's logo")).to_be_visible()
        page.get_by_label("IBAN").fill("AT61 1904 3002 3457 3200")
        page.get_by_role("button", name="Save the letterhead").click()
        expect(page.locator("#letterhead-iban-message")).to_be_visible()
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        assert serious_accessibility_violations(page) == []
        page.locator("#letterhead-iban-message").scroll_into_view_if_needed()
        pages.picture(page, name, full_page=True)


def test_an_office_user_without_admin_edit_reads_the_letterhead_and_cannot_change_it(demo_office, signed_in):
    page = signed_in("office@band.example")
    page.goto(demo_office.url("/admin/letterhead"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Letterhead")
    expect(page.get_by_label("Town or city")).to_be_disabled()
    expect(page.get_by_role("button", name="Save the letterhead")).to_have_count(0)
    expect(page.get_by_text(re.compile(r"^Choose (a|another) logo"))).to_have_count(0)
