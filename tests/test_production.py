"""SPEC §4.4 and §5.4: equipment, what products need, equipment on gigs (unavailable and double-booked
equipment refused), and equipment issues (generating a gig's equipment: test_generated_equipment.py)."""

import datetime as dt
import re

import pytest

from tests.support.api import error_of
from tests.support.equipment import closed_status, on_gig
from tests.support.users import make_token, make_user

TIMESTAMP = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$")
DATE = "2027-06-12"


def moment(value):
    assert TIMESTAMP.fullmatch(value), value
    return dt.datetime.fromisoformat(value.replace("Z", "+00:00"))


def utc_now():
    return dt.datetime.now(dt.UTC)


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


# --- equipment issues ---------------------------------------------------------------------------------


def test_an_issue_records_who_reported_it(anon, build):
    user = make_user(roles=["crew"])
    crew = anon.with_token(make_token(user))
    equipment = build.id("equipment")
    r = crew.post("/equipment-issues", json={"equipment_id": equipment, "title": "Hum on channel 2"})
    assert r.status_code == 201
    issue = r.get_json()["data"]
    moment(issue["created_at"]), moment(issue["updated_at"])
    assert issue == {
        "id": issue["id"],
        "equipment_id": equipment,
        "title": "Hum on channel 2",
        "description": None,
        "severity": "medium",
        "status": "open",
        "reported_by_user_id": str(user.id),
        "resolved_at": None,
        "created_at": issue["created_at"],
        "updated_at": issue["updated_at"],
    }
    # someone else's change leaves the reporter as it was
    other = anon.with_token(make_token(make_user(roles=["crew"])))
    r = other.patch(f"/equipment-issues/{issue['id']}", json={"severity": "high"})
    assert r.get_json()["data"]["reported_by_user_id"] == str(user.id)


def test_reported_by_user_id_is_read_only(admin, build):
    someone = str(make_user(roles=["crew"]).id)
    body = build.body("equipment-issues", reported_by_user_id=someone)
    r = admin.post("/equipment-issues", json=body)
    assert "reported_by_user_id" in error_of(r, 422, "validation_failed")["details"]
    issue = build("equipment-issues")
    r = admin.patch(f"/equipment-issues/{issue['id']}", json={"reported_by_user_id": someone})
    assert "reported_by_user_id" in error_of(r, 422, "validation_failed")["details"]
    assert admin.get(f"/equipment-issues/{issue['id']}").get_json()["data"] == issue


@pytest.mark.parametrize("change", [{"severity": "urgent"}, {"status": "closed"}, {"severity": None}])
def test_issue_severity_and_status_are_enums(admin, build, change):
    issue = build("equipment-issues")
    r = admin.patch(f"/equipment-issues/{issue['id']}", json=change)
    assert set(error_of(r, 422, "validation_failed")["details"]) == set(change)


def test_resolved_at_follows_the_status(admin, build):
    issue = build("equipment-issues", severity="low")
    assert (issue["severity"], issue["status"], issue["resolved_at"]) == ("low", "open", None)
    path = f"/equipment-issues/{issue['id']}"
    before = utc_now() - dt.timedelta(seconds=1)
    resolved = admin.patch(path, json={"status": "resolved"}).get_json()["data"]
    assert resolved["status"] == "resolved"
    assert before <= moment(resolved["resolved_at"]) <= utc_now() + dt.timedelta(seconds=1)
    # other changes while resolved keep the moment it was resolved
    again = admin.patch(path, json={"description": "Replaced the cable", "status": "resolved"}).get_json()["data"]
    assert again["resolved_at"] == resolved["resolved_at"]
    reopened = admin.patch(path, json={"status": "open"}).get_json()["data"]
    assert (reopened["status"], reopened["resolved_at"]) == ("open", None)
    assert admin.get(path).get_json()["data"]["resolved_at"] is None
    assert admin.patch(path, json={"status": "resolved"}).get_json()["data"]["resolved_at"] is not None


def test_an_issue_created_resolved_has_resolved_at(admin, build):
    before = utc_now() - dt.timedelta(seconds=1)
    issue = build("equipment-issues", status="resolved")
    assert before <= moment(issue["resolved_at"]) <= utc_now() + dt.timedelta(seconds=1)


def test_resolved_at_is_read_only(admin, build):
    stamp = "2027-01-01T10:00:00Z"
    r = admin.post("/equipment-issues", json=build.body("equipment-issues", resolved_at=stamp))
    assert "resolved_at" in error_of(r, 422, "validation_failed")["details"]
    issue = build("equipment-issues", status="resolved")
    for change in ({"resolved_at": stamp}, {"resolved_at": None}, {"status": "resolved", "resolved_at": stamp}):
        r = admin.patch(f"/equipment-issues/{issue['id']}", json=change)
        assert "resolved_at" in error_of(r, 422, "validation_failed")["details"]
    assert admin.get(f"/equipment-issues/{issue['id']}").get_json()["data"] == issue
