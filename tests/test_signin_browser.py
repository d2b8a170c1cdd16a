"""SPEC §12, sign-in and first run in a real browser (Debian's chromium, driven by Playwright) on a served office: the
mailed link hands the session to the console (this tab's sessionStorage, or localStorage when "Stay signed in here"
is ticked) and opens the place the console sent the person from, leaving no token in the address bar
or the history; a `next` that is not a path of this site opens `/`. An app installed on a phone's home screen (whose
storage an iPhone keeps apart from Safari's, where the link opens) signs in with the link pasted; a link pasted into
the address bar of the sign-in tab signs in without a reload. On a database with
no admin, `serve` prints a setup link whose page names the first admin and signs them in, once."""

import json
import re
import urllib.parse
import urllib.request
import uuid

import pytest
from playwright.sync_api import expect

from tests.support import pages
from tests.support.mail import mailed_signin_link
from tests.support.served import OPENER, UNHURRIED, ServedOffice, Service
from tests.support.waiting import SLOW_MACHINE_SECONDS, wait_for

SESSION_KEY = "band-office.session"
HOSTILE = "<img src=x onerror=alert(1)> \u202eAda"
SETUP_LINK = re.compile(r"\S+/setup#token=\S+")


@pytest.fixture
def context(browser):
    """A browser whose pages' script errors fail the test (`pages.watched`). The console's service worker is kept
    out: a test ending as the console opens would close the context while the worker's script is fetched."""
    with pages.watched(browser, service_workers="block") as context:
        yield context


@pytest.fixture(scope="module")
def office(tmp_path_factory):
    """One office for the module's tests: each signs in a member of its own."""
    path = tmp_path_factory.mktemp("signin")
    mail = path / "mail"
    settings = {**UNHURRIED, "BAND_MAIL_URL": f"file:{mail}", "BAND_AUTH_RATE_LIMIT": "1000/minute"}
    office = ServedOffice(path, **settings).start()
    office.mail, office.origin = mail, office.service.public_url
    yield office
    office.service.stop()


def member(office, name="Sam Player"):
    """A new user with no access role: its address."""
    address = f"u{uuid.uuid4().hex}@example.com"
    office.call("POST", "/users", {"email": address, "name": name, "roles": []})
    return address


def ask_for_link(office, address):
    body = json.dumps({"email": address}).encode()
    status, _, _ = office.service.request("POST", "/auth/link", body, {"Content-Type": "application/json"})
    assert status == 200
    return mailed_signin_link(office.mail, address)


def with_next(link, next_path):
    return link.replace("/signin#", f"/signin?next={urllib.parse.quote(next_path, safe='')}#", 1)


def stored(page, storage):
    text = page.evaluate(f"{storage}.getItem('{SESSION_KEY}')")
    return json.loads(text) if text else None


def me(service, token):
    status, _, body = service.request("GET", "/me", headers={"Authorization": f"Bearer {token}"})
    assert status == 200, body
    return json.loads(body)["data"]


def left_no_token(page, entries):
    """No token in the address, nor in the history: the link's entry (one of `entries`) was replaced."""
    assert "token" not in page.evaluate("location.href") and page.evaluate("history.length") == entries
    page.go_back()
    assert "token" not in page.url, page.url


def console_home(origin):
    """Whether a URL is the console's home: `/`, or the person's home screen the console opens from there."""
    return lambda url: url in (f"{origin}/", f"{origin}/agenda", f"{origin}/my")


def test_the_mailed_link_opens_the_console_where_the_person_was_with_a_session_for_this_tab(context, office):
    address = member(office, "Sam Player")
    asking = context.new_page()
    asking.goto(f"{office.origin}/signin?next={urllib.parse.quote('/gigs?month=2027-06', safe='')}")
    asking.fill("#email", address)
    asking.get_by_role("button", name="Send me a link").click()
    expect(asking.locator("#outcome")).to_contain_text("on its way")
    tab = context.new_page()  # the mail's link opens in a tab of its own
    tab.goto(mailed_signin_link(office.mail, address))
    entries = tab.evaluate("history.length")
    expect(tab.get_by_label("Stay signed in here")).not_to_be_checked()
    tab.get_by_role("button", name="Sign in", exact=True).click()
    tab.wait_for_url(f"{office.origin}/gigs?month=2027-06")
    session = stored(tab, "sessionStorage")
    assert set(session) == {"token", "expires_at", "user"} and set(session["user"]) == {"id", "name", "email"}
    assert session["user"]["email"] == address and stored(tab, "localStorage") is None
    assert me(office.service, session["token"])["email"] == address
    assert tab.evaluate("localStorage.getItem('band-office.next')") is None  # used up
    left_no_token(tab, entries)


