"""SPEC §13, the musician's home of the console on the served demo office in Chromium at a phone's width (390 × 844):
My gigs (invitations answered in one tap with the time left, then the upcoming gigs as cards), one gig and one
invitation on their own pages, My gigs as the home of a user without office work and a menu entry for an office
user linked to a staff member, the tab bar with the inbox's unread count; axe at 390 and 1280 px; hostile strings
shown as text. The invitations are made here through the API as the admin, on gigs of their own far ahead."""

import datetime as dt
import itertools
import re
import urllib.parse

import pytest
from playwright.sync_api import expect

from tests.support import console
from tests.support.console import (
    API_ANSWERS,
    DESKTOP,
    PHONE,
    DemoOffice,
    as_if_offline,
    serious_accessibility_violations,
)

pytestmark = pytest.mark.browser

signed_in = console.signed_in
MUSICIAN = "staff@band.example"  # Lena Hofer, a singer: the demo's musician (the `staff` role, catalogue only)
HOSTILE = "<img src=x onerror=alert(1)>"
RTL = "\u202eevil"
LONG = "Ö" * 5000
DATES = itertools.count(1)


@pytest.fixture(scope="module")
def demo_office(tmp_path_factory):
    """The demo office, its invitations' in-app notifications told at once (the inbox's unread count)."""
    office = DemoOffice(tmp_path_factory.mktemp("my-home"), BAND_NOTIFY_DELAY_SECONDS="0.1")
    yield office
    office.service.stop()


def query(path, **params):
    return f"{path}?{urllib.parse.urlencode(params)}"


class Band:
    """The demo's musician and what the admin makes for her: a gig of its own on a free day far ahead, a role on it
    for her voice, her invitation to it; another singer invited to the same role when asked for."""

    def __init__(self, office):
        self.office = office
        self.lena = self.member("Hofer")
        self.voice = office.api(query("/staff-member-roles", **{"filter[staff_member_id]": self.lena["id"]}))["data"][0]
        singers = office.api(query("/staff-member-roles", **{"filter[role_id]": self.voice["role_id"], "limit": 50}))
        others = [row["staff_member_id"] for row in singers["data"] if row["staff_member_id"] != self.lena["id"]]
        self.rival_id = others[0]
        self.venue_id = office.api("/venues?limit=1")["data"][0]["id"]

    def member(self, last_name):
        return self.office.api(query("/staff-members", **{"filter[last_name]": last_name}))["data"][0]

    def post(self, path, body):
        return self.office.api(path, method="POST", body=body)["data"]

    def gig(self, title, **fields):
        day = (dt.date.today() + dt.timedelta(days=900 + 3 * next(DATES))).isoformat()
        body = {"gig_date": day, "title": title, "venue_id": self.venue_id, "start_time": "19:00", "end_time": "01:00"}
        return self.post("/gigs", {**body, **fields})

    def role(self, gig, **fields):
        body = {"gig_id": gig["id"], "role_id": self.voice["role_id"], "call_time": "17:30", "pay_cents": 41500}
        return self.post("/gig-roles", {**body, **fields})

    def invite(self, title="Gala at the lake", message=None, rival=False, **gig_fields):
        """A new gig with one open role and Lena's pending invitation to it (and the rival singer's, if asked)."""
        gig = self.gig(title, **gig_fields)
        role = self.role(gig)
        mine = self.post_invitation(role, self.lena["id"], message=message)
        if rival:
            self.rival = self.post_invitation(role, self.rival_id)
        return gig, mine

    def post_invitation(self, role, member_id, **fields):
        return self.post("/gig-role-invitations", {"gig_role_id": role["id"], "staff_member_id": member_id, **fields})

    def status(self, invitation):
        return self.office.api(f"/gig-role-invitations/{invitation['id']}")["data"]["status"]


@pytest.fixture(scope="module")
def band(demo_office):
    return Band(demo_office)


def my_page(signed_in, demo_office, path="/my", viewport=PHONE, email=MUSICIAN):
    page = signed_in(email, viewport)
    page.goto(demo_office.url(path))
    expect(page.get_by_role("heading", level=1)).to_be_visible()
    return page


def card_of(page, title):
    return page.locator(".my-card").filter(has=page.get_by_role("heading", name=title, exact=True))


