"""SPEC §12, screens 4 and 5 of the office console on the served demo office in Chromium: People (staff members and
contacts, searched and paged; a staff member's fields edited in place, roles, pay rates, blockouts, upcoming gigs,
calendar link; a contact) and Pay (the period's pay sheet, a member's gigs, print, the CSV made in the browser);
journeys 5 and 6; axe on each screen at a desktop's and a phone's width; hostile strings shown as text."""

import csv
import datetime as dt
import io
import re
import urllib.parse
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.support import console, pages
from tests.support.console import DESKTOP, PHONE, serious_accessibility_violations

pytestmark = pytest.mark.browser

demo_office, signed_in = console.demo_office, console.signed_in
HOSTILE = "<img src=x onerror=alert(1)>"
RTL = "\u202eevil"
# an amount, not a date in the office's style (26.09.2025) nor a currency in one cell and a date in the next
MONEY_RE = re.compile(r"(€|EUR|\$|£)[ \u00a0]?\d|\d[ \u00a0]?(€|EUR)|\b\d+[.,]\d{2}\b(?![.,/]\d)")
NO_PAY_EMAIL = "office-no-pay@band.example"


def last_month():
    first_of_this = dt.date.today().replace(day=1)
    last = first_of_this - dt.timedelta(days=1)
    return last.replace(day=1).isoformat(), last.isoformat()


def member_named(office, last_name):
    return office.api(f"/staff-members?filter[last_name]={urllib.parse.quote(last_name)}")["data"][0]


def open_section(page, title):
    page.locator("summary", has_text=title).click()


# --- People -----------------------------------------------------------------------------------------------------


def test_people_lists_staff_members_and_contacts_and_searches_both(demo_office, signed_in):
    page = signed_in()
    page.goto(demo_office.url("/people"))
    staff = demo_office.api("/staff-members?limit=1")["meta"]["total"]
    contacts = demo_office.api("/contacts?limit=1")["meta"]["total"]
    expect(page.get_by_role("heading", name=f"Staff members ({staff})")).to_be_visible()
    expect(page.get_by_role("heading", name=f"Contacts ({contacts})")).to_be_visible()
    page.get_by_label("Find people").fill("Hofer")
    page.get_by_role("button", name="Search").click()
    expect(page).to_have_url(re.compile(r"/people\?q=Hofer$"))
    expect(page.get_by_role("heading", name="Staff members (1)")).to_be_visible()
    page.get_by_role("link", name="Lena Hofer").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Lena Hofer")
    page.go_back()
    expect(page.get_by_label("Find people")).to_have_value("Hofer")


def test_a_staff_member_s_field_is_edited_in_place_and_a_refusal_stays_at_the_field(demo_office, signed_in):
    member = member_named(demo_office, "Hofer")
    page = signed_in()
    page.goto(demo_office.url(f"/people/staff-members/{member['id']}"))
    page.get_by_role("button", name=re.compile(r"^Phone ")).click()
    page.get_by_label("Phone").fill("+43 1 234")
    page.keyboard.press("Escape")
    expect(page.get_by_role("button", name=re.compile(r"^Phone "))).to_be_visible()
    assert demo_office.api(f"/staff-members/{member['id']}")["data"]["phone"] == member["phone"]
    page.get_by_role("button", name=re.compile(r"^Phone ")).focus()
    page.keyboard.press("Enter")
    page.get_by_label("Phone").fill("+43 1 234")
    page.keyboard.press("Enter")
    expect(page.get_by_role("button", name="Phone +43 1 234")).to_be_visible()
    assert demo_office.api(f"/staff-members/{member['id']}")["data"]["phone"] == "+43 1 234"
    page.get_by_role("button", name=re.compile(r"^E-mail ")).click()
    page.get_by_label("E-mail").fill("not an address")
    page.keyboard.press("Enter")
    expect(page.locator(".field-error")).to_be_visible()
    expect(page.get_by_label("E-mail")).to_have_value("not an address")
    expect(page.get_by_label("E-mail")).to_have_attribute("aria-invalid", "true")
    assert demo_office.api(f"/staff-members/{member['id']}")["data"]["email"] == member["email"]


