"""SPEC §12, screen 1: the agenda, the office's home, in Debian's Chromium on the served demo office. Journey 1
(sign in from the mailed link, then this month's gigs with their open-role badges); the list and the month grid;
filters by the office's statuses, type and search kept in the URL (back restores the one before); the next 30 days
with open roles in one click; badges equal to the API's counts and linked to the gig's staffing; one API call a month;
axe at a desktop's and a phone's width; hostile titles shown as text; month navigation and the toggle by keyboard.
"""

import collections
import concurrent.futures
import datetime as dt
import re
import urllib.parse

import pytest
from playwright.sync_api import expect

from tests.support import console
from tests.support.console import DESKTOP, PHONE, DemoOffice, open_context, serious_accessibility_violations
from tests.support.mail import mailed_signin_link

pytestmark = pytest.mark.browser
signed_in = console.signed_in
HOSTILE = "<img src=x onerror=alert(1)> \u202eAda's party"
LONG = "Gala " + "x" * 195  # a title is at most 200 characters
FIELDS = "id,title,gig_date,open_role_count,pending_invitation_count"


@pytest.fixture(scope="module")
def demo_office(tmp_path_factory):
    """The demo office, its mail written to files (journey 1 signs in from the mailed link)."""
    tmp = tmp_path_factory.mktemp("agenda")
    office = DemoOffice(tmp, BAND_MAIL_URL=f"file:{tmp / 'mail'}")
    office.mail = tmp / "mail"
    yield office
    office.service.stop()


def month_of(day):
    return day.strftime("%Y-%m")


def bounds(month):
    first = dt.date.fromisoformat(f"{month}-01")
    last = (first + dt.timedelta(days=32)).replace(day=1) - dt.timedelta(days=1)
    return first.isoformat(), last.isoformat()


def gigs_of(office, month=None, first=None, last=None, **filters):
    """The API's gigs of a month (or from `first` to `last`) with `filters`, in the agenda's order."""
    if month:
        first, last = bounds(month)
    query = {"filter[gig_date][gte]": first, "filter[gig_date][lte]": last, "limit": 200, "fields": FIELDS}
    query["sort"] = "gig_date,start_time,title"
    return office.api("/gigs?" + urllib.parse.urlencode({**query, **filters}))["data"]


def busiest_month(office):
    """The month of the coming year with the most demo gigs."""
    today = dt.date.today()
    gigs = gigs_of(office, first=today.isoformat(), last=(today + dt.timedelta(days=365)).isoformat())
    return collections.Counter(gig["gig_date"][:7] for gig in gigs).most_common(1)[0][0]


def titles(page):
    return page.locator(".gig-row .gig-title").all_inner_texts()


def row_of(page, gig):
    return page.locator(".gig-row").filter(has=page.locator(f'a[href="/gigs/{gig["id"]}"]'))


def assert_badges_are_the_api_s(page, gigs):
    for gig in gigs:
        row = row_of(page, gig)
        for kind, count in (("open-roles", gig["open_role_count"]), ("pending", gig["pending_invitation_count"])):
            badge = row.locator(f".badge.{kind}")
            if count:
                expect(badge).to_have_attribute("data-count", str(count))
                expect(badge).to_have_attribute("href", f"/gigs/{gig['id']}?tab=staffing")
            else:
                expect(badge).to_have_count(0)


def open_a_role_this_month(office):
    """A gig of this month with an open role: a musician of the last one drops out, if none has one yet."""
    gigs = gigs_of(office, month_of(dt.date.today()))
    if not any(gig["open_role_count"] for gig in gigs):
        roles = office.api(f"/gig-roles?filter[gig_id]={gigs[-1]['id']}&filter[status]=filled&limit=1")["data"]
        office.api(f"/gig-roles/{roles[0]['id']}", method="PATCH", body={"staff_member_id": None})


def test_journey_1_sign_in_from_the_mailed_link_shows_this_month_s_gigs_with_their_open_role_badges(
    demo_office, browser
):
    open_a_role_this_month(demo_office)
    status, _, _ = demo_office.service.request(
        "POST", "/auth/link", b'{"email": "office@band.example"}', {"Content-Type": "application/json"}
    )
    assert status == 200
    context = open_context(browser)
    try:
        page = context.new_page()
        page.goto(mailed_signin_link(demo_office.mail, "office@band.example"))
        page.get_by_role("button", name="Sign in", exact=True).click()
        expect(page).to_have_url(re.compile(r"/agenda$"))
        expect(page.get_by_role("heading", level=1)).to_have_text(dt.date.today().strftime("%B %Y"))
        gigs = gigs_of(demo_office, month_of(dt.date.today()))
        expect(page.locator(".gig-row .gig-title")).to_have_text([gig["title"] for gig in gigs])
        assert any(gig["open_role_count"] for gig in gigs)
        assert_badges_are_the_api_s(page, gigs)
    finally:
        context.close()
    assert context.problems.unexpected() == []


