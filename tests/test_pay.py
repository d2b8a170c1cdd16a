"""SPEC §5.5: the order in which a gig role's pay is resolved, the pay sheet of a gig and the pay sheet of a
period, each in a constant number of queries (rates: test_rates.py)."""

import pytest

from tests.support.api import error_of
from tests.support.database import count_queries

UNKNOWN_ID = "00000000-0000-4000-8000-000000000000"


def hold(build, member, role):
    build("staff-member-roles", staff_member_id=member, role_id=role)


def gig_role(admin, gig, role, **fields):
    return admin.create("gig-roles", {"gig_id": gig, "role_id": role, **fields})


def line(role, amount, source):
    return {
        "gig_role_id": role["id"],
        "role_id": role["role_id"],
        "staff_member_id": role["staff_member_id"],
        "amount_cents": amount,
        "source": source,
    }


def sheet(client, gig, query=""):
    r = client.get(f"/gigs/{gig}/pay-sheet{query}")
    assert r.status_code == 200, r.get_json()
    body = r.get_json()
    assert set(body) == {"data", "meta"}, body
    return body


def by_role(lines):
    return sorted(lines, key=lambda item: item["gig_role_id"])


# --- the order of pay resolution (§5.5) ---------------------------------------------------------------


@pytest.fixture
def setting(admin, build):
    """A filled gig role on a gig product, with every kind of rate that could apply to it."""
    role, product, member = build.id("roles"), build.id("products"), build.id("staff-members")
    gig = build.id("gigs")
    gig_product = build.id("gig-products", gig_id=gig, product_id=product)
    hold(build, member, role)
    filled = gig_role(admin, gig, role, gig_product_id=gig_product, staff_member_id=member, pay_cents=30000)
    rates = {
        "staff_member_product_rate": build.id(
            "staff-member-product-rates", staff_member_id=member, product_id=product, amount_cents=25000
        ),
        "rate": build.id("rates", role_id=role, product_id=product, amount_cents=22000),
        "role_default_rate": build.id("rates", role_id=role, amount_cents=20000),
    }
    # rates that never apply: other products, other members, other roles
    other_product, other_member = build.id("products"), build.id("staff-members")
    build("staff-member-product-rates", staff_member_id=member, product_id=other_product, amount_cents=1)
    build("staff-member-product-rates", staff_member_id=other_member, product_id=product, amount_cents=2)
    build("rates", role_id=role, product_id=other_product, amount_cents=3)
    other_role = build.id("roles")
    build("rates", role_id=other_role, product_id=product, amount_cents=4)
    build("rates", role_id=other_role, amount_cents=5)
    return {
        "gig": gig,
        "gig_role": filled,
        "rates": rates,
        "role": role,
        "member": member,
        "other_product": other_product,
    }


def test_pay_is_resolved_in_the_documented_order(admin, setting):
    gig, role, rates = setting["gig"], setting["gig_role"], setting["rates"]
    assert sheet(admin, gig)["data"] == [line(role, 30000, "gig_role")]
    assert admin.patch(f"/gig-roles/{role['id']}", json={"pay_cents": None}).status_code == 200
    assert sheet(admin, gig)["data"] == [line(role, 25000, "staff_member_product_rate")]
    assert admin.delete(f"/staff-member-product-rates/{rates['staff_member_product_rate']}").status_code == 204
    assert sheet(admin, gig)["data"] == [line(role, 22000, "rate")]
    assert admin.delete(f"/rates/{rates['rate']}").status_code == 204
    assert sheet(admin, gig)["data"] == [line(role, 20000, "role_default_rate")]
    assert admin.delete(f"/rates/{rates['role_default_rate']}").status_code == 204
    body = sheet(admin, gig)
    assert body["data"] == [line(role, None, "none")]
    assert body["meta"] == {"total": 1, "limit": 50, "offset": 0, "total_cents": 0, "currency": "EUR"}


