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
from tests.support.pages import Elements

POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; connect-src 'self'; "
    "frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
)
MUSICIAN = "staff@band.example"
demo_office, browser = console.demo_office, console.browser
pytestmark = pytest.mark.browser


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


def installed(page, office, path="/my"):
    """`page` at `path` controlled by the service worker, reloaded once so that the worker saw the start's requests
    (GET /v1/me): what a second visit finds kept."""
    page.goto(office.url(path))
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=30000)
    page.reload()
    expect(page.locator("main h1")).to_be_visible()
    return page


# Runs `body` in the page with the console's own modules (the instances the app uses: same URLs) bound to names.
IN_THE_APP = """async (argument) => {
  const base = document.querySelector("script[type=module]").src;
  const load = (name) => import(new URL(name, base));
  const [{ api, ApiError }, offline] = await Promise.all([load("./api.js"), load("./offline.js")]);
  return await (%s)(argument);
}"""


def in_the_app(page, body, argument=None):
    return page.evaluate(IN_THE_APP % body, argument)


def titles(gigs):
    return [gig["title"] for gig in gigs]


def kept_count(page):
    return page.evaluate("async () => (await (await caches.open('band-office-kept')).keys()).length")


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


def upcoming_titles(page):
    cards = page.locator("section[aria-labelledby=upcoming-heading] .my-cards h3")
    expect(cards.first).to_be_visible()
    return cards.all_inner_texts()


def test_with_the_network_cut_the_app_opens_with_the_kept_gigs_as_of_their_time(demo_office, phone):
    before = dt.datetime.now(dt.UTC)
    page = installed(phone(), demo_office)
    shown = upcoming_titles(page)
    given = titles(demo_office.api("/me/gigs?limit=100", MUSICIAN)["data"])
    assert shown == [title for title in given if title in shown] and shown  # the API's titles, in its order
    expect(page.locator(".offline-strip")).to_have_text("")
    page.context.set_offline(True)
    for path in ("/my", "/"):
        page.goto(demo_office.url(path))
        expect(page.get_by_role("heading", name="My gigs", level=1)).to_be_visible()
        expect(page.locator(".offline-strip")).to_have_text(re.compile(r"^Offline — as of \S"))
        assert upcoming_titles(page) == shown
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
    assert kept_count(page) == 0
