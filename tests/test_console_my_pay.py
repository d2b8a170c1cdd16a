"""SPEC §13, a musician's pay and blockouts on the phone (/my/pay, /my/blockouts), on the served demo office in
Chromium at 390×844 signed in as the demo's musician (staff@band.example, linked to Lena Hofer): last month's pay
sheet and its total as the API gives it, a period chosen and kept in the address; a day and a range blocked out
and one removed, a range ending before it starts refused at its field, a day they play refused with a link to
the gig; nothing that writes while offline; axe at a phone's and a desktop's width; hostile strings as text."""

import datetime as dt
import urllib.parse

import pytest
from playwright.sync_api import expect

from tests.support import console, pages
from tests.support.console import DESKTOP, PHONE, as_if_offline, serious_accessibility_violations

pytestmark = pytest.mark.browser

demo_office, signed_in = console.demo_office, console.signed_in
MUSICIAN = "staff@band.example"
HOSTILE = "<img src=x onerror=alert(1)> \u202eevil"
LONG_HOSTILE = HOSTILE + " " + "x" * 5000
TO = "To (the last day you cannot play)"
REASON = "Reason (optional, the office sees it)"


def query(path, **params):
    return f"{path}?{urllib.parse.urlencode(params)}"


def last_month():
    last = dt.date.today().replace(day=1) - dt.timedelta(days=1)
    return last.replace(day=1), last


def euros(cents):
    return f"€{cents / 100:,.2f}"


def far_day(days):
    """A day years ahead, past the demo's gigs: the musician plays nothing then."""
    return (dt.date.today() + dt.timedelta(days=4 * 365 + days)).isoformat()


def own_blockouts(office):
    return office.api("/me/blockouts?limit=200", email=MUSICIAN)["data"]


@pytest.fixture(scope="module")
def paid_gig(demo_office):
    """A gig of last month with a hostile title where the musician sang backing vocals for €314.15 (made by the
    admin), besides what the demo gave her."""
    member = demo_office.api("/me/staff-member", email=MUSICIAN)["data"]
    assert member["user_id"] is not None  # the demo's musician is linked to her staff member
    role = demo_office.api(query("/roles", **{"filter[name]": "Backing vocals"}))["data"][0]
    first, _ = last_month()
    gig = demo_office.api("/gigs", method="POST", body={"gig_date": first.replace(day=5).isoformat(), "title": HOSTILE})
    body = {"gig_id": gig["data"]["id"], "role_id": role["id"], "staff_member_id": member["id"], "pay_cents": 31415}
    demo_office.api("/gig-roles?allow_conflicts=true", method="POST", body=body)
    return gig["data"]


# --- pay --------------------------------------------------------------------------------------------------------


def test_my_pay_shows_last_months_lines_and_the_apis_total(demo_office, signed_in, paid_gig):
    first, last = last_month()
    sheet = demo_office.api(query("/me/pay-sheet", **{"from": first, "to": last, "limit": 100}), email=MUSICIAN)
    page = signed_in(MUSICIAN, PHONE)
    page.goto(demo_office.url("/my/pay"))
    expect(page.get_by_role("heading", name="My pay")).to_be_visible()
    lines = page.get_by_role("list", name="Your pay").get_by_role("listitem")
    expect(lines).to_have_count(sheet["meta"]["total"])
    expect(page.locator(".sheet-total")).to_have_text(euros(sheet["meta"]["total_cents"]))
    expect(page.get_by_role("link", name="Last month")).to_have_attribute("aria-current", "true")
    # the gig made for it: its hostile title as text, a link to the musician's page of the gig, role and pay
    ours = lines.filter(has_text="Backing vocals")
    expect(ours.get_by_role("link", name=HOSTILE)).to_have_attribute("href", f"/my/gigs/{paid_gig['id']}")
    expect(ours).to_contain_text("€314.15")
    expect(ours).to_contain_text("agreed for this gig")
    assert page.locator("main img").count() == 0
    pages.picture_at_width(page, "my-pay")


