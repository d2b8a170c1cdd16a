"""SPEC §12.1 in Debian's Chromium on the served demo office: every screen, for every kind of user, at 360 px wide
and on a desktop: no console error at all (not even a 4xx the console asked for and expected, such as a 404 of
/me/staff-member for an office user no member is linked to), and no page wider than the screen."""

import re

import pytest
from playwright.sync_api import expect

from tests.support import console
from tests.support.console import DESKTOP, open_context
from tests.support.waiting import wait_for

demo_office = console.demo_office
pytestmark = pytest.mark.browser

NARROW = {"width": 360, "height": 740}
USERS = ["admin@band.example", "office@band.example", "staff@band.example", "crew@band.example", "viewer@band.example"]
FAR_AWAY = "from=2090-01-01&to=2090-01-31"  # a period with no gigs
MY_PAGES = ["/my", "/my/pay", f"/my/pay?{FAR_AWAY}", "/my/blockouts", "/my/calendar", "/my/inbox", "/my/settings"]
GIG_TABS = ["overview", "run-sheet", "staffing", "pay", "equipment", "files", "history"]


def first_id(office, path, email="admin@band.example"):
    return office.api(f"{path}{'&' if '?' in path else '?'}limit=1", email)["data"][0]["id"]


def office_pages(office, menu):
    """The office's screens a user whose menu is `menu` (the paths of its links) reaches, with a record of each."""
    pages = [path for path in menu if not path.startswith("/my")]
    if "/agenda" in menu:
        gig = first_id(office, "/gigs?sort=-gig_date")
        pages += [f"/gigs/{gig}?tab={tab}" for tab in GIG_TABS] + ["/gigs/new"]
    if "/people" in menu:
        pages += [
            f"/people/staff-members/{first_id(office, '/staff-members')}",
            f"/people/contacts/{first_id(office, '/contacts')}",
        ]
    if "/records" in menu:
        pages += ["/records/prices", f"/records/prices/{first_id(office, '/prices')}", "/records/teams/new"]
    if "/admin" in menu:
        pages += ["/admin/api-keys", "/admin/letterhead", "/admin/webhooks", "/admin/notifications", "/records/users"]
    if "/pay" in menu:
        pages += [f"/pay?{FAR_AWAY}"]
    return pages


def my_pages(office, email):
    gig = office.api("/me/gigs?limit=1", email)["data"]
    invitation = office.api("/me/invitations?limit=1", email)["data"]
    extra = [f"/my/gigs/{gig[0]['gig']['id'] if 'gig' in gig[0] else gig[0]['id']}"] if gig else []
    return MY_PAGES + extra + ([f"/my/invitations/{invitation[0]['id']}"] if invitation else [])


def drawn(page):
    """Once the screen has its heading and nothing still says it is loading."""
    expect(page.get_by_role("heading", level=1).first).to_be_visible()
    wait_for(lambda: page.locator(".loading:visible").count() == 0)


@pytest.mark.parametrize("email", USERS, ids=[email.split("@")[0] for email in USERS])
def test_every_screen_fits_360_px_and_logs_no_console_error(demo_office, browser, email):
    context = open_context(browser, demo_office.keys[email], email, NARROW)
    errors = []
    context.on("console", lambda message: message.type == "error" and errors.append((message.page.url, message.text)))
    failed = []  # what each "Failed to load resource" was
    context.on("response", lambda answer: answer.status >= 400 and failed.append((answer.status, answer.url)))
    # "This phone" asks for the office's Web Push key, which an office without Web Push answers with a 404 (push's own
    # endpoint: /my/settings says so in words, but the browser logs the 404)
    errors_of = lambda: [one for one in errors if not one[0].endswith("/my/settings")]
    page = context.new_page()
    try:
        page.goto(demo_office.url("/"))
        drawn(page)
        menu = page.locator("#menu a:not(.brand)").evaluate_all("(links) => links.map((a) => a.getAttribute('href'))")
        paths = office_pages(demo_office, menu) + (my_pages(demo_office, email) if "/my" in menu else [])
        wide = {}
        for path in paths:
            console.show(page, demo_office.url(path))
            drawn(page)
            width = page.evaluate("document.documentElement.scrollWidth")
            if width > NARROW["width"]:
                wide[path] = width
        assert wide == {}
        assert (errors_of(), [one for one in failed if not one[1].endswith("/v1/push/web-key")]) == ([], [])
        assert context.problems.unexpected() == []
    finally:
        context.close()


def test_an_office_user_with_no_linked_member_never_asks_for_their_own_member(demo_office, browser):
    context = open_context(browser, demo_office.keys["office@band.example"], "office@band.example", DESKTOP)
    asked = []
    context.on("request", lambda request: re.search(r"/v1/me/staff-member", request.url) and asked.append(request.url))
    page = context.new_page()
    try:
        for path in ("/agenda", "/people", "/staffing"):
            page.goto(demo_office.url(path))
            drawn(page)
        assert asked == []
        assert page.get_by_role("link", name="My gigs").count() == 0
    finally:
        context.close()
