"""SPEC §12 screens 2 and 3: the gig page's Staffing and Pay tabs and the Staffing board, served from the demo
office and opened in Chromium. Journey 3 (a blocked-out member refused, then put on with "allow conflicts"),
journey 2 (a new gig staffed from its page, an invitee accepting from their mail), withdraw and accept on a
member's behalf, Generate roles, no amount for a user without pay.view, axe at both widths, hostile names as
text. Each test takes an open role of its own (one office serves the module)."""

import datetime as dt
import email
import email.policy
import re
import urllib.parse

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from playwright.sync_api import expect

from tests.support import console
from tests.support.console import DESKTOP, PHONE, DemoOffice, open_context, serious_accessibility_violations
from tests.support.served import ServedOffice
from tests.support.waiting import SLOW_MACHINE_SECONDS, wait_for

pytestmark = pytest.mark.browser
signed_in = console.signed_in
ANSWER_LINK = re.compile(r"https?://\S+/answer\S*")


@pytest.fixture(scope="module")
def demo_office(tmp_path_factory):
    """The demo office mailing into a directory (each .eml a mail as sent), invitations mailed at once."""
    made = tmp_path_factory.mktemp("staffing")
    office = DemoOffice(made, BAND_MAIL_URL=f"file:{made / 'outbox'}", BAND_NOTIFY_DELAY_SECONDS="0.1")
    office.outbox = made / "outbox"
    yield office
    office.service.stop()


HOSTILE = "<img src=x onerror=alert(1)> \u202eevil"
LONG_NAME = "x" * 100  # a name's most (str(100))
# each test its own open role of a live upcoming gig: the nth such gig, counted from the far end
USES = {
    "journey3": 0,
    "answers": 1,
    "pay_view": 2,
    "axe": 3,
    "hostile": 4,
    "board": 5,
    "pay": 6,
    "double": 7,
    "follow": 8,
    "invited": 9,
}
FOLLOW_MS = 30_000  # SPEC §12: within 30 s
AMOUNT = re.compile(r"€|\d+\.\d\d")


def query(path, **params):
    return f"{path}?{urllib.parse.urlencode(params)}"


def post(office, path, body, **params):
    return office.api(query(path, **params) if params else path, method="POST", body=body)["data"]


def open_roles_by_gig(office):
    """{gig id: [open gig roles with gig and role]} of live upcoming gigs (neither completed nor cancelled: those take
    no invitations), latest gigs first."""
    closed = {s["id"] for s in office.api("/gig-statuses")["data"] if s["kind"] in ("completed", "cancelled")}
    path = query(
        "/gig-roles",
        **{
            "filter[status]": "open",
            "filter[gig.gig_date][gte]": dt.date.today().isoformat(),
            "filter[gig.gig_status_id][nin]": ",".join(sorted(closed)),
            "sort": "-gig.gig_date",
            "expand": "gig,role",
            "limit": 200,
        },
    )
    by_gig = {}
    for role in office.api(path)["data"]:
        by_gig.setdefault(role["gig_id"], []).append(role)
    return by_gig


def role_for(office, use, available=1):
    """An open role of the nth gig (USES), the only open one of its name there (the page names it by its role),
    with at least `available` free candidates: (role, free candidates)."""
    gigs = list(open_roles_by_gig(office).values())
    for role in gigs[USES[use] % len(gigs)] + [r for roles in gigs for r in roles]:
        if [r["role_id"] for r in open_roles_by_gig(office)[role["gig_id"]]].count(role["role_id"]) > 1:
            continue
        free = [c for c in candidates_of(office, role) if c["available"]]
        if len(free) >= available:
            return role, free
    raise AssertionError("no open role with enough free candidates")


def candidates_of(office, role):
    return office.api(f"/gig-roles/{role['id']}/candidates?limit=200")["data"]


def name_of(person):
    return f"{person['first_name']} {person['last_name']}"


