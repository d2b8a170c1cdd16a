"""The service's HTML pages as a test reads them: their elements and their Content-Security-Policy; and Debian's
chromium, to open them in a real browser."""

import asyncio
import contextlib
import os
import shutil
from html.parser import HTMLParser
from pathlib import Path

import pytest
from playwright.sync_api import expect, sync_playwright

# How long an `expect` may wait for what it expects: a deadline, not a wait (what is there already passes at once);
# on a busy CI machine (a suite's workers on two cores) a page's request can take seconds where alone it takes ms.
expect.set_options(timeout=15_000)


class Elements(HTMLParser):
    """Every start tag of a page with its attributes, in order."""

    def __init__(self, page):
        super().__init__()
        self.tags = []
        self.feed(page)

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))

    def find(self, tag, **wanted):
        return [attrs for name, attrs in self.tags if name == tag and wanted.items() <= attrs.items()]

    def load_from_elsewhere(self):
        """The tags that load something (a source, a form's action) or run inline code (an on… handler), and links
        anywhere but to a page of this site (the app's name leads home): none, on a page that loads nothing."""
        return [
            (tag, attrs)
            for tag, attrs in self.tags
            if {"src", "action"} & attrs.keys()
            or any(name.startswith("on") for name in attrs)
            or ("href" in attrs and not (tag == "a" and attrs["href"].startswith("/") and attrs["href"][1:2] != "/"))
        ]


def csp_directives(header):
    """`default-src 'none'; script-src 'sha256-…'` -> {"default-src": ["'none'"], "script-src": [...]}."""
    parts = (directive.split() for directive in header.split(";"))
    return {words[0].lower(): words[1:] for words in parts if words}


def chromium(whole=False):
    """Debian's `chromium-headless-shell`: Chromium's page engine without the browser around it, which costs about half
    the CPU per page of the whole browser run headless (a test module 62 -> 32 CPU-s); or, with `whole`, Debian's
    `chromium`, for what only the browser has (notifications and push, an app's installability). Either may be named
    by `BAND_TEST_HEADLESS_SHELL` / `BAND_TEST_CHROMIUM`; a machine with the whole browser alone uses it for both. A
    skip where there is none, a failure under CI (.ci/run installs both)."""
    whole_browser = os.environ.get("BAND_TEST_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    shell = os.environ.get("BAND_TEST_HEADLESS_SHELL") or shutil.which("chromium-headless-shell")
    found = whole_browser if whole else shell or (None if os.environ.get("CI") else whole_browser)
    if found is None and os.environ.get("CI"):
        pytest.fail("no chromium in CI: .ci/run installs Debian's chromium and chromium-headless-shell packages")
    if found is None:
        pytest.skip("no chromium on this machine (apt-get install chromium chromium-headless-shell)")
    return found


PICTURES = os.environ.get("CONSOLE_SHOTS")  # a folder for the tests' pictures of their screens (docs/screenshots)


def picture(target, name, **options):
    """A picture of `target` (a page or an element) as `name`.png in the folder CONSOLE_SHOTS names, to be looked at
    or kept in docs/screenshots/; none without it (a picture costs the browser a few tenths of a CPU-second and would
    change the repository's files on every run)."""
    if PICTURES:
        Path(PICTURES).mkdir(parents=True, exist_ok=True)
        target.screenshot(path=str(Path(PICTURES) / f"{name}.png"), animations="disabled", caret="hide", **options)


def picture_at_width(page, name):
    """The whole of `page` as `name`-<its width>.png (see `picture`)."""
    picture(page, f"{name}-{page.viewport_size['width']}", full_page=True)


@pytest.fixture(scope="session")
def playwright_driver():
    """Playwright's driver for the tests of a process (tests/conftest.py brings it), shared by its browsers (a second
    driver cannot start while one runs), started for the first test that needs one: a driver and a browser cost
    ~0.7 CPU-s to start. Its sync API keeps an event loop running in the test process, in which `asyncio.run()`
    cannot start: while a test that uses no browser runs, the loop is set aside (`loop_set_aside_for`)."""
    with sync_playwright() as driver:
        yield driver


@contextlib.contextmanager
def loop_set_aside_for(item):
    """While the test `item` is set up and run, if it uses no browser: the driver's event loop is not the running one
    (it runs only while a test speaks to a browser), so that the test, or the code it runs, may start its own with
    `asyncio.run()`. Not while it is torn down: a module's browser contexts may be closed then."""
    loop = asyncio.events._get_running_loop()
    if loop is None or "playwright_driver" in item.fixturenames:
        yield
        return
    asyncio.events._set_running_loop(None)
    try:
        yield
    finally:
        asyncio.events._set_running_loop(loop)


LAUNCHED = []  # the process's browsers


def close_contexts_left():
    """Close the contexts a module's tests left open in the process's browsers (their pages may still be asking a
    server that module stopped)."""
    for launched in LAUNCHED:
        for context in launched.contexts:
            context.close()


@pytest.fixture(scope="session")
def browser(playwright_driver):
    """Debian's chromium-headless-shell driven by Playwright, one for the tests of a process (each opens contexts of
    its own)."""
    launched = playwright_driver.chromium.launch(executable_path=chromium())
    LAUNCHED.append(launched)
    yield launched
    launched.close()


@pytest.fixture(scope="session")
def whole_browser(playwright_driver):
    """Debian's whole chromium, headless, for tests that need what only the browser has (see `chromium`)."""
    launched = playwright_driver.chromium.launch(executable_path=chromium(whole=True))
    LAUNCHED.append(launched)
    yield launched
    launched.close()


@contextlib.contextmanager
def watched(browser, **options):
    """A context of `browser` (with Playwright's `options`) whose pages' script errors, a CSP refusal say, fail the
    test once it is closed; Chromium's line for every answer of 4xx ("Failed to load resource") aside: the pages
    expect those."""
    context = browser.new_context(**options)
    problems = []
    context.on("console", lambda message: message.type == "error" and problems.append(message.text))
    context.on("weberror", lambda error: problems.append(str(error.error)))
    yield context
    context.close()
    assert [problem for problem in problems if not problem.startswith("Failed to load resource:")] == []
