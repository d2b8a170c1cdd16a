"""SPEC §12, screens 6 and 7, in Debian's Chromium on the served demo office: every collection of the OpenAPI
document as a list page and a form (journey 7: a team made, changed and deleted; a role still in use refused,
naming what uses it), a 422 kept at its field, a reference picker used by keyboard; the admin screens (journey 8:
a webhook endpoint's secret shown once, a ping delivered to a real receiver on 127.0.0.1; a new API key shown
once); hostile strings shown as text; axe-core at a desktop's and a phone's width. Any console error, page error
or CSP violation fails a test."""

import json
import re
import urllib.error
import urllib.parse
import urllib.request

import pytest
from playwright.sync_api import expect

from tests.support import console, pages
from tests.support.console import DESKTOP, PHONE, serious_accessibility_violations
from tests.support.receiver import Receiver
from tests.support.waiting import wait_for

demo_office, signed_in = console.demo_office, console.signed_in
pytestmark = pytest.mark.browser
HOSTILE = "<img src=x onerror=alert(1)> \u202eevil"


def api_status(office, path, email="admin@band.example", method="GET"):
    key = office.keys[email]
    request = urllib.request.Request(
        office.url("/v1" + path), method=method, headers={"Authorization": f"Bearer {key}"}
    )
    try:
        with console.OPENER.open(request, timeout=10) as answer:
            return answer.status
    except urllib.error.HTTPError as error:
        return error.code


def one(office, collection, **filters):
    query = urllib.parse.urlencode({f"filter[{name}][eq]": value for name, value in filters.items()})
    return office.api(f"/{collection}?{query}")["data"][0]


def heading(page):
    return page.get_by_role("heading", level=1)


# --- journey 7 and the generic pages ----------------------------------------------------------------------------


def test_journey_7_generic_pages_create_edit_and_delete_a_team_and_refuse_a_role_in_use(demo_office, signed_in):
    page = signed_in()
    page.goto(demo_office.url("/records/teams"))
    page.get_by_role("link", name="New", exact=True).click()
    expect(heading(page)).to_have_text("New team")
    page.get_by_label("Name").fill("Brass section")
    page.get_by_label("Description").fill("Trumpet, trombone, sax")
    page.get_by_role("button", name="Create").click()
    expect(page).to_have_url(re.compile(r"/records/teams/[0-9a-f-]{36}$"))
    team_id = page.url.rsplit("/", 1)[1]
    assert demo_office.api(f"/teams/{team_id}")["data"]["name"] == "Brass section"

    page.get_by_label("Name").fill("Brass and reeds")
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_role("status").filter(has_text="Saved.")).to_be_visible()
    assert demo_office.api(f"/teams/{team_id}")["data"]["name"] == "Brass and reeds"

    page.get_by_role("button", name="Delete…").click()
    page.get_by_role("button", name="Yes, delete").click()
    expect(page).to_have_url(re.compile(r"/records/teams$"))
    assert api_status(demo_office, f"/teams/{team_id}") == 404
    expect(page.get_by_role("link", name="Brass and reeds")).to_have_count(0)

    violin = one(demo_office, "roles", name="Violin")
    page.goto(demo_office.url(f"/records/roles/{violin['id']}"))
    page.get_by_role("button", name="Delete…").click()
    page.get_by_role("button", name="Yes, delete").click()
    refusal = page.get_by_role("alert")
    expect(refusal).to_contain_text("still referenced")
    used_by = refusal.get_by_role("link", name=re.compile(r"^\d+ gig roles$"))
    expect(used_by).to_have_attribute("href", f"/records/gig-roles?filter[role_id][eq]={violin['id']}")
    assert api_status(demo_office, f"/roles/{violin['id']}") == 200
    used_by.click()
    expect(heading(page)).to_have_text("Gig roles")
    expect(page.locator("tbody tr").first).to_contain_text("Violin")
    assert set(page.locator("tbody tr td:nth-child(2)").all_inner_texts()) == {"Violin"}


