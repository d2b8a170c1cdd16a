"""SPEC §13, the band's app on the phone: installable and opening with no connection. The service worker at /sw.js
(made of static/console/sw/*.js), the web app manifest and its icons, the last-loaded pages kept and answered "as
of" their time when the network is cut, writes refused at once while offline, and the kept copies forgotten on
sign-out. In Debian's Chromium at a phone's size, as the demo musician; any console error, page error or CSP
violation fails a browser test."""

import datetime as dt
import json
import re
import struct

import pytest
from playwright.sync_api import expect

from tests.support import console
from tests.support.console import PHONE
from tests.support.mail import mailed_signin_link
from tests.support.pages import Elements
from tests.support.waiting import SLOW_MACHINE_SECONDS, wait_for

POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; connect-src 'self'; "
    "frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
)
MUSICIAN = "staff@band.example"
browser = console.browser
pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def demo_office(tmp_path_factory):
    """The demo office, its mail written to files (a new sign-in from the mailed link)."""
    tmp = tmp_path_factory.mktemp("pwa")
    office = console.DemoOffice(tmp, BAND_MAIL_URL=f"file:{tmp / 'mail'}")
    office.mail = tmp / "mail"
    yield office
    office.service.stop()


@pytest.fixture
def phone(browser, demo_office):
    """open() -> a page at 390 × 844 signed in as the demo musician, in a context of its own that lets the service
    worker in. At the end, any console error, page error or CSP violation fails the test."""
    contexts = []

    def open_page(token=None):
        token = token or demo_office.keys[MUSICIAN]
        context = console.open_context(browser, token, MUSICIAN, PHONE, service_workers="allow")
        contexts.append(context)
        return context.new_page()

    yield open_page
    for context in contexts:
        context.close()
    assert [problem for context in contexts for problem in context.problems.unexpected()] == []


def png_size(png):
    """(width, height) of a PNG, from its header."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and png[12:16] == b"IHDR"
    return struct.unpack(">II", png[16:24])


def installed(page, office):
    """`page` at /my controlled by the service worker, reloaded once so that the worker saw the screen's requests
    (GET /v1/me, the home's /v1/me/gigs...): what a second visit finds kept."""
    page.goto(office.url("/my"))
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=30000)
    page.reload()
    wait_for(lambda: "/v1/me/gigs" in kept_paths(page), SLOW_MACHINE_SECONDS)  # the home's gigs answered and kept
    return page


# Runs `body` in the page with the console's own modules (the instances the app uses: same URLs) bound to names.
IN_THE_APP = """async (argument) => {
  const base = document.querySelector("script[type=module]").src;
  const load = (name) => import(new URL(name, base));
  const [{ api }, offline] = await Promise.all([load("./api.js"), load("./offline.js")]);
  return await (%s)(argument);
}"""


def in_the_app(page, body, argument=None):
    return page.evaluate(IN_THE_APP % body, argument)


def kept_paths(page):
    return page.evaluate(
        "async () => (await (await caches.open('band-office-kept')).keys()).map((key) => new URL(key.url).pathname)"
    )


# --- over HTTP ------------------------------------------------------------------------------------------------


def test_the_worker_is_served_from_the_root_under_the_strict_policy(demo_office):
    status, headers, body = demo_office.get("/sw.js")
    assert status == 200
    assert headers["Content-Type"].split(";")[0] == "text/javascript"
    assert headers["Cache-Control"] == "no-cache"
    assert headers["Content-Security-Policy"] == POLICY
    script = body.decode()
    assert "// ---- console/sw/cache.js ----" in script
    assert "/static/" in script  # the shell's files, under the current digest


def test_the_manifest_names_the_app_its_start_its_colours_and_icons_that_exist_at_their_sizes(demo_office):
    status, headers, body = demo_office.get("/manifest.webmanifest")
    assert status == 200 and headers["Content-Type"] == "application/manifest+json"
    manifest = json.loads(body)
    assert manifest["name"] == "Band Office" and len(manifest["short_name"]) <= 12
    assert (manifest["start_url"], manifest["scope"], manifest["display"]) == ("/", "/", "standalone")
    assert all(re.fullmatch("#[0-9a-f]{6}", manifest[colour]) for colour in ("theme_color", "background_color"))
    found = set()
    for icon in manifest["icons"]:
        status, headers, png = demo_office.get(icon["src"])
        assert status == 200 and headers["Content-Type"] == icon["type"] == "image/png"
        assert png_size(png) == tuple(int(side) for side in icon["sizes"].split("x"))
        found.add((icon["sizes"], icon["purpose"]))
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= found


def test_the_console_page_links_the_manifest_and_an_icon_for_ios(demo_office):
    _, _, page = demo_office.get("/my")
    elements = Elements(page.decode())
    assert [link["href"] for link in elements.find("link", rel="manifest")] == ["/manifest.webmanifest"]
    [touch_icon] = elements.find("link", rel="apple-touch-icon")
    status, headers, png = demo_office.get(touch_icon["href"])
    assert status == 200 and headers["Content-Type"] == "image/png" and png_size(png) == (180, 180)


# --- in the browser -------------------------------------------------------------------------------------------


def test_the_worker_installs_and_controls_the_page(demo_office, phone):
    page = phone()
    page.goto(demo_office.url("/my"))
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=30000)
    scope = page.evaluate("async () => (await navigator.serviceWorker.getRegistration()).scope")
    assert scope == demo_office.url("/")
    devtools = page.context.new_cdp_session(page)
    manifest = devtools.send("Page.getAppManifest")
    assert manifest["url"] == demo_office.url("/manifest.webmanifest") and manifest["errors"] == []
    refusals = devtools.send("Page.getInstallabilityErrors")["installabilityErrors"]
    assert [refusal["errorId"] for refusal in refusals] == ["in-incognito"]  # a test's context: nothing else missing


