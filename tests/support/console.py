"""The office console as a test drives it: the demo office served by `app.py serve`, signed-in browser contexts
(an API key of a demo user handed to the console as the /signin page hands a session: under SESSION_KEY in
sessionStorage), a collector that fails a test on any console error, page error or CSP violation, and axe-core's
check for serious or critical accessibility violations."""

import json
import urllib.request
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from demo.data import USERS as DEMO_USERS
from tests.support import postgresql
from tests.support.served import ANSWER_SECONDS, LOOPBACK_PUSH, OPENER, UNHURRIED, Service, once_a_process

SESSION_KEY = "band-office.session"
AXE = Path(__file__).parent / "vendor" / "axe.min.js"
# The demo band the tests see, whatever the day: drawn on this day's calendar, placed around today (the server's
# clock says what is upcoming and which invitations wait)
SEASON_OF = "2026-11-28"
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}

# Reported as a console event of its own; a console error log is what Chromium shows too
REPORT_CSP_VIOLATIONS = """
document.addEventListener("securitypolicyviolation", (event) => {
  console.error(`CSP violation: ${event.violatedDirective} blocked ${event.blockedURI}`);
});
"""

# Once per tab, as the /signin page would hand it over: what the console then does to it (sign-out) stays done.
# about:blank, where a new page starts, has no storage of its own.
SEED_SESSION = """
try {
  if (!sessionStorage.getItem("tests.seeded")) {
    sessionStorage.setItem(%s, %s);
    sessionStorage.setItem("tests.seeded", "yes");
  }
} catch {}
"""


class Keys(dict):
    def __init__(self, office):
        super().__init__()
        self.office = office

    def __missing__(self, email):
        self[email] = self.office.key_of(email)
        return self[email]


@once_a_process
def demo_template(folder):
    """The demo office (`app.py demo`, the band of SEASON_OF) with an API key for each of the band's own users
    (…@band.example, in one process, as a process costs more than all they ask): (its BAND_DB, {email: key}). Each
    DemoOffice serves a copy: making it costs a few CPU-seconds, a copy hundredths."""
    demo = postgresql.new_location(folder, "demo", kept=True)
    maker = Service(folder)
    made = maker.run("demo", demo, "--season-of", SEASON_OF)
    assert made.returncode == 0, made.stderr
    maker.env["BAND_DB"] = demo
    users = [email for email, _, _, active in DEMO_USERS if active and email.endswith("@band.example")]
    keys = maker.run_all(*(["create-api-key", email, "--label", "console tests"] for email in users))
    return demo, dict(zip(users, (key.strip() for key in keys), strict=True))


class DemoOffice:
    """A copy of the demo office (`demo_template`) served on a free port; `keys[email]`, an API key of a demo user:
    the band's own users' from the start, another's made when first asked for (a process of its own: a second or
    two on a busy machine). `settings` are BAND_* variables of the server."""

    def __init__(self, tmp_path, **settings):
        demo, keys = demo_template(tmp_path.parent / "demo-template")
        location = postgresql.location(tmp_path, template=demo)
        # no screen waits on timed work
        self.service = Service(tmp_path, **{**UNHURRIED, **LOOPBACK_PUSH, **settings, "BAND_DB": location})
        self.keys = Keys(self)
        self.keys.update(keys)
        self.service.start()
        self.origin = f"http://127.0.0.1:{self.service.port}"

    def key_of(self, email):
        made = self.service.run("create-api-key", email, "--label", "console tests")
        assert made.returncode == 0, made.stderr
        return made.stdout.strip()

    def url(self, path):
        return self.origin + path

    def get(self, path, headers=None):
        """(status, headers, body) of a GET of any path of the server (not only /v1)."""
        request = urllib.request.Request(self.url(path), headers=headers or {})
        try:
            with OPENER.open(request, timeout=ANSWER_SECONDS) as r:
                return r.status, r.headers, r.read()
        except urllib.error.HTTPError as e:
            return e.code, e.headers, e.read()

    def api(self, path, email="admin@band.example", method="GET", body=None):
        """The answer of a request to /v1 as the demo user `email`, which must succeed."""
        headers = {"Authorization": f"Bearer {self.keys[email]}", "Content-Type": "application/json"}
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.url("/v1" + path), data=data, method=method, headers=headers)
        try:
            with OPENER.open(request, timeout=ANSWER_SECONDS) as r:
                return json.loads(r.read())
        except urllib.error.HTTPError as e:
            raise AssertionError(f"{method} {path}: {e.code} {e.read().decode(errors='replace')}") from None


@pytest.fixture(scope="module")
def demo_office(tmp_path_factory):
    office = DemoOffice(tmp_path_factory.mktemp("console"))
    yield office
    office.service.stop()