def test_every_collection_of_the_document_opens_its_list_page(demo_office, signed_in):
    document = json.loads(demo_office.get("/v1/openapi.json")[2])
    collections = sorted(
        path[1:]
        for path, item in document["paths"].items()
        if re.fullmatch(r"/[a-z-]+", path) and "get" in item and "get" in document["paths"].get(f"{path}/{{id}}", {})
    )
    assert {"teams", "roles", "users", "webhook-deliveries", "custom-fields"} <= set(collections)
    page = signed_in()
    page.goto(demo_office.url("/records"))
    expect(page.locator(".record-group a")).to_have_count(len(collections))
    for name in collections:
        console.show(page, demo_office.url(f"/records/{name}"))
        expect(page.locator(".paging [role=status]")).to_be_visible()
        assert page.locator(".error").count() == 0, name
        if name in ("teams", "gig-roles", "webhook-deliveries"):
            assert serious_accessibility_violations(page) == [], name


def test_a_form_s_heading_names_one_record_of_its_collection(demo_office, signed_in):
    page = signed_in()
    page.goto(demo_office.url("/records/gig-statuses/new"))
    expect(heading(page)).to_have_text("New gig status")


def test_a_list_sorts_by_its_headers_and_filters_by_its_documented_parameters(demo_office, signed_in):
    page = signed_in()
    page.goto(demo_office.url("/records/roles"))
    page.get_by_role("link", name="Name: sort ascending").click()
    expect(page).to_have_url(re.compile(r"\?sort=name$"))
    # the new order once the list has its answer (the URL changes first)
    names = wait_for(
        lambda: (shown := page.locator("tbody th").all_inner_texts()) == sorted(shown) and len(shown) > 5 and shown
    )
    page.get_by_role("link", name="Name: sort descending").click()
    expect(page.locator("tbody th").first).to_have_text(sorted(names)[-1])
    page.get_by_text("Filters").click()
    page.get_by_label("Name contains").fill("vio")
    page.get_by_role("button", name="Show").click()
    expect(page).to_have_url(re.compile(r"filter%5Bname%5D%5Bcontains%5D=vio"))
    expect(page.locator("tbody th")).to_have_text(["Violin", "Viola"])
    expect(page.locator(".paging")).to_contain_text("1–2 of 2")


def test_a_422_keeps_what_was_typed_and_says_why_at_the_field(demo_office, signed_in):
    page = signed_in()
    page.goto(demo_office.url("/records/songs/new"))
    page.get_by_label("Title").fill("Fly me to the moon (test)")
    page.get_by_label("Tempo (bpm)").fill("999")
    page.get_by_role("button", name="Create").click()
    tempo = page.get_by_label("Tempo (bpm)")
    expect(tempo).to_have_attribute("aria-invalid", "true")
    error_id = tempo.get_attribute("aria-describedby")
    expect(page.locator(f"#{error_id}")).to_contain_text("400")
    expect(tempo).to_have_value("999")
    expect(page.get_by_label("Title")).to_have_value("Fly me to the moon (test)")
    expect(page).to_have_url(re.compile(r"/records/songs/new$"))


def test_a_reference_picker_is_used_by_keyboard(demo_office, signed_in):
    page = signed_in()
    page.goto(demo_office.url("/records/roles/new"))
    page.get_by_label("Name").fill("Kazoo")
    team = page.get_by_role("combobox", name="Team")
    team.focus()
    page.keyboard.type("Hor")
    horns = page.get_by_role("option", name="Horns")
    expect(horns).to_have_attribute("aria-selected", "true")  # the first match: no "None" while something is typed
    page.keyboard.press("ArrowDown")  # and round the list: "Horns" is its one option
    expect(horns).to_have_attribute("aria-selected", "true")
    page.keyboard.press("Enter")
    expect(team).to_have_value("Horns")
    expect(team).to_have_attribute("aria-expanded", "false")
    page.get_by_role("button", name="Create").click()
    expect(page).to_have_url(re.compile(r"/records/roles/[0-9a-f-]{36}$"))
    made = demo_office.api(f"/roles/{page.url.rsplit('/', 1)[1]}?expand=team")["data"]
    assert made["name"] == "Kazoo" and made["team"]["name"] == "Horns"


def test_a_record_s_custom_fields_are_in_its_form(demo_office, signed_in):
    page = signed_in()
    page.goto(demo_office.url("/records/venues/new"))
    page.get_by_label("Name").fill("Stadtsaal (custom test)")
    custom = page.get_by_role("group", name="Custom fields")
    custom.get_by_label("Power outlets near the stage").fill("4")
    page.get_by_role("button", name="Create").click()
    expect(page).to_have_url(re.compile(r"/records/venues/[0-9a-f-]{36}$"))
    venue_id = page.url.rsplit("/", 1)[1]
    assert demo_office.api(f"/venues/{venue_id}")["data"]["custom_fields"] == {"power_outlets": 4}
    expect(custom.get_by_label("Power outlets near the stage")).to_have_value("4")
    custom.get_by_label("Power outlets near the stage").fill("6")
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_role("status").filter(has_text="Saved.")).to_be_visible()
    assert demo_office.api(f"/venues/{venue_id}")["data"]["custom_fields"] == {"power_outlets": 6}