def test_keep_me_signed_in_keeps_the_session_in_local_storage(context, office):
    address = member(office)
    page = context.new_page()
    page.goto(with_next(ask_for_link(office, address), "/people/staff?sort=name#top"))
    entries = page.evaluate("history.length")
    page.get_by_label("Stay signed in here").check()
    page.get_by_role("button", name="Sign in", exact=True).click()
    page.wait_for_url(f"{office.origin}/people/staff?sort=name#top")
    session = stored(page, "localStorage")
    assert me(office.service, session["token"])["email"] == address and stored(page, "sessionStorage") is None
    left_no_token(page, entries)


@pytest.mark.parametrize(
    "next_path",
    [
        *(
            "//evil.example",
            "https://evil.example/",
            "/\\evil.example",
            "javascript:alert(1)",
            "/\t/evil.example",
            "gigs",
        ),
        *("/.//evil.example/x", "/..//evil.example/x", "/%2F%2Fevil.example"),
    ],
)
def test_a_next_that_is_not_a_path_of_this_site_opens_the_console_home(context, office, next_path):
    page = context.new_page()
    page.goto(with_next(ask_for_link(office, member(office)), next_path))
    page.get_by_role("button", name="Sign in", exact=True).click()
    page.wait_for_url(console_home(office.origin))
    assert stored(page, "sessionStorage")["token"].startswith("bos_")


def test_a_next_kept_in_storage_is_checked_too(context, office):
    page = context.new_page()
    page.goto(ask_for_link(office, member(office)))
    page.evaluate("localStorage.setItem('band-office.next', '//evil.example')")
    page.get_by_role("button", name="Sign in", exact=True).click()
    page.wait_for_url(console_home(office.origin))


def test_a_programmer_can_still_see_the_token_for_a_client(context, office):
    address = member(office, HOSTILE)
    page = context.new_page()
    page.goto(ask_for_link(office, address))
    page.get_by_text("For programmers: a session token").click()
    page.get_by_role("button", name="Sign in and show the token").click()
    token = page.locator("#outcome code").inner_text()
    assert me(office.service, token)["email"] == address
    expect(page.locator("#outcome strong")).to_have_text(HOSTILE)  # the name as text
    assert page.locator("img").count() == 0 and stored(page, "sessionStorage") is None
    assert "token=" not in page.evaluate("location.href")


PHONE = {"width": 390, "height": 844}
PASTE_FIELD = "The sign-in link from the mail"


def signed_out_app(context, office):
    """The app installed on a phone, with no session of its own: the console sends it to its sign-in screen."""
    page = context.new_page()
    page.set_viewport_size(PHONE)
    page.goto(f"{office.origin}/my")
    page.wait_for_url(re.compile(r"/signin\?next="))
    return page


def posts_to_confirm(page):
    """The POSTs this page makes to /v1/auth/confirm, as they happen."""
    posted = []
    page.on("request", lambda request: request.method == "POST" and "/auth/confirm" in request.url and posted.append(1))
    return posted


def test_the_app_on_a_phone_signs_in_by_pasting_the_mailed_link(context, office):
    address = member(office)
    app = signed_out_app(context, office)
    app.fill("#email", address)
    app.get_by_role("button", name="Send me a link").click()
    expect(app.locator("#outcome")).to_contain_text("paste it below")
    link = mailed_signin_link(office.mail, address)  # long-pressed and copied in the phone's mail
    app.get_by_label(PASTE_FIELD).fill(link)
    app.get_by_role("button", name="Use this link").click()
    expect(app.get_by_label("Stay signed in here")).to_be_focused()
    app.get_by_label("Stay signed in here").check()
    app.get_by_role("button", name="Sign in", exact=True).click()
    app.wait_for_url(f"{office.origin}/my")
    session = stored(app, "localStorage")
    assert me(office.service, session["token"])["email"] == address and stored(app, "sessionStorage") is None


def test_the_bare_token_pasted_signs_in_too_with_the_keyboard_alone(context, office):
    address = member(office)
    token = ask_for_link(office, address).split("#token=", 1)[1]
    app = signed_out_app(context, office)
    app.get_by_label(PASTE_FIELD).fill(f"  {token}\n")
    app.keyboard.press("Enter")
    expect(app.get_by_label("Stay signed in here")).to_be_focused()
    app.keyboard.press("Space")
    app.keyboard.press("Tab")
    app.keyboard.press("Enter")
    app.wait_for_url(f"{office.origin}/my")
    assert me(office.service, stored(app, "localStorage")["token"])["email"] == address


