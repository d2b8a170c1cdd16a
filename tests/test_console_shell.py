"""SPEC §12, the office console's shell, served by `app.py serve` from the demo office and opened in Debian's
Chromium: its page under the strict Content-Security-Policy, its assets under content-hashed URLs (cached for a
year, gzip, no path outside the tree), the menu as GET /me's `can` allows, URLs that survive reload and
back/forward, sign-in again on a bad token, axe-core on the page at a desktop's and a phone's width, and the
agenda listing this month's demo gigs (journey 1's second half). Any console error, page error or CSP violation
fails a browser test."""

import datetime as dt
import gzip
import json
import re
import urllib.parse
from pathlib import Path

import pytest
from playwright.sync_api import expect

from routes.console import CONSOLE_PATHS
from tests.support import console
from tests.support.console import DESKTOP, PHONE, serious_accessibility_violations
from tests.support.pages import Elements

POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; connect-src 'self'; "
    "frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
)
# the fixtures every console test uses: the served demo office, one browser for the module, signed-in pages
demo_office, signed_in = console.demo_office, console.signed_in
ASSET_RE = re.compile(r'(?:href|src)="(/static/[0-9a-f]{16}/[^"]+)"')
FIRST_LOAD_BUDGET = 250 * 1024


def assets_of(office, path="/"):
    _, _, page = office.get(path)
    return ASSET_RE.findall(page.decode())


def error_of(status, headers, body):
    assert headers["Content-Type"] == "application/json"
    return status, json.loads(body)["error"]["code"]


# --- over HTTP ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", ["/", "/agenda", "/agenda?month=2026-11", "/gigs/abc", "/records/venues/1", "/my"])
def test_the_console_answers_its_paths_with_its_page_under_the_strict_policy(demo_office, path):
    status, headers, body = demo_office.get(path)
    assert status == 200 and headers["Content-Type"].startswith("text/html")
    assert headers["Content-Security-Policy"] == POLICY
    elements = Elements(body.decode())
    assert all(attrs.get("src", "").startswith("/static/") for attrs in elements.find("script"))
    assert not elements.find("style")
    assert not [
        (tag, name) for tag, attrs in elements.tags for name in attrs if name == "style" or name.startswith("on")
    ]


def test_the_server_s_console_paths_the_screens_and_the_menus_agree():
    """routes/console.py names the prefixes answered with the console's page, screens.js the screens under them,
    menu.js and my_tabs.js the screens they link to: a screen at a prefix the server does not answer could not be
    reloaded, a prefix with no screen would answer the console's "not found"."""
    scripts = Path(__file__).resolve().parents[1] / "static" / "console"
    patterns = re.findall(r'^  \["(/[^"]*)", \(\) => import\(', (scripts / "screens.js").read_text(), re.M)
    assert {"/" + pattern.split("/")[1] for pattern in patterns} == set(CONSOLE_PATHS)
    screens = [re.compile("^" + re.sub(r":\w+", "[^/]+", pattern) + "$") for pattern in patterns]
    menus = (scripts / "menu.js").read_text() + (scripts / "my_tabs.js").read_text()
    linked = re.findall(r'path: "(/[^"]*)"', menus)
    assert len(linked) >= 10 and [path for path in linked if not any(s.match(path) for s in screens)] == []


def test_other_paths_keep_the_api_s_answers(demo_office):
    assert error_of(*demo_office.get("/agendas")) == (404, "not_found")
    assert error_of(*demo_office.get("/nothing/here")) == (404, "not_found")
    assert demo_office.get("/v1/")[0] == 200 and demo_office.get("/v1/docs")[0] == 200
    assert demo_office.get("/signin")[0] == 200


def test_assets_have_hashed_urls_cached_a_year_compressed_with_an_etag(demo_office):
    assets = assets_of(demo_office)
    assert {url.rsplit("/", 1)[1] for url in assets} >= {"console.css", "main.js"}
    for url in (url for url in assets if not url.endswith(".png")):  # a PNG is sent as it is: gzip gains nothing
        status, headers, body = demo_office.get(url, {"Accept-Encoding": "gzip"})
        assert status == 200 and headers["Cache-Control"] == "public, max-age=31536000, immutable"
        assert headers["Content-Encoding"] == "gzip" and "Accept-Encoding" in headers["Vary"]
        _, plain_headers, plain = demo_office.get(url)
        assert gzip.decompress(body) == plain and "Content-Encoding" not in plain_headers
        assert demo_office.get(url, {"If-None-Match": plain_headers["ETag"]})[0] == 304
    script = next(url for url in assets if url.endswith("/main.js"))
    assert demo_office.get(script)[1]["Content-Type"].startswith("text/javascript")


