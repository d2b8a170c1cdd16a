"""The console in headless Chromium for the scripts (screenshots.py, console_bench.py): Debian's chromium driven
by Playwright, and pages of a context signed in with an API key, handed to the console as the /signin page hands
a session (under `band-office.session` in the tab's sessionStorage)."""

import contextlib
import json
import os
import shutil

from playwright.sync_api import sync_playwright

SESSION_KEY = "band-office.session"
SEED_SESSION = """
try {
  if (!sessionStorage.getItem(%(key)s)) sessionStorage.setItem(%(key)s, %(session)s);
} catch {}
"""


def chromium_path():
    found = os.environ.get("BAND_TEST_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        raise SystemExit("no chromium here: apt-get install chromium")
    return found


@contextlib.contextmanager
def browser():
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=chromium_path())
        try:
            yield launched
        finally:
            launched.close()


def signed_in_context(browser, token, viewport, device_scale_factor=1, locale="en-GB"):
    """A context whose pages hold a session of `token` for the console."""
    context = browser.new_context(viewport=viewport, device_scale_factor=device_scale_factor, locale=locale)
    session = {"token": token, "expires_at": "2099-01-01T00:00:00Z", "user": {"id": None, "name": None, "email": None}}
    seed = SEED_SESSION % {"key": json.dumps(SESSION_KEY), "session": json.dumps(json.dumps(session))}
    context.add_init_script(seed)
    return context