def test_a_gig_role_pay_of_zero_wins_over_the_rates(admin, setting):
    role = setting["gig_role"]
    assert admin.patch(f"/gig-roles/{role['id']}", json={"pay_cents": 0}).status_code == 200
    assert sheet(admin, setting["gig"])["data"] == [line(role, 0, "gig_role")]


def test_a_gig_role_without_gig_product_takes_the_role_default_rate(admin, build, setting):
    role = gig_role(admin, setting["gig"], setting["role"], staff_member_id=setting["member"])
    lines = by_role(sheet(admin, setting["gig"])["data"])
    assert line(role, 20000, "role_default_rate") in lines and len(lines) == 2


def test_the_member_rate_is_for_the_gig_products_product(admin, build, setting):
    """Another gig product (another product) of the same gig: the member's and role's rates for it apply."""
    gig_product = build.id("gig-products", gig_id=setting["gig"], product_id=setting["other_product"])
    args = (admin, setting["gig"], setting["role"])
    role = gig_role(*args, gig_product_id=gig_product, staff_member_id=setting["member"])
    # the other product has a rate for the member (1) and one for the role (3)
    assert line(role, 1, "staff_member_product_rate") in sheet(admin, setting["gig"])["data"]
    other_member = build.id("staff-members")
    hold(build, other_member, setting["role"])
    role = gig_role(*args, gig_product_id=gig_product, staff_member_id=other_member)
    assert line(role, 3, "rate") in sheet(admin, setting["gig"])["data"]


# --- GET /gigs/{id}/pay-sheet -------------------------------------------------------------------------


@pytest.fixture
def busy_gig(admin, build):
    """A gig with five gig roles, paid from every source."""
    product, gig = build.id("products"), build.id("gigs")
    gig_product = build.id("gig-products", gig_id=gig, product_id=product)
    singer, drums, bass, sound = (build.id("roles") for _ in range(4))
    ann, bob = build.id("staff-members"), build.id("staff-members")
    hold(build, ann, singer), hold(build, bob, singer), hold(build, bob, drums)
    build("staff-member-product-rates", staff_member_id=ann, product_id=product, amount_cents=40000)
    build("rates", role_id=singer, product_id=product, amount_cents=30000)
    build("rates", role_id=drums, amount_cents=25000)
    roles = [
        gig_role(admin, gig, singer, gig_product_id=gig_product, staff_member_id=ann),
        gig_role(admin, gig, singer, gig_product_id=gig_product, staff_member_id=bob),
        gig_role(admin, gig, drums, gig_product_id=gig_product, staff_member_id=bob),
        gig_role(admin, gig, bass, gig_product_id=gig_product),
        gig_role(admin, gig, sound, pay_cents=15000),
    ]
    lines = [
        line(roles[0], 40000, "staff_member_product_rate"),
        line(roles[1], 30000, "rate"),
        line(roles[2], 25000, "role_default_rate"),
        line(roles[3], None, "none"),
        line(roles[4], 15000, "gig_role"),
    ]
    # another gig's roles are not on this gig's sheet
    gig_role(admin, build.id("gigs"), sound, pay_cents=99999)
    return gig, lines


def test_the_gig_pay_sheet_has_a_line_per_gig_role_and_their_total(admin, busy_gig):
    gig, lines = busy_gig
    body = sheet(admin, gig)
    assert by_role(body["data"]) == by_role(lines)
    assert body["meta"] == {"total": 5, "limit": 50, "offset": 0, "total_cents": 110000, "currency": "EUR"}


def test_a_paged_gig_pay_sheet_totals_every_line(admin, busy_gig):
    gig, _ = busy_gig
    everything = sheet(admin, gig)["data"]
    pages = []
    for offset in (0, 2, 4):
        body = sheet(admin, gig, f"?limit=2&offset={offset}")
        assert body["meta"] == {"total": 5, "limit": 2, "offset": offset, "total_cents": 110000, "currency": "EUR"}
        assert body["data"] == everything[offset : offset + 2]
        pages += body["data"]
    assert pages == everything
    body = sheet(admin, gig, "?offset=10")
    assert body == {
        "data": [],
        "meta": {"total": 5, "limit": 50, "offset": 10, "total_cents": 110000, "currency": "EUR"},
    }