def staffing_tab(page, office, gig_id, tab="staffing"):
    page.goto(office.url(f"/gigs/{gig_id}?tab={tab}"))
    expect(page.get_by_role("heading", level=2, name="Staffing" if tab == "staffing" else "Pay")).to_be_visible()
    return page


def find_someone(page, role):
    page.get_by_role("button", name=f"Find someone for {role['role']['name']}").first.click()
    group = page.get_by_role("group", name=f"Candidates for {role['role']['name']}")
    expect(group.locator(".candidate").first).to_be_visible()
    return group


def test_journey_3_a_blocked_out_member_is_refused_in_words_then_put_on_with_allow_conflicts(demo_office, signed_in):
    role, free = role_for(demo_office, "journey3")
    member = free[0]
    blockout = {"staff_member_id": member["staff_member_id"], "reason": "Holiday"}
    blockout.update(start_date=role["gig"]["gig_date"], end_date=role["gig"]["gig_date"])
    post(demo_office, "/staff-member-blockouts", blockout)
    page = staffing_tab(signed_in(), demo_office, role["gig_id"])
    candidates = find_someone(page, role)
    row = candidates.locator(".candidate").filter(has_text=name_of(member))
    expect(row).to_contain_text("unavailable: blocked out on this day")

    row.get_by_role("checkbox").check()
    candidates.get_by_role("button", name=re.compile(r"^Invite")).click()
    refusal = candidates.locator(".refusal")
    expect(refusal).to_contain_text(f"{name_of(member)}: not invited, blocked out on this day")
    expect(refusal).to_contain_text("Holiday")
    refusal.get_by_role("button", name="Allow conflicts…").click()
    expect(refusal.get_by_role("alert")).to_contain_text("Put them on this role anyway?")
    refusal.get_by_role("button", name=f"Put {name_of(member)} on the role despite the conflict").click()

    expect(page.locator(".warning")).to_contain_text(f"{name_of(member)} is on the role despite a conflict")
    filled = page.locator(".gig-role.filled").filter(has_text=name_of(member))
    expect(filled.get_by_role("link", name=name_of(member))).to_be_visible()
    on_gig = query(
        "/gig-roles", **{"filter[gig_id]": role["gig_id"], "filter[staff_member_id]": member["staff_member_id"]}
    )
    assert [r["role_id"] for r in demo_office.api(on_gig)["data"]] == [role["role_id"]]


def test_a_double_booked_member_is_said_to_play_the_other_gig_at_its_time(demo_office, signed_in):
    role, free = role_for(demo_office, "double")
    member = free[0]
    other = post(demo_office, "/gigs", {"gig_date": role["gig"]["gig_date"], "title": "Firmenfeier Brunner"})
    busy = {"gig_id": other["id"], "role_id": role["role_id"], "staff_member_id": member["staff_member_id"]}
    post(demo_office, "/gig-roles", busy, allow_conflicts="true")
    page = staffing_tab(signed_in(), demo_office, role["gig_id"])
    row = find_someone(page, role).locator(".candidate").filter(has_text=name_of(member))
    expect(row).to_contain_text("unavailable: plays Firmenfeier Brunner that day")


def test_an_invitation_is_withdrawn_and_another_accepted_on_the_member_s_behalf(demo_office, signed_in):
    role, free = role_for(demo_office, "answers", available=2)
    first, second = free[:2]
    for member in (first, second):
        post(
            demo_office,
            "/gig-role-invitations",
            {"gig_role_id": role["id"], "staff_member_id": member["staff_member_id"]},
        )
    page = staffing_tab(signed_in(), demo_office, role["gig_id"])
    pending = page.locator(".pending-invitations")
    expect(pending.locator(".invitation").filter(has_text=name_of(first))).to_contain_text(
        re.compile(r"2 days|1 day|h left")
    )

    pending.get_by_role("button", name=f"Withdraw the invitation of {name_of(first)}").first.click()
    expect(pending.get_by_role("button", name=f"Withdraw the invitation of {name_of(first)}")).to_have_count(0)
    pending.get_by_role("button", name=f"Accept for {name_of(second)}").first.click()
    filled = page.locator(".gig-role.filled").filter(has_text=name_of(second))
    expect(filled.first).to_be_visible()
    invitations = demo_office.api(
        query("/gig-role-invitations", **{"filter[gig_role_id]": role["id"], "sort": "created_at"})
    )
    states = {i["staff_member_id"]: i["status"] for i in invitations["data"]}
    assert (states[first["staff_member_id"]], states[second["staff_member_id"]]) == ("withdrawn", "accepted")


