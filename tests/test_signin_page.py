"""SPEC §3: the /signin page a link opens, and the request-a-link form it offers when a link is spent or
missing; its inline script and style stay within the page's Content-Security-Policy (§2.3)."""

import base64
import hashlib
import re

import pytest

from tests.support.api import error_of
from tests.support.pages import Elements, csp_directives
from web.rate_limits import RateLimiter


@pytest.fixture
def page(anon):
    r = anon.get("/signin")
    assert r.status_code == 200 and r.mimetype == "text/html"
    return r


def test_without_a_link_the_page_offers_the_request_a_link_form_at_once(page):
    html = Elements(page.get_data(as_text=True))
    [form] = html.find("form", id="request-link")
    assert "hidden" not in form  # the script hides it only when the URL carries a token
    assert html.find("input", type="email", name="email", required=None)
    assert html.find("button", type="submit")
    [confirm_step] = html.find("section", id="confirm-step")
    assert "hidden" in confirm_step


def test_the_page_posts_where_the_api_answers_as_the_page_expects(app, anon, page):
    [main] = Elements(page.get_data(as_text=True)).find("main", id="signin")
    link_url, confirm_url = main["data-link-url"], main["data-confirm-url"]
    r = anon.post(link_url, json={"email": "nobody@example.com"})
    assert r.status_code == 200 and r.get_json() == {"data": {"sent": True}}
    spent = error_of(anon.post(confirm_url, json={"token": "bol_spent"}), 401, "unauthenticated")
    assert spent["message"]  # the page shows it
    app.extensions["auth_rate"] = RateLimiter(1, 60)
    anon.post(link_url, json={"email": "nobody@example.com"})
    r = anon.post(link_url, json={"email": "nobody@example.com"})
    error_of(r, 429, "rate_limited")
    assert r.headers["Retry-After"].isdigit()  # the page says how many seconds to wait


def test_the_page_loads_nothing_from_elsewhere_and_has_no_inline_event_handlers(page):
    text = page.get_data(as_text=True)
    assert Elements(text).load_from_elsewhere() == []
    assert "url(" not in text and "@import" not in text and "javascript:" not in text


def inline(page, tag):
    """(nonce or None, text) of each inline <tag>."""
    pattern = rf'<{tag}(?: type="module")?(?: nonce="([^"]*)")?>(.*?)</{tag}>'
    return [(nonce or None, text) for nonce, text in re.findall(pattern, page.get_data(as_text=True), flags=re.DOTALL)]


def csp_source(text):
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


@pytest.mark.parametrize("tag", ["script", "style"])
def test_the_pages_inline_script_and_style_are_allowed_by_its_content_security_policy(page, tag):
    """The policy restricts scripts and styles (§2.3) and names the page's own by nonce or hash, or the page
    stops working."""
    [(nonce, text)] = inline(page, tag)
    directives = csp_directives(page.headers.get("Content-Security-Policy", ""))
    allowed = directives.get(f"{tag}-src", directives.get("default-src"))
    assert allowed is not None and "'unsafe-inline'" not in allowed
    assert csp_source(text) in allowed or (nonce and f"'nonce-{nonce}'" in allowed), (allowed, nonce)


def test_the_page_is_never_cached_and_sends_no_referrer(page):
    assert page.headers["Cache-Control"] == "no-store" and page.headers["Referrer-Policy"] == "no-referrer"
