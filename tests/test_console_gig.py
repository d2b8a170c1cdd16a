"""SPEC §12 screen 2, the gig page (all but staffing and pay), in Debian's Chromium against the served demo office:
fields edited in place (a 422 kept at its field), a new gig with a venue made from the picker, a product whose price
the catalog fills, the run sheet put in order by keys, a file uploaded (chosen and dropped), downloaded and deleted,
the history in words, two people seeing each other's changes, axe on every tab at both widths, hostile strings as
text, and journey 4: a gig confirmed then cancelled withdraws its pending invitations, and the agenda follows."""

import datetime as dt
import re
import urllib.parse
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.support import console
from tests.support.console import DESKTOP, PHONE, serious_accessibility_violations
from tests.support.waiting import SLOW_MACHINE_SECONDS, wait_for

demo_office, signed_in = console.demo_office, console.signed_in
pytestmark = pytest.mark.browser

FOLLOW_MS = 30_000  # SPEC §12: within 30 s (the console polls every 10 s)
HOSTILE = "<img src=x onerror=alert(1)> \u202eevil"
LONG_HOSTILE = HOSTILE + " " + "x" * 5000
TABS = ["overview", "run-sheet", "equipment", "files", "history"]
# each test its own demo gig (one office serves the module): the nth upcoming gig without pending invitations
USES = {"edit": 0, "product": 1, "files": 2, "history": 3, "follow": 4, "hostile": 5, "axe": 6}


def query(path, **params):
    return f"{path}?{urllib.parse.urlencode(params)}"


def upcoming(office):
    today = dt.date.today().isoformat()
    path = query("/gigs", **{"filter[gig_date][gte]": today, "sort": "gig_date", "limit": 100, "expand": "gig_status"})
    return [gig for gig in office.api(path)["data"] if gig["gig_status"]["kind"] not in ("completed", "cancelled")]


def gig_for(office, use):
    quiet = [gig for gig in upcoming(office) if gig["pending_invitation_count"] == 0]
    return quiet[USES[use]]


def moments_of(office, gig_id):
    return office.api(query("/gig-moments", **{"filter[gig_id]": gig_id, "sort": "position"}))["data"]


def open_gig(page, office, gig_id, tab=None):
    page.goto(office.url(f"/gigs/{gig_id}" + (f"?tab={tab}" if tab else "")))
    expect(page.get_by_role("heading", level=1)).to_contain_text("·")
    return page


def en_gb(day):
    """A date as the console shows it in en-GB ("Sat 28 Nov 2026", a comma after the weekday in some ICUs)."""
    return rf"{day:%a},? {day.day} {day:%b} {day.year}"


def test_a_field_is_edited_in_place_and_a_422_stays_at_its_field(demo_office, signed_in):
    gig = gig_for(demo_office, "edit")
    page = open_gig(signed_in(), demo_office, gig["id"])
    page.get_by_role("button", name=re.compile(r"^Title")).click()
    page.get_by_label("Title", exact=True).fill("Summer ball at the lake")
    page.keyboard.press("Enter")
    expect(page.get_by_role("status").filter(has_text="Saved")).to_be_visible()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Summer ball at the lake")
    assert demo_office.api(f"/gigs/{gig['id']}")["data"]["title"] == "Summer ball at the lake"

    page.get_by_role("button", name=re.compile(r"^Guests")).click()
    page.get_by_label("Guests").fill("-5")
    page.keyboard.press("Enter")
    guests = page.get_by_label("Guests")
    expect(page.locator("#guest_count-message")).to_contain_text(re.compile(r"\S"))
    expect(guests).to_have_value("-5")  # what was typed is kept
    expect(guests).to_have_attribute("aria-describedby", "guest_count-message")
    assert demo_office.api(f"/gigs/{gig['id']}")["data"]["guest_count"] == gig["guest_count"]
    guests.press("Escape")
    expect(page.get_by_role("button", name=re.compile(r"^Guests"))).to_be_visible()


