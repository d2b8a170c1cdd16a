"""SPEC §9 and §13, push to the musician's phone through the browser: /my/settings's switches, "Notify me on this
phone" registering the browser's subscription as a `web` device and "Stop notifications" removing it, the service
worker showing a push it is given, a tap on the notification opening what it is about (tapped on a stand-in
notification centre: tests/support/desktop_notifications.py), the push the office sends for a real invitation
(decrypted with the subscription's keys), and the words said where push cannot be. Debian's Chromium at
390 × 844, as the demo musician, on a demo office with VAPID set up; any console error, page error or CSP
violation fails a test.

Headless Chromium has no push service on a closed network, so the browser's push service (not ours) is stood in
for: PushManager's subscribe answers a subscription whose endpoint is the local Web Push test server
(tests/support/push_servers.py) and whose keys are that server's, real ECDH keys it decrypts with."""

import base64
import json
import os
import time

import pytest
from cryptography.hazmat.primitives import serialization
from playwright.sync_api import expect
from py_vapid import Vapid

from tests.support import console
from tests.support.console import DESKTOP, PHONE, DemoOffice, serious_accessibility_violations
from tests.support.database import connected
from tests.support.desktop_notifications import NotificationDesktop
from tests.support.pages import chromium, picture
from tests.support.push_servers import WebPushServer, b64url
from tests.support.waiting import SLOW_MACHINE_SECONDS, wait_for

MUSICIAN = "staff@band.example"
SUBJECT = "mailto:office@band.example"
LAN_HOST = "band-office.lan"  # resolved to 127.0.0.1 by the browser: a plain-HTTP address that is not localhost
TAP_TAKES_MS = SLOW_MACHINE_SECONDS * 1000  # D-Bus, the browser, the worker woken: on a busy machine, a while
pytestmark = pytest.mark.browser

# The browser's push service, stood in for: subscribe() answers a PushSubscription-like object for the test's
# subscription (kept for the tab in sessionStorage, as a browser keeps its own), getSubscription() that one.
STAND_IN_PUSH_SERVICE = """
(() => {
  const given = %s;
  const KEY = "tests.subscription";
  const made = () => ({
    endpoint: given.endpoint,
    expirationTime: null,
    options: { userVisibleOnly: true },
    toJSON: () => ({ endpoint: given.endpoint, expirationTime: null, keys: given.keys }),
    unsubscribe: async () => {
      sessionStorage.removeItem(KEY);
      sessionStorage.setItem("tests.unsubscribed", "yes");
      return true;
    },
  });
  PushManager.prototype.subscribe = async function (options) {
    const key = btoa(String.fromCharCode(...new Uint8Array(options.applicationServerKey)));
    sessionStorage.setItem(KEY, JSON.stringify({ userVisibleOnly: options.userVisibleOnly, key }));
    return made();
  };
  PushManager.prototype.getSubscription = async function () {
    return sessionStorage.getItem(KEY) ? made() : null;
  };
})();
"""


SHOWN_NOTIFICATIONS = """async () => {
  const shown = await (await navigator.serviceWorker.ready).getNotifications();
  return shown.map((n) => ({ title: n.title, body: n.body, tag: n.tag, data: n.data, icon: n.icon }));
}"""


@pytest.fixture(scope="module")
def vapid(tmp_path_factory):
    """The office's VAPID key pair: (the private key's PEM file, the public key as the web key gives it)."""
    key = Vapid()
    key.generate_keys()
    path = tmp_path_factory.mktemp("vapid") / "private_key.pem"
    key.save_key(str(path))
    point = key.public_key.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    return str(path), b64url(point)


@pytest.fixture(scope="module")
def push_service(vapid):
    server = WebPushServer(vapid[1], SUBJECT)
    yield server
    server.close()


@pytest.fixture(scope="module")
def office(tmp_path_factory, vapid):
    settings = {"BAND_VAPID_PRIVATE_KEY": vapid[0], "BAND_VAPID_SUBJECT": SUBJECT, "BAND_NOTIFY_DELAY_SECONDS": "1"}
    office = DemoOffice(tmp_path_factory.mktemp("push"), **settings)
    yield office
    office.service.stop()


