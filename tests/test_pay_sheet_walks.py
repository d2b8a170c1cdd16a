"""SPEC §2.3 and §5.5: the period pay sheet walks each member's roles in an index that holds all it reads of them (the
gig's date, status and product copied onto the role): over a wide period, counted by kind with no sort and no
gig looked up; and whatever changes a role's price or whether it counts, every pay sheet still adds up the roles
as the gig's pay sheet prices them, to the cent."""

import pytest

from models import db

ALL_TIME = "from=1900-01-01&to=2999-12-31"
ONE_DAY = "from=2027-03-01&to=2027-03-01"  # one gig of four: a narrow period, walked by date


def gig_role(admin, gig, role, **fields):
    return admin.create("gig-roles", {"gig_id": gig, "role_id": role, **fields})


def pages(client, path):
    """Every line of a paged pay sheet (two lines a page, so that pages are walked)."""
    lines, offset = [], 0
    while True:
        r = client.get(f"{path}&limit=2&offset={offset}")
        assert r.status_code == 200, r.get_json()
        body = r.get_json()
        lines += body["data"]
        offset += 2
        if offset >= body["meta"]["total"]:
            return lines


def priced_roles(admin, gigs):
    """{gig role id: amount} of every role of the gigs, as their gigs' pay sheets price them."""
    return {
        line["gig_role_id"]: line["amount_cents"] or 0
        for gig in gigs
        for line in admin.get(f"/gigs/{gig}/pay-sheet?limit=200").get_json()["data"]
    }


def sheet(admin, period, gigs):
    """{member id: (gigs, total_cents)} of the period's sheet, each checked against the member's own lines and
    those lines against the gigs' pay sheets."""
    priced = priced_roles(admin, gigs)
    found = {}
    for member in pages(admin, f"/pay-sheet?{period}"):
        own = pages(admin, f"/staff-members/{member['staff_member_id']}/pay-sheet?{period}")
        assert all(line["amount_cents"] == priced[line["gig_role_id"]] for line in own), own
        assert member["total_cents"] == sum(line["amount_cents"] or 0 for line in own), (member, own)
        assert member["gigs"] == len({line["gig_id"] for line in own}), (member, own)
        found[member["staff_member_id"]] = (member["gigs"], member["total_cents"])
    return found


@pytest.fixture
def office(admin, build):
    """Two members on four gigs of 2027, paid by every source: a role's own pay, the member's rate for the
    product, the role's rate for it, the role's default rate; Ann holds two roles on the gig of 1 March."""
    bass, keys = build.id("roles"), build.id("roles")
    party, dinner = build.id("products"), build.id("products")
    confirmed = build.id("gig-statuses", kind="confirmed")
    hold = build.id("gig-statuses", kind="tentative")
    ann, ben = build.id("staff-members"), build.id("staff-members")
    for member in (ann, ben):
        for role in (bass, keys):
            build("staff-member-roles", staff_member_id=member, role_id=role)
    rates = {
        "bass party": build.id("rates", role_id=bass, product_id=party, amount_cents=30000),
        "bass": build.id("rates", role_id=bass, amount_cents=20000),
        "keys": build.id("rates", role_id=keys, amount_cents=15000),
    }
    build("staff-member-product-rates", staff_member_id=ben, product_id=dinner, amount_cents=41000)
    march, april = (
        build.id("gigs", gig_date="2027-03-01", gig_status_id=confirmed),
        build.id("gigs", gig_date="2027-04-01"),
    )
    may = build.id("gigs", gig_date="2027-05-01", gig_status_id=hold)
    june = build.id("gigs", gig_date="2027-06-01", gig_status_id=confirmed)
    on = {
        gig: {p: build.id("gig-products", gig_id=gig, product_id=p) for p in (party, dinner)}
        for gig in (march, april, may, june)
    }
    roles = {
        "ann march bass": gig_role(admin, march, bass, gig_product_id=on[march][party], staff_member_id=ann),
        "ann march keys": gig_role(admin, march, keys, staff_member_id=ann),
        "ben march bass": gig_role(admin, march, bass, gig_product_id=on[march][dinner], staff_member_id=ben),
        "ann april bass": gig_role(admin, april, bass, staff_member_id=ann, pay_cents=12345),
        "ben may keys": gig_role(admin, may, keys, gig_product_id=on[may][dinner], staff_member_id=ben),
        "ann june keys": gig_role(admin, june, keys, gig_product_id=on[june][party], staff_member_id=ann),
    }
    gig_role(admin, june, bass)  # open: nobody's pay
    return {
        "ann": ann,
        "ben": ben,
        "gigs": (march, april, may, june),
        "hold": hold,
        "rates": rates,
        "roles": roles,
        "on": on,
        "party": party,
        "dinner": dinner,
    }


