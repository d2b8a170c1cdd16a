"""SPEC §13, the band's app on the phone: installable and opening with no connection. The service worker at /sw.js
(made of static/console/sw/*.js), the web app manifest and its icons, the last-loaded pages kept and answered "as
of" their time when the network is cut, writes refused at once while offline, and the kept copies forgotten on
sign-out. In Debian's Chromium at a phone's size, as the demo musician; any console error, page error or CSP
violation fails a browser test."""

import pytest
from playwright.sync_api import expect

from tests.support import console
from tests.support.console import PHONE

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

    def open_page():
        context = console.open_context(browser, demo_office.keys[MUSICIAN], MUSICIAN, PHONE, service_workers="allow")
        contexts.append(context)
        return context.new_page()

    yield open_page
    for context in contexts:
        context.close()
    assert [problem for context in contexts for problem in context.problems.unexpected()] == []




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


# --- in the browser -------------------------------------------------------------------------------------------


def test_the_worker_installs_and_controls_the_page(demo_office, phone):
    page = phone()
    page.goto(demo_office.url("/my"))
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=30000)
    scope = page.evaluate("async () => (await navigator.serviceWorker.getRegistration()).scope")
    assert scope == demo_office.url("/")