def test_a_gig_is_created_with_a_venue_made_in_its_picker(demo_office, signed_in):
    page = signed_in()
    page.goto(demo_office.url("/agenda"))
    page.get_by_role("link", name="New gig").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("New gig")
    day = dt.date.today() + dt.timedelta(days=200)
    page.get_by_label("Date (required)").fill(day.isoformat())
    page.get_by_label("Title (required)").fill("Garden party at the Hirschen")
    venue = page.get_by_role("combobox", name="Venue")
    venue.fill("Zum Goldenen Hirschen")
    venue.press("ArrowDown")  # None, then "New venue…": by keys alone
    expect(page.get_by_role("option", name="New venue…")).to_have_attribute("aria-selected", "true")
    venue.press("Enter")
    expect(page.get_by_label("Name (required)")).to_have_value("Zum Goldenen Hirschen")
    page.get_by_label("City").fill("Hallstatt")
    page.get_by_role("button", name="Create", exact=True).click()
    expect(venue).to_have_value("Zum Goldenen Hirschen, Hallstatt")
    page.get_by_role("button", name="Create the gig").click()

    expect(page).to_have_url(re.compile(r"/gigs/[0-9a-f-]{36}$"))
    expect(page.get_by_role("heading", level=1)).to_contain_text("Garden party at the Hirschen")
    expect(page.locator(".gig-where")).to_contain_text("Zum Goldenen Hirschen, Hallstatt")
    gig_id = page.url.rsplit("/", 1)[1]
    made = demo_office.api(f"/gigs/{gig_id}?expand=venue")["data"]
    assert (made["gig_date"], made["venue"]["name"], made["venue"]["city"]) == (
        day.isoformat(),
        "Zum Goldenen Hirschen",
        "Hallstatt",
    )


def test_a_product_added_takes_its_catalog_price(demo_office, signed_in):
    gig = gig_for(demo_office, "product")
    prices = demo_office.api("/prices?limit=100")["data"]
    price = next(p for p in prices if p["ensemble_id"] is None and p["valid_to"] is None)
    product = demo_office.api(f"/products/{price['product_id']}")["data"]
    page = open_gig(signed_in(), demo_office, gig["id"])
    picker = page.get_by_role("combobox", name="Add a product")
    picker.fill(product["name"])
    page.get_by_role("option", name=product["name"], exact=True).click()
    page.get_by_role("button", name=f"Add {product['name']}").click()

    rows = query("/gig-products", **{"filter[gig_id]": gig["id"], "filter[product_id]": product["id"]})
    added = wait_for(lambda: demo_office.api(rows)["data"], timeout=SLOW_MACHINE_SECONDS)[0]
    amounts = {p["amount_cents"] for p in prices if p["product_id"] == product["id"]}
    assert added["price_cents"] in amounts
    shown = f"€{added['price_cents'] / 100:,.2f}"
    row = page.locator(".product-row").filter(has_text=product["name"])
    expect(row.get_by_role("button", name=re.compile(r"^Price"))).to_contain_text(shown)


def test_the_run_sheet_is_put_in_order_by_keys(demo_office, signed_in):
    gig = next(g for g in reversed(upcoming(demo_office)) if len(moments_of(demo_office, g["id"])) >= 2)
    first, second = (moment["name"] for moment in moments_of(demo_office, gig["id"])[:2])
    page = open_gig(signed_in(), demo_office, gig["id"], "run-sheet")

    def order():
        return [moment["name"] for moment in moments_of(demo_office, gig["id"])][:2]

    page.get_by_role("button", name=f"Move {first} down").focus()
    page.keyboard.press("Enter")
    wait_for(lambda: order() == [second, first], timeout=SLOW_MACHINE_SECONDS)
    expect(page.get_by_role("status").filter(has_text=f"{first} moved to place 2")).to_be_attached()
    page.keyboard.press("Alt+ArrowUp")  # the focus stayed in the moved row
    wait_for(lambda: order() == [first, second], timeout=SLOW_MACHINE_SECONDS)
    page.reload()
    names = page.get_by_role("list", name="Moments").get_by_role("button", name=re.compile(r"^Moment "))
    expect(names.nth(0)).to_contain_text(first)
    expect(names.nth(1)).to_contain_text(second)


def test_a_file_is_uploaded_chosen_or_dropped_downloaded_and_deleted(demo_office, signed_in):
    gig = gig_for(demo_office, "files")
    attached = query("/attachments", **{"filter[gig_id]": gig["id"], "limit": 100})
    before = [a["filename"] for a in demo_office.api(attached)["data"]]  # the demo's run of show, on some gigs
    page = open_gig(signed_in(), demo_office, gig["id"], "files")
    page.get_by_label("Choose files…").set_input_files(
        {"name": "set list.txt", "mimeType": "text/plain", "buffer": b"First dance: Perfect"}
    )
    download_button = page.get_by_role("button", name="Download set list.txt")
    expect(download_button).to_be_visible()
    with page.expect_download() as downloading:
        download_button.click()
    assert downloading.value.suggested_filename == "set list.txt"
    assert Path(downloading.value.path()).read_bytes() == b"First dance: Perfect"

    dropped = page.evaluate_handle(
        """() => { const files = new DataTransfer();
        files.items.add(new File(["stage plan"], "stage plan.txt", {type: "text/plain"})); return files; }"""
    )
    page.dispatch_event(".drop-zone", "drop", {"dataTransfer": dropped})
    expect(page.get_by_role("button", name="Download stage plan.txt")).to_be_visible()
    page.get_by_role("button", name="Delete stage plan.txt").click()
    expect(page.get_by_role("button", name="Download stage plan.txt")).to_have_count(0)
    names = [a["filename"] for a in demo_office.api(attached)["data"]]
    assert sorted(names) == sorted([*before, "set list.txt"])