def upcoming_gig_ids(page):
    """The ids of the gigs of the cards under "Coming up", in their order (titles repeat: the demo has two weddings of
    one couple's names)."""
    cards = page.locator("section[aria-labelledby=upcoming-heading] .my-cards h3")
    expect(cards.first).to_be_visible()
    return [heading.removeprefix("gig-") for heading in cards.evaluate_all("(all) => all.map((h3) => h3.id)")]


def test_with_the_network_cut_the_app_opens_with_the_kept_gigs_as_of_their_time(demo_office, phone):
    before = dt.datetime.now(dt.UTC)
    page = installed(phone(), demo_office)
    shown = upcoming_gig_ids(page)
    given = demo_office.api("/me/gigs?limit=100", MUSICIAN)["data"]
    held = [gig["id"] for gig in given if any(role["invitation"] is None for role in gig["roles"])]
    assert shown == held and shown  # the gigs where she holds a role (invited only: "To answer"), in the API's order
    expect(page.locator(".offline-strip")).to_have_text("")
    page.context.set_offline(True)
    for path in ("/my", "/"):
        page.goto(demo_office.url(path))
        expect(page.get_by_role("heading", name="My gigs", level=1)).to_be_visible()
        expect(page.locator(".offline-strip")).to_have_text(re.compile(r"^Offline — as of \S"))
        assert upcoming_gig_ids(page) == shown
        assert in_the_app(page, "async () => offline.isOffline()")
    kept_at = page.evaluate(
        """async () => {
          const session = JSON.parse(sessionStorage.getItem("band-office.session"));
          const answer = await fetch("/v1/me", {headers: {Authorization: `Bearer ${session.token}`}});
          return answer.headers.get("Band-Kept-At");
        }"""
    )
    assert before - dt.timedelta(seconds=1) <= dt.datetime.fromisoformat(kept_at) <= dt.datetime.now(dt.UTC)


def test_a_write_while_offline_fails_at_once_saying_so_and_changes_nothing(demo_office, phone):
    day = (dt.date.today() + dt.timedelta(days=400)).isoformat()
    blockout = demo_office.api("/me/blockouts", MUSICIAN, "POST", {"start_date": day, "end_date": day})["data"]
    page = installed(phone(), demo_office)
    page.context.set_offline(True)
    tried = in_the_app(
        page,
        """async (id) => {
          const started = performance.now();
          const failures = [];
          for (const write of [() => api.delete(`/me/blockouts/${id}`), () => api.post("/me/blockouts", {})]) {
            try { await write(); failures.push(null); } catch (error) { failures.push([error.code, error.message]); }
          }
          return {failures, ms: performance.now() - started};
        }""",
        blockout["id"],
    )
    assert tried["ms"] < 2000
    assert [code for code, _ in tried["failures"]] == ["offline", "offline"]
    assert all(message.startswith("You are offline") for _, message in tried["failures"])
    page.context.set_offline(False)
    assert blockout["id"] in [each["id"] for each in demo_office.api("/me/blockouts", MUSICIAN)["data"]]


def test_signing_out_forgets_the_kept_pages(demo_office, phone):
    page = installed(phone(token=demo_office.key_of(MUSICIAN)), demo_office)
    keys = page.evaluate(
        """async () => (await (await caches.open("band-office-kept")).keys()).map(
          (key) => [new URL(key.url).pathname, [...key.headers.keys()]])"""
    )
    assert {"/v1/me", "/v1/me/gigs"} <= {path for path, _ in keys}  # per URL, as the pages asked
    assert [headers for _, headers in keys if headers] == []  # no bearer (nor any header) in a key
    page.get_by_role("button", name="Sign out").click()
    page.wait_for_url("**/signin**")
    assert kept_paths(page) == []


def test_a_new_sign_in_on_the_phone_forgets_what_was_kept_for_the_one_before(demo_office, phone):
    page = installed(phone(), demo_office)
    status, _, _ = demo_office.service.request(
        "POST", "/auth/link", b'{"email": "office@band.example"}', {"Content-Type": "application/json"}
    )
    assert status == 200
    page.goto(mailed_signin_link(demo_office.mail, "office@band.example"))
    page.get_by_role("button", name="Sign in", exact=True).click()
    expect(page).to_have_url(re.compile(r"/agenda$"))
    wait_for(lambda: "/v1/me/gigs" not in kept_paths(page), SLOW_MACHINE_SECONDS)


def test_out_of_reach_of_the_server_the_app_opens_read_only_and_a_write_fails_at_once(browser, tmp_path):
    office = console.DemoOffice(tmp_path)  # of its own: this test stops it
    try:
        context = console.open_context(browser, office.keys[MUSICIAN], MUSICIAN, PHONE, service_workers="allow")
        page = installed(context.new_page(), office)
        shown = upcoming_gig_ids(page)
        office.service.stop()  # the phone still has a network (navigator.onLine), the office server is gone
        page.reload()
        expect(page.locator(".offline-strip")).to_have_text(re.compile(r"^Offline — as of \S"))
        assert upcoming_gig_ids(page) == shown
        tried = in_the_app(
            page,
            """async () => {
              const started = performance.now();
              try {
                await api.patch("/me/notification-settings", {});
              } catch (error) {
                return [error.code, performance.now() - started];
              }
            }""",
        )
        assert tried[0] == "offline" and tried[1] < 2000
        context.close()
        assert context.problems.unexpected() == []
    finally:
        office.service.stop()
