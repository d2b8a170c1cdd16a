"""SPEC §13, the band's app on the phone: installable and opening with no connection. The service worker at /sw.js
(made of static/console/sw/*.js), the web app manifest and its icons, the last-loaded pages kept and answered "as
of" their time when the network is cut, writes refused at once while offline, and the kept copies forgotten on
sign-out. In Debian's Chromium at a phone's size, as the demo musician; any console error, page error or CSP
violation fails a browser test."""

import datetime as dt
import json
import re
import struct
from urllib.parse import urlsplit

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


# Every answer the worker keeps, whoever for: [[cache name, URL, the key's header names]]
KEPT_KEYS = """async () => {
  const kept = [];
  for (const name of (await caches.keys()).filter((name) => name.startsWith("band-office-kept"))) {
    for (const key of await (await caches.open(name)).keys()) kept.push([name, key.url, [...key.headers.keys()]]);
  }
  return kept;
}"""


def kept_paths(page):
    return [urlsplit(url).path for _, url, _ in page.evaluate(KEPT_KEYS)]


def kept_urls(page):
    return [url for _, url, _ in page.evaluate(KEPT_KEYS)]


# What a fetch of the page gets, with `bearer` (an API key) or none: its status, Band-Kept-At and body, or the
# failure of a fetch that got no answer at all.
ANSWER_OF = """async ([url, bearer]) => {
  try {
    const answer = await fetch(url, {headers: bearer ? {Authorization: `Bearer ${bearer}`} : {}});
    return {status: answer.status, kept_at: answer.headers.get("Band-Kept-At"), body: await answer.json()};
  } catch (error) {
    return {failed: error.name};
  }
}"""


def answer_of(page, url, bearer=None):
    return page.evaluate(ANSWER_OF, [url, bearer])


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


def test_the_worker_installs_and_controls_the_page(demo_office, whole_browser):
    """In the whole browser: the headless shell judges no app installable and says nothing of why."""
    token = demo_office.keys[MUSICIAN]
    context = console.open_context(whole_browser, token, MUSICIAN, PHONE, service_workers="allow")
    page = context.new_page()
    page.goto(demo_office.url("/my"))
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=30000)
    scope = page.evaluate("async () => (await navigator.serviceWorker.getRegistration()).scope")
    assert scope == demo_office.url("/")
    devtools = page.context.new_cdp_session(page)
    manifest = devtools.send("Page.getAppManifest")
    assert manifest["url"] == demo_office.url("/manifest.webmanifest") and manifest["errors"] == []
    refusals = devtools.send("Page.getInstallabilityErrors")["installabilityErrors"]
    assert [refusal["errorId"] for refusal in refusals] == ["in-incognito"]  # a test's context: nothing else missing
    context.close()
    assert context.problems.unexpected() == []


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
    keys = page.evaluate(KEPT_KEYS)
    assert {"/v1/me", "/v1/me/gigs"} <= {urlsplit(url).path for _, url, _ in keys}  # per URL, as the pages asked
    assert [headers for _, _, headers in keys if headers] == []  # no bearer (nor any header) in a key
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


# --- kept for one user alone (SPEC §2.3) ------------------------------------------------------------------------

OTHER_MUSICIAN = "crew@band.example"  # Florian Schmid, linked to a staff member of his own


def test_offline_another_bearer_or_none_never_gets_what_was_kept_for_her(demo_office, phone):
    page = installed(phone(), demo_office)
    page.goto(demo_office.url("/my/pay"))
    wait_for(lambda: "/v1/me/pay-sheet" in kept_paths(page), SLOW_MACHINE_SECONDS)
    hers, his = demo_office.keys[MUSICIAN], demo_office.keys[OTHER_MUSICIAN]
    member = {
        key: demo_office.api("/me/staff-member", email)["data"]["id"]
        for key, email in ((hers, MUSICIAN), (his, OTHER_MUSICIAN))
    }
    staff_member = demo_office.url("/v1/me/staff-member")
    for key in (hers, his):  # online, through the worker: each kept (before it is answered) for the bearer that asked
        assert answer_of(page, staff_member, key)["body"]["data"]["id"] == member[key]
    assert not any(hers in name or his in name for name, _, _ in page.evaluate(KEPT_KEYS))  # no bearer written down
    her_pages = [url for url in kept_urls(page) if urlsplit(url).path != "/v1/me/staff-member"]
    page.context.set_offline(True)
    for key in (hers, his):  # each gets their own record, as of when it was kept
        kept = answer_of(page, staff_member, key)
        assert kept["kept_at"] and kept["body"]["data"]["id"] == member[key]
    assert answer_of(page, staff_member) == {"failed": "TypeError"}
    assert any(urlsplit(url).path == "/v1/me/pay-sheet" for url in her_pages)
    for url in her_pages:  # her gigs, her pay sheet...: his bearer, or none, gets no answer at all
        assert answer_of(page, url, his) == {"failed": "TypeError"}
        assert answer_of(page, url) == {"failed": "TypeError"}
        assert answer_of(page, url, hers)["kept_at"]


def test_an_answer_on_its_way_when_she_signs_out_is_not_kept(demo_office, phone):
    key = demo_office.key_of(MUSICIAN)  # signing out revokes it
    page = installed(phone(token=key), demo_office)
    other_tab = page.context.new_page()  # a page the worker controls whose request is on its way meanwhile
    other_tab.goto(demo_office.url("/manifest.webmanifest"))
    late = demo_office.url("/v1/me/gigs?limit=7")
    held = []
    page.context.route(late, lambda route: held.append(route))  # the worker's request too (Chromium)
    other_tab.evaluate(
        """([url, bearer]) => {
          window.late = fetch(url, {headers: {Authorization: `Bearer ${bearer}`}}).then((answer) => answer.status);
        }""",
        [late, key],
    )
    wait_for(lambda: held or other_tab.evaluate("false"), SLOW_MACHINE_SECONDS)  # evaluate: the route is handed over
    [route] = held
    answer = route.fetch()  # answered by the server while she is signed in, held on its way
    assert answer.status == 200
    page.get_by_role("button", name="Sign out").click()
    page.wait_for_url("**/signin**")
    route.fulfill(response=answer)
    assert other_tab.evaluate("() => window.late") == 200
    page.context.unroute(late)
    page.context.set_offline(True)
    assert answer_of(other_tab, late, key) == {"failed": "TypeError"}


def test_what_the_first_visit_showed_opens_with_the_network_cut(demo_office, phone):
    page = phone()
    page.goto(demo_office.url("/my"))  # the worker installs meanwhile: no reload
    answered = page.locator(".my-invitation h3").first.get_attribute("id")
    page.locator(".my-invitation").first.get_by_role("button", name="Decline").click()
    expect(page.get_by_role("status").filter(has_text="Declined")).to_be_visible()
    shown = upcoming_gig_ids(page)
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=30000)
    asked = {"/v1/me", "/v1/me/gigs", "/v1/me/invitations"}
    wait_for(lambda: asked <= set(kept_paths(page)), SLOW_MACHINE_SECONDS)
    page.context.set_offline(True)
    page.goto(demo_office.url("/my"))
    expect(page.get_by_role("heading", name="My gigs", level=1)).to_be_visible()
    expect(page.locator(".offline-strip")).to_have_text(re.compile(r"^Offline — as of \S"))
    assert upcoming_gig_ids(page) == shown
    expect(page.locator(f"[id='{answered}']")).to_have_count(0)  # as answered