def test_the_month_shows_as_a_list_or_a_grid_kept_in_the_url(demo_office, signed_in):
    month = busiest_month(demo_office)
    gigs = gigs_of(demo_office, month)
    page = signed_in()
    page.goto(demo_office.url(f"/agenda?month={month}"))
    expect(page.locator(".gig-row .gig-title")).to_have_text([gig["title"] for gig in gigs])
    page.get_by_role("navigation", name="View").get_by_role("link", name="Month").click()
    expect(page).to_have_url(re.compile(rf"/agenda\?month={month}&view=grid$"))
    grid = page.get_by_role("table")
    expect(grid.locator("td.day")).to_have_count(int(bounds(month)[1][-2:]))
    expect(grid.locator(".day-gig .gig-title")).to_have_count(len(gigs))
    for gig in gigs:
        day = grid.locator("td.day").nth(int(gig["gig_date"][-2:]) - 1)
        expect(day.get_by_role("link", name=re.compile(re.escape(gig["title"])))).to_have_count(1)
    page.reload()
    expect(page.get_by_role("table")).to_be_visible()
    page.go_back()
    expect(page.locator(".gig-row")).to_have_count(len(gigs))
    assert serious_accessibility_violations(page) == []


def test_filters_change_the_url_and_back_restores_the_one_before(demo_office, signed_in):
    month = busiest_month(demo_office)
    page = signed_in()
    page.goto(demo_office.url(f"/agenda?month={month}"))
    expect(page.locator(".gig-row")).to_have_count(len(gigs_of(demo_office, month)))
    statuses = demo_office.api("/gig-statuses?sort=position")["data"]
    shown = page.get_by_label("Status").locator("option")
    expect(shown).to_have_text(["Any status", *[status["name"] for status in statuses]])  # the office's own words
    status = next(status["id"] for status in statuses if status["kind"] == "confirmed")
    page.get_by_label("Status").select_option(label="Confirmed")
    expect(page).to_have_url(re.compile(rf"status={status}"))
    confirmed = gigs_of(demo_office, month, **{"filter[gig_status_id]": status})
    expect(page.locator(".gig-row .gig-title")).to_have_text([gig["title"] for gig in confirmed])
    wedding = demo_office.api("/gig-types?filter[name]=Wedding")["data"][0]["id"]
    page.get_by_label("Type").select_option(label="Wedding")
    expect(page).to_have_url(re.compile(rf"status={status}&type={wedding}"))
    weddings = gigs_of(demo_office, month, **{"filter[gig_status_id]": status, "filter[gig_type_id]": wedding})
    expect(page.locator(".gig-row .gig-title")).to_have_text([gig["title"] for gig in weddings])
    word = confirmed[0]["title"].split()[0].strip("'&")
    page.get_by_label("Find").fill(word)
    page.get_by_label("Find").press("Enter")
    expect(page).to_have_url(re.compile(rf"q={urllib.parse.quote_plus(word)}"))
    found = gigs_of(demo_office, month, q=word, **{"filter[gig_status_id]": status, "filter[gig_type_id]": wedding})
    expect(page.locator(".gig-row .gig-title, .empty")).to_have_text([g["title"] for g in found] or [re.compile("No")])
    page.go_back()
    expect(page.get_by_label("Find")).to_have_value("")
    expect(page.locator(".gig-row .gig-title")).to_have_text([gig["title"] for gig in weddings])
    page.go_back()
    expect(page.get_by_label("Type")).to_have_value("")
    expect(page.locator(".gig-row .gig-title")).to_have_text([gig["title"] for gig in confirmed])
    page.get_by_label("Open roles only").check()
    expect(page).to_have_url(re.compile(rf"status={status}&open=1"))
    open_ones = gigs_of(demo_office, month, **{"filter[gig_status_id]": status, "filter[open_role_count][gt]": 0})
    expect(page.locator(".gig-row .gig-title, .empty")).to_have_text(
        [g["title"] for g in open_ones] or [re.compile("No")]
    )