@pytest.fixture(scope="module")
def browser(playwright_driver):
    """Chromium that resolves LAN_HOST to this machine, so that the office is also at a plain-HTTP LAN address."""
    launched = playwright_driver.chromium.launch(
        executable_path=chromium(whole=True), args=[f"--host-resolver-rules=MAP {LAN_HOST} 127.0.0.1"]
    )
    yield launched
    launched.close()


@pytest.fixture(scope="module")
def desktop(tmp_path_factory):
    """The phone's notification centre, stood in for: what Chromium shows there, and a tap on it."""
    desktop = NotificationDesktop(tmp_path_factory.mktemp("desktop"))
    yield desktop
    desktop.close()


@pytest.fixture
def own_phone(playwright_driver, desktop, office, tmp_path):
    """Chromium with a profile of its own (a tap finds its way back to a real profile only), its notifications shown
    on the stand-in `desktop`, signed in as the demo musician who ticked "keep me signed in" (the session in the
    profile's localStorage, as on the musician's own phone: a window the service worker opens is a new tab, which a
    tab's sessionStorage does not reach), notifications allowed: its persistent context. At the end, any console
    error, page error or CSP violation fails the test."""
    context = playwright_driver.chromium.launch_persistent_context(
        tmp_path / "profile",
        executable_path=chromium(whole=True),
        env={**os.environ, "DBUS_SESSION_BUS_ADDRESS": desktop.address},
        viewport=PHONE,
        locale="en-GB",
        service_workers="allow",
    )
    console.watched(context)
    context.grant_permissions(["notifications"], origin=office.origin)
    [page] = context.pages
    page.goto(office.url("/signin"))
    session = json.dumps(console.session_of(office.keys[MUSICIAN], MUSICIAN))
    page.evaluate("([key, session]) => localStorage.setItem(key, session)", [console.SESSION_KEY, session])
    yield context
    context.close()
    assert context.problems.unexpected() == []


@pytest.fixture
def phone(browser, office):
    """open(email=MUSICIAN, viewport=PHONE, subscription=None, notifications=True) -> a page signed in as that demo
    user, its service worker let in and notifications allowed; with `subscription` (a PushSubscription's JSON) the
    stand-in push service answers it. At the end, any console error, page error or CSP violation fails the test."""
    contexts = []

    def open_page(email=MUSICIAN, viewport=PHONE, subscription=None, notifications=True, office=office, token=None):
        token = token or office.keys[email]
        context = console.open_context(browser, token, email, viewport, service_workers="allow")
        contexts.append(context)
        if notifications:
            context.grant_permissions(["notifications"], origin=office.origin)
        if subscription is not None:
            context.add_init_script(STAND_IN_PUSH_SERVICE % subscription)
        return context.new_page()

    yield open_page
    for context in contexts:
        context.close()
    assert [problem for context in contexts for problem in context.problems.unexpected()] == []


def shot(page, name):
    picture(page, f"push-{name}", full_page=True)


def devices_of(office, email=MUSICIAN):
    return office.api("/devices", email)["data"]


def https_subscription(push_service, name):
    """The stand-in's subscription: https, as a browser's always is (and as /devices requires), at the local Web
    Push server's address, with the keys it decrypts with."""
    subscription = json.loads(push_service.subscription(name))
    subscription["endpoint"] = subscription["endpoint"].replace("http://", "https://", 1)
    return subscription


def turn_on(page, office):
    page.goto(office.url("/my/settings"))
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=30000)
    page.get_by_role("button", name="Notify me on this phone").click()
    expect(page.get_by_role("status").filter(has_text="This phone now gets notifications.")).to_be_visible()


# --- the settings ----------------------------------------------------------------------------------------------


def test_the_channels_are_switches_saved_at_once(office, phone):
    page = phone()
    page.goto(office.url("/my/settings"))
    expect(page.get_by_role("heading", name="Settings", level=1)).to_be_visible()
    mail = page.get_by_role("switch", name="E-mail")
    expect(mail).to_be_checked()
    expect(page.get_by_role("switch", name="Office digest")).to_have_count(0)  # no staffing.edit
    mail.click()
    expect(page.get_by_role("status").filter(has_text="Saved: E-mail off.")).to_be_visible()
    assert office.api("/me/notification-settings", MUSICIAN)["data"]["email"] is False
    page.reload()
    expect(page.get_by_role("switch", name="E-mail")).not_to_be_checked()
    shot(page, "settings-390-mail-off")
    page.get_by_role("switch", name="E-mail").click()
    expect(page.get_by_role("status").filter(has_text="Saved: E-mail on.")).to_be_visible()
    assert office.api("/me/notification-settings", MUSICIAN)["data"]["email"] is True