class Problems:
    """What went wrong in a context's pages: console errors (CSP violations among them) and uncaught errors.
    Chromium logs every 4xx answer as "Failed to load resource": the console expects those (401, 404)."""

    def __init__(self, context):
        self.seen = []
        context.on("console", lambda message: message.type == "error" and self.seen.append(message.text))
        context.on("weberror", lambda error: self.seen.append(str(error.error)))

    def unexpected(self):
        return [problem for problem in self.seen if not problem.startswith("Failed to load resource:")]


def session_of(token, user_email):
    return {
        "token": token,
        "expires_at": "2099-01-01T00:00:00Z",
        "user": {"id": None, "name": None, "email": user_email},
    }


def open_context(browser, token=None, email=None, viewport=DESKTOP, locale="en-GB", service_workers="block"):
    """A browser context whose pages report CSP violations and, with a token, hold a session for the console. The
    console's service worker (/sw.js) is kept out unless `service_workers="allow"`: a test of a screen sees the server's
    own answers (and Playwright's page.route sees no request a service worker makes)."""
    context = browser.new_context(viewport=viewport, locale=locale, service_workers=service_workers)
    return watched(context, token, email)


def watched(context, token=None, email=None):
    """`context` (a new one, or a persistent context of a browser's own profile), its pages reporting CSP violations
    and, with a token, holding a session for the console; `context.problems` what went wrong in them."""
    context.add_init_script(REPORT_CSP_VIOLATIONS)
    if token is not None:
        session = json.dumps(json.dumps(session_of(token, email)))
        context.add_init_script(SEED_SESSION % (json.dumps(SESSION_KEY), session))
    context.problems = Problems(context)
    return context


@pytest.fixture
def signed_in(browser, demo_office):
    """open(email="admin@band.example", viewport=DESKTOP) -> a page of a context signed in as that demo user. At
    the end, any console error, page error or CSP violation in any of them fails the test."""
    contexts = []

    def open_page(email="admin@band.example", viewport=DESKTOP, token=None):
        """A new page signed in as the demo user `email`, or with `token` (an API key) if given."""
        context = open_context(browser, token or demo_office.keys[email], email, viewport)
        contexts.append(context)
        return context.new_page()

    yield open_page
    for context in contexts:
        for page in context.pages:  # a stand-in's answer still on its way when the page closes is nobody's
            page.unroute_all(behavior="ignoreErrors")
        context.close()
    assert [problem for context in contexts for problem in context.problems.unexpected()] == []


# The API paths the service worker keeps copies of, as a route sees them
API_ANSWERS = "**/v1/**"


def as_if_offline(page, kept_at):
    """Every API answer of `page` as the service worker gives its kept copy when the server cannot be reached: marked
    Band-Kept-At `kept_at`. All of them: one fresh answer among them tells the app it is online again (a screen's own
    and the shell's arrive in any order). `page.unroute(API_ANSWERS)` brings the server back."""

    def kept(route):
        answer = route.fetch()
        route.fulfill(response=answer, headers={**answer.headers, "band-kept-at": kept_at})

    page.route(API_ANSWERS, kept)


# A click on a link to `path`, as a user's on one of the console's links (its router shows the screen in the page);
# the screen shown before it (main's elements but the offline strip)
FOLLOW_LINK = """(path) => {
  const main = document.querySelector("main#main");
  const before = Array.from(main.querySelectorAll(":scope > :not(.offline-strip)"));
  const link = Object.assign(document.createElement("a"), { href: path });
  document.body.append(link);
  link.click();
  link.remove();
  return before;
}"""


def show(page, url):
    """The console's screen at `url` shown as a click on a link to it shows it, once the screen before it is gone:
    by the console's router, in the page (a page load costs the browser four times as much; a screen is loaded anew
    in the tests of its own module). A page not on the office's site yet, or showing this path already (another query
    changes a screen without a new one), loads `url`."""
    here, there = urlsplit(page.url), urlsplit(url)
    if (here.scheme, here.netloc) != (there.scheme, there.netloc) or here.path == there.path:
        page.goto(url)
        return
    before = page.evaluate_handle(FOLLOW_LINK, there.path + (f"?{there.query}" if there.query else ""))
    page.wait_for_function("(before) => before.every((element) => !element.isConnected)", arg=before)


def serious_accessibility_violations(page):
    """axe-core run on the page as it is: the serious and critical violations, each with where it is."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(AXE.read_text())
    violations = page.evaluate("async () => (await axe.run(document, {resultTypes: ['violations']})).violations")
    return [
        {"id": v["id"], "impact": v["impact"], "help": v["help"], "where": [node["target"] for node in v["nodes"]]}
        for v in violations
        if v["impact"] in ("serious", "critical")
    ]