def test_a_gig_without_roles_has_an_empty_pay_sheet(admin, build):
    body = sheet(admin, build.id("gigs"))
    assert body == {"data": [], "meta": {"total": 0, "limit": 50, "offset": 0, "total_cents": 0, "currency": "EUR"}}


@pytest.mark.parametrize(
    "query, parameter",
    [
        ("limit=0", "limit"),
        ("limit=201", "limit"),
        ("limit=x", "limit"),
        ("offset=-1", "offset"),
        ("limit=", "limit"),
        ("limit=1&limit=2", "limit"),
        ("sort=amount_cents", "sort"),
        ("fields=source", "fields"),
        ("filter[source]=rate", "filter[source]"),
        ("from=2027-01-01", "from"),
        ("lmit=5", "lmit"),
    ],
)
def test_the_gig_pay_sheet_refuses_unknown_or_bad_parameters(admin, build, query, parameter):
    r = admin.get(f"/gigs/{build.id('gigs')}/pay-sheet?{query}")
    assert parameter in error_of(r, 400, "invalid_query")["details"]


def test_the_gig_pay_sheet_of_an_unknown_gig_is_not_found(admin):
    for gig in (UNKNOWN_ID, "not-an-id"):
        error_of(admin.get(f"/gigs/{gig}/pay-sheet"), 404, "not_found")


def test_pay_sheets_need_pay_view(signed_in, role, anon, build):
    gig = build.id("gigs")
    role("pay-edit", "pay.edit")
    for client in (signed_in("staff"), signed_in("crew"), signed_in("pay-edit")):
        for path in (f"/gigs/{gig}/pay-sheet", "/pay-sheet?from=2027-01-01&to=2027-12-31"):
            assert error_of(client.get(path), 403, "forbidden")["details"] == {"required": "pay.view"}
    for path in (f"/gigs/{gig}/pay-sheet", "/pay-sheet?from=2027-01-01&to=2027-12-31"):
        error_of(anon.get(path), 401, "unauthenticated")
    role("pay-view", "pay.view")
    for name in ("pay-view", "viewer", "office"):
        assert signed_in(name).get(f"/gigs/{gig}/pay-sheet").status_code == 200
        assert signed_in(name).get("/pay-sheet?from=2027-01-01&to=2027-12-31").status_code == 200


# --- GET /pay-sheet?from&to ---------------------------------------------------------------------------


@pytest.fixture
def season(admin, build):
    """Three members with roles on gigs in June 2027, on closed gigs and outside the month."""
    closed = build.id("gig-statuses", kind="cancelled")
    tentative = build.id("gig-statuses", kind="tentative")
    confirmed = build.id("gig-statuses", kind="confirmed")
    role = build.id("roles")
    product = build.id("products")
    build("rates", role_id=role, product_id=product, amount_cents=50000)
    cara = build("staff-members", first_name="Cara", last_name="Adams")
    zoe = build("staff-members", first_name="Ann", last_name="Zed")
    bob = build("staff-members", first_name="Bob", last_name="Adams")
    idle = build("staff-members", first_name="Ida", last_name="Idle")
    for member in (cara, zoe, bob, idle):
        hold(build, member["id"], role)
    june_1 = build.id("gigs", gig_date="2027-06-01", gig_status_id=confirmed)
    june_15 = build.id("gigs", gig_date="2027-06-15", gig_status_id=tentative)
    june_10 = build.id("gigs", gig_date="2027-06-10")  # no status: live
    may_31 = build.id("gigs", gig_date="2027-05-31")
    july_1 = build.id("gigs", gig_date="2027-07-01")
    # closed gigs take no new roles: fill the role first, then close the gig
    june_12 = build.id("gigs", gig_date="2027-06-12")

    def play(gig, member, **fields):
        gig_role(admin, gig, role, staff_member_id=member["id"], **fields)

    play(june_1, bob, pay_cents=10000)
    play(june_15, bob, pay_cents=20000)
    play(june_12, bob, pay_cents=1000000)
    play(may_31, bob, pay_cents=2000000)
    play(july_1, bob, pay_cents=3000000)
    play(june_1, cara, gig_product_id=build.id("gig-products", gig_id=june_1, product_id=product))  # the rate
    play(june_1, cara, pay_cents=5000)  # a second role on the same gig
    play(june_10, zoe, pay_cents=7000)
    play(june_12, idle, pay_cents=8000)
    gig_role(admin, june_10, role, pay_cents=9000)  # open: nobody's pay
    assert admin.patch(f"/gigs/{june_12}", json={"gig_status_id": closed}).status_code == 200
    members = {"bob": bob, "cara": cara, "zoe": zoe}
    return members