def test_the_history_says_an_edit_in_words(demo_office, signed_in):
    gig = gig_for(demo_office, "history")
    before = dt.date.fromisoformat(gig["gig_date"])
    after = before + dt.timedelta(days=1)
    demo_office.api(f"/gigs/{gig['id']}", method="PATCH", body={"gig_date": after.isoformat()})
    page = open_gig(signed_in(), demo_office, gig["id"], "history")
    said = re.compile(rf"^Eva Maier changed the date from {en_gb(before)} to {en_gb(after)}$")
    first = page.locator(".history-list li").first
    expect(first.locator(".history-words")).to_have_text(said)
    expect(first.locator("time")).to_have_text(re.compile(r"now|seconds? ago|minutes? ago"))


def test_the_history_says_pay_is_hidden_only_to_whom_the_api_hides_it(demo_office, signed_in):
    gig = gig_for(demo_office, "product")
    role = demo_office.api(query("/gig-roles", **{"filter[gig_id]": gig["id"], "limit": 1}))["data"][0]
    for pay_cents in (12345, None):
        demo_office.api(f"/gig-roles/{role['id']}", method="PATCH", body={"pay_cents": pay_cents})
    office = open_gig(signed_in(), demo_office, gig["id"], "history")
    expect(office.locator(".history-words").first).to_have_text(re.compile(r"the pay .*from .*123\.45 to nothing$"))
    grants = ["gigs.view", "staffing.view", "people.view", "catalog.view"]  # the demo's roles all read pay
    demo_office.api("/access-roles", method="POST", body={"name": "reader-no-pay", "grants": grants})
    email = "reader@band.example"
    demo_office.api("/users", method="POST", body={"email": email, "name": "Rita Reader", "roles": ["reader-no-pay"]})
    reader = open_gig(signed_in(email), demo_office, gig["id"], "history")
    expect(reader.locator(".history-words").first).to_have_text(re.compile(r"the pay of .* \(amounts hidden\)$"))


def test_two_people_on_one_gig_see_each_other_s_changes(demo_office, signed_in):
    gig = gig_for(demo_office, "follow")
    eva = open_gig(signed_in(), demo_office, gig["id"])
    markus = open_gig(signed_in("office@band.example"), demo_office, gig["id"])

    eva.get_by_role("button", name=re.compile(r"^Title")).click()
    eva.get_by_label("Title", exact=True).fill("Moved to the big hall")
    eva.keyboard.press("Enter")
    expect(markus.get_by_role("heading", level=1)).to_contain_text("Moved to the big hall", timeout=FOLLOW_MS)

    markus.get_by_role("button", name=re.compile(r"^Notes")).click()
    markus.get_by_label("Notes").fill("Markus is typing this")
    demo_office.api(f"/gigs/{gig['id']}", method="PATCH", body={"notes": "Eva's notes"})
    expect(markus.get_by_role("status").filter(has_text="Changed by someone else")).to_contain_text(
        "Eva's notes", timeout=FOLLOW_MS
    )
    expect(markus.get_by_label("Notes")).to_have_value("Markus is typing this")
    markus.get_by_label("Notes").press("Escape")


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_every_tab_and_the_new_gig_form_pass_axe(demo_office, signed_in, viewport):
    gig = gig_for(demo_office, "axe")
    page = signed_in(viewport=viewport)
    for tab in TABS:
        open_gig(page, demo_office, gig["id"], tab)
        expect(page.locator(".gig-tab h2").first).to_be_attached()
        expect(page.locator(".loading")).to_have_count(0)
        assert (tab, serious_accessibility_violations(page)) == (tab, [])
    page.goto(demo_office.url("/gigs/new"))
    page.get_by_role("combobox", name="Venue").click()
    expect(page.get_by_role("listbox", name="Venue")).to_be_visible()
    assert serious_accessibility_violations(page) == []


