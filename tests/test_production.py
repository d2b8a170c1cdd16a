"""SPEC §4.4 and §5.4: equipment, what products need, equipment on gigs (unavailable and double-booked
equipment refused) and generating a gig's equipment (equipment issues: test_equipment_issues.py)."""

import pytest

from tests.support.api import error_of, moment

UNKNOWN_ID = "00000000-0000-4000-8000-000000000000"
DATE = "2027-06-12"


def closed_status(build):
    return build.id("gig-statuses", kind="cancelled")


def on_gig(admin, gig_id):
    """The equipment ids on a gig, as the gig-equipment list shows them."""
    rows = admin.get(f"/gig-equipment?filter[gig_id]={gig_id}&limit=200").get_json()["data"]
    return sorted(row["equipment_id"] for row in rows)


# --- equipment types, equipment, product equipment ----------------------------------------------------


def test_equipment_type_names_are_unique(admin, build):
    kind = build("equipment-types", name="Speakers", description="PA tops")
    assert {k: kind[k] for k in ("name", "description")} == {"name": "Speakers", "description": "PA tops"}
    r = admin.post("/equipment-types", json={"name": "Speakers"})
    assert error_of(r, 409, "already_exists")["details"] == {"fields": ["name"]}
    other = build("equipment-types", name="Mixers")
    r = admin.patch(f"/equipment-types/{other['id']}", json={"name": "Speakers"})
    assert error_of(r, 409, "already_exists")["details"] == {"fields": ["name"]}


def test_new_equipment_is_available_by_default(admin, build):
    kind = build.id("equipment-types")
    r = admin.post("/equipment", json={"equipment_type_id": kind, "name": "Amp 1"})
    assert r.status_code == 201
    item = r.get_json()["data"]
    assert r.headers["Location"] == f"/v1/equipment/{item['id']}"
    moment(item.pop("created_at")), moment(item.pop("updated_at"))
    assert item == {
        "id": item["id"],
        "equipment_type_id": kind,
        "name": "Amp 1",
        "serial_number": None,
        "status": "available",
        "purchased_on": None,
        "notes": None,
        "custom_fields": {},
    }


@pytest.mark.parametrize("status", ["available", "in_repair", "retired"])
def test_equipment_status_takes_each_value_of_its_enum(admin, build, status):
    item = build("equipment", status=status)
    assert item["status"] == status
    assert admin.get(f"/equipment/{item['id']}").get_json()["data"]["status"] == status


@pytest.mark.parametrize("status", ["broken", "AVAILABLE", "", None, 1])
def test_equipment_status_outside_its_enum_is_refused(admin, build, status):
    body = build.body("equipment", status=status)
    assert "status" in error_of(admin.post("/equipment", json=body), 422, "validation_failed")["details"]
    item = build("equipment")
    r = admin.patch(f"/equipment/{item['id']}", json={"status": status})
    assert "status" in error_of(r, 422, "validation_failed")["details"]
    assert admin.get(f"/equipment/{item['id']}").get_json()["data"]["status"] == "available"


def test_serial_numbers_are_unique_when_set(admin, build):
    first = build("equipment", serial_number="SN-100")
    assert first["serial_number"] == "SN-100"
    r = admin.post("/equipment", json=build.body("equipment", serial_number="SN-100"))
    assert error_of(r, 409, "already_exists")["details"] == {"fields": ["serial_number"]}
    r = admin.post("/equipment", json=build.body("equipment", serial_number=" SN-100 "))  # trimmed first
    assert error_of(r, 409, "already_exists")["details"] == {"fields": ["serial_number"]}
    # many records without a serial number (absent, null or empty) are fine
    blanks = [build("equipment"), build("equipment", serial_number=None), build("equipment", serial_number="")]
    blanks.append(build("equipment", serial_number="  "))
    assert [b["serial_number"] for b in blanks] == [None, None, None, None]
    second = build("equipment", serial_number="SN-200")
    r = admin.patch(f"/equipment/{second['id']}", json={"serial_number": "SN-100"})
    assert error_of(r, 409, "already_exists")["details"] == {"fields": ["serial_number"]}
    assert admin.get(f"/equipment/{second['id']}").get_json()["data"]["serial_number"] == "SN-200"
    # clearing frees the number for another record
    assert admin.patch(f"/equipment/{first['id']}", json={"serial_number": None}).status_code == 200
    r = admin.patch(f"/equipment/{second['id']}", json={"serial_number": "SN-100"})
    assert r.status_code == 200 and r.get_json()["data"]["serial_number"] == "SN-100"