@pytest.mark.parametrize(
    ("pasted", "said"),
    [
        ("https://evil.example/signin#token={token}", "This link leads to another site, not to this office."),
        ("javascript:alert(1)//#token={token}", "This link leads to another site, not to this office."),
        ("{origin}/signin", "This link holds no sign-in token."),
        ("{origin}/setup#token={token}", "This link holds no sign-in token."),
        ("{origin}/signin#token=", "This link holds no sign-in token."),
        ("See you at the gig on Saturday!", "This is not a sign-in link, nor its token."),
        ("", "Paste the link from the mail first."),
    ],
)
def test_a_paste_that_is_not_this_offices_link_is_refused_in_words_and_posts_nothing(context, office, pasted, said):
    address = member(office)
    token = ask_for_link(office, address).split("#token=", 1)[1]
    app = signed_out_app(context, office)
    posted = posts_to_confirm(app)
    app.get_by_label(PASTE_FIELD).fill(pasted.format(token=token, origin=office.origin))
    app.get_by_role("button", name="Use this link").click()
    expect(app.locator("#paste-problem")).to_contain_text(said)
    expect(app.locator("#paste-problem")).to_contain_text(f"it starts with {office.origin}/signin#token=")
    expect(app.get_by_label(PASTE_FIELD)).to_have_attribute("aria-invalid", "true")
    expect(app.get_by_label(PASTE_FIELD)).to_be_focused()
    expect(app.get_by_role("button", name="Sign in", exact=True)).to_be_hidden()
    assert posted == []
    body = json.dumps({"token": token}).encode()  # the link was not spent
    status, _, _ = office.service.request("POST", "/auth/confirm", body, {"Content-Type": "application/json"})
    assert status == 200


def page_text(service, path):
    with OPENER.open(service.public_url + path, timeout=10) as r:
        return r.read().decode()


def test_serve_on_an_empty_database_prints_a_setup_link_that_names_the_first_admin_once(context, tmp_path):
    service = Service(tmp_path).start()
    try:
        link = wait_for(lambda: SETUP_LINK.search(service.output()), timeout=SLOW_MACHINE_SECONDS)[0]
        page = context.new_page()
        page.goto(link)
        page.get_by_label("Your name").fill(HOSTILE)
        page.get_by_label("Your e-mail address").fill("Ada@Example.com")
        page.get_by_label("Stay signed in here").check()
        page.get_by_role("button", name="Create the admin and sign in").click()
        page.wait_for_url(console_home(service.public_url))
        session = stored(page, "localStorage")
        admin = me(service, session["token"])
        assert admin["name"] == HOSTILE and admin["email"] == "ada@example.com" and admin["roles"] == ["admin"]
        assert session["user"]["name"] == HOSTILE and "token" not in page.evaluate("location.href")
        again = context.new_page()
        again.goto(link)
        expect(again.locator("main")).to_contain_text("has an admin already")
        body = json.dumps({"token": link.split("#token=")[1], "name": "Eve", "email": "eve@example.com"}).encode()
        status, _, answer = service.request("POST", "/auth/setup", body, {"Content-Type": "application/json"})
        assert status == 409 and json.loads(answer)["error"]["details"]["reason"] == "already_set_up"
    finally:
        service.stop()


def test_serve_prints_no_setup_link_once_an_admin_exists(tmp_path):
    service = Service(tmp_path)
    assert service.run("create-user", "ops@example.com", "--name", "Ops", "--role", "admin").returncode == 0
    service.start()
    try:
        assert "has an admin already" in page_text(service, "/setup")
    finally:
        service.stop()
    assert "/setup#token=" not in service.output() and "no admin yet" not in service.output()


def test_a_link_pasted_into_the_address_bar_of_the_same_tab_signs_in_without_a_reload(context, office):
    address = member(office)
    page = context.new_page()
    page.goto(f"{office.origin}/signin")
    page.fill("#email", address)
    page.get_by_role("button", name="Send me a link").click()
    expect(page.locator("#outcome")).to_contain_text("on its way")
    page.evaluate("window.loadedOnce = true")
    page.goto(mailed_signin_link(office.mail, address))  # only the fragment changes: the same page stays
    assert page.evaluate("window.loadedOnce") is True
    expect(page.locator("#outcome")).to_be_empty()
    page.get_by_role("button", name="Sign in", exact=True).click()
    page.wait_for_url(console_home(office.origin))
    assert me(office.service, stored(page, "sessionStorage")["token"])["email"] == address