def member_line(member, gigs, total):
    return {
        "staff_member_id": member["id"],
        "first_name": member["first_name"],
        "last_name": member["last_name"],
        "gigs": gigs,
        "total_cents": total,
    }


def period(client, query):
    r = client.get(f"/pay-sheet?{query}")
    assert r.status_code == 200, r.get_json()
    return r.get_json()


def test_the_period_pay_sheet_totals_filled_roles_of_live_gigs_in_the_range(admin, season):
    m = season
    body = period(admin, "from=2027-06-01&to=2027-06-15")
    assert body == {
        "data": [
            member_line(m["bob"], 2, 30000),
            member_line(m["cara"], 1, 55000),
            member_line(m["zoe"], 1, 7000),
        ],
        "meta": {"total": 3, "limit": 50, "offset": 0, "currency": "EUR"},
    }


def test_the_period_pay_sheet_range_is_inclusive_at_both_ends(admin, season):
    m = season
    assert period(admin, "from=2027-06-15&to=2027-06-15")["data"] == [member_line(m["bob"], 1, 20000)]
    assert period(admin, "from=2027-06-02&to=2027-06-14")["data"] == [member_line(m["zoe"], 1, 7000)]
    assert period(admin, "from=2027-05-31&to=2027-05-31")["data"] == [member_line(m["bob"], 1, 2000000)]
    whole = period(admin, "from=2027-01-01&to=2027-12-31")["data"]
    assert whole[0] == member_line(m["bob"], 4, 5030000)
    assert period(admin, "from=2027-06-12&to=2027-06-12") == {
        "data": [],
        "meta": {"total": 0, "limit": 50, "offset": 0, "currency": "EUR"},
    }


def test_the_period_pay_sheet_pages(admin, season):
    m = season
    body = period(admin, "from=2027-06-01&to=2027-06-30&limit=1&offset=1")
    assert body == {
        "data": [member_line(m["cara"], 1, 55000)],
        "meta": {"total": 3, "limit": 1, "offset": 1, "currency": "EUR"},
    }
    body = period(admin, "to=2027-06-30&offset=2&from=2027-06-01")
    assert body == {
        "data": [member_line(m["zoe"], 1, 7000)],
        "meta": {"total": 3, "limit": 50, "offset": 2, "currency": "EUR"},
    }


@pytest.mark.parametrize(
    "query, parameter",
    [
        ("", "from"),
        ("to=2027-06-30", "from"),
        ("from=2027-06-01", "to"),
        ("from=&to=2027-06-30", "from"),
        ("from=2027-02-30&to=2027-06-30", "from"),
        ("from=2027-06-01&to=2027-6-30", "to"),
        ("from=2027-06-01&to=tomorrow", "to"),
        ("from=2027-06-01T00:00:00Z&to=2027-06-30", "from"),
        ("from=2027-06-01&from=2027-06-02&to=2027-06-30", "from"),
        ("from=2027-06-01&to=2027-06-30&limit=0", "limit"),
        ("from=2027-06-01&to=2027-06-30&sort=last_name", "sort"),
        ("from=2027-06-01&to=2027-06-30&staff_member_id=x", "staff_member_id"),
    ],
)
def test_the_period_pay_sheet_refuses_bad_parameters(admin, query, parameter):
    assert parameter in error_of(admin.get(f"/pay-sheet?{query}"), 400, "invalid_query")["details"]


