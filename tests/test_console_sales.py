"""SPEC §15 in the console, on the served demo office in Chromium: the gig page's Sales tab (a draft quote's lines
edited in place as money and percent, a refusal said at its field; an operation the service refuses said in words;
each PDF a click away; a payment recorded), the Money screen (open and overdue invoices with their totals per currency,
the period's payments, a CSV of what is shown, in at most three calls), Admin's contract templates (the merge fields
beside the text, a refusal at the body) and the agenda's badges from the gigs' sales counts. axe finds nothing
serious; nothing is wider than a phone. CONSOLE_SHOTS names a folder for the pictures at 1280 and 360 px
(docs/screenshots/sales-*.png, money-*.png, contract-template-*.png)."""

import csv
import io
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.support import console, pages
from tests.support.console import DESKTOP, serious_accessibility_violations
from tests.support.waiting import SLOW_MACHINE_SECONDS, wait_for

pytestmark = pytest.mark.browser

demo_office, signed_in = console.demo_office, console.signed_in
NARROW = {"width": 360, "height": 800}


def euros(cents):
    """Money as the demo office (English, EUR) writes it."""
    return f"{'-' if cents < 0 else ''}€{abs(cents) / 100:,.2f}"


def first(office, path):
    return office.api(path)["data"][0]


def line_field(page, label, number=None):
    """The input of a quote's or invoice's line: `number` (1, 2, …), else the last line's."""
    found = page.get_by_label(re.compile(rf"^{re.escape(label)} ?, line {number or '[0-9]+'}$"))
    return found if number else found.last


def sales_tab(office, page, gig_id):
    page.goto(office.url(f"/gigs/{gig_id}?tab=sales"))
    expect(page.get_by_role("heading", level=2, name="Sales")).to_be_visible()
    expect(page.locator(".sales-document").first).to_be_visible()


def test_a_draft_quotes_lines_are_edited_in_place_as_money_and_percent(demo_office, signed_in):
    quote = first(demo_office, "/quotes?filter[status]=draft&limit=1")
    line = first(demo_office, f"/quote-lines?filter[quote_id]={quote['id']}&sort=position&limit=1")
    page = signed_in()
    sales_tab(demo_office, page, quote["gig_id"])
    price = line_field(page, "Unit price", 1)
    expect(price).to_have_value(euros(line["unit_price_cents"]))
    price.fill("4.321,50")
    line_field(page, "Tax %", 1).fill("10")  # leaving the price saves it
    line_field(page, "Quantity", 1).click()  # and leaving the tax rate saves that
    expect(page.locator(".sales-line .saved").first).to_have_text("Saved")

    def stored():  # both saves, each made as its field was left: "Saved" may show while the second is on its way
        line_now = demo_office.api(f"/quote-lines/{line['id']}")["data"]
        return (line_now["unit_price_cents"], line_now["tax_rate_bp"]) == (432150, 1000)

    wait_for(stored, timeout=SLOW_MACHINE_SECONDS)
    gross = demo_office.api(f"/quotes/{quote['id']}")["data"]["gross_cents"]
    expect(page.locator(".sales-totals .gross").first).to_have_text(euros(gross))

    quantity = line_field(page, "Quantity", 1)
    quantity.fill("two")
    line_field(page, "Description", 1).click()
    expect(quantity).to_have_attribute("aria-invalid", "true")
    expect(page.locator(f'[id="{line["id"]}-quantity-error"]')).to_contain_text("integer")
    assert demo_office.api(f"/quote-lines/{line['id']}")["data"]["quantity"] == line["quantity"]

    page.get_by_role("button", name="Add a line").click()
    description = line_field(page, "Description")
    expect(description).to_have_value("New line")
    description.fill("Early-booking discount")
    line_field(page, "Unit price").click()
    expect(page.locator(".sales-line .saved").last).to_have_text("Saved")
    lines = demo_office.api(f"/quote-lines?filter[quote_id]={quote['id']}&limit=200")["data"]
    assert "Early-booking discount" in [one["description"] for one in lines]


