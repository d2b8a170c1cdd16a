"""SPEC §12.1's words in Debian's Chromium on the served demo office: money typed either way and shown in the office's
style (and in the new style once the office changes it), no developer's words on any form of Records, Records grouped
by purpose, a record page headed by the record's name, "Created" with the focus on it, and Admin (not Records)
current in the menu on Admin's user pages. Any console error, page error or CSP violation fails a test."""

import re

import pytest
from playwright.sync_api import expect

from tests.support import console
from tests.support.waiting import wait_for

demo_office, signed_in = console.demo_office, console.signed_in
pytestmark = pytest.mark.browser

LABELS = ".record-form label, .record-form legend, .record-form .field-hint, .record-form dt"
FORBIDDEN = re.compile(r"cents|\bnull\b|ISO 4217|Position|\b[a-z]+_[a-z_]+\b")


def first(office, collection, **filters):
    query = "&".join(f"filter[{name}][eq]={value}" for name, value in filters.items())
    return office.api(f"/{collection}?limit=1&{query}")["data"][0]


def price_page(office, page):
    price = first(office, "prices")
    page.goto(office.url(f"/records/prices/{price['id']}"))
    return price


def test_money_is_typed_either_way_stored_right_and_shown_as_money(demo_office, signed_in):
    page = signed_in()
    price = price_page(demo_office, page)
    amount = page.get_by_label("Amount")
    expect(amount).to_have_value(re.compile(r"^€[\d,]+\.\d\d$"))
    for typed, cents in (("4.500,00", 450000), ("4,600.00", 460000), ("€ 4700", 470000), ("4.800 €", 480000)):
        amount.fill(typed)
        page.get_by_role("button", name="Save").click()
        wait_for(lambda cents=cents: demo_office.api(f"/prices/{price['id']}")["data"]["amount_cents"] == cents)
    expect(amount).to_have_value("€4,800.00")
    amount.fill("four thousand")
    amount.blur()
    expect(page.get_by_text("Not an amount")).to_be_visible()
    page.goto(demo_office.url(f"/records/prices?filter[id][eq]={price['id']}"))
    expect(page.locator("tbody")).to_contain_text("€4,800.00")


def test_the_console_follows_the_office_s_language_date_style_and_currency_once_changed(demo_office, signed_in):
    price = demo_office.api("/prices?filter[valid_from][gte]=2000-01-01&limit=1")["data"][0]
    before = demo_office.api("/office")["data"]
    year, month, day = price["valid_from"].split("-")
    page = signed_in()
    shown = demo_office.url(f"/records/prices?filter[id][eq]={price['id']}")
    try:
        demo_office.api("/office", method="PATCH", body={"language": "de", "date_style": "dd.mm.yyyy"})
        page.goto(shown)
        expect(page.locator("tbody")).to_contain_text(f"{day}.{month}.{year}")
        euros = f"{price['amount_cents'] // 100:,}".replace(",", ".") + f",{price['amount_cents'] % 100:02d}"
        expect(page.locator("tbody")).to_contain_text(f"{euros}\u00a0€")
        changed = {"language": "en", "date_style": "mm/dd/yyyy", "currency": "CHF"}
        demo_office.api("/office", method="PATCH", body=changed)
        page.reload()
        expect(page.locator("tbody")).to_contain_text(f"{month}/{day}/{year}")
        page.goto(demo_office.url("/records/gig-roles?sort=-pay_cents"))
        expect(page.locator("tbody tr").first).to_contain_text("CHF")  # a role's pay is in the office's currency
    finally:
        keys = ("language", "date_style", "currency")
        demo_office.api("/office", method="PATCH", body={key: before[key] for key in keys})


def test_no_developer_words_on_any_form_of_records(demo_office, signed_in):
    page = signed_in()
    document = demo_office.api("/openapi.json")
    forms = []
    for path, item in document["paths"].items():
        single = document["paths"].get(f"{path}/{{id}}", {})
        if not re.fullmatch(r"/[a-z-]+", path) or "get" not in single:
            continue
        if "application/json" in item.get("post", {}).get("requestBody", {}).get("content", {}):
            forms.append(f"/records{path}/new")
        if "patch" in single and (records := demo_office.api(f"{path}?limit=1")["data"]):
            forms.append(f"/records{path}/{records[0]['id']}")
    assert len(forms) > 40
    seen = {}
    for form in forms:
        console.show(page, demo_office.url(form))
        expect(page.locator(".record-form form, .record-form dl").first).to_be_visible()
        words = page.locator(LABELS).all_inner_texts()
        found = [word for word in words if FORBIDDEN.search(word)]
        if found:
            seen[form] = found
    assert seen == {}


def test_records_are_grouped_by_purpose_each_with_a_line(demo_office, signed_in):
    page = signed_in()
    page.goto(demo_office.url("/records"))
    catalogue = page.get_by_role("region", name="Catalogue")
    expect(catalogue.get_by_role("link", name="Products")).to_be_visible()
    expect(catalogue).to_contain_text("What a couple books")
    expect(page.get_by_role("region", name="Settings").get_by_role("link", name="Gig statuses")).to_be_visible()
    expect(page.get_by_role("region", name="Other")).to_have_count(0)


def test_a_new_record_says_created_and_its_name_heads_its_page_with_the_focus(demo_office, signed_in):
    page = signed_in()
    page.goto(demo_office.url("/records/teams/new"))
    page.get_by_label("Name").fill("Strings (words test)")
    page.get_by_role("button", name="Create").click()
    heading = page.get_by_role("heading", level=1)
    expect(heading).to_have_text("Strings (words test)")
    expect(heading).to_be_focused()
    expect(page.get_by_role("status").filter(has_text="Created.")).to_be_visible()
    page.reload()
    expect(heading).to_have_text("Strings (words test)")
    expect(page.get_by_text("Created.")).to_have_count(0)


def test_admin_is_the_current_menu_entry_on_admin_s_user_pages(demo_office, signed_in):
    page = signed_in()
    page.goto(demo_office.url("/admin"))
    page.get_by_role("link", name="All users").click()
    menu = page.get_by_role("navigation", name="Main menu")
    expect(menu.get_by_role("link", name="Admin")).to_have_attribute("aria-current", "page")
    expect(menu.get_by_role("link", name="Records")).not_to_have_attribute("aria-current", "page")
    page.goto(demo_office.url("/records/teams"))
    expect(menu.get_by_role("link", name="Records")).to_have_attribute("aria-current", "page")