def booker_key(office):
    """A user whose access role staffs gigs without pay.view (the demo's office and viewer both hold it)."""
    grants = ["gigs.*", "catalog.view", "staffing.*", "people.view", "production.view"]
    post(office, "/access-roles", {"name": "booker", "grants": grants, "description": "Staffs gigs; no pay."})
    post(office, "/users", {"email": "booker@band.example", "name": "Bea Booker", "roles": ["booker"]})
    return office.keys["booker@band.example"]


def test_an_invitation_made_elsewhere_appears_without_a_reload(demo_office, signed_in):
    role, free = role_for(demo_office, "follow")
    page = staffing_tab(signed_in(), demo_office, role["gig_id"])
    expect(page.locator(".pending-invitations")).to_be_visible()
    post(
        demo_office, "/gig-role-invitations", {"gig_role_id": role["id"], "staff_member_id": free[0]["staff_member_id"]}
    )
    invitation = page.locator(".pending-invitations .invitation").filter(has_text=name_of(free[0]))
    expect(invitation).to_contain_text(role["role"]["name"], timeout=FOLLOW_MS)


def test_a_user_without_pay_view_sees_no_amount_and_no_pay_tab(demo_office, signed_in):
    role, free = role_for(demo_office, "pay_view", available=2)
    paid = {"gig_id": role["gig_id"], "role_id": role["role_id"], "staff_member_id": free[1]["staff_member_id"]}
    post(demo_office, "/gig-roles", {**paid, "pay_cents": 31500})  # a filled role beside the open one
    admin = staffing_tab(signed_in(), demo_office, role["gig_id"])
    filled = admin.locator(".gig-role.filled").filter(has_text=name_of(free[1]))
    expect(filled).to_contain_text("315.00")  # there is pay to hide
    page = staffing_tab(signed_in("booker@band.example", token=booker_key(demo_office)), demo_office, role["gig_id"])
    find_someone(page, role)
    filled = page.locator(".gig-role.filled").filter(has_text=name_of(free[1]))
    expect(filled.get_by_role("link", name=name_of(free[1]))).to_be_visible()
    assert not AMOUNT.search(page.locator(".gig-staffing").inner_text())
    expect(page.get_by_role("link", name="Pay", exact=True)).to_have_count(0)
    page.goto(demo_office.url("/staffing?weeks=26"))
    find_someone(page, role_on_board(page))
    assert not AMOUNT.search(page.locator("main").inner_text())


def test_a_role_with_pending_invitations_shows_who_was_invited_and_the_time_left_on_its_row(demo_office, signed_in):
    role, free = role_for(demo_office, "invited", available=2)
    for member in free[:2]:
        body = {"gig_role_id": role["id"], "staff_member_id": member["staff_member_id"]}
        post(demo_office, "/gig-role-invitations", body)
    page = staffing_tab(signed_in(), demo_office, role["gig_id"])
    row = page.locator(".gig-role").filter(
        has=page.get_by_role("button", name=f"Find someone for {role['role']['name']}")
    )
    for member in free[:2]:
        expect(row).to_contain_text(
            re.compile(re.escape(name_of(member)) + r" \((\d+ days?( \d+ h)?|\d+ h \d+ min) left\)")
        )
    expect(row.locator(".role-open")).to_have_count(0)
    weeks = 26 if role["gig"]["gig_date"] <= (dt.date.today() + dt.timedelta(weeks=26)).isoformat() else None
    if weeks:
        page.goto(demo_office.url(f"/staffing?weeks={weeks}"))
        on_board = page.locator(".board-gig").filter(has_text=role["gig"]["title"]).locator(".gig-role")
        expect(on_board.filter(has_text=name_of(free[0])).first).to_contain_text("left)")