# --- My gigs ----------------------------------------------------------------------------------------------------


def test_the_demo_musician_is_linked_and_her_home_is_my_gigs(demo_office, signed_in):
    assert demo_office.api("/me/staff-member", email=MUSICIAN)["data"]["last_name"] == "Hofer"
    page = signed_in(MUSICIAN, PHONE)
    page.goto(demo_office.url("/"))
    expect(page).to_have_url(re.compile(r"/my$"))
    expect(page.get_by_role("heading", level=1)).to_have_text("My gigs")
    tabs = page.get_by_role("navigation", name="My pages")
    expect(tabs.get_by_role("link")).to_have_text(["Gigs", "Pay", "Away", "Calendar", "Inbox"])
    expect(tabs.get_by_role("link", name="Gigs")).to_have_attribute("aria-current", "page")
    box = tabs.bounding_box()
    assert box["y"] + box["height"] == PHONE["height"]  # at the foot of the phone's screen
    assert tabs.get_by_role("link", name="Gigs").bounding_box()["height"] >= 44
    page.get_by_role("button", name="Menu").click()
    expect(page.get_by_role("navigation", name="Main menu").get_by_role("link", name="My gigs")).to_be_visible()


def test_a_musician_accepts_an_invitation_in_one_tap_and_its_gig_joins_her_cards(demo_office, signed_in, band):
    _, invitation = band.invite("Sommerfest am See", message="Bring the in-ears.")
    page = my_page(signed_in, demo_office)
    card = card_of(page, "Sommerfest am See")
    expect(card).to_contain_text("€415.00")
    expect(card).to_contain_text("answer within 2 days")  # 72 hours, rounded down
    expect(card).to_contain_text("Call 17:30")
    expect(card).to_contain_text("Bring the in-ears.")
    card.get_by_role("button", name="Accept").click()
    expect(page.get_by_role("status").filter(has_text="Accepted")).to_contain_text("Sommerfest am See")
    expect(page.locator(".my-invitation").filter(has_text="Sommerfest am See")).to_have_count(0)
    gig_card = page.locator(".my-gig").filter(has_text="Sommerfest am See")
    expect(gig_card).to_contain_text("Call 17:30")
    expect(gig_card).to_contain_text("€415.00")
    venue = gig_card.locator(".my-venue a")
    expect(venue).to_have_attribute("href", re.compile(r"^https://www\.openstreetmap\.org/search\?query=.+"))
    assert band.status(invitation) == "accepted"


def test_a_decline_and_a_role_someone_else_took_are_said_in_words(demo_office, signed_in, band):
    band.invite("Ball der Gärtner")
    band.invite("Firmenfeier Huber", rival=True)
    page = my_page(signed_in, demo_office)
    card_of(page, "Ball der Gärtner").get_by_role("button", name="Decline").click()
    expect(page.get_by_role("status").filter(has_text="Declined")).to_contain_text("Ball der Gärtner")
    taken = card_of(page, "Firmenfeier Huber")
    expect(taken).to_be_visible()
    demo_office.api(f"/gig-role-invitations/{band.rival['id']}/accept", method="POST")  # the rival is quicker
    taken.get_by_role("button", name="Accept").click()
    said = page.get_by_role("status").filter(has_text="Someone else has taken the role")
    expect(said).to_contain_text("Firmenfeier Huber")
    expect(card_of(page, "Firmenfeier Huber")).to_have_count(0)