def test_the_period_chosen_is_in_the_address_for_reload_and_back(demo_office, signed_in, paid_gig):
    page = signed_in(MUSICIAN, PHONE)
    page.goto(demo_office.url("/my/pay"))
    expect(page.get_by_role("list", name="Your pay")).to_be_visible()
    fifth = last_month()[0].replace(day=5).isoformat()
    page.get_by_label("From", exact=True).fill(fifth)
    page.get_by_label("To", exact=True).fill(fifth)
    page.get_by_role("button", name="Show").click()
    expect(page).to_have_url(demo_office.url(f"/my/pay?from={fifth}&to={fifth}"))
    day = demo_office.api(query("/me/pay-sheet", **{"from": fifth, "to": fifth}), email=MUSICIAN)["meta"]
    total = euros(day["total_cents"])  # the gig made for it, and any the demo gave her that day
    expect(page.get_by_role("list", name="Your pay").get_by_role("listitem")).to_have_count(day["total"])
    expect(page.locator(".sheet-total")).to_have_text(total)
    expect(page.get_by_role("link", name=HOSTILE)).to_be_visible()
    page.reload()
    expect(page.locator(".sheet-total")).to_have_text(total)
    page.go_back()
    expect(page.get_by_role("link", name="Last month")).to_have_attribute("aria-current", "true")


def test_an_empty_period_is_said_in_words(demo_office, signed_in):
    page = signed_in(MUSICIAN, PHONE)
    page.goto(demo_office.url("/my/pay?from=2001-01-01&to=2001-01-31"))
    expect(page.get_by_text("You played no gigs in this period: nothing to be paid.")).to_be_visible()
    expect(page.get_by_role("list", name="Your pay")).to_have_count(0)


# --- blockouts ----------------------------------------------------------------------------------------------


def listed(page):
    return page.get_by_role("list", name="Your blockouts from today on").get_by_role("listitem")


def test_a_day_and_a_range_are_added_and_listed_and_one_is_removed(demo_office, signed_in):
    page = signed_in(MUSICIAN, PHONE)
    page.goto(demo_office.url("/my/blockouts"))
    page.get_by_role("button", name="Add a day").click()
    page.get_by_label("Day", exact=True).fill(far_day(10))
    page.get_by_label(REASON).fill("Sister's wedding")
    page.get_by_role("button", name="Add this day").click()
    expect(listed(page).filter(has_text="Sister's wedding")).to_have_count(1)
    expect(page.get_by_role("status").filter(has_text="Added")).to_be_focused()  # where the form was
    page.get_by_role("button", name="Add a range").click()
    page.get_by_label("From", exact=True).fill(far_day(20))
    page.get_by_label(TO).fill(far_day(26))
    page.get_by_role("button", name="Add these days").click()
    expect(listed(page).filter(has_text="7 days")).to_have_count(2)  # the demo's week of holiday, and this one
    stored = {(b["start_date"], b["end_date"]): b["reason"] for b in own_blockouts(demo_office)}
    assert stored[(far_day(10), far_day(10))] == "Sister's wedding"
    assert stored[(far_day(20), far_day(26))] is None

    day = listed(page).filter(has_text="Sister's wedding")
    day.get_by_role("button", name="Remove").click()
    expect(day).to_contain_text("The office may then book you on that day.")
    pages.picture_at_width(page, "my-blockouts-confirm")
    day.get_by_role("button", name="Yes, remove it").click()
    expect(listed(page).filter(has_text="Sister's wedding")).to_have_count(0)
    expect(page.get_by_role("status").filter(has_text="Removed")).to_be_visible()
    assert (far_day(10), far_day(10)) not in {(b["start_date"], b["end_date"]) for b in own_blockouts(demo_office)}


def test_a_range_ending_before_it_starts_is_refused_at_its_field_and_stores_nothing(demo_office, signed_in):
    before = own_blockouts(demo_office)
    page = signed_in(MUSICIAN, PHONE)
    page.goto(demo_office.url("/my/blockouts"))
    page.get_by_role("button", name="Add a range").click()
    page.get_by_label("From", exact=True).fill(far_day(40))
    page.get_by_label(TO).fill(far_day(35))
    page.get_by_label(REASON).fill("Tour")
    page.get_by_role("button", name="Add these days").click()
    to = page.get_by_label(TO)
    expect(to).to_have_attribute("aria-invalid", "true")
    expect(to).to_be_focused()
    expect(page.locator("#blockout-range-end-problem")).to_have_text("Must not be before the first day.")
    expect(to).to_have_value(far_day(35))  # what was typed stays
    expect(page.get_by_label(REASON)).to_have_value("Tour")
    pages.picture_at_width(page, "my-blockouts-refused")
    assert own_blockouts(demo_office) == before
    page.get_by_role("button", name="Cancel").click()
    expect(page.get_by_role("button", name="Add a range")).to_be_focused()


