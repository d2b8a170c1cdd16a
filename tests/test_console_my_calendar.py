"""SPEC §13, two of a musician's pages of the console on the served demo office in Chromium at a phone's width,
signed in as the demo's musician (staff@band.example, linked to Lena Hofer): My calendar (the feed's webcal://
link, its QR code drawn in the page and read back by a QR reader, a new link after a warning) and the Inbox (the
unread count, a notification tapped is read and opens its invitation, mark all read, more, hostile text shown as
text); neither shows a write control while offline; axe at a phone's and a desktop's width."""

import datetime as dt
import io
import re

import pytest
import zxingcpp
from PIL import Image
from playwright.sync_api import expect

from tests.support import console, pages
from tests.support.console import DESKTOP, PHONE, DemoOffice, as_if_offline, serious_accessibility_violations
from tests.support.waiting import SLOW_MACHINE_SECONDS, wait_for

pytestmark = pytest.mark.browser

signed_in = console.signed_in
MUSICIAN = "staff@band.example"
HOSTILE = "<img src=x onerror=alert(1)>"
RTL = "\u202eevil"
LONG = "Bring the long cable. " * 230  # 5 060 characters
KEPT_AT = "2026-11-26T08:00:00Z"
QUIET_ZONE = 4  # light modules around a QR code


@pytest.fixture(scope="module")
def demo_office(tmp_path_factory):
    """The demo office, where a musician is told of an invitation at once (held 10 ms, not a minute)."""
    office = DemoOffice(tmp_path_factory.mktemp("my-calendar"), BAND_NOTIFY_DELAY_SECONDS="0.01")
    yield office
    office.service.stop()


class Invitations:
    """Invitations of the demo's musician to new gigs far ahead (free of her gigs and blockouts), each of which
    tells her in her inbox."""

    def __init__(self, office):
        self.office = office
        self.member = office.api("/me/staff-member", email=MUSICIAN)["data"]
        held = office.api(f"/staff-member-roles?filter[staff_member_id]={self.member['id']}&limit=1")["data"]
        self.role_id = held[0]["role_id"]
        self.made = 0

    def invite(self, title, message=None):
        """The invitation, once its notification is in her inbox (held 10 ms)."""
        told = notification_count(self.office)
        self.made += 1
        day = (dt.date.today() + dt.timedelta(days=500 + self.made)).isoformat()
        gig = self.office.api("/gigs", method="POST", body={"gig_date": day, "title": title})["data"]
        role = self.office.api("/gig-roles", method="POST", body={"gig_id": gig["id"], "role_id": self.role_id})["data"]
        body = {"gig_role_id": role["id"], "staff_member_id": self.member["id"], "message": message}
        invitation = self.office.api("/gig-role-invitations", method="POST", body=body)["data"]
        wait_for(lambda: notification_count(self.office) == told + 1, SLOW_MACHINE_SECONDS)
        return invitation


@pytest.fixture(scope="module")
def invitations(demo_office):
    return Invitations(demo_office)


def own(office, path, method="GET"):
    return office.api(path, email=MUSICIAN, method=method)


def notification_count(office):
    return own(office, "/me/notifications?limit=1")["meta"]["total"]


def unread(office):
    return own(office, "/me/notifications?filter[read]=false&limit=1")["meta"]["total"]


def drawn_qr(page, size):
    """The code as the page draws it (a screenshot of the SVG): its `size` rows of modules read from the pixels at
    their middles, "1" dark and "0" light, and the text a QR reader finds in it."""
    qr = page.locator("svg.qr-code")
    expect(qr).to_be_visible()
    image = Image.open(io.BytesIO(qr.screenshot())).convert("L")
    module = image.width / (size + 2 * QUIET_ZONE)
    rows = [
        "".join(
            "1"
            if image.getpixel((int((x + QUIET_ZONE + 0.5) * module), int((y + QUIET_ZONE + 0.5) * module))) < 128
            else "0"
            for x in range(size)
        )
        for y in range(size)
    ]
    found = zxingcpp.read_barcodes(image, formats=zxingcpp.BarcodeFormat.QRCode, try_invert=False)
    assert len(found) == 1, found
    return rows, found[0].text


