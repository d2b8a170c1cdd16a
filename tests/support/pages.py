"""The service's HTML pages as a test reads them: their elements and their Content-Security-Policy; and Debian's
chromium, to open them in a real browser."""

import contextlib
import os
import shutil
from html.parser import HTMLParser

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


def chromium():
    """Debian's chromium, or a skip when there is none here (CI installs it: .ci/run)."""
    found = os.environ.get("BAND_TEST_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None and os.environ.get("CI"):
        pytest.fail("no chromium in CI: .ci/run installs Debian's chromium package")
    if found is None:
        pytest.skip("no chromium on this machine (apt-get install chromium) to run the answer page in a browser")
    return found


@pytest.fixture(scope="module")
def browser():
    """Debian's chromium driven by Playwright, one for a test module."""
    executable = chromium()
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=executable)
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