def test_a_contact_s_language_is_chosen_in_place_and_names_the_language(demo_office, signed_in):
    """The language the client reads (their mails, documents and page, SPEC §16), picked from those they may read."""
    contact = demo_office.api("/contacts", method="POST", body={"first_name": "Anna", "language": "en"})["data"]
    page = signed_in()
    page.goto(demo_office.url(f"/people/contacts/{contact['id']}"))
    page.get_by_role("button", name="Language English").click()
    page.get_by_label("Language").select_option(label="German")
    page.keyboard.press("Enter")
    expect(page.get_by_role("button", name="Language German")).to_be_visible()
    assert demo_office.api(f"/contacts/{contact['id']}")["data"]["language"] == "de"


def test_a_staff_member_s_page_shows_roles_rates_upcoming_gigs_and_blockouts_are_added_and_removed(
    demo_office, signed_in
):
    member = member_named(demo_office, "Hofer")
    page = signed_in()
    page.goto(demo_office.url(f"/people/staff-members/{member['id']}"))
    roles = demo_office.api(f"/staff-member-roles?filter[staff_member_id]={member['id']}&expand=role")["data"]
    for held in roles:
        expect(page.get_by_role("region", name="Roles")).to_contain_text(held["role"]["name"])
    upcoming = demo_office.api(
        f"/gig-roles?filter[staff_member_id]={member['id']}&filter[gig.gig_date][gte]={dt.date.today()}"
        "&expand=gig&sort=gig.gig_date&limit=1"
    )["data"]
    assert upcoming  # the demo's singer has gigs ahead
    gig = upcoming[0]["gig"]
    expect(page.locator(f'a[href="/gigs/{gig["id"]}"]').first).to_contain_text(gig["title"])  # titles repeat
    open_section(page, "Pay rates")
    expect(page.locator("#pay-rates")).not_to_contain_text("Loading")
    open_section(page, "Blockouts")
    day = (dt.date.today() + dt.timedelta(days=300)).isoformat()
    form = page.locator("form.add-blockout")
    form.get_by_label("From").fill(day)
    form.get_by_label("Reason").fill("Sabbatical day")
    form.get_by_role("button", name="Add").click()
    row = page.locator(".blockouts li", has_text="Sabbatical day")
    expect(row).to_be_visible()
    theirs = demo_office.api(f"/staff-member-blockouts?filter[staff_member_id]={member['id']}&filter[start_date]={day}")
    assert [(b["start_date"], b["end_date"], b["reason"]) for b in theirs["data"]] == [(day, day, "Sabbatical day")]
    row.get_by_role("button", name=re.compile("^Remove")).click()
    expect(row).to_have_count(0)
    end = (dt.date.today() + dt.timedelta(days=303)).isoformat()
    form.get_by_label("From").fill(day)
    form.get_by_label("To (empty: one day)").fill(end)
    form.get_by_label("Reason").fill("Tour")
    form.get_by_role("button", name="Add").click()
    expect(page.locator(".blockouts li", has_text="Tour")).to_contain_text(" – ")
    ranges = demo_office.api(f"/staff-member-blockouts?filter[staff_member_id]={member['id']}&filter[start_date]={day}")
    assert [(b["start_date"], b["end_date"]) for b in ranges["data"]] == [(day, end)]
    page.locator(".blockouts li", has_text="Tour").get_by_role("button", name=re.compile("^Remove")).click()
    expect(page.locator(".blockouts li", has_text="Tour")).to_have_count(0)
    theirs = demo_office.api(f"/staff-member-blockouts?filter[staff_member_id]={member['id']}&filter[start_date]={day}")
    assert theirs["data"] == []


def test_a_staff_member_s_calendar_link_is_shown_and_rotated_after_a_confirmation(demo_office, signed_in):
    member = member_named(demo_office, "Hofer")
    before = demo_office.api(f"/staff-members/{member['id']}/calendar-url")["data"]["url"]
    page = signed_in()
    page.goto(demo_office.url(f"/people/staff-members/{member['id']}"))
    open_section(page, "Calendar link")
    expect(page.get_by_label("Calendar address")).to_have_value(before)
    page.once("dialog", lambda dialog: dialog.dismiss())
    page.get_by_role("button", name="New address…").click()
    assert demo_office.api(f"/staff-members/{member['id']}/calendar-url")["data"]["url"] == before
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="New address…").click()
    expect(page.get_by_label("Calendar address")).not_to_have_value(before)
    after = demo_office.api(f"/staff-members/{member['id']}/calendar-url")["data"]["url"]
    expect(page.get_by_label("Calendar address")).to_have_value(after)