def test_the_board_of_an_office_with_no_gigs_says_so(browser, tmp_path):
    office = ServedOffice(tmp_path).start()
    try:
        context = open_context(browser, office.key, "ops@example.com")
        page = context.new_page()
        page.goto(f"{office.service.public_url}/staffing")
        expect(page.get_by_text("No gigs in the next 8 weeks.")).to_be_visible()
        expect(page.get_by_text("is filled")).to_have_count(0)
        context.close()
        assert context.problems.unexpected() == []
    finally:
        office.service.stop()


def role_on_board(page):
    """The first open role of the staffing board, as find_someone takes it."""
    button = page.get_by_role("button", name=re.compile(r"^Find someone for ")).first
    name = button.get_attribute("aria-label").removeprefix("Find someone for ").split(" at ")[0]
    return {"role": {"name": name}}


def test_the_pay_tab_shows_each_role_s_pay_its_source_in_words_and_the_total(demo_office, signed_in):
    role, _ = role_for(demo_office, "pay")
    sheet = demo_office.api(f"/gigs/{role['gig_id']}/pay-sheet?limit=200")
    page = staffing_tab(signed_in(), demo_office, role["gig_id"], tab="pay")
    rows = page.locator(".pay-sheet tbody tr")
    expect(rows).to_have_count(len(sheet["data"]))
    expect(page.locator(".pay-sheet tfoot")).to_contain_text(f"€{sheet['meta']['total_cents'] / 100:,.2f}")
    expect(page.locator(".pay-sheet tbody")).to_contain_text(re.compile("the role's default rate|set on this gig"))


def test_generate_roles_says_what_it_made_and_then_that_nothing_is_left(demo_office, signed_in):
    ensemble = demo_office.api("/product-ensembles?limit=1")["data"][0]
    day = (dt.date.today() + dt.timedelta(days=300)).isoformat()
    gig = post(demo_office, "/gigs", {"gig_date": day, "title": "Roles to generate"})
    body = {"gig_id": gig["id"], "product_id": ensemble["product_id"], "ensemble_id": ensemble["ensemble_id"]}
    post(demo_office, "/gig-products", body)
    page = staffing_tab(signed_in(), demo_office, gig["id"])
    expect(page.get_by_text("No roles yet.")).to_be_visible()
    page.get_by_role("button", name="Generate roles").click()
    said = page.get_by_role("status").filter(has_text="made:")
    expect(said).to_be_visible()
    made = demo_office.api(query("/gig-roles", **{"filter[gig_id]": gig["id"], "expand": "role"}))["data"]
    assert len(made) > 1
    expect(said).to_contain_text(f"{len(made)} roles made: ")
    for name in {role["role"]["name"] for role in made}:
        expect(said).to_contain_text(name)
    expect(page.locator(".gig-role.open")).to_have_count(len(made))
    page.get_by_role("button", name="Generate roles").click()
    expect(page.get_by_role("status").filter(has_text="No roles to make")).to_be_visible()