def test_product_equipment_quantity_defaults_to_one_and_is_at_least_one(admin, build):
    product, kind = build.id("products"), build.id("equipment-types")
    need = admin.create("product-equipment", {"product_id": product, "equipment_type_id": kind})
    assert (need["product_id"], need["equipment_type_id"], need["quantity"]) == (product, kind, 1)
    for quantity in (0, -1, None, 1.5, "2"):
        r = admin.patch(f"/product-equipment/{need['id']}", json={"quantity": quantity})
        assert "quantity" in error_of(r, 422, "validation_failed")["details"], quantity
    assert admin.patch(f"/product-equipment/{need['id']}", json={"quantity": 4}).get_json()["data"]["quantity"] == 4


def test_product_equipment_pairs_are_unique(admin, build):
    product, kind, other_kind = build.id("products"), build.id("equipment-types"), build.id("equipment-types")
    build("product-equipment", product_id=product, equipment_type_id=kind)
    r = admin.post("/product-equipment", json={"product_id": product, "equipment_type_id": kind, "quantity": 3})
    assert error_of(r, 409, "already_exists")["details"] == {"fields": ["product_id", "equipment_type_id"]}
    # the same type for another product, and another type for the same product, are fine
    build("product-equipment", product_id=build.id("products"), equipment_type_id=kind)
    other = build("product-equipment", product_id=product, equipment_type_id=other_kind)
    r = admin.patch(f"/product-equipment/{other['id']}", json={"equipment_type_id": kind})
    assert error_of(r, 409, "already_exists")["details"] == {"fields": ["product_id", "equipment_type_id"]}


# --- gig equipment (§5.4) -----------------------------------------------------------------------------


def test_gig_equipment_record(admin, build):
    gig, equipment = build.id("gigs"), build.id("equipment")
    r = admin.post("/gig-equipment", json={"gig_id": gig, "equipment_id": equipment, "notes": " Spare cable "})
    assert r.status_code == 201
    record = r.get_json()["data"]
    moment(record["created_at"]), moment(record["updated_at"])
    assert record == {
        "id": record["id"],
        "gig_id": gig,
        "equipment_id": equipment,
        "notes": "Spare cable",
        "created_at": record["created_at"],
        "updated_at": record["updated_at"],
    }
    assert admin.get(f"/gig-equipment/{record['id']}").get_json()["data"] == record


def test_the_same_equipment_twice_on_one_gig_already_exists(admin, build):
    gig, equipment = build.id("gigs"), build.id("equipment")
    build("gig-equipment", gig_id=gig, equipment_id=equipment)
    r = admin.post("/gig-equipment", json={"gig_id": gig, "equipment_id": equipment})
    assert error_of(r, 409, "already_exists")["details"] == {"fields": ["gig_id", "equipment_id"]}
    other = build("gig-equipment", gig_id=gig)
    r = admin.patch(f"/gig-equipment/{other['id']}", json={"equipment_id": equipment})
    assert error_of(r, 409, "already_exists")["details"] == {"fields": ["gig_id", "equipment_id"]}
    assert on_gig(admin, gig) == sorted([equipment, other["equipment_id"]])


@pytest.mark.parametrize("status", ["in_repair", "retired"])
def test_equipment_in_repair_or_retired_cannot_go_to_a_gig(admin, build, status):
    gig, equipment = build.id("gigs"), build.id("equipment", status=status)
    r = admin.post("/gig-equipment", json={"gig_id": gig, "equipment_id": equipment})
    assert error_of(r, 409, "conflict")["details"]["reason"] == "equipment_unavailable"
    assert on_gig(admin, gig) == []
    # nor by swapping the equipment of an existing assignment
    assignment = build("gig-equipment", gig_id=gig)
    r = admin.patch(f"/gig-equipment/{assignment['id']}", json={"equipment_id": equipment})
    assert error_of(r, 409, "conflict")["details"]["reason"] == "equipment_unavailable"
    assert on_gig(admin, gig) == [assignment["equipment_id"]]
    # back from repair it may go
    assert admin.patch(f"/equipment/{equipment}", json={"status": "available"}).status_code == 200
    assert admin.post("/gig-equipment", json={"gig_id": gig, "equipment_id": equipment}).status_code == 201