def test_a_period_that_ends_before_it_starts_is_empty(admin, build):
    member = build("staff-members")  # the recipe gives the member the role it is put on
    build("gig-roles", gig_id=build.id("gigs", gig_date="2027-06-01"), staff_member_id=member["id"])
    assert admin.get("/pay-sheet?from=2027-06-01&to=2027-06-01").get_json()["meta"]["total"] == 1
    r = admin.get("/pay-sheet?from=2027-06-02&to=2027-06-01")
    assert r.status_code == 200 and r.get_json() == {
        "data": [],
        "meta": {"total": 0, "limit": 50, "offset": 0, "currency": "EUR"},
    }


# --- GET /staff-members/{id}/pay-sheet?from&to: a member's lines of the period pay sheet ------------------------


def test_a_member_s_lines_add_up_to_their_total_on_the_period_pay_sheet(admin, season):
    bob = season["bob"]["id"]
    r = admin.get(f"/staff-members/{bob}/pay-sheet?from=2027-06-01&to=2027-06-30")
    assert r.status_code == 200, r.get_json()
    body = r.get_json()
    assert [(line["gig_date"], line["amount_cents"], line["source"]) for line in body["data"]] == [
        ("2027-06-01", 10000, "gig_role"),
        ("2027-06-15", 20000, "gig_role"),
    ]  # not the cancelled gig of 12 June, nor May's or July's
    assert body["meta"] == {"total": 2, "limit": 50, "offset": 0, "total_cents": 30000, "currency": "EUR"}
    office = period(admin, "from=2027-06-01&to=2027-06-30")["data"]
    assert [line["total_cents"] for line in office if line["staff_member_id"] == bob] == [30000]


def test_a_member_s_pay_sheet_needs_pay_view_a_known_member_and_a_period(signed_in, admin, season):
    bob = season["bob"]["id"]
    r = signed_in("crew").get(f"/staff-members/{bob}/pay-sheet?from=2027-06-01&to=2027-06-30")
    assert error_of(r, 403, "forbidden")["details"] == {"required": "pay.view"}
    error_of(admin.get(f"/staff-members/{UNKNOWN_ID}/pay-sheet?from=2027-06-01&to=2027-06-30"), 404, "not_found")
    assert (
        "to" in error_of(admin.get(f"/staff-members/{bob}/pay-sheet?from=2027-06-01"), 400, "invalid_query")["details"]
    )


# --- a constant number of queries ---------------------------------------------------------------------


def fill_gig(admin, build, gig, count):
    product = build.id("products")
    gig_product = build.id("gig-products", gig_id=gig, product_id=product)
    for _ in range(count):
        role, member = build.id("roles"), build.id("staff-members")
        hold(build, member, role)
        build("rates", role_id=role, product_id=product)
        build("rates", role_id=role)
        build("staff-member-product-rates", staff_member_id=member, product_id=product)
        gig_role(admin, gig, role, gig_product_id=gig_product, staff_member_id=member)


def test_the_pay_sheets_cost_the_same_queries_whatever_the_number_of_roles(admin, build, monkeypatch):
    small, large = build.id("gigs", gig_date="2027-03-01"), build.id("gigs", gig_date="2027-03-02")
    fill_gig(admin, build, small, 1)
    fill_gig(admin, build, large, 12)
    executed = count_queries(monkeypatch)
    counts = {}
    for name, path in [
        ("small", f"/gigs/{small}/pay-sheet"),
        ("large", f"/gigs/{large}/pay-sheet"),
        ("small period", "/pay-sheet?from=2027-03-01&to=2027-03-01"),
        ("large period", "/pay-sheet?from=2027-03-01&to=2027-03-02"),
    ]:
        executed.clear()
        r = admin.get(path)
        assert r.status_code == 200 and r.get_json()["meta"]["total"] in (1, 12, 13)
        counts[name] = len(executed)
    assert counts["small"] == counts["large"] and counts["small period"] == counts["large period"], counts