def test_every_pay_sheet_adds_up_the_roles_as_priced_after_rates_overrides_and_cancellations(admin, build, office):
    ann, ben, gigs = office["ann"], office["ben"], office["gigs"]
    march = gigs[0]
    roles = office["roles"]

    def both(ann_line, ben_line):
        expected = {k: v for k, v in ((ann, ann_line), (ben, ben_line)) if v is not None}
        assert sheet(admin, ALL_TIME, gigs) == expected

    # Ann: 30000 (bass, party) + 15000 (keys) + 12345 (own pay) + 15000 (keys, party: the default) on 3 gigs
    both((3, 72345), (2, 41000 + 41000))
    assert sheet(admin, ONE_DAY, gigs) == {ann: (1, 45000), ben: (1, 41000)}

    # a rate changed later prices past roles anew; a rate for the member's product wins over the role's
    assert admin.patch(f"/rates/{office['rates']['keys']}", json={"amount_cents": 16000}).status_code == 200
    build("staff-member-product-rates", staff_member_id=ann, product_id=office["party"], amount_cents=50000)
    both((3, 50000 + 16000 + 12345 + 50000), (2, 82000))
    assert sheet(admin, ONE_DAY, gigs) == {ann: (1, 66000), ben: (1, 41000)}

    # an override, a role moved to another product, a role given to someone else
    assert admin.patch(f"/gig-roles/{roles['ann march keys']['id']}", json={"pay_cents": 100}).status_code == 200
    ben_march = roles["ben march bass"]["id"]
    assert (
        admin.patch(
            f"/gig-roles/{ben_march}", json={"gig_product_id": office["on"][march][office["party"]]}
        ).status_code
        == 200
    )
    assert admin.patch(f"/gig-roles/{roles['ann april bass']['id']}", json={"staff_member_id": ben}).status_code == 200
    both((2, 50000 + 100 + 50000), (3, 30000 + 12345 + 41000))
    assert sheet(admin, ONE_DAY, gigs) == {ann: (1, 50100), ben: (1, 30000)}

    # a gig cancelled drops out of every sheet, and comes back when it is not; so does a gig whose status
    # becomes a cancelled kind, and one moved out of the period
    cancelled = build.id("gig-statuses", kind="cancelled")
    assert admin.patch(f"/gigs/{march}", json={"gig_status_id": cancelled}).status_code == 200
    both((1, 50000), (2, 12345 + 41000))
    assert sheet(admin, ONE_DAY, gigs) == {}
    assert admin.patch(f"/gigs/{march}", json={"gig_status_id": None}).status_code == 200
    assert admin.patch(f"/gig-statuses/{office['hold']}", json={"kind": "cancelled"}).status_code == 200
    both((2, 100100), (2, 30000 + 12345))
    assert admin.patch(f"/gig-statuses/{office['hold']}", json={"kind": "tentative"}).status_code == 200
    assert admin.patch(f"/gigs/{march}", json={"gig_date": "2027-03-02"}).status_code == 200
    both((2, 100100), (3, 30000 + 12345 + 41000))
    assert sheet(admin, ONE_DAY, gigs) == {}


@pytest.mark.sqlite_only  # SQLite's plans (EXPLAIN QUERY PLAN)
def test_a_wide_pay_sheet_counts_the_roles_by_kind_without_sorting_them_or_looking_their_gigs_up(
    admin, office, monkeypatch
):
    statements = []
    original = db.obj.execute_sql  # the database behind the proxy

    def recording(sql, params=None, *args, **kwargs):
        statements.append((sql, params))
        return original(sql, params, *args, **kwargs)

    monkeypatch.setattr(db.obj, "execute_sql", recording)
    assert admin.get(f"/pay-sheet?{ALL_TIME}").status_code == 200
    walks = [(sql, params) for sql, params in statements if 'FROM "gig_roles"' in sql and sql.startswith("SELECT")]
    plans = {sql: [row[3] for row in original("EXPLAIN QUERY PLAN " + sql, params).fetchall()] for sql, params in walks}
    assert len(plans) >= 3, plans  # the page's members, their roles by kind, their gigs
    assert [sql for sql, steps in plans.items() if any("TEMP B-TREE FOR GROUP BY" in step for step in steps)] == []
    assert [sql for sql in plans if 'FROM "gigs"' in sql] == []
