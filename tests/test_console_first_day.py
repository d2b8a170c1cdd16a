"""SPEC §12.1 in Chromium, as a new office manager goes: on a fresh database, from the setup link `serve` prints
through the checklist on the empty agenda (the office, a product with its price in money, an ensemble with its
roles and their pay, a musician who can sign in, the first gig with that musician invited), to the musician
signing in on a phone from the welcome mail's link and accepting."""

import datetime as dt
import email
import email.policy
import json
import re
import urllib.parse

import pytest
from playwright.sync_api import expect

from tests.support.console import PHONE, Problems
from tests.support.mail import text_of
from tests.support.served import Service
from tests.support.waiting import SLOW_MACHINE_SECONDS, wait_for

pytestmark = pytest.mark.browser

SETUP_LINK = re.compile(r"\S+/setup#token=\S+")
DESKTOP = {"width": 1280, "height": 800}
ZONE = "Europe/Vienna"  # this computer's, which the office step offers


@pytest.fixture
def office(tmp_path):
    outbox = tmp_path / "outbox"
    service = Service(tmp_path, BAND_MAIL_URL=f"file:{outbox}", BAND_WORKER_INTERVAL="0.2").start()
    service.outbox = outbox
    yield service
    service.stop()


@pytest.fixture
def contexts(browser):
    """new(**options) -> a browser context (this computer in Vienna); its pages' console errors fail the test."""
    made = []

    def new(**options):
        context = browser.new_context(timezone_id=ZONE, locale="en-GB", service_workers="block", **options)
        context.problems = Problems(context)
        made.append(context)
        return context

    yield new
    for context in made:
        context.close()
    assert [problem for context in made for problem in context.problems.unexpected()] == []


def api(office, token, path):
    status, _, body = office.request("GET", path, headers={"Authorization": f"Bearer {token}"})
    assert status == 200, body
    return json.loads(body)


def welcome_link(outbox, address):
    """The sign-in link of the welcome mail to `address`, once it is sent."""

    def found():
        for path in outbox.glob("*.eml"):
            message = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
            if message["To"] == address and message["Subject"].startswith("Welcome to"):
                return re.search(r"\S+/signin#token=\S+", text_of(message))[0]
        return None

    return wait_for(found, timeout=SLOW_MACHINE_SECONDS)


def step(page, name):
    """Open a step of the checklist by its button, on the agenda."""
    page.get_by_role("link", name=re.compile(f": {name}$")).click()


def back_on_the_checklist(page, said, done):
    expect(page.get_by_role("status").filter(has_text=said)).to_be_visible()
    expect(page.locator(".first-day")).to_contain_text(f"{done} of 5 done")
    expect(page.get_by_role("heading", level=1)).to_be_focused()


def set_up_the_office(page):
    step(page, "Your office")
    expect(page.get_by_label("Time zone")).to_have_value(ZONE)
    expect(page.get_by_label("Time zone").locator("option:checked")).to_have_text(f"{ZONE} (this computer's)")
    page.get_by_label("The band's name").fill("Die Hochzeitsband")
    page.get_by_label("Currency").select_option("CHF")
    page.get_by_label("Dates written as").select_option("dd.mm.yyyy")
    page.get_by_role("button", name="Save the office").click()
    back_on_the_checklist(page, "Saved: Die Hochzeitsband", 1)


def add_a_product(page):
    step(page, "What you sell")
    page.get_by_label("Name").fill("Reception")
    page.get_by_label("Price").fill("4.500,00")
    page.get_by_role("button", name="Create it").click()
    back_on_the_checklist(page, "Created Reception", 2)


def set_up_an_ensemble(page):
    step(page, "Who plays it")
    page.get_by_label("Name").fill("Full band")
    for i, (role, pay) in enumerate([("Lead vocals", "450"), ("Guitar", "400,00")]):
        row = page.get_by_role("group", name=f"Role {i + 1}")
        row.get_by_label("Role").fill(role)
        row.get_by_label("Pay per gig").fill(pay)
    expect(page.get_by_role("checkbox", name="Reception")).to_be_checked()
    page.get_by_role("button", name="Create the ensemble").click()
    back_on_the_checklist(page, "Created Full band", 3)