def test_the_next_30_days_with_open_roles_are_one_click_away_with_the_api_s_badges(demo_office, signed_in):
    page = signed_in()
    page.goto(demo_office.url("/agenda"))
    page.get_by_role("link", name="Next 30 days with open roles").click()
    expect(page).to_have_url(re.compile(r"/agenda\?days=30&open=1$"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Next 30 days with open roles")
    today = dt.date.today()
    upcoming = gigs_of(
        demo_office,
        first=today.isoformat(),
        last=(today + dt.timedelta(days=29)).isoformat(),
        **{"filter[open_role_count][gt]": 0},
    )
    expect(page.locator(".gig-row .gig-title, .empty")).to_have_text(
        [g["title"] for g in upcoming] or [re.compile("No")]
    )
    assert_badges_are_the_api_s(page, upcoming)
    month = busiest_month(demo_office)
    page.goto(demo_office.url(f"/agenda?month={month}"))
    gigs = gigs_of(demo_office, month)
    expect(page.locator(".gig-row")).to_have_count(len(gigs))
    assert_badges_are_the_api_s(page, gigs)
    badge = page.locator(".badge.open-roles").first
    href = badge.get_attribute("href")
    badge.click()
    expect(page).to_have_url(demo_office.url(href))


def test_a_month_costs_one_api_call(demo_office, signed_in):
    page = signed_in()
    page.goto(demo_office.url("/agenda?view=grid"))
    expect(page.get_by_role("table")).to_be_visible()
    asked = []
    page.on("request", lambda request: "/v1/" in request.url and asked.append(request.url))
    page.get_by_role("link", name=re.compile("^Next month")).click()
    expect(page.get_by_role("table")).to_be_visible()
    page.wait_for_load_state("networkidle")
    assert len(asked) == 1 and "/v1/gigs?" in asked[0], asked


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_list_and_grid_pass_axe(demo_office, signed_in, viewport):
    month = busiest_month(demo_office)
    page = signed_in(viewport=viewport)
    page.goto(demo_office.url(f"/agenda?month={month}"))
    expect(page.locator(".gig-row").first).to_be_visible()
    assert serious_accessibility_violations(page) == []
    page.goto(demo_office.url(f"/agenda?month={month}&view=grid"))
    expect(page.get_by_role("table")).to_be_visible()
    assert serious_accessibility_violations(page) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]


def test_hostile_titles_and_venues_render_as_text(demo_office, signed_in):
    day = (dt.date.today().replace(day=1) + dt.timedelta(days=800)).replace(day=10)
    venue = demo_office.api("/venues", method="POST", body={"name": HOSTILE})["data"]
    for title in (HOSTILE, LONG):
        demo_office.api(
            "/gigs", method="POST", body={"gig_date": day.isoformat(), "title": title, "venue_id": venue["id"]}
        )
    page = signed_in()
    for view in ("list", "grid"):
        page.goto(demo_office.url(f"/agenda?month={month_of(day)}&view={view}"))
        shown = page.locator(".gig-title > bdi").filter(has_text="onerror")
        expect(shown).to_have_text(HOSTILE)
        expect(page.locator(".gig-title > bdi").filter(has_text="xxxx")).to_have_text(LONG)
        assert page.locator("main img").count() == 0
        assert page.evaluate("document.documentElement.scrollWidth") <= DESKTOP["width"]
    page.goto(demo_office.url(f"/agenda?month={month_of(day)}"))
    expect(page.locator(".gig-place").first).to_contain_text(HOSTILE)


def test_month_navigation_and_the_toggle_work_with_the_keyboard(demo_office, signed_in):
    page = signed_in()
    page.goto(demo_office.url("/agenda"))
    this_month = dt.date.today().strftime("%B %Y")
    heading = page.get_by_role("heading", level=1)
    expect(heading).to_have_text(this_month)
    heading.click()  # where Tab starts from
    page.keyboard.press("Tab")
    expect(page.get_by_role("link", name=re.compile("^Previous month"))).to_be_focused()
    page.keyboard.press("Enter")
    before = (dt.date.today().replace(day=1) - dt.timedelta(days=1)).strftime("%B %Y")
    expect(heading).to_have_text(before)
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")  # Today
    expect(heading).to_have_text(this_month)
    for _ in range(3):  # Next month, List, Month
        page.keyboard.press("Tab")
    expect(page.get_by_role("navigation", name="View").get_by_role("link", name="Month")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.get_by_role("table")).to_be_visible()
    expect(page).to_have_url(re.compile(r"view=grid"))


def test_a_month_of_more_than_a_page_shows_the_first_200_and_the_rest_on_asking(demo_office, signed_in):
    day = (dt.date.today().replace(day=1) + dt.timedelta(days=1000)).replace(day=5)
    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        bodies = [{"gig_date": day.isoformat(), "title": f"Busy day {n:03}"} for n in range(205)]
        made = [pool.submit(demo_office.api, "/gigs", method="POST", body=body) for body in bodies]
        assert all(future.result()["data"]["id"] for future in made)
    page = signed_in()
    page.goto(demo_office.url(f"/agenda?month={month_of(day)}"))
    expect(page.locator(".gig-row")).to_have_count(200)
    expect(page.locator(".more")).to_contain_text("200 of 205 gigs shown")
    page.get_by_role("button", name="Show more").click()
    expect(page.locator(".gig-row")).to_have_count(205)
    expect(page.locator(".gig-row .gig-title").last).to_have_text("Busy day 204")
    expect(page.locator(".more")).to_have_count(0)