def test_hostile_strings_are_shown_as_text(demo_office, signed_in):
    long_text = "long " * 1000
    team = demo_office.api("/teams", method="POST", body={"name": HOSTILE, "description": long_text})["data"]
    demo_office.api("/api-keys", method="POST", body={"label": HOSTILE})
    page = signed_in()
    page.on("dialog", lambda dialog: pytest.fail(f"a dialog opened: {dialog.message}"))
    page.goto(demo_office.url("/records/teams?" + urllib.parse.urlencode({"filter[id][eq]": team["id"]})))
    expect(page.locator("tbody th")).to_have_text(HOSTILE)
    page.get_by_role("link", name=HOSTILE).click()
    expect(page.get_by_label("Name")).to_have_value(HOSTILE)
    expect(page.get_by_label("Description")).to_have_value(long_text.strip())
    page.goto(demo_office.url("/admin/api-keys"))
    expect(page.get_by_role("list", name="Your API keys")).to_contain_text(HOSTILE)
    assert page.locator("main img").count() == 0


def test_a_viewer_reads_records_without_the_means_to_change_them(demo_office, signed_in):
    page = signed_in("viewer@band.example")
    page.goto(demo_office.url("/records"))
    expect(page.get_by_role("link", name="Teams")).to_be_visible()
    expect(page.get_by_role("link", name="Users")).to_have_count(0)
    page.get_by_role("link", name="Teams").click()
    expect(page.locator("tbody tr").first).to_be_visible()
    expect(page.get_by_role("link", name="New", exact=True)).to_have_count(0)
    page.locator("tbody th a").first.click()
    expect(page.locator(".read-only")).to_be_visible()
    expect(page.get_by_role("button", name="Save")).to_have_count(0)
    expect(page.get_by_role("button", name="Delete…")).to_have_count(0)


def test_pay_is_left_out_for_a_user_without_pay_and_shown_in_the_offices_currency_to_one_with_it(
    demo_office, signed_in
):
    grants = ["gigs.view", "gigs.edit", "staffing.view", "staffing.edit", "people.view", "people.edit", "catalog.view"]
    demo_office.api("/access-roles", method="POST", body={"name": "booker", "grants": grants})
    demo_office.api(
        "/users", method="POST", body={"email": "booker@band.example", "name": "Bo Oker", "roles": ["booker"]}
    )
    paid = demo_office.api("/gig-roles?filter[pay_cents][gt]=0&limit=1")["data"][0]
    booker = signed_in("booker@band.example")
    booker.goto(demo_office.url("/records/gig-roles"))
    expect(booker.locator("tbody tr").first).to_be_visible()
    expect(booker.get_by_role("columnheader", name="Pay")).to_have_count(0)
    booker.goto(demo_office.url(f"/records/gig-roles/{paid['id']}"))
    expect(booker.get_by_role("button", name="Save")).to_be_visible()
    expect(booker.locator("main").get_by_text("Pay", exact=True)).to_have_count(0)

    admin = signed_in()
    admin.goto(demo_office.url("/records/gig-roles"))
    expect(admin.get_by_role("columnheader", name="Pay")).to_be_visible()
    admin.goto(demo_office.url(f"/records/gig-roles/{paid['id']}"))
    expect(admin.get_by_label("Pay", exact=True)).to_have_value(re.compile("^€"))  # money, not cents
    admin.goto(demo_office.url("/records/gig-roles?sort=-pay_cents"))
    expect(admin.locator("tbody tr").first).to_contain_text("€")  # the office's currency: a role's pay has none


# --- journey 8 and the admin screens ----------------------------------------------------------------------------