def test_the_office_sees_its_digest_switch_at_desktop_width(office, phone):
    page = phone("office@band.example", DESKTOP)
    page.goto(office.url("/my/settings"))
    expect(page.get_by_role("switch", name="Office digest")).to_be_checked()
    expect(page.get_by_role("button", name="Notify me on this phone")).to_be_visible()
    assert serious_accessibility_violations(page) == []
    shot(page, "settings-1280")


def test_offline_the_settings_are_shown_and_nothing_can_be_changed(office, phone):
    page = phone()
    page.goto(office.url("/my/settings"))
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=30000)
    page.reload()  # now through the worker, which keeps the answers
    expect(page.get_by_role("switch", name="E-mail")).to_be_visible()
    page.context.set_offline(True)
    page.reload()
    expect(page.get_by_text("You are offline: these settings can be changed")).to_be_visible()
    expect(page.locator(".channel").filter(has_text="E-mail")).to_contain_text("On")
    expect(page.get_by_role("switch")).to_have_count(0)
    expect(page.get_by_role("button", name="Notify me on this phone")).to_have_count(0)
    expect(page.get_by_text("Notifications on this phone are off.")).to_be_visible()
    shot(page, "settings-390-offline")
    page.context.set_offline(False)


# --- this phone ------------------------------------------------------------------------------------------------


def test_notify_me_registers_the_subscription_and_stop_removes_it(office, phone, push_service, vapid):
    subscription = https_subscription(push_service, "phone-a")
    page = phone(subscription=json.dumps(subscription))
    page.goto(office.url("/my/settings"))
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=30000)
    expect(page.get_by_role("button", name="Notify me on this phone")).to_be_visible()
    assert serious_accessibility_violations(page) == []
    shot(page, "settings-390")
    page.get_by_role("button", name="Notify me on this phone").click()
    expect(page.get_by_role("status").filter(has_text="This phone now gets notifications.")).to_be_visible()
    asked = json.loads(page.evaluate("() => sessionStorage.getItem('tests.subscription')"))
    assert asked["userVisibleOnly"] is True and b64url(base64.b64decode(asked["key"])) == vapid[1]
    # this phone's device: another test of the module may have left the musician one of its own
    [device] = [d for d in devices_of(office) if d["platform"] == "web" and subscription["endpoint"] in d["token"]]
    assert json.loads(device["token"]) == {**subscription, "expirationTime": None}
    assert json.loads(page.evaluate("() => localStorage.getItem('band-office.push-device')"))["id"] == device["id"]
    shot(page, "settings-390-on")
    page.reload()
    stop = page.get_by_role("button", name="Stop notifications")
    expect(stop).to_be_visible()
    assert serious_accessibility_violations(page) == []
    stop.click()
    expect(page.get_by_role("status").filter(has_text="This phone gets no more notifications.")).to_be_visible()
    assert [d for d in devices_of(office) if d["platform"] == "web" and subscription["endpoint"] in d["token"]] == []
    assert page.evaluate("() => sessionStorage.getItem('tests.unsubscribed')") == "yes"
    expect(page.get_by_role("button", name="Notify me on this phone")).to_be_visible()


def test_signing_out_stops_the_notifications_on_this_phone(office, phone, push_service):
    page = phone(subscription=json.dumps(https_subscription(push_service, "phone-c")), token=office.key_of(MUSICIAN))
    turn_on(page, office)
    [device] = [d for d in devices_of(office) if "/push/phone-c" in d["token"]]
    page.get_by_role("button", name="Sign out").click()
    expect(page).to_have_url(office.url("/signin"))
    assert device["id"] not in {d["id"] for d in devices_of(office)}