def add_a_musician(page):
    step(page, "Your musicians")
    page.get_by_label("First name (required)").fill("Tom")
    page.get_by_label("Last name (required)").fill("Player")
    page.get_by_label("E-mail").fill("tom@example.com")
    page.get_by_role("checkbox", name="Lead vocals").check()
    expect(page.get_by_role("checkbox", name="Can sign in")).to_be_checked()
    page.get_by_role("button", name="Add the musician").click()
    expect(page.get_by_role("heading", level=1, name="Tom Player")).to_be_focused()
    expect(page.get_by_role("status").filter(has_text="Added Tom: a welcome mail")).to_be_visible()
    page.get_by_role("link", name="Agenda").click()
    expect(page.locator(".first-day")).to_contain_text("4 of 5 done")


def create_the_first_gig(page, day):
    step(page, "Your first gig")
    page.get_by_label("Date (required)").fill(day.isoformat())
    page.get_by_label("Title (required)").fill("Marie & Philipp's wedding")
    page.get_by_role("checkbox", name="Reception").check()
    page.get_by_role("button", name="Create the gig").click()
    expect(page.get_by_role("status").filter(has_text="Created, with 2 roles to fill")).to_be_visible()
    expect(page.get_by_role("heading", level=1)).to_be_focused()
    page.get_by_role("button", name="Find someone for Lead vocals").click()
    candidates = page.get_by_role("group", name="Candidates for Lead vocals")
    candidates.get_by_role("checkbox", name="Tom Player").check()
    candidates.get_by_role("button", name="Invite 1").click()
    expect(candidates.get_by_role("status")).to_have_text("Invited Tom")
    return re.search(r"/gigs/([0-9a-f-]{36})", page.url)[1]


def test_the_first_day_from_the_setup_link_to_a_musician_accepting_on_a_phone(office, contexts):
    link = wait_for(lambda: SETUP_LINK.search(office.output()), timeout=SLOW_MACHINE_SECONDS)[0]
    page = contexts(viewport=DESKTOP).new_page()
    page.goto(link)
    page.get_by_label("Your name").fill("Ada Admin")
    page.get_by_label("Your e-mail address").fill("ada@example.com")
    page.get_by_role("button", name="Create the admin and sign in").click()
    checklist = page.locator(".first-day")
    expect(checklist).to_contain_text("0 of 5 done")
    expect(page.locator(".empty")).to_have_text(re.compile(r"^No gigs in \w+ \d{4}\.$"))

    set_up_the_office(page)
    add_a_product(page)
    set_up_an_ensemble(page)
    add_a_musician(page)
    day = dt.date.today() + dt.timedelta(days=120)
    gig_id = create_the_first_gig(page, day)

    token = page.evaluate("JSON.parse(sessionStorage.getItem('band-office.session')).token")
    office_now = api(office, token, "/office")["data"]
    assert (office_now["name"], office_now["time_zone"], office_now["currency"]) == ("Die Hochzeitsband", ZONE, "CHF")
    assert office_now["first_day"] == dict.fromkeys(["office", "product", "ensemble", "musicians", "gig"], True)
    assert [(p["amount_cents"], p["currency"]) for p in api(office, token, "/prices")["data"]] == [(450000, "CHF")]
    rates = {(r["amount_cents"], r["currency"]) for r in api(office, token, "/rates")["data"]}
    assert rates == {(45000, "CHF"), (40000, "CHF")}

    phone = contexts(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    phone.goto(welcome_link(office.outbox, "tom@example.com"))
    phone.get_by_role("button", name="Sign in").click()
    answer = phone.get_by_role("group", name="Answer: Lead vocals at Marie & Philipp's wedding")
    expect(answer).to_be_visible(timeout=SLOW_MACHINE_SECONDS * 1000)
    answer.get_by_role("button", name="Accept").click()
    expect(phone.get_by_role("status").filter(has_text="Accepted: you play")).to_be_visible()
    roles = f"/gig-roles?{urllib.parse.urlencode({'filter[gig_id]': gig_id, 'expand': 'role,staff_member'})}"
    filled = wait_for(
        lambda: [r for r in api(office, token, roles)["data"] if r["staff_member_id"]], timeout=SLOW_MACHINE_SECONDS
    )
    assert [(r["role"]["name"], r["staff_member"]["first_name"]) for r in filled] == [("Lead vocals", "Tom")]
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