@pytest.mark.parametrize(
    "path",
    [
        "console/nothing.js",
        "console/../../app.py",
        "console/%2e%2e/%2e%2e/app.py",
        "..%2Fapp.py",
        "console%2F..%2F..%2Fapp.py",
        "console/",
        "console",
        "",
    ],
)
def test_unknown_files_and_paths_out_of_the_tree_are_404_envelopes(demo_office, path):
    digest = assets_of(demo_office)[0].split("/")[2]
    assert error_of(*demo_office.get(f"/static/{digest}/{path}")) == (404, "not_found")


def test_an_asset_under_another_digest_is_not_found(demo_office):
    url = assets_of(demo_office)[0]
    assert error_of(*demo_office.get(re.sub(r"/static/[0-9a-f]{16}/", "/static/0123456789abcdef/", url))) == (
        404,
        "not_found",
    )


# --- in the browser -----------------------------------------------------------------------------------------


def gigs_of_this_month(office):
    today = dt.date.today()
    first = today.replace(day=1)
    last = (first + dt.timedelta(days=32)).replace(day=1) - dt.timedelta(days=1)
    query = {"filter[gig_date][gte]": first.isoformat(), "filter[gig_date][lte]": last.isoformat(), "limit": 200}
    return office.api("/gigs?" + urllib.parse.urlencode(query))["data"]


@pytest.mark.browser
@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_agenda_lists_this_month_s_gigs_and_passes_axe(demo_office, signed_in, viewport):
    page = signed_in(viewport=viewport)
    page.goto(demo_office.url("/"))
    expect(page).to_have_url(re.compile(r"/agenda$"))
    titles = sorted(gig["title"] for gig in gigs_of_this_month(demo_office))
    assert titles, "the demo has gigs this month"
    rows = page.locator(".gig-row .gig-title")
    expect(rows).to_have_count(len(titles))
    assert sorted(rows.all_inner_texts()) == titles
    expect(page.get_by_role("heading", level=1)).to_have_text(dt.date.today().strftime("%B %Y"))
    assert serious_accessibility_violations(page) == []


@pytest.mark.browser
def test_the_menu_shows_what_can_allows(demo_office, signed_in):
    def menu_of(email):
        page = signed_in(email)
        page.goto(demo_office.url("/agenda"))
        expect(page.get_by_role("heading", level=1)).to_be_visible()
        return page.get_by_role("navigation", name="Main menu").get_by_role("link").all_inner_texts()

    admin = ["Band Office", "Agenda", "Staffing", "People", "Pay", "Money", "Records", "Admin"]
    assert menu_of("admin@band.example") == admin
    assert menu_of("viewer@band.example") == ["Band Office", "Agenda", "Staffing", "People", "Pay", "Money", "Records"]


@pytest.mark.browser
def test_a_musician_starts_at_their_own_gigs(demo_office, signed_in):
    page = signed_in("staff@band.example")
    page.goto(demo_office.url("/"))
    expect(page).to_have_url(re.compile(r"/my$"))
    menu = page.get_by_role("navigation", name="Main menu")
    expect(menu.get_by_role("link")).to_have_text(["Band Office", "My gigs"])  # no Records: no office work


@pytest.mark.browser
def test_reload_back_and_forward_keep_the_screen(demo_office, signed_in):
    page = signed_in()
    page.goto(demo_office.url("/agenda"))
    heading = page.get_by_role("heading", level=1)
    this_month = dt.date.today().strftime("%B %Y")
    expect(heading).to_have_text(this_month)
    page.get_by_role("link", name=re.compile("^Next month")).click()
    expect(page).to_have_url(re.compile(r"/agenda\?month=\d{4}-\d{2}$"))
    next_month = heading.inner_text()
    assert next_month != this_month
    page.reload()
    expect(heading).to_have_text(next_month)
    page.go_back()
    expect(heading).to_have_text(this_month)
    page.go_forward()
    expect(heading).to_have_text(next_month)
    page.get_by_role("link", name="Staffing").click()
    expect(page).to_have_url(re.compile(r"/staffing$"))
    expect(heading).not_to_have_text(next_month)
    expect(heading).to_be_focused()
    page.go_back()
    expect(heading).to_have_text(next_month)
    page.goto(demo_office.url("/records/no/such/screen/here"))
    expect(heading).to_have_text("Not found")