def test_the_push_the_office_sends_for_an_invitation_decrypts_with_the_subscriptions_keys(office, phone, push_service):
    page = phone(subscription=json.dumps(https_subscription(push_service, "phone-b")))
    turn_on(page, office)
    # The stand-in push service listens on plain HTTP: the device's endpoint is moved to it as stored (registration
    # takes https only, as browsers' push services are); everything else is the browser's subscription.
    with connected(office.service.env["BAND_DB"]) as db:
        db.execute("UPDATE devices SET token = replace(token, 'https://', 'http://') WHERE platform = 'web'")
    invitation = invite_the_musician(office)
    request = wait_for(lambda: pushed_about(push_service, invitation["id"]), timeout=60)
    message = request.seen["message"]
    assert request.path == "/push/phone-b" and len(request.body) < 4096
    assert set(message) == {"notification_id", "type", "title", "body", "data"} and message["type"] == "invitation"
    assert message["data"] == {
        "gig_id": invitation["gig_id"],
        "gig_role_id": invitation["gig_role_id"],
        "invitation_id": invitation["id"],
    }
    said = message["title"] + " " + message["body"]
    assert "Invitation" in message["title"] and "Probe Hall" not in said and "Teststraße" not in said
    assert "345" not in said  # the pay, 345.00


def invite_the_musician(office, gig_date="2031-05-17", title="Push probe"):
    """An invitation, made by the office, of the demo musician to a role they play on a new gig at a new venue."""
    member = office.api("/me/staff-member", MUSICIAN)["data"]
    [held] = office.api(f"/staff-member-roles?filter[staff_member_id]={member['id']}&limit=1")["data"]
    venue = office.api(
        "/venues", method="POST", body={"name": "Probe Hall", "address_line1": "Teststraße 9", "city": "Wien"}
    )
    gig = office.api(
        "/gigs", method="POST", body={"gig_date": gig_date, "title": title, "venue_id": venue["data"]["id"]}
    )
    role = office.api(
        "/gig-roles", method="POST", body={"gig_id": gig["data"]["id"], "role_id": held["role_id"], "pay_cents": 34500}
    )
    body = {"gig_role_id": role["data"]["id"], "staff_member_id": member["id"]}
    return {**office.api("/gig-role-invitations", method="POST", body=body)["data"], "gig_id": gig["data"]["id"]}


def pushed_about(push_service, invitation_id):
    found = [r for r in push_service.received if r.seen["message"]["data"].get("invitation_id") == invitation_id]
    return found[0] if found else None


def deliver_push(page, office, message):
    """`message` pushed to the office's service worker as the browser's push service would (through DevTools):
    the worker of `page`'s browser context, once it controls the page."""
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=30000)
    cdp = page.context.new_cdp_session(page)
    registrations = []
    cdp.on("ServiceWorker.workerRegistrationUpdated", lambda event: registrations.extend(event["registrations"]))
    cdp.send("ServiceWorker.enable")
    deadline = time.monotonic() + 30
    while not registrations and time.monotonic() < deadline:
        page.evaluate("() => navigator.serviceWorker.ready")  # lets the session's events in
    [registration] = [r for r in registrations if r["scopeURL"] == office.url("/") and not r["isDeleted"]]
    push = {"origin": office.origin, "registrationId": registration["registrationId"], "data": json.dumps(message)}
    cdp.send("ServiceWorker.deliverPushMessage", push)
    cdp.detach()


def pushed_until_shown(page, office, message, shown, tries=3):
    """`message` delivered (see `deliver_push`) until `shown()` gives something, at most `tries` times, each waited
    for 15 s: DevTools says nothing when the browser drops a delivery (once in CI, at load 8, no notification came in
    30 s), where a push service would deliver again. A message delivered twice shows once (its tag is the same)."""
    for attempt in range(1, tries + 1):
        deliver_push(page, office, message)
        try:
            return wait_for(shown, timeout=15)
        except AssertionError:
            if attempt == tries:
                raise