def test_a_day_they_play_is_refused_with_a_link_to_that_gig(demo_office, signed_in):
    gigs = demo_office.api("/me/gigs?limit=100&fields=id,gig_date,roles", email=MUSICIAN)["data"]
    gig = next(gig for gig in gigs if any(role["invitation"] is None for role in gig["roles"]))  # not only invited
    page = signed_in(MUSICIAN, PHONE)
    page.goto(demo_office.url("/my/blockouts"))
    page.get_by_role("button", name="Add a day").click()
    page.get_by_label("Day", exact=True).fill(gig["gig_date"])
    page.get_by_role("button", name="Add this day").click()
    refusal = page.get_by_role("alert")
    expect(refusal).to_contain_text("You play a gig on one of those days")
    expect(refusal.get_by_role("link")).to_have_attribute("href", f"/my/gigs/{gig['id']}")
    expect(page.get_by_label("Day", exact=True)).to_have_value(gig["gig_date"])


def test_a_hostile_reason_is_shown_as_text(demo_office, signed_in):
    page = signed_in(MUSICIAN, PHONE)
    page.goto(demo_office.url("/my/blockouts"))
    page.get_by_role("button", name="Add a day").click()
    page.get_by_label("Day", exact=True).fill(far_day(50))
    page.get_by_label(REASON).fill(LONG_HOSTILE)
    page.get_by_role("button", name="Add this day").click()
    shown = listed(page).filter(has_text="onerror")
    expect(shown).to_have_count(1)
    stored = next(b["reason"] for b in own_blockouts(demo_office) if b["start_date"] == far_day(50))
    assert stored == LONG_HOSTILE[:200]  # the field takes what the API keeps
    expect(shown.locator(".blockout-reason")).to_have_text(stored)
    assert page.locator("main img").count() == 0
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    pages.picture_at_width(page, "my-blockouts-hostile")


def test_offline_nothing_on_my_blockouts_writes(demo_office, signed_in):
    """The service worker's kept copy (Band-Kept-At) makes the app read only: no Add, no Remove."""
    page = signed_in(MUSICIAN, PHONE)
    as_if_offline(page, "2026-11-26T08:00:00Z")
    page.goto(demo_office.url("/my/blockouts"))
    expect(page.get_by_text("You are offline")).to_be_visible()
    expect(listed(page).first).to_be_visible()
    expect(page.get_by_role("button", name="Add a day")).to_have_count(0)
    expect(page.get_by_role("button", name="Add a range")).to_have_count(0)
    expect(page.get_by_role("button", name="Remove")).to_have_count(0)


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_both_screens_pass_axe_at_both_widths(demo_office, signed_in, paid_gig, viewport):
    page = signed_in(MUSICIAN, viewport)
    page.goto(demo_office.url("/my/pay"))
    expect(page.get_by_role("list", name="Your pay")).to_be_visible()
    assert serious_accessibility_violations(page) == [], "/my/pay"
    assert page.evaluate("() => document.documentElement.scrollWidth") <= viewport["width"]
    pages.picture_at_width(page, "my-pay")
    page.goto(demo_office.url("/my/blockouts"))
    page.get_by_role("button", name="Add a range").click()
    listed(page).first.get_by_role("button", name="Remove").click()
    assert serious_accessibility_violations(page) == [], "/my/blockouts"
    assert page.evaluate("() => document.documentElement.scrollWidth") <= viewport["width"]
    pages.picture_at_width(page, "my-blockouts")
    assert page.title().startswith("My blockouts")


def test_past_blockouts_are_folded_away_and_read_only(demo_office, signed_in):
    body = {"start_date": "2020-03-01", "end_date": "2020-03-02", "reason": "Long gone"}
    demo_office.api("/me/blockouts", email=MUSICIAN, method="POST", body=body)
    page = signed_in(MUSICIAN, PHONE)
    page.goto(demo_office.url("/my/blockouts"))
    expect(listed(page).first).to_be_visible()
    expect(page.get_by_text("Long gone")).to_be_hidden()
    page.get_by_text("Past blockouts").click()
    past = page.get_by_role("list", name="Your past blockouts").get_by_role("listitem").filter(has_text="Long gone")
    expect(past).to_contain_text("2 days")
    expect(past.get_by_role("button")).to_have_count(0)