def test_a_quote_is_declined_on_their_behalf_and_every_document_has_its_pdf(demo_office, signed_in):
    quote = first(demo_office, "/quotes?filter[status]=sent&limit=1")
    page = signed_in()
    sales_tab(demo_office, page, quote["gig_id"])
    document = page.get_by_role("article", name=f"Quote {quote['number']}")
    expect(document.get_by_role("button", name=f"PDF of Quote {quote['number']}")).to_be_visible()
    document.get_by_role("button", name="Decline for them").click()
    declined = page.get_by_role("article", name=f"Quote {quote['number']}").locator(".sales-declined")
    expect(declined).to_be_visible()
    gig = demo_office.api("/invoices?overdue=true&filter[kind]=deposit&limit=1")["data"][0]["gig_id"]
    sales_tab(demo_office, page, gig)
    documents = page.locator(".sales-document")
    expect(page.locator("button.pdf")).to_have_count(documents.count())


def test_a_payment_recorded_on_the_sales_tab_settles_the_invoice_and_too_much_is_refused_at_the_amount(
    demo_office, signed_in
):
    invoice = first(demo_office, "/invoices?overdue=true&filter[kind]=deposit&limit=1")
    page = signed_in()
    sales_tab(demo_office, page, invoice["gig_id"])
    form = page.get_by_role("form", name=f"A payment for Deposit {invoice['number']}")
    amount = form.get_by_label("Amount received")
    expect(amount).to_have_value(euros(invoice["open_cents"]))
    amount.fill(str(invoice["open_cents"] / 100 + 1))
    form.get_by_role("button", name="Record the payment").click()
    expect(amount).to_have_attribute("aria-invalid", "true")
    expect(form.locator(".field-error")).to_be_visible()
    assert demo_office.api(f"/payments?filter[invoice_id]={invoice['id']}")["meta"]["total"] == 0
    amount.fill(str(invoice["open_cents"] // 100))
    form.get_by_label("How").select_option(label="Cash")
    form.get_by_role("button", name="Record the payment").click()
    document = page.get_by_role("article", name=f"Deposit {invoice['number']}")
    expect(document.get_by_role("list", name="Payments")).to_contain_text("Cash")
    settled = demo_office.api(f"/invoices/{invoice['id']}")["data"]
    assert settled["paid_cents"] == invoice["open_cents"] // 100 * 100
    assert settled["status"] in ("partly_paid", "paid")


def test_money_shows_open_and_overdue_totals_and_the_periods_payments_in_three_calls(demo_office, signed_in):
    page = signed_in()
    page.goto(demo_office.url("/agenda"))
    expect(page.get_by_role("heading", level=1)).to_be_visible()
    page.wait_for_load_state("networkidle")
    asked = []
    page.on("request", lambda request: "/v1/" in request.url and asked.append(request.url))
    page.get_by_role("navigation", name="Main menu").get_by_role("link", name="Money").click()
    expect(page.get_by_role("heading", level=1, name="Money")).to_be_visible()
    expect(page.get_by_role("heading", level=2, name="Open invoices")).to_be_visible()
    page.wait_for_load_state("networkidle")
    assert len(asked) <= 3, asked

    open_ = demo_office.api("/invoices?filter[status][in]=issued,partly_paid&filter[kind][ne]=credit_note&limit=200")
    late = demo_office.api("/invoices?overdue=true&filter[kind][ne]=credit_note&limit=200")["data"]
    totals = page.locator(".money-totals dd")
    expect(totals.nth(0)).to_have_text(euros(sum(one["open_cents"] for one in open_["data"])))
    expect(totals.nth(1)).to_have_text(euros(sum(one["open_cents"] for one in late)))
    expect(page.locator(".money-table").first.locator("tbody tr")).to_have_count(open_["meta"]["total"])
    expect(page.locator("tr.overdue")).to_have_count(len(late))

    with page.expect_download() as download:
        page.get_by_role("button", name="Download the open invoices (CSV)").click()
    rows = list(csv.reader(io.StringIO(Path(download.value.path()).read_text(encoding="utf-8-sig"))))
    assert rows[0][:3] == ["Invoice", "Kind", "Gig"]
    assert sorted(row[0] for row in rows[1:]) == sorted(one["number"] for one in open_["data"])


def test_a_contract_template_is_written_with_the_merge_fields_beside_it_and_a_refusal_is_said_at_the_body(
    demo_office, signed_in
):
    page = signed_in()
    page.goto(demo_office.url("/admin"))
    page.get_by_role("link", name="Contract templates", exact=True).click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Contract templates")
    page.get_by_role("link", name="New template").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("New contract template")
    page.get_by_label("Name").fill("Our wedding contract")
    page.get_by_role("button", name="Save the template").click()
    body = page.get_by_label("Text")
    expect(body).to_have_attribute("aria-invalid", "true")
    expect(body).to_be_focused()
    expect(page.locator("#template-body-error")).to_be_visible()
    body.fill("Between {{ office_name }} and ")
    page.get_by_role("complementary", name="Merge fields").get_by_role("button", name="{{ client_names }}").click()
    expect(body).to_have_value("Between {{ office_name }} and {{ client_names }}")
    page.get_by_role("button", name="Save the template").click()
    expect(page.locator(".happened")).to_have_text("Created the template.")
    expect(page.get_by_role("heading", level=1)).to_have_text("Our wedding contract")
    kept = demo_office.api("/contract-templates?q=wedding")["data"]
    assert [one["body"] for one in kept] == ["Between {{ office_name }} and {{ client_names }}"]


def test_the_agenda_shows_the_sales_badges_the_gigs_counts_say_and_none_without_sales_view(demo_office, signed_in):
    gigs = demo_office.api(
        "/gigs?filter[quote_status][in]=sent,accepted&fields=id,gig_date,quote_status,contract_status,deposit_overdue"
    )["data"]
    expected = {
        gig["id"]: [
            words
            for words, shown in (
                ("quote sent", gig["quote_status"] == "sent"),
                ("contract unsigned", gig["contract_status"] in ("draft", "sent")),
                ("deposit overdue", gig["deposit_overdue"]),
            )
            if shown
        ]
        for gig in gigs
    }
    assert any(expected.values())  # the demo has gigs with badges
    page = signed_in()
    for gig in gigs:
        page.goto(demo_office.url(f"/agenda?month={gig['gig_date'][:7]}"))
        row = page.locator(".gig-row").filter(has=page.locator(f'a[href="/gigs/{gig["id"]}"]'))
        expect(row.locator(".badge.sales")).to_have_text(expected[gig["id"]])
    crew = signed_in("crew@band.example")
    crew.goto(demo_office.url(f"/agenda?month={gigs[0]['gig_date'][:7]}"))
    expect(crew.locator(".gig-row").first).to_be_visible()
    expect(crew.locator(".badge.sales")).to_have_count(0)


@pytest.mark.parametrize("viewport", [DESKTOP, NARROW], ids=["desktop", "phone"])
def test_the_sales_screens_pass_axe_and_fit_the_screen(demo_office, signed_in, viewport):
    suffix = "desktop" if viewport is DESKTOP else "phone"
    page = signed_in(viewport=viewport)
    invoice = first(demo_office, "/invoices?filter[kind]=balance&filter[status]=issued&limit=1")
    draft = first(demo_office, "/quotes?filter[status]=draft&limit=1")
    screens = [
        (f"/gigs/{invoice['gig_id']}?tab=sales", ".sales-document", "sales"),
        (f"/gigs/{draft['gig_id']}?tab=sales", ".sales-line.editing", "sales-draft-quote"),
        ("/money", ".money-totals", "money"),
        ("/admin/contract-templates/new", ".merge-fields", "contract-template"),
    ]
    for path, shown, name in screens:
        console.show(page, demo_office.url(path))
        expect(page.locator(shown).first).to_be_visible()
        assert serious_accessibility_violations(page) == [], path
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"], path
        pages.picture(page, f"{name}-{suffix}", full_page=name != "sales")  # a gig's documents make a long page


def test_a_viewer_reads_the_sales_tab_without_a_control_and_the_crew_has_none(demo_office, signed_in):
    quote = first(demo_office, "/quotes?filter[status]=draft&limit=1")
    page = signed_in("viewer@band.example")
    sales_tab(demo_office, page, quote["gig_id"])
    document = page.get_by_role("article", name="Draft quote")
    expect(document.locator(".sales-line").first).to_be_visible()
    expect(document.get_by_role("textbox")).to_have_count(0)
    expect(page.locator(".gig-sales").get_by_role("button")).to_have_text(["PDF"])
    crew = signed_in("crew@band.example")
    crew.goto(demo_office.url(f"/gigs/{quote['gig_id']}"))
    expect(crew.get_by_role("navigation", name="Parts of the gig")).to_be_visible()
    expect(crew.get_by_role("link", name="Sales")).to_have_count(0)