def test_a_push_delivered_to_the_service_worker_shows_its_notification(office, phone):
    page = phone()
    page.goto(office.url("/my/settings"))
    message = {
        "notification_id": "6f1c",
        "type": "invitation",
        "title": "Invitation: Vocals at Anna & Ben, Sat 12 June 2027",
        "body": "Please answer by Thursday.",
        "data": {"gig_id": "g-1", "gig_role_id": "r-1", "invitation_id": "i-1"},
    }
    shown = pushed_until_shown(page, office, message, lambda: page.evaluate(SHOWN_NOTIFICATIONS))
    assert shown == [
        {
            "title": message["title"],
            "body": message["body"],
            "tag": "invitation-i-1",
            "data": {"type": "invitation", **message["data"]},
            "icon": shown[0]["icon"],
        }
    ]
    assert shown[0]["icon"].startswith(office.url("/static/")) and shown[0]["icon"].endswith("/icons/app-192.png")


def test_a_tap_on_a_notification_opens_its_invitation_in_the_open_app_else_in_a_new_window(office, own_phone, desktop):
    invitation = invite_the_musician(office, gig_date="2031-06-21", title="Midsummer push")
    page = own_phone.pages[0]
    page.goto(office.url("/my"))
    ids = {key: invitation[key] for key in ("gig_id", "gig_role_id")}
    invited = {
        "notification_id": "n-1",
        "type": "invitation",
        "title": "Invitation: Midsummer push",
        "body": "Answer.",
        "data": {**ids, "invitation_id": invitation["id"]},
    }
    deliver_push(page, office, invited)
    shown = desktop.wait_for_shown(invited["title"])
    assert "Answer." in shown["body"] and "default" in shown["actions"]
    desktop.tap(shown)
    expect(page).to_have_url(office.url(f"/my/invitations/{invitation['id']}"), timeout=TAP_TAKES_MS)
    expect(page.get_by_role("heading", level=1)).to_have_text("Invitation: Midsummer push")
    assert own_phone.pages == [page]  # the app's window, brought forward and sent there

    changed = {
        "notification_id": "n-2",
        "type": "gig_changed",
        "title": "Midsummer push changed",
        "body": "New time.",
        "data": ids,
    }
    deliver_push(page, office, changed)
    shown = desktop.wait_for_shown(changed["title"])
    page.goto("about:blank")  # no window of the app is open now
    with own_phone.expect_page(timeout=TAP_TAKES_MS) as opened:
        desktop.tap(shown)
    window = opened.value
    expect(window).to_have_url(office.url(f"/my/gigs/{invitation['gig_id']}"), timeout=TAP_TAKES_MS)
    expect(window.get_by_role("heading", level=1)).to_have_text("Midsummer push")


# --- where push cannot be ------------------------------------------------------------------------------------


def test_over_plain_http_on_the_lan_the_page_says_why_push_is_unavailable(office, phone):
    page = phone()
    page.goto(office.url("/my/settings").replace("127.0.0.1", LAN_HOST))
    expect(page.get_by_text("it is plain HTTP")).to_be_visible()
    expect(page.get_by_text("HTTPS on the LAN, with Caddy")).to_be_visible()
    expect(page.get_by_role("button", name="Notify me on this phone")).to_have_count(0)
    expect(page.get_by_role("switch", name="E-mail")).to_be_visible()  # the settings themselves still work
    assert page.evaluate("() => isSecureContext") is False
    assert serious_accessibility_violations(page) == []
    shot(page, "settings-390-plain-http")


def test_an_office_without_web_push_says_so(tmp_path, phone):
    office = DemoOffice(tmp_path)
    try:
        page = phone(office=office)
        page.goto(office.url("/my/settings"))
        expect(page.get_by_text("The office has not set up notifications to phones")).to_be_visible()
        expect(page.get_by_role("button", name="Notify me on this phone")).to_have_count(0)
    finally:
        office.service.stop()


def test_blocked_notifications_are_said_with_how_to_allow_them(office, phone):
    before = devices_of(office)
    page = phone(notifications=False)  # headless Chromium then answers the request for permission "denied"
    page.goto(office.url("/my/settings"))
    page.get_by_role("button", name="Notify me on this phone").click()
    expect(page.get_by_text("Notifications are blocked for this site")).to_be_visible()
    shot(page, "settings-390-blocked")
    expect(page.get_by_role("button", name="Notify me on this phone")).to_have_count(0)
    assert devices_of(office) == before