def test_hostile_strings_render_as_text(demo_office, signed_in):
    gig = gig_for(demo_office, "hostile")
    demo_office.api(
        f"/gigs/{gig['id']}",
        method="PATCH",
        body={"title": HOSTILE, "notes": LONG_HOSTILE, "custom_fields": {"parking": LONG_HOSTILE}},
    )
    demo_office.api("/gig-moments", method="POST", body={"gig_id": gig["id"], "name": HOSTILE, "position": 99})
    demo_office.api("/gig-songs", method="POST", body={"gig_id": gig["id"], "title": HOSTILE, "position": 99})
    on_gig = {c["contact_id"] for c in demo_office.api(query("/gig-contacts", **{"filter[gig_id]": gig["id"]}))["data"]}
    contact = next(c for c in demo_office.api("/contacts?limit=50")["data"] if c["id"] not in on_gig)
    body = {"gig_id": gig["id"], "contact_id": contact["id"], "relationship": HOSTILE}
    demo_office.api("/gig-contacts", method="POST", body=body)
    page = signed_in()
    page.on("dialog", lambda dialog: pytest.fail(f"a dialog opened: {dialog.message}"))
    open_gig(page, demo_office, gig["id"])
    expect(page.get_by_role("heading", level=1)).to_contain_text(HOSTILE)
    notes = page.get_by_role("button", name=re.compile(r"^Notes"))
    expect(notes).to_contain_text(LONG_HOSTILE)
    expect(page.get_by_role("button", name=re.compile(r"^Parking"))).to_contain_text(LONG_HOSTILE)
    expect(page.locator(".contact-row").filter(has_text=HOSTILE)).to_contain_text(f"· {HOSTILE}")
    open_gig(page, demo_office, gig["id"], "files")
    page.get_by_label("Choose files…").set_input_files(
        {"name": f"{HOSTILE}.txt", "mimeType": "text/plain", "buffer": b"x"}
    )
    expect(page.get_by_role("button", name=f"Download {HOSTILE}.txt")).to_have_text(f"{HOSTILE}.txt")
    open_gig(page, demo_office, gig["id"], "run-sheet")
    expect(page.get_by_role("button", name=f"Moment {HOSTILE}", exact=True)).to_have_text(HOSTILE)
    expect(page.locator(".song-title").filter(has_text=HOSTILE)).to_have_text(HOSTILE)
    open_gig(page, demo_office, gig["id"], "history")
    expect(page.locator(".history-words").filter(has_text="the moment")).to_contain_text(
        f"added the moment “{HOSTILE}”"
    )
    assert page.locator("img[src='x']").count() == 0


def pending_invitations(office, gig_id):
    roles = office.api(query("/gig-roles", **{"filter[gig_id]": gig_id, "limit": 100}))["data"]
    statuses = []
    for role in roles:
        invitations = office.api(query("/gig-role-invitations", **{"filter[gig_role_id]": role["id"], "limit": 100}))
        statuses += [invitation["status"] for invitation in invitations["data"]]
    return statuses


def test_journey_4_confirmed_then_cancelled_withdraws_pending_invitations(demo_office, signed_in):
    gig = next(
        g for g in upcoming(demo_office) if g["pending_invitation_count"] > 0 and g["gig_status"]["kind"] != "confirmed"
    )
    pending = gig["pending_invitation_count"]
    assert pending_invitations(demo_office, gig["id"]).count("pending") == pending
    page = open_gig(signed_in(), demo_office, gig["id"])
    status = page.get_by_label("Change the status")
    status.select_option(label="Confirmed")
    expect(page.locator(".gig-status .status")).to_have_text("Confirmed")
    assert demo_office.api(f"/gigs/{gig['id']}?expand=gig_status")["data"]["gig_status"]["kind"] == "confirmed"

    status.select_option(label="Cancelled")
    confirm = page.get_by_role("alertdialog")
    expect(confirm).to_contain_text(f"{pending} pending invitations will be withdrawn")
    confirm.get_by_role("button", name="Yes, move to Cancelled").click()
    expect(page.locator(".gig-status .status")).to_have_text("Cancelled")
    expect(page.locator(".gig-counts")).to_contain_text("0 pending invitations")
    statuses = pending_invitations(demo_office, gig["id"])
    assert "pending" not in statuses and statuses.count("withdrawn") >= pending

    page.get_by_role("link", name="‹ Agenda").click()
    row = page.locator(".gig-row").filter(has=page.get_by_role("link", name=gig["title"], exact=True))
    expect(row.locator(".status")).to_have_text("Cancelled")
    expect(row.locator(".badge.pending")).to_have_count(0)


def test_a_clash_is_said_in_words_with_a_link_to_the_other_gig(demo_office, signed_in):
    booked = next(
        (gig, rows[0])
        for gig in upcoming(demo_office)
        if (
            rows := demo_office.api(query("/gig-equipment", **{"filter[gig_id]": gig["id"], "expand": "equipment"}))[
                "data"
            ]
        )
    )
    other, taken = booked
    body = {"gig_date": other["gig_date"], "title": "Second booking that night"}
    gig = demo_office.api("/gigs", method="POST", body=body)["data"]
    page = open_gig(signed_in(), demo_office, gig["id"], "equipment")
    picker = page.get_by_role("combobox", name="Add equipment")
    picker.fill(taken["equipment"]["name"])
    page.get_by_role("option", name=re.compile(re.escape(taken["equipment"]["name"]))).first.click()
    said = page.get_by_role("alert")
    expect(said).to_contain_text("Not saved: The equipment is on another gig that date.")
    expect(said.get_by_role("link")).to_have_attribute("href", f"/gigs/{other['id']}")