def assert_drawn(page, feed):
    assert drawn_qr(page, len(feed["qr_code"])) == (feed["qr_code"], feed["webcal_url"])


def test_the_musician_is_linked_to_a_staff_member(demo_office):
    member = own(demo_office, "/me/staff-member")["data"]
    assert (member["first_name"], member["last_name"], member["active"]) == ("Lena", "Hofer", True)


# --- My calendar ------------------------------------------------------------------------------------------------


def test_the_calendar_page_gives_the_feed_as_a_link_to_tap_an_address_to_copy_and_a_qr_code_to_scan(
    demo_office, signed_in
):
    feed = own(demo_office, "/me/calendar-url")["data"]
    page = signed_in(MUSICIAN, viewport=PHONE)
    page.goto(demo_office.url("/my/calendar"))
    expect(page.get_by_role("heading", name="My calendar", level=1)).to_be_visible()
    link = page.get_by_role("link", name="Subscribe in my calendar")
    expect(link).to_have_attribute("href", feed["webcal_url"])
    assert feed["webcal_url"].startswith("webcal://")
    assert link.bounding_box()["height"] >= 44
    expect(page.get_by_label("Address for Google Calendar and other apps")).to_have_value(feed["url"])
    assert_drawn(page, feed)
    pages.picture_at_width(page, "calendar")


def test_a_new_link_is_made_only_after_saying_that_the_old_one_stops_working(demo_office, signed_in):
    old = own(demo_office, "/me/calendar-url")["data"]
    page = signed_in(MUSICIAN, viewport=PHONE)
    page.goto(demo_office.url("/my/calendar"))
    page.get_by_role("button", name="Make a new link…").click()
    expect(page.get_by_text("The old link stops working.")).to_be_visible()
    pages.picture_at_width(page, "calendar-new-link")
    page.get_by_role("button", name="Keep the old link").click()
    assert own(demo_office, "/me/calendar-url")["data"]["url"] == old["url"]
    page.get_by_role("button", name="Make a new link…").click()
    page.get_by_role("button", name="Make the new link").click()
    expect(page.get_by_role("status").filter(has_text="This is your new link")).to_be_visible()
    new = own(demo_office, "/me/calendar-url")["data"]
    assert new["url"] != old["url"]
    expect(page.get_by_role("link", name="Subscribe in my calendar")).to_have_attribute("href", new["webcal_url"])
    expect(page.get_by_label("Address for Google Calendar and other apps")).to_have_value(new["url"])
    assert_drawn(page, new)
    assert demo_office.get("/v1/" + old["url"].split("/v1/", 1)[1])[0] == 404


# --- Inbox ------------------------------------------------------------------------------------------------------


def test_the_inbox_counts_the_unread_and_a_tapped_one_is_read_and_opens_its_invitation(
    demo_office, signed_in, invitations
):
    invitations.invite("Spring ball")
    newest = invitations.invite("Summer gala")
    count = unread(demo_office)
    assert count >= 2
    page = signed_in(MUSICIAN, viewport=PHONE)
    page.goto(demo_office.url("/my/inbox"))
    heading = page.get_by_role("heading", level=1)
    expect(heading).to_have_text(f"Inbox {count} unread")
    first = page.locator(".notice").first
    expect(first).to_contain_text("New")
    expect(first).to_contain_text("Summer gala")
    first.get_by_role("link").click()
    expect(page).to_have_url(demo_office.url(f"/my/invitations/{newest['id']}"))
    assert unread(demo_office) == count - 1
    page.go_back()
    expect(heading).to_have_text(f"Inbox {count - 1} unread")
    expect(page.locator(".notice").first).not_to_contain_text("New")
    pages.picture_at_width(page, "inbox-one-read")
    page.get_by_role("button", name="Mark all read").click()
    expect(heading).to_have_text("Inbox")
    expect(page.get_by_role("button", name="Mark all read")).to_have_count(0)
    expect(page.locator(".notice-new")).to_have_count(0)
    assert unread(demo_office) == 0