@pytest.mark.browser
def test_keys_open_the_search_the_list_of_keys_and_the_screens(demo_office, signed_in):
    page = signed_in()
    page.goto(demo_office.url("/agenda"))
    expect(page.get_by_role("heading", level=1)).to_be_visible()
    page.keyboard.press("/")
    search = page.get_by_role("searchbox", name="Search gigs, people and venues")
    expect(search).to_be_focused()
    search.fill("Hofer")
    hits = page.get_by_role("region", name="Staff members").get_by_role("link")
    expect(hits).to_have_text(["Lena Hofer"])
    search.press("Escape")
    page.get_by_role("heading", level=1).click()
    page.keyboard.press("?")
    dialog = page.get_by_role("dialog", name="Keyboard shortcuts")
    expect(dialog).to_be_visible()
    assert serious_accessibility_violations(page) == []
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    page.keyboard.press("g")
    page.keyboard.press("p")
    expect(page).to_have_url(re.compile(r"/people$"))


@pytest.mark.browser
@pytest.mark.parametrize("token", ["bok_not-a-real-key", "revoked"])
def test_a_bad_token_goes_to_sign_in_and_names_the_way_back(demo_office, signed_in, token):
    if token == "revoked":
        token = demo_office.key_of("office@band.example")
        revoked = signed_in(token=token)
        revoked.goto(demo_office.url("/agenda"))
        expect(revoked.get_by_role("heading", level=1)).to_be_visible()
        revoked.get_by_role("button", name="Sign out").click()
        expect(revoked).to_have_url(re.compile(r"/signin$"))
        assert revoked.evaluate("() => sessionStorage.getItem('band-office.session')") is None
    page = signed_in(token=token)
    page.goto(demo_office.url("/agenda?month=2026-05"))
    expect(page).to_have_url(demo_office.url("/signin?next=" + urllib.parse.quote("/agenda?month=2026-05", safe="")))


@pytest.mark.browser
def test_the_first_load_is_at_most_250_kb_compressed(demo_office, signed_in):
    page = signed_in()
    requested = []
    page.on("request", lambda request: requested.append(request.url))
    page.goto(demo_office.url("/agenda"))
    expect(page.locator(".gig-row").first).to_be_visible()
    own = [url for url in requested if not url.startswith(demo_office.url("/v1/"))]
    assert any(url.endswith("/main.js") for url in own) and any(url.endswith("/console.css") for url in own)
    sizes = {
        url: len(demo_office.get(url.removeprefix(demo_office.origin), {"Accept-Encoding": "gzip"})[2]) for url in own
    }
    assert sum(sizes.values()) <= FIRST_LOAD_BUDGET, sizes


@pytest.mark.browser
def test_a_follower_of_a_gig_hears_of_its_changes_and_only_its_own(demo_office, signed_in):
    page = signed_in()
    page.goto(demo_office.url("/agenda"))
    followed, other = gigs_of_this_month(demo_office)[:2]
    module = next(url for url in assets_of(demo_office) if url.endswith("/main.js")).replace("main.js", "follow.js")
    listen = """async ([module, id]) => {
        const { follow } = await import(module);
        window.heard = [];
        follow({ gig_id: id }, (events) => window.heard.push(...events));
    }"""
    with page.expect_response(lambda response: "/v1/events" in response.url):  # where the stream stands now
        page.evaluate(listen, [module, followed["id"]])
    for gig in (other, followed):
        demo_office.api(f"/gigs/{gig['id']}", method="PATCH", body={"guest_count": 99})
    with page.expect_response(lambda response: "/v1/events" in response.url):
        page.evaluate("() => document.dispatchEvent(new Event('visibilitychange'))")  # polls at once
    page.wait_for_function("() => window.heard.length > 0")
    heard = page.evaluate("() => window.heard")
    assert [(event["type"], event["gig_id"], event["changes"]["guest_count"]["to"]) for event in heard] == [
        ("gig.updated", followed["id"], 99)
    ]


@pytest.mark.browser
def test_a_lost_connection_and_a_503_say_retrying_and_are_retried(demo_office, signed_in):
    page = signed_in()
    failures = ["lost", "busy"]

    def flaky(route):
        failure = failures.pop(0) if failures else None
        if failure == "lost":
            route.abort("connectionreset")
        elif failure == "busy":
            body = {"error": {"code": "unavailable", "message": "Busy.", "status": 503}}
            route.fulfill(status=503, headers={"Retry-After": "1"}, json=body)
        else:
            route.continue_()

    page.route(re.compile(r"/v1/gigs\?"), flaky)
    page.goto(demo_office.url("/agenda"))
    expect(page.get_by_role("status").filter(has_text="Retrying…")).to_be_visible()
    expect(page.locator(".gig-row").first).to_be_visible()
    expect(page.locator(".retrying")).to_have_text("")
    assert failures == []