def test_one_invitation_and_one_gig_have_their_own_pages(demo_office, signed_in, band):
    gig, invitation = band.invite("Herbstball", message="Dress code: black.")
    page = my_page(signed_in, demo_office, f"/my/invitations/{invitation['id']}")
    expect(page.get_by_role("heading", level=1)).to_have_text("Invitation: Herbstball")
    expect(page.locator("main")).to_contain_text("Dress code: black.")
    page.get_by_role("button", name="Accept").click()
    expect(page.locator("main")).to_contain_text("You accepted this invitation")
    expect(page.get_by_role("button", name="Accept")).to_have_count(0)
    page.get_by_role("link", name="The gig: lineup and run sheet").click()
    expect(page).to_have_url(re.compile(f"/my/gigs/{gig['id']}$"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Herbstball")
    expect(page.get_by_role("heading", name="Lineup")).to_be_visible()
    expect(page.get_by_role("heading", name="Run sheet")).to_be_visible()
    expect(page.locator("main")).to_contain_text("Call 17:30")
    page.goto(demo_office.url("/my/gigs/00000000-0000-4000-8000-000000000000"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Gig not found")


def test_a_demo_gig_shows_its_lineup_and_run_sheet_under_the_card(demo_office, signed_in):
    gigs = demo_office.api("/me/gigs?limit=50", email=MUSICIAN)["data"]
    gig = next(g for g in gigs if g["moments"] and g["lineup"] and all(not r["invitation"] for r in g["roles"]))
    page = my_page(signed_in, demo_office)
    card = page.locator(".my-gig").filter(has=page.locator(f'a[href="/my/gigs/{gig["id"]}"]'))  # titles repeat
    other = gig["lineup"][0]
    expect(card.locator(".my-lineup")).to_contain_text(f"{other['first_name']} ({other['role']})")
    assert other["last_name"] not in card.locator(".my-lineup").inner_text()  # first names only
    moment = card.locator(".my-moments li").filter(has_text=gig["moments"][0]["name"]).first
    expect(moment).to_be_hidden()
    card.get_by_text("Run sheet").click()
    expect(moment).to_contain_text(gig["moments"][0]["time"])  # as the API gives it


def test_my_gigs_costs_at_most_three_api_calls(demo_office, signed_in):
    page = signed_in(MUSICIAN, PHONE)
    calls = []
    page.on("request", lambda request: calls.append(urllib.parse.urlsplit(request.url).path))
    for path in ("/my", "/"):
        calls.clear()
        page.goto(demo_office.url(path))
        expect(page.get_by_role("heading", name="Coming up")).to_be_visible()
        page.wait_for_load_state("networkidle")
        # the console's start asks who is signed in and the office's settings (to write money and dates) once
        screen_calls = [call for call in calls if call.startswith("/v1/") and call not in ("/v1/me", "/v1/office")]
        assert sorted(screen_calls) == ["/v1/me/gigs", "/v1/me/invitations", "/v1/me/notifications"]


# --- home, menu and tabs ------------------------------------------------------------------------------------------


def test_an_office_user_linked_to_a_member_has_my_gigs_in_the_menu_and_others_do_not(demo_office, signed_in):
    crew = signed_in("crew@band.example")  # Florian Schmid: production crew, linked to his staff member
    asked = []  # GET /me names the linked member: nobody asks /me/staff-member to find out
    crew.on("request", lambda request: "/v1/me/staff-member" in request.url and asked.append(request.url))
    crew.goto(demo_office.url("/"))
    expect(crew).to_have_url(re.compile(r"/agenda"))
    menu = crew.get_by_role("navigation", name="Main menu")
    expect(menu.get_by_role("link", name="My gigs")).to_be_visible()
    menu.get_by_role("link", name="My gigs").click()
    expect(crew.get_by_role("heading", level=1)).to_have_text("My gigs")
    expect(crew.get_by_role("navigation", name="My pages")).to_be_visible()
    admin = signed_in("admin@band.example")
    admin.on("request", lambda request: "/v1/me/staff-member" in request.url and asked.append(request.url))
    admin.goto(demo_office.url("/agenda"))
    expect(admin.get_by_role("navigation", name="Main menu").get_by_role("link", name="Records")).to_be_visible()
    expect(admin.get_by_role("navigation", name="Main menu").get_by_role("link", name="My gigs")).to_have_count(0)
    assert asked == []


def test_the_musicians_menu_is_my_gigs_alone_though_her_role_reads_the_catalogue(demo_office, signed_in):
    assert demo_office.api("/me", email=MUSICIAN)["data"]["can"]["catalog.view"] is True  # the `staff` role (§3)
    page = my_page(signed_in, demo_office, viewport=DESKTOP)
    expect(page.get_by_role("navigation", name="Main menu").get_by_role("listitem")).to_have_text(["My gigs"])
    crew = signed_in("crew@band.example", DESKTOP)  # production crew: office work, with the catalogue among it
    crew.goto(demo_office.url("/agenda"))
    expect(crew.get_by_role("navigation", name="Main menu").get_by_role("link", name="Records")).to_be_visible()


def test_the_inbox_tab_counts_the_unread_and_an_answer_reads_its_notification(demo_office, signed_in, band):
    unread = demo_office.api("/me/notifications?filter[read]=false&limit=1", email=MUSICIAN)["meta"]["total"]
    band.invite("Neujahrskonzert")
    page = my_page(signed_in, demo_office)
    inbox = page.get_by_role("navigation", name="My pages").get_by_role("link", name=re.compile("^Inbox"))
    expect(inbox).to_have_accessible_name(f"Inbox, {unread + 1} unread")
    card_of(page, "Neujahrskonzert").get_by_role("button", name="Decline").click()
    expect(inbox).to_have_accessible_name(f"Inbox, {unread} unread" if unread else "Inbox")


# --- accessibility and hostile strings ------------------------------------------------------------------------------


def test_my_pages_have_no_serious_accessibility_violations(demo_office, signed_in, band):
    gig, invitation = band.invite("Winterball", message="Parking behind the hall.")
    for viewport in (PHONE, DESKTOP):
        page = signed_in(MUSICIAN, viewport)
        for path in ("/my", f"/my/invitations/{invitation['id']}", f"/my/gigs/{gig['id']}"):
            console.show(page, demo_office.url(path))
            expect(page.locator("main .my-card").first).to_be_visible()
            page.locator("details.my-run-sheet").evaluate_all("(all) => all.forEach((shut) => (shut.open = true))")
            assert serious_accessibility_violations(page) == [], (viewport, path)


def test_hostile_strings_show_as_text(demo_office, signed_in, band):
    venue = band.post("/venues", {"name": HOSTILE, "address_line1": RTL, "city": "Wien", "timezone": "Europe/Vienna"})
    gig, _ = band.invite(HOSTILE + RTL, message=HOSTILE + LONG, venue_id=venue["id"])
    band.post("/gig-moments", {"gig_id": gig["id"], "name": HOSTILE, "time": "20:00", "notes": RTL + LONG})
    page = my_page(signed_in, demo_office)
    dialogs = []
    page.on("dialog", lambda dialog: dialogs.append(dialog.message) or dialog.dismiss())
    card = page.locator(".my-invitation").filter(has_text=RTL)
    expect(card).to_contain_text(HOSTILE + RTL)
    expect(card).to_contain_text(LONG)
    card.get_by_role("button", name="Accept").click()
    expect(page.get_by_role("status").filter(has_text="Accepted")).to_contain_text(HOSTILE)
    page.goto(demo_office.url(f"/my/gigs/{gig['id']}"))
    expect(page.locator("main")).to_contain_text(HOSTILE + RTL)
    expect(page.locator(".my-moments")).to_contain_text(HOSTILE)
    href = page.locator(".my-venue a").get_attribute("href")
    assert urllib.parse.unquote(href.split("query=", 1)[1]).startswith(HOSTILE)
    assert page.locator("main img").count() == 0 and dialogs == []
    for viewport in (PHONE, DESKTOP):
        page.set_viewport_size(viewport)
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]


def test_while_the_app_shows_a_kept_copy_the_strip_says_as_of_when_and_nothing_writes(demo_office, signed_in, band):
    # The service worker (another part) answers with its kept copy marked Band-Kept-At: here a route stands in for it
    band.invite("Kept copy gala")
    page = signed_in(MUSICIAN, PHONE)
    kept_at = "2026-11-26T13:02:00Z"
    as_if_offline(page, kept_at)
    page.goto(demo_office.url("/my"))
    expect(card_of(page, "Kept copy gala")).to_contain_text("You can answer when you are online again.")
    clock = "(at) => new Date(at).toLocaleTimeString(undefined, {hour: '2-digit', minute: '2-digit'})"
    shown = page.evaluate(clock, kept_at)  # the phone's own time of day
    expect(page.locator(".offline-strip")).to_contain_text("Offline — as of")
    expect(page.locator(".offline-strip")).to_contain_text(shown)
    expect(page.get_by_role("button", name="Accept")).to_have_count(0)
    page.unroute(API_ANSWERS)
    page.reload()
    expect(card_of(page, "Kept copy gala").get_by_role("button", name="Accept")).to_be_visible()
    expect(page.locator(".offline-strip")).to_be_hidden()
