"""SPEC §15 in the console, on the served demo office in Chromium: the contract template editor's preview from a
real gig. A gig with a quote is picked with the reference picker; the text in the editor is shown as that gig's
couple reads it (the service's `POST /contract-template-preview`), again as the text is edited, once typing pauses
and never a request per key; a merge field the service does not know is said with its line. axe finds nothing
serious, nothing is wider than a phone. CONSOLE_SHOTS names a folder for its pictures at 1280 and 360 px
(docs/screenshots/contract-preview-*.png)."""

import os
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.support import console
from tests.support.console import DESKTOP, serious_accessibility_violations

pytestmark = pytest.mark.browser

demo_office, signed_in = console.demo_office, console.signed_in
SHOTS = Path(os.environ.get("CONSOLE_SHOTS", "/tmp/contract-preview-shots"))
NARROW = {"width": 360, "height": 800}
BODY = "Between {{ office_name }} and {{ client_names }}.\nThe band plays on {{ gig_date }}: {{ quote_total }}."
ADDED = "\nDeposit: {{ deposit_amount }}"
PREVIEW = "/contract-template-preview"


def gig_with_a_quote(office):
    return office.api("/gigs?filter[quote_status][is_null]=false&sort=gig_date&limit=1&fields=id,title")["data"][0]


def previewed(office, body, gig):
    return office.api(PREVIEW, method="POST", body={"body": body, "gig_id": gig["id"]})["data"]["text"]


def open_editor(office, page, gig):
    """The new template's editor with BODY typed and `gig` picked for the preview."""
    page.goto(office.url("/admin/contract-templates/new"))
    expect(page.get_by_role("heading", level=1)).to_have_text("New contract template")
    page.get_by_label("Text").fill(BODY)
    picker = page.get_by_role("combobox", name="Gig with a quote")
    picker.click()
    page.get_by_role("option", name=gig["title"]).first.click()
    return page.locator(".contract-preview")


def test_the_template_is_previewed_as_a_gigs_couple_reads_it_as_it_is_edited(demo_office, signed_in):
    gig = gig_with_a_quote(demo_office)
    page = signed_in()
    asked = []
    page.on("request", lambda request: PREVIEW in request.url and asked.append(request.post_data_json["body"]))
    preview = open_editor(demo_office, page, gig)
    expect(preview).to_have_text(previewed(demo_office, BODY, gig))
    assert asked == [BODY]
    body = page.get_by_label("Text")
    body.press("End")
    body.press_sequentially(ADDED, delay=40)  # 30 keys, each within the pause of the one before
    expect(preview).to_have_text(previewed(demo_office, BODY + ADDED, gig))
    assert asked[-1] == BODY + ADDED and len(asked) <= 3, asked  # once typing paused, never a request per key
    body.press_sequentially(" {{ client_nmes }}", delay=40)
    expect(page.locator(".template-preview .error")).to_contain_text("line 3: unknown merge field `client_nmes`")
    assert demo_office.api("/contract-templates?q=between")["data"] == []  # a preview saves nothing


@pytest.mark.parametrize("viewport", [DESKTOP, NARROW], ids=["desktop", "phone"])
def test_the_preview_passes_axe_and_fits_the_screen(demo_office, signed_in, viewport):
    gig = gig_with_a_quote(demo_office)
    page = signed_in(viewport=viewport)
    preview = open_editor(demo_office, page, gig)
    expect(preview).to_have_text(previewed(demo_office, BODY, gig))
    assert serious_accessibility_violations(page) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    SHOTS.mkdir(parents=True, exist_ok=True)
    suffix = "desktop" if viewport is DESKTOP else "phone"
    page.screenshot(
        path=str(SHOTS / f"contract-preview-{suffix}.png"), full_page=True, animations="disabled", caret="hide"
    )