def test_the_board_groups_open_roles_by_gig_and_invites_from_there(demo_office, signed_in):
    page = signed_in()
    page.goto(demo_office.url("/staffing?weeks=26"))
    expect(page.get_by_role("heading", level=1, name="Staffing")).to_be_visible()
    first_gig = page.locator(".board-gig").first
    expect(first_gig.get_by_role("heading", level=2)).to_be_visible()
    role = role_on_board(page)
    candidates = find_someone(page, role)
    free = candidates.locator(".candidate:not(.unavailable)").first
    who = free.locator(".candidate-name").inner_text()
    free.get_by_role("checkbox").check()
    candidates.get_by_label("Expires in").select_option(label="1 week")
    candidates.get_by_role("button", name="Invite 1").click()
    expect(candidates.get_by_role("status")).to_have_text(f"Invited {who.split()[0]}")
    expect(candidates.locator(".candidate").filter(has_text=who)).to_contain_text("already invited")
    expect(page.get_by_role("heading", name=re.compile("Invitations expiring within"))).to_be_visible()


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_staffing_and_pay_tabs_and_the_board_pass_axe(demo_office, signed_in, viewport):
    role, _ = role_for(demo_office, "axe")
    page = staffing_tab(signed_in(viewport=viewport), demo_office, role["gig_id"])
    find_someone(page, role)
    assert serious_accessibility_violations(page) == []
    staffing_tab(page, demo_office, role["gig_id"], tab="pay")
    expect(page.locator(".pay-sheet")).to_be_visible()
    assert serious_accessibility_violations(page) == []
    page.goto(demo_office.url("/staffing?weeks=26"))
    find_someone(page, role_on_board(page))
    assert serious_accessibility_violations(page) == []


def test_hostile_names_render_as_text(demo_office, signed_in):
    role, _ = role_for(demo_office, "hostile")
    member = post(demo_office, "/staff-members", {"first_name": HOSTILE, "last_name": LONG_NAME})
    post(demo_office, "/staff-member-roles", {"staff_member_id": member["id"], "role_id": role["role_id"]})
    soon = (dt.datetime.now(dt.UTC) + dt.timedelta(hours=20)).isoformat()
    invitation = {"gig_role_id": role["id"], "staff_member_id": member["id"], "expires_at": soon}
    post(demo_office, "/gig-role-invitations", invitation)
    page = staffing_tab(signed_in(), demo_office, role["gig_id"])
    expect(page.locator(".pending-invitations .invitation-who").filter(has_text=HOSTILE)).to_contain_text(LONG_NAME)
    candidates = find_someone(page, role)
    expect(candidates.locator(".candidate-name").filter(has_text=HOSTILE)).to_be_visible()
    page.goto(demo_office.url("/staffing?weeks=26"))
    expect(page.locator(".invitation-who").filter(has_text=HOSTILE).first).to_be_visible()
    assert page.locator("img").count() == 0


def answer_link_mailed_to(office, address):
    """The answer link of the invitation mailed to `address` (waited for: the worker sends it)."""

    def mailed():
        for path in sorted(office.outbox.glob("*.eml")) if office.outbox.exists() else []:
            message = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
            if address in message["To"]:
                found = ANSWER_LINK.search(message.get_body(("plain",)).get_content())
                if found:
                    return found[0]
        return None

    return wait_for(mailed, timeout=SLOW_MACHINE_SECONDS)


def create_gig_with_a_new_client_and_venue(page, office, title):
    page.goto(office.url("/agenda"))
    page.get_by_role("link", name="New gig").click()
    page.get_by_label("Date (required)").fill((dt.date.today() + dt.timedelta(days=250)).isoformat())
    page.get_by_label("Title (required)").fill(title)
    venue = page.get_by_role("combobox", name="Venue")
    venue.fill("Gut Oberstockstall")
    page.get_by_role("option", name="New venue…").click()
    page.get_by_label("City").fill("Kirchberg am Wagram")
    page.get_by_role("button", name="Create", exact=True).click()
    expect(venue).to_have_value("Gut Oberstockstall, Kirchberg am Wagram")
    client = page.get_by_role("combobox", name="Client")
    client.fill("Hedwig")
    page.get_by_role("option", name="New contact…").click()
    page.get_by_label("Last name").fill("Brautmutter")
    page.get_by_role("button", name="Create", exact=True).click()
    expect(client).to_have_value(re.compile("Hedwig Brautmutter"))
    page.get_by_role("button", name="Create the gig").click()
    expect(page).to_have_url(re.compile(r"/gigs/[0-9a-f-]{36}$"))
    return page.url.rsplit("/", 1)[1]