def test_the_inbox_and_its_tab_show_one_unread_count_asked_once(demo_office, signed_in, invitations):
    invitations.invite("Harvest dance")
    count = unread(demo_office)
    page = signed_in(MUSICIAN, viewport=PHONE)
    asked = []
    page.on("request", lambda request: "/v1/me/notifications" in request.url and asked.append(request.url))
    page.goto(demo_office.url("/my/inbox"))
    expect(page.get_by_role("heading", level=1)).to_have_text(f"Inbox {count} unread")
    tab = page.get_by_role("navigation", name="My pages").get_by_role("link", name=re.compile("^Inbox"))
    expect(tab).to_have_accessible_name(f"Inbox, {count} unread")
    page.wait_for_load_state("networkidle")
    counts = [url for url in asked if "filter%5Bread%5D=false" in url or "filter[read]=false" in url]
    assert len(asked) == 2 and len(counts) == 1, asked  # the first page, and the count for the heading and the tab


def test_older_notifications_come_with_more(demo_office, signed_in, invitations):
    while notification_count(demo_office) <= 20:
        invitations.invite("Another party")
    total = notification_count(demo_office)
    page = signed_in(MUSICIAN, viewport=PHONE)
    page.goto(demo_office.url("/my/inbox"))
    expect(page.locator(".notice")).to_have_count(20)
    page.get_by_role("button", name=f"Show more ({total - 20} older)").click()
    expect(page.locator(".notice")).to_have_count(min(total, 40))


def test_hostile_text_in_a_notification_is_shown_as_text(demo_office, signed_in, invitations):
    invitations.invite(f"{HOSTILE} {RTL}", message=LONG)
    page = signed_in(MUSICIAN, viewport=PHONE)
    page.goto(demo_office.url("/my/inbox"))
    first = page.locator(".notice").first
    expect(first.locator(".notice-title")).to_contain_text(f"{HOSTILE} {RTL}")
    assert LONG.strip() in first.locator(".notice-body").text_content()
    assert page.locator(".notices img").count() == 0
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    pages.picture_at_width(page, "inbox-hostile")


def test_nothing_writes_while_offline(demo_office, signed_in, invitations):
    invitations.invite("Autumn fair")
    count = unread(demo_office)
    page = signed_in(MUSICIAN, viewport=PHONE)
    as_if_offline(page, KEPT_AT)
    page.goto(demo_office.url("/my/calendar"))
    expect(page.get_by_role("link", name="Subscribe in my calendar")).to_be_visible()
    expect(page.get_by_role("button", name="Make a new link…")).to_have_count(0)
    page.goto(demo_office.url("/my/inbox"))
    expect(page.get_by_role("heading", level=1)).to_have_text(f"Inbox {count} unread")
    expect(page.get_by_role("button", name="Mark all read")).to_have_count(0)
    page.locator(".notice").first.get_by_role("link").click()
    expect(page).to_have_url(re.compile(r"/my/invitations/[0-9a-f-]+$"))
    assert unread(demo_office) == count


# --- each screen: axe at both widths, screenshots ---------------------------------------------------------------


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
@pytest.mark.parametrize("path,heading", [("/my/calendar", "My calendar"), ("/my/inbox", "Inbox")])
def test_the_pages_have_no_serious_accessibility_violation(
    demo_office, signed_in, invitations, viewport, path, heading
):
    if path == "/my/inbox" and unread(demo_office) == 0:
        invitations.invite("Winter ball")
    page = signed_in(MUSICIAN, viewport=viewport)
    page.goto(demo_office.url(path))
    expect(page.get_by_role("heading", name=heading, level=1)).to_be_visible()
    expect(page.locator(".loading")).to_have_count(0)
    assert serious_accessibility_violations(page) == []
    pages.picture_at_width(page, path.strip("/").replace("/", "-"))
