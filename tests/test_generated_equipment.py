"""SPEC §5.4: `POST /gigs/{id}/generate-equipment`: free equipment assigned to what a gig's products need, and
the shortages reported."""

from tests.support.api import error_of
from tests.support.equipment import closed_status, need, on_gig

UNKNOWN_ID = "00000000-0000-4000-8000-000000000000"
DATE = "2027-06-12"


def generate(client, gig):
    r = client.post(f"/gigs/{gig}/generate-equipment")
    assert r.status_code == 200, r.get_json()
    body = r.get_json()
    assert set(body) == {"data"} and set(body["data"]) == {"assigned", "shortages"}, body
    return body["data"]


def shortages(result):
    return sorted(result["shortages"], key=lambda s: s["equipment_type_id"])


def test_generate_equipment_assigns_free_equipment_and_reports_shortages(admin, build):
    speakers, mixers, lights = (build.id("equipment-types") for _ in range(3))
    show, dinner = build.id("products"), build.id("products")
    need(build, show, speakers, 2)
    need(build, show, mixers, 1)
    need(build, dinner, speakers, 1)  # speakers: 3 in all
    need(build, dinner, lights, 2)
    gig = build.id("gigs", gig_date=DATE)
    build("gig-products", gig_id=gig, product_id=show)
    build("gig-products", gig_id=gig, product_id=dinner)

    def speaker(**fields):
        return build.id("equipment", equipment_type_id=speakers, **fields)

    already = speaker()
    build("gig-equipment", gig_id=gig, equipment_id=already)  # counts towards the three
    speaker(status="in_repair"), speaker(status="retired")
    busy = speaker()
    build("gig-equipment", gig_id=build.id("gigs", gig_date=DATE), equipment_id=busy)
    on_closed_gig, on_other_date = speaker(), speaker()
    build("gig-equipment", gig_id=build.id("gigs", gig_date=DATE, gig_status_id=closed_status(build)),
          equipment_id=on_closed_gig)  # fmt: skip
    build("gig-equipment", gig_id=build.id("gigs", gig_date="2027-06-13"), equipment_id=on_other_date)
    light = build.id("equipment", equipment_type_id=lights)
    build.id("equipment", equipment_type_id=lights, status="in_repair")
    build.id("equipment", equipment_type_id=mixers, status="retired")

    result = generate(admin, gig)
    assigned = sorted(result["assigned"], key=lambda a: a["equipment_id"])
    assert [a["equipment_id"] for a in assigned] == sorted([on_closed_gig, on_other_date, light])
    for record in assigned:
        assert admin.get(f"/gig-equipment/{record['id']}").get_json()["data"] == record
        assert (record["gig_id"], record["notes"]) == (gig, None)
    assert shortages(result) == sorted(
        [{"equipment_type_id": mixers, "missing": 1}, {"equipment_type_id": lights, "missing": 1}],
        key=lambda s: s["equipment_type_id"],
    )
    assert on_gig(admin, gig) == sorted([already, on_closed_gig, on_other_date, light])


def test_generate_equipment_twice_assigns_nothing_more(admin, build):
    kind, product = build.id("equipment-types"), build.id("products")
    need(build, product, kind, 3)
    gig = build.id("gigs")
    build("gig-products", gig_id=gig, product_id=product)
    first, second = (build.id("equipment", equipment_type_id=kind) for _ in range(2))
    result = generate(admin, gig)
    assert sorted(a["equipment_id"] for a in result["assigned"]) == sorted([first, second])
    assert result["shortages"] == [{"equipment_type_id": kind, "missing": 1}]
    assert generate(admin, gig) == {"assigned": [], "shortages": [{"equipment_type_id": kind, "missing": 1}]}
    assert on_gig(admin, gig) == sorted([first, second])
    # new stock fills the shortage on the next call, and then nothing is missing
    third = build.id("equipment", equipment_type_id=kind)
    result = generate(admin, gig)
    assert [a["equipment_id"] for a in result["assigned"]] == [third] and result["shortages"] == []
    assert generate(admin, gig) == {"assigned": [], "shortages": []}
    assert on_gig(admin, gig) == sorted([first, second, third])


def test_generate_equipment_counts_each_gig_product_even_of_the_same_product(admin, build):
    kind, product = build.id("equipment-types"), build.id("products")
    need(build, product, kind, 2)
    gig = build.id("gigs")
    build("gig-products", gig_id=gig, product_id=product, start_time="15:00")
    build("gig-products", gig_id=gig, product_id=product, start_time="21:00")  # the same product, twice
    stock = [build.id("equipment", equipment_type_id=kind) for _ in range(3)]
    result = generate(admin, gig)
    assert sorted(a["equipment_id"] for a in result["assigned"]) == sorted(stock)
    assert result["shortages"] == [{"equipment_type_id": kind, "missing": 1}]  # 2 x 2 needed


def test_generate_equipment_does_not_take_what_another_gig_that_date_just_took(admin, build):
    kind, product = build.id("equipment-types"), build.id("products")
    need(build, product, kind, 1)
    gigs = [build.id("gigs", gig_date=DATE) for _ in range(2)]
    for gig in gigs:
        build("gig-products", gig_id=gig, product_id=product)
    only = build.id("equipment", equipment_type_id=kind)
    assert [a["equipment_id"] for a in generate(admin, gigs[0])["assigned"]] == [only]
    assert generate(admin, gigs[1]) == {"assigned": [], "shortages": [{"equipment_type_id": kind, "missing": 1}]}
    assert on_gig(admin, gigs[1]) == []


def test_generate_equipment_without_needs_assigns_nothing(admin, build):
    gig = build.id("gigs")
    build.id("equipment")
    assert generate(admin, gig) == {"assigned": [], "shortages": []}
    build("gig-products", gig_id=gig)  # a product that needs no equipment
    assert generate(admin, gig) == {"assigned": [], "shortages": []}
    assert on_gig(admin, gig) == []


def test_generate_equipment_needs_production_edit(signed_in, role, build, admin):
    kind, product = build.id("equipment-types"), build.id("products")
    need(build, product, kind, 1)
    gig = build.id("gigs")
    build("gig-products", gig_id=gig, product_id=product)
    equipment = build.id("equipment", equipment_type_id=kind)
    role("prod-view", "production.view")
    for client in (signed_in("prod-view"), signed_in("staff"), signed_in("viewer")):
        r = client.post(f"/gigs/{gig}/generate-equipment")
        assert error_of(r, 403, "forbidden")["details"] == {"required": "production.edit"}
    assert on_gig(admin, gig) == []
    role("prod-edit", "production.edit")
    assert [a["equipment_id"] for a in generate(signed_in("prod-edit"), gig)["assigned"]] == [equipment]


def test_generate_equipment_for_an_unknown_gig_is_not_found(admin, anon):
    for gig in (UNKNOWN_ID, "not-an-id"):
        error_of(admin.post(f"/gigs/{gig}/generate-equipment"), 404, "not_found")
    error_of(anon.post(f"/gigs/{UNKNOWN_ID}/generate-equipment"), 401, "unauthenticated")