def test_equipment_on_another_live_gig_that_date_is_double_booked(admin, build):
    equipment = build.id("equipment")
    first = build.id("gigs", gig_date=DATE)
    booking = build("gig-equipment", gig_id=first, equipment_id=equipment)
    second = build.id("gigs", gig_date=DATE, start_time="10:00", end_time="11:00")
    r = admin.post("/gig-equipment", json={"gig_id": second, "equipment_id": equipment})
    assert error_of(r, 409, "conflict")["details"]["reason"] == "double_booked"
    # nor by swapping the equipment of an existing assignment
    assignment = build("gig-equipment", gig_id=second)
    r = admin.patch(f"/gig-equipment/{assignment['id']}", json={"equipment_id": equipment})
    assert error_of(r, 409, "conflict")["details"]["reason"] == "double_booked"
    assert on_gig(admin, second) == [assignment["equipment_id"]]
    # a change of notes on the first booking is no clash with itself
    assert admin.patch(f"/gig-equipment/{booking['id']}", json={"notes": "Front of house"}).status_code == 200


def test_a_tentative_gig_is_live_and_holds_its_equipment(admin, build):
    tentative = build.id("gig-statuses", kind="tentative")
    equipment = build.id("equipment")
    build("gig-equipment", gig_id=build.id("gigs", gig_date=DATE, gig_status_id=tentative), equipment_id=equipment)
    r = admin.post("/gig-equipment", json={"gig_id": build.id("gigs", gig_date=DATE), "equipment_id": equipment})
    assert error_of(r, 409, "conflict")["details"]["reason"] == "double_booked"


def test_equipment_may_go_to_gigs_on_other_dates(admin, build):
    equipment = build.id("equipment")
    build("gig-equipment", gig_id=build.id("gigs", gig_date=DATE), equipment_id=equipment)
    for date in ("2027-06-11", "2027-06-13", "2028-06-12"):
        gig = build.id("gigs", gig_date=date)
        assert admin.post("/gig-equipment", json={"gig_id": gig, "equipment_id": equipment}).status_code == 201
        assert on_gig(admin, gig) == [equipment]


def test_equipment_on_a_closed_gig_that_date_is_free(admin, build):
    equipment = build.id("equipment")
    closed = build.id("gigs", gig_date=DATE, gig_status_id=closed_status(build))
    build("gig-equipment", gig_id=closed, equipment_id=equipment)
    gig = build.id("gigs", gig_date=DATE)
    assert admin.post("/gig-equipment", json={"gig_id": gig, "equipment_id": equipment}).status_code == 201
    assert on_gig(admin, gig) == on_gig(admin, closed) == [equipment]


def test_closing_a_gig_frees_its_equipment_for_that_date(admin, build):
    equipment = build.id("equipment")
    first = build.id("gigs", gig_date=DATE)
    build("gig-equipment", gig_id=first, equipment_id=equipment)
    second = build.id("gigs", gig_date=DATE)
    error_of(admin.post("/gig-equipment", json={"gig_id": second, "equipment_id": equipment}), 409, "conflict")
    assert admin.patch(f"/gigs/{first}", json={"gig_status_id": closed_status(build)}).status_code == 200
    assert admin.post("/gig-equipment", json={"gig_id": second, "equipment_id": equipment}).status_code == 201


def test_gig_equipment_needs_production_capabilities(signed_in, role, build):
    role("prod-view", "production.view")
    role("prod-edit", "production.edit")
    gig, equipment = build.id("gigs"), build.id("equipment")
    body = {"gig_id": gig, "equipment_id": equipment}
    r = signed_in("prod-view").post("/gig-equipment", json=body)
    assert error_of(r, 403, "forbidden")["details"] == {"required": "production.edit"}
    r = signed_in("prod-edit").get("/gig-equipment")
    assert error_of(r, 403, "forbidden")["details"] == {"required": "production.view"}
    assert signed_in("crew").post("/gig-equipment", json=body).status_code == 201


# --- POST /gigs/{id}/generate-equipment (§5.4) -----------------------------------------------------


def need(build, product, kind, quantity):
    build("product-equipment", product_id=product, equipment_type_id=kind, quantity=quantity)


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