def test_hostile_strings_show_as_text_on_people_screens(demo_office, signed_in):
    long = "Long " * 1000
    member = demo_office.api(
        "/staff-members",
        method="POST",
        body={"first_name": HOSTILE, "last_name": RTL, "notes": long.strip(), "phone": HOSTILE[:50]},
    )["data"]
    day = (dt.date.today() + dt.timedelta(days=200)).isoformat()
    demo_office.api(
        "/staff-member-blockouts",
        method="POST",
        body={"staff_member_id": member["id"], "start_date": day, "end_date": day, "reason": HOSTILE},
    )
    contact = demo_office.api(
        "/contacts", method="POST", body={"first_name": HOSTILE, "company": RTL, "notes": HOSTILE}
    )["data"]
    page = signed_in(viewport=PHONE)
    page.on("dialog", lambda dialog: pytest.fail(f"a dialog opened: {dialog.message}"))
    page.goto(demo_office.url(f"/people/staff-members/{member['id']}"))
    expect(page.get_by_role("heading", level=1)).to_have_text(f"{HOSTILE} {RTL}")
    open_section(page, "Blockouts")
    expect(page.locator(".blockouts")).to_contain_text(HOSTILE)
    assert page.locator("main img").count() == 0
    notes = page.get_by_role("button", name=re.compile(r"^Notes "))
    expect(notes).to_contain_text(long.strip()[:200])
    assert notes.bounding_box()["width"] <= PHONE["width"]
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    page.goto(demo_office.url(f"/people/contacts/{contact['id']}"))
    expect(page.get_by_role("heading", level=1)).to_have_text(HOSTILE)
    expect(page.locator("main")).to_contain_text(RTL)
    page.goto(demo_office.url("/people?q=img"))
    expect(page.get_by_role("link", name=f"{HOSTILE} {RTL}")).to_be_visible()
    assert page.locator("main img").count() == 0


# --- each screen: axe at both widths, screenshots --------------------------------------------------------------


def screens_of(office):
    member = member_named(office, "Hofer")
    contact = office.api("/contacts?limit=1")["data"][0]
    first, last = last_month()
    paid = office.api(f"/pay-sheet?from={first}&to={last}&limit=1")["data"]
    drill = f"&member={paid[0]['staff_member_id']}" if paid else ""
    return [
        ("people", "/people", [], "People"),
        ("staff-member", f"/people/staff-members/{member['id']}", ["Pay rates", "Blockouts", "Calendar link"], None),
        ("contact", f"/people/contacts/{contact['id']}", [], None),
        ("pay", f"/pay?from={first}&to={last}{drill}", [], "Pay sheet"),
    ]


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_each_screen_passes_axe_at_both_widths(demo_office, signed_in, viewport):
    page = signed_in(viewport=viewport)
    for name, path, sections, heading in screens_of(demo_office):
        console.show(page, demo_office.url(path))
        if heading:
            expect(page.get_by_role("heading", level=1)).to_have_text(heading)
        expect(page.locator("main .loading")).to_have_count(0)
        for title in sections:
            open_section(page, title)
        expect(page.locator("main .loading")).to_have_count(0)
        assert serious_accessibility_violations(page) == [], name
        assert page.evaluate("() => document.documentElement.scrollWidth") <= viewport["width"], name
        pages.picture_at_width(page, name)


# --- journeys 5 and 6 -------------------------------------------------------------------------------------------


def formatted(page, cents, currency):
    return page.evaluate(
        "([cents, currency]) => new Intl.NumberFormat(undefined, {style: 'currency', currency}).format(cents / 100)",
        [cents, currency],
    )