def test_journey_8_admin_creates_a_webhook_endpoint_sees_its_secret_once_pings_it_and_sees_the_delivery(
    demo_office, signed_in
):
    with Receiver() as receiver:
        page = signed_in()
        page.goto(demo_office.url("/admin"))
        page.get_by_role("link", name="Webhook endpoints").click()
        page.get_by_label("URL").fill(receiver.url)
        page.get_by_label("Description").fill("The booking site")
        page.get_by_label("Events").fill("gig.*")
        page.get_by_role("button", name="Add endpoint").click()
        shown = page.get_by_role("region", name="The signing secret of the new endpoint")
        expect(shown).to_contain_text("shown only once")
        secret = shown.locator("code").inner_text()
        assert secret.startswith("whsec_")
        receiver.secrets.append(secret)
        shown.get_by_role("button", name="Done: open the endpoint").click()
        expect(heading(page)).to_have_text("Webhook endpoint")
        expect(page.locator("main")).not_to_contain_text(secret)
        page.reload()
        expect(page.locator(".read-only")).to_contain_text(receiver.url)
        expect(page.locator("main")).not_to_contain_text(secret)

        page.get_by_role("button", name="Ping").click()
        row = page.locator("table.deliveries tbody tr").filter(has_text="ping")
        expect(row.locator("td").nth(0)).to_have_text("succeeded", timeout=30_000)
        expect(row.locator("td").nth(1)).to_have_text("1")
        expect(row.locator("td").nth(2)).to_have_text("200")
        assert [(r.payload["type"], r.verified) for r in receiver.received] == [("ping", True)]

        row.get_by_role("button", name="Redeliver ping").click()
        expect(row.locator("td").nth(1)).to_have_text("2", timeout=30_000)
        assert len(receiver.received) == 2 and receiver.received[1].webhook_id == receiver.received[0].webhook_id


def test_a_new_api_key_is_shown_once_and_works_and_is_revoked(demo_office, signed_in):
    page = signed_in()
    page.goto(demo_office.url("/admin/api-keys"))
    page.get_by_label("Label").fill("Booking site sync")
    page.get_by_role("button", name="Make a key").click()
    shown = page.get_by_role("region", name=re.compile("Your new API key"))
    key = shown.locator("code").inner_text()
    assert key.startswith("bok_")
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    shown.get_by_role("button", name="Copy").click()
    expect(shown.get_by_role("status")).to_have_text("Copied.")
    assert page.evaluate("navigator.clipboard.readText()") == key
    me = urllib.request.Request(demo_office.url("/v1/me"), headers={"Authorization": f"Bearer {key}"})
    with console.OPENER.open(me, timeout=10) as answer:
        assert answer.status == 200
    shown.get_by_role("button", name="Done").click()
    keys = page.get_by_role("list", name="Your API keys")
    expect(keys).to_contain_text("Booking site sync")
    expect(keys).to_contain_text(key[:12])
    assert key not in page.content()
    page.reload()
    expect(page.get_by_role("list", name="Your API keys")).to_contain_text("Booking site sync")
    assert key not in page.content()

    page.get_by_role("button", name="Revoke Booking site sync").click()
    page.get_by_role("button", name="Yes, revoke").click()
    expect(page.get_by_role("list", name="Your API keys")).not_to_contain_text("Booking site sync")
    try:
        console.OPENER.open(me, timeout=10)
        raise AssertionError("a revoked key still signs in")
    except urllib.error.HTTPError as error:
        assert error.code == 401


def test_the_api_key_form_says_why_at_the_field(demo_office, signed_in):
    page = signed_in()
    page.goto(demo_office.url("/admin/api-keys"))
    page.get_by_label("Label").fill("Nightly export")
    page.get_by_label("Expires in (days)").fill("9999")
    page.get_by_role("button", name="Make a key").click()
    expect(page.get_by_label("Expires in (days)")).to_have_attribute("aria-invalid", "true")
    expect(page.get_by_label("Label")).to_have_value("Nightly export")


# --- accessibility and looks ----------------------------------------------------------------------------------


SCREENS = [
    "/records",
    "/records/roles",
    "/records/gigs?sort=-gig_date",
    "/records/roles/new",
    "/admin",
    "/admin/api-keys",
    "/admin/webhooks",
    "/admin/notifications",
]


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_screens_pass_axe_at_both_widths(demo_office, signed_in, viewport):
    page = signed_in(viewport=viewport)
    violin = one(demo_office, "roles", name="Violin")
    for path in [*SCREENS, f"/records/roles/{violin['id']}", "/records/venues/new"]:
        console.show(page, demo_office.url(path))
        expect(page.locator("main .loading")).to_have_count(0)
        expect(heading(page)).to_be_visible()
        assert serious_accessibility_violations(page) == [], path
        name = re.sub(r"[^a-z0-9]+", "-", path.strip("/")) or "home"
        pages.picture(page, f"records-{name}-{viewport['width']}")