def add_product(page, product):
    picker = page.get_by_role("combobox", name="Add a product")
    picker.fill(product["name"])
    option = page.get_by_role("option", name=product["name"], exact=True)

    def picked():
        """The option clicked; while the gig page is still settling, its focus may close the list: opened again."""
        if not option.is_visible():
            picker.click()
            return False
        try:
            option.click(timeout=2000)
        except PlaywrightTimeoutError:  # closed between the look and the click
            return False
        return True

    wait_for(picked, timeout=SLOW_MACHINE_SECONDS)
    expect(page.get_by_label("Ensemble")).to_be_visible()  # its ensembles known, the usual one chosen
    page.get_by_role("button", name=f"Add {product['name']}").click()
    expect(page.locator(".product-row").filter(has_text=product["name"])).to_be_visible()
    expect(page.get_by_role("button", name=f"Add {product['name']}")).to_have_count(0)
    expect(picker).to_have_value("")


def email_of(office, candidate):
    return office.api(f"/staff-members/{candidate['staff_member_id']}")["data"]["email"]


def priced_products(office, count):
    """`count` products with a catalog price and an ensemble offered (so that roles can be generated)."""
    offered = {pe["product_id"] for pe in office.api("/product-ensembles?limit=200")["data"]}
    priced = {p["product_id"] for p in office.api("/prices?limit=200")["data"]}
    products = office.api("/products?limit=200&filter[active]=true")["data"]
    return [p for p in products if p["id"] in offered & priced][:count]


def test_journey_2_a_new_gig_is_staffed_and_the_first_invitee_accepts_from_their_mail(demo_office, signed_in, browser):
    page = signed_in()
    gig_id = create_gig_with_a_new_client_and_venue(page, demo_office, "Hochzeit im Weingut")
    page.get_by_label("Change the status").select_option(label="Inquiry")
    expect(page.get_by_role("status").filter(has_text="now Inquiry")).to_be_visible()
    for product in priced_products(demo_office, 2):
        add_product(page, product)
    products = demo_office.api(query("/gig-products", **{"filter[gig_id]": gig_id}))["data"]
    assert len(products) == 2 and all(p["price_cents"] is not None for p in products)

    page.goto(demo_office.url(f"/gigs/{gig_id}?tab=staffing"))
    page.get_by_role("button", name="Generate roles").click()
    expect(page.get_by_role("status").filter(has_text="roles made:")).to_be_visible()
    role = demo_office.api(query("/gig-roles", **{"filter[gig_id]": gig_id, "expand": "role", "limit": 1}))["data"][0]
    candidates = find_someone(page, role)
    free = [c for c in candidates_of(demo_office, role) if c["available"] and email_of(demo_office, c)][:2]
    for candidate in free:
        candidates.locator(".candidate").filter(has_text=name_of(candidate)).get_by_role("checkbox").check()
    candidates.get_by_role("button", name="Invite 2").click()
    first, second = free
    expect(candidates.get_by_role("status")).to_have_text(f"Invited {first['first_name']} and {second['first_name']}")
    address = email_of(demo_office, first)
    musician = open_context(browser, viewport=PHONE)
    try:
        answer = musician.new_page()
        answer.goto(answer_link_mailed_to(demo_office, address))
        answer.get_by_role("button", name="Accept").click()
        expect(answer.locator("#outcome")).to_contain_text("Accepted.")
        assert musician.problems.unexpected() == []
    finally:
        musician.close()

    page.goto(demo_office.url(f"/gigs/{gig_id}?tab=staffing"))
    filled = page.locator(".gig-role.filled").filter(has_text=name_of(first))
    expect(filled.get_by_role("link", name=name_of(first))).to_be_visible()
    page.goto(demo_office.url(f"/gigs/{gig_id}?tab=history"))
    history = page.locator(".history-list li")
    # the member answered through the link of their invitation, as nobody the API can name (actor null)
    accepted = f"{name_of(first)} accepted the invitation from its link"
    for said in (
        f"invited {name_of(first)}",
        f"invited {name_of(second)}",
        accepted,
        f"withdrew the invitation to {name_of(second)}",
    ):
        expect(history.filter(has_text=re.compile(said))).to_have_count(1)