def test_journey_5_last_month_s_pay_sheet_matches_the_api_and_downloads_as_csv(demo_office, signed_in):
    first, last = last_month()
    paid = demo_office.api(f"/pay-sheet?from={first}&to={last}&limit=1")["data"]
    assert paid, "the demo has pay last month"
    demo_office.api(
        f"/staff-members/{paid[0]['staff_member_id']}",
        method="PATCH",
        body={"first_name": '=HYPERLINK("http://x.example","y")', "last_name": '@Sum, "Quoted"'},
    )
    sheet = demo_office.api(f"/pay-sheet?from={first}&to={last}&limit=200")
    currency = sheet["meta"]["currency"]
    page = signed_in()
    page.goto(demo_office.url("/pay"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Pay sheet")
    expect(page.get_by_label("From", exact=True)).to_have_value(first)
    expect(page.get_by_label("To", exact=True)).to_have_value(last)
    rows = page.locator("table.period-pay-sheet tbody tr")
    expect(rows).to_have_count(len(sheet["data"]))
    shown = [
        [cell.strip() for cell in row]
        for row in rows.evaluate_all(
            "rows => rows.map(row => [...row.querySelectorAll('th, td')].slice(0, 3).map(cell => cell.textContent))"
        )
    ]
    expected = [
        [f"{line['first_name']} {line['last_name']}", str(line["gigs"]), formatted(page, line["total_cents"], currency)]
        for line in sheet["data"]
    ]
    assert shown == expected
    total = sum(line["total_cents"] for line in sheet["data"])
    expect(page.locator(".sheet-total")).to_have_text(formatted(page, total, currency))

    with page.expect_download() as download_info:
        page.get_by_role("button", name="Download CSV").click()
    download = download_info.value
    assert download.suggested_filename == f"pay-sheet-{first}-to-{last}.csv"
    text = Path(download.path()).read_text(encoding="utf-8-sig")
    table = list(csv.reader(io.StringIO(text)))
    assert table[0] == ["Last name", "First name", "Gigs", "Total", "Currency"]
    lines = {(line["last_name"], line["first_name"]): line for line in sheet["data"]}
    assert ['\'@Sum, "Quoted"', '\'=HYPERLINK("http://x.example","y")'] in [row[:2] for row in table[1:-1]]
    unquoted = [[cell[1:] if cell[:2] in ("'=", "'@", "'+", "'-") else cell for cell in row] for row in table[1:-1]]
    assert [(row[2], row[3], row[4]) for row in unquoted] == [
        (str(lines[(row[0], row[1])]["gigs"]), f"{lines[(row[0], row[1])]['total_cents'] / 100:.2f}", currency)
        for row in unquoted
    ]
    assert len(unquoted) == len(sheet["data"])
    assert table[-1] == ["Total", "", "", f"{total / 100:.2f}", currency]

    # a member's gigs in the period: their lines add up to their total
    member = sheet["data"][0]
    page.get_by_role("link", name=f"Show the gigs of {member['first_name']} {member['last_name']}").click()
    expect(page).to_have_url(re.compile(f"member={member['staff_member_id']}"))
    theirs = demo_office.api(f"/staff-members/{member['staff_member_id']}/pay-sheet?from={first}&to={last}")
    assert theirs["meta"]["total_cents"] == member["total_cents"]
    expect(page.locator(".pay-lines li")).to_have_count(theirs["meta"]["total"])
    for line in theirs["data"]:
        expect(page.locator(".pay-lines")).to_contain_text(formatted(page, line["amount_cents"], currency))

    # printed: the sheet alone
    page.emulate_media(media="print")
    for hidden in (".menu", ".topbar", "form.period", "text=Download CSV"):
        expect(page.locator(hidden)).to_be_hidden()
    expect(page.locator("table.period-pay-sheet")).to_be_visible()
    pages.picture_at_width(page, "pay-print")
    page.emulate_media(media="screen")


@pytest.fixture(scope="module")
def no_pay_email(demo_office):
    """An office user whose access role holds everything the shipped office role does but pay."""
    groups = ("gigs", "catalog", "staffing", "production", "people")
    grants = [f"{group}.*" for group in groups]
    demo_office.api("/access-roles", method="POST", body={"name": "office-no-pay", "grants": grants})
    demo_office.api(
        "/users", method="POST", body={"email": NO_PAY_EMAIL, "name": "Nora Nopay", "roles": ["office-no-pay"]}
    )
    return NO_PAY_EMAIL


def pages_to_walk(office):
    """Every screen of the console (this branch's and the merged ones'), as (path, sections to open, clicks)."""
    member = member_named(office, "Hofer")
    contact = office.api("/contacts?limit=1")["data"][0]
    gig = office.api(f"/gigs?filter[gig_date][gte]={dt.date.today()}&filter[open_role_count][gt]=0&limit=1")["data"][0]
    tabs = ["overview", "run-sheet", "staffing", "pay", "equipment", "files", "history"]
    return [
        ("/agenda", [], []),
        ("/agenda?view=grid", [], []),
        ("/people", [], []),
        (f"/people/staff-members/{member['id']}", ["Blockouts", "Calendar link"], []),
        (f"/people/contacts/{contact['id']}", [], []),
        *[(f"/gigs/{gig['id']}?tab={tab}", [], []) for tab in tabs],
        (f"/gigs/{gig['id']}?tab=staffing", [], ["Find someone for"]),
        ("/staffing", [], ["Find someone for"]),
        ("/records/rates", [], []),
        ("/records/staff-member-product-rates", [], []),
        ("/records/gig-roles", [], []),
        ("/records/gig-role-invitations", [], []),
        ("/records/prices", [], []),
        ("/records/gig-products", [], []),
        ("/pay", [], []),
    ]


def prices_shown_to_anyone(office, page):
    """The catalog's prices and the gigs' product prices as the console shows them: amounts that are not pay."""
    amounts = set()
    for path, field in (("/prices?limit=200", "amount_cents"), ("/gig-products?limit=200", "price_cents")):
        for record in office.api(path)["data"]:
            if record.get(field) is not None:
                amounts.add(formatted(page, record[field], record.get("currency") or "EUR"))
                amounts.add(f"{record[field] / 100:.2f}")
    return sorted(amounts, key=len, reverse=True)


def test_journey_6_an_office_user_without_pay_view_sees_no_amount_and_no_pay_menu(demo_office, signed_in, no_pay_email):
    assert demo_office.api("/me", email=no_pay_email)["data"]["can"]["pay.view"] is False
    page = signed_in(no_pay_email)
    page.goto(demo_office.url("/people"))
    expect(page.get_by_role("heading", level=1)).to_have_text("People")
    expect(page.locator(".menu").get_by_role("link", name="People")).to_be_visible()
    expect(page.locator(".menu").get_by_role("link", name="Pay")).to_have_count(0)
    prices = prices_shown_to_anyone(demo_office, page)
    walked = []
    for path, sections, clicks in pages_to_walk(demo_office):
        console.show(page, demo_office.url(path))
        expect(page.locator("main h1")).to_be_visible()
        page.wait_for_load_state("networkidle")
        expect(page.locator("main .loading")).to_have_count(0)
        for title in sections:
            open_section(page, title)
        for name in clicks:
            buttons = page.get_by_role("button", name=re.compile(f"^{name}"))
            if buttons.count():
                buttons.first.click()
                page.wait_for_load_state("networkidle")
        expect(page.locator("main .loading")).to_have_count(0)
        text = page.locator("main").inner_text()
        for price in prices:  # what clients pay is not pay: the gig page and the records show it to the office
            text = text.replace(price, "")
        assert not MONEY_RE.search(text), (path, MONEY_RE.search(text))
        assert page.locator("summary", has_text="Pay rates").count() == 0
        walked.append((path, page.locator("main h1").inner_text()))
    print(walked)


def test_each_screen_costs_at_most_three_api_calls(demo_office, signed_in):
    page = signed_in()
    calls = []
    page.on("request", lambda request: calls.append(urllib.parse.urlsplit(request.url).path))
    shell = ("/v1/me", "/v1/office", "/v1/events")  # /office: the office's settings, to write money and dates
    for name, path, _, _ in screens_of(demo_office):
        calls.clear()
        page.goto(demo_office.url(path.split("&member=")[0]))  # a member's gigs are asked for when opened
        page.wait_for_load_state("networkidle")
        expect(page.locator("main .loading")).to_have_count(0)
        api_calls = [call for call in calls if call.startswith("/v1/") and call not in shell]
        assert 1 <= len(api_calls) <= 3, (name, api_calls)


def test_a_staff_member_s_page_shows_another_person_s_change_within_30_seconds(demo_office, signed_in):
    member = member_named(demo_office, "Auer")
    page = signed_in()
    page.goto(demo_office.url(f"/people/staff-members/{member['id']}"))
    expect(page.get_by_role("button", name=re.compile(r"^Phone "))).to_be_visible()
    demo_office.api(
        f"/staff-members/{member['id']}", email="office@band.example", method="PATCH", body={"phone": "+43 999"}
    )
    expect(page.get_by_role("button", name="Phone +43 999")).to_be_visible(timeout=30000)
