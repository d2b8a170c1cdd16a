"""SPEC §4.2: the rules on the catalog's joins (product-ensembles, ensemble-roles, prices, songs), blockouts,
and the deletes that children of a gig or a product refuse."""

import pytest

from tests.support.api import error_of, keys_of, read, without_stamps

# --- catalog joins -------------------------------------------------------------------------------------


def test_a_product_offers_an_ensemble_once(admin, build):
    product_id, ensemble_id = build.id("products"), build.id("ensembles")
    created = build("product-ensembles", product_id=product_id, ensemble_id=ensemble_id)
    assert created["is_default"] is False
    r = admin.post("/product-ensembles", json={"product_id": product_id, "ensemble_id": ensemble_id})
    assert error_of(r, 409, "already_exists")["details"] == {"fields": ["product_id", "ensemble_id"]}
    assert build("product-ensembles", ensemble_id=ensemble_id)["ensemble_id"] == ensemble_id  # other product
    other = build("product-ensembles", product_id=product_id)
    r = admin.patch(f"/product-ensembles/{other['id']}", json={"ensemble_id": ensemble_id})
    assert error_of(r, 409, "already_exists")["details"] == {"fields": ["product_id", "ensemble_id"]}


def test_one_default_ensemble_per_product(admin, build):
    product_id, other_product_id = build.id("products"), build.id("products")
    first = build("product-ensembles", product_id=product_id, is_default=True)
    elsewhere = build("product-ensembles", product_id=other_product_id, is_default=True)
    second = build("product-ensembles", product_id=product_id, is_default=True)

    def defaults():
        listed = admin.get("/product-ensembles?filter[is_default]=true").get_json()["data"]
        return sorted(pe["id"] for pe in listed)

    assert defaults() == sorted([second["id"], elsewhere["id"]])
    assert read(admin, "product-ensembles", first["id"])["updated_at"] > first["updated_at"]
    assert read(admin, "product-ensembles", elsewhere["id"]) == elsewhere
    r = admin.patch(f"/product-ensembles/{first['id']}", json={"is_default": True})
    assert r.status_code == 200
    assert defaults() == sorted([first["id"], elsewhere["id"]])
    third = build("product-ensembles", product_id=product_id)  # not a default: changes nothing
    assert third["is_default"] is False and defaults() == sorted([first["id"], elsewhere["id"]])


def test_ensemble_roles_are_unique_with_a_quantity_of_at_least_one(admin, build):
    ensemble_id, role_id = build.id("ensembles"), build.id("roles")
    created = admin.create("ensemble-roles", {"ensemble_id": ensemble_id, "role_id": role_id})
    assert without_stamps(created) == {"ensemble_id": ensemble_id, "role_id": role_id, "quantity": 1}
    r = admin.post("/ensemble-roles", json={"ensemble_id": ensemble_id, "role_id": role_id, "quantity": 2})
    assert error_of(r, 409, "already_exists")["details"] == {"fields": ["ensemble_id", "role_id"]}
    for quantity in (0, -1, 1.5, "2", None):
        body = {"ensemble_id": ensemble_id, "role_id": build.id("roles"), "quantity": quantity}
        assert keys_of(admin.post("/ensemble-roles", json=body)) == {"quantity"}, quantity
        assert keys_of(admin.patch(f"/ensemble-roles/{created['id']}", json={"quantity": quantity})) == {"quantity"}
    assert build("ensemble-roles", ensemble_id=ensemble_id, quantity=3)["quantity"] == 3
    other = build("ensemble-roles", ensemble_id=ensemble_id)
    r = admin.patch(f"/ensemble-roles/{other['id']}", json={"role_id": role_id})
    assert error_of(r, 409, "already_exists")["details"] == {"fields": ["ensemble_id", "role_id"]}
    assert read(admin, "ensemble-roles", created["id"]) == created


def test_a_price_is_valid_to_no_earlier_than_from(admin, build):
    product_id = build.id("products")
    body = {"product_id": product_id, "amount_cents": 100}
    r = admin.post("/prices", json={**body, "valid_from": "2027-06-12", "valid_to": "2027-06-11"})
    assert keys_of(r) == {"valid_to"}
    one_day = admin.create("prices", {**body, "valid_from": "2027-06-12", "valid_to": "2027-06-12"})
    assert (one_day["valid_from"], one_day["valid_to"]) == ("2027-06-12", "2027-06-12")
    assert admin.create("prices", {**body, "valid_to": "2020-01-01"})["valid_from"] is None
    assert admin.create("prices", {**body, "valid_from": "2030-01-01"})["valid_to"] is None

    price = admin.create("prices", {**body, "valid_from": "2027-01-01", "valid_to": "2027-12-31"})
    for change in (
        {"valid_to": "2026-12-31"},
        {"valid_from": "2028-01-01"},
        {"valid_from": "2027-06-01", "valid_to": "2027-05-31"},
    ):
        assert keys_of(admin.patch(f"/prices/{price['id']}", json=change)) == {"valid_to"}, change
    assert read(admin, "prices", price["id"]) == price
    r = admin.patch(f"/prices/{price['id']}", json={"valid_from": "2027-12-31"})
    assert r.status_code == 200, r.get_json()
    r = admin.patch(f"/prices/{price['id']}", json={"valid_from": "2028-01-01", "valid_to": None})
    assert r.status_code == 200 and (r.get_json()["data"]["valid_from"], r.get_json()["data"]["valid_to"]) == (
        "2028-01-01",
        None,
    )


def test_a_price_is_in_euros_unless_told(admin, build):
    product_id = build.id("products")
    created = admin.create("prices", {"product_id": product_id, "amount_cents": 150000})
    assert without_stamps(created) == {
        "product_id": product_id,
        "ensemble_id": None,
        "amount_cents": 150000,
        "currency": "EUR",
        "valid_from": None,
        "valid_to": None,
        "label": None,
    }
    assert admin.create("prices", {"product_id": product_id, "amount_cents": 1, "currency": "USD"})["currency"] == "USD"
    assert keys_of(admin.patch(f"/prices/{created['id']}", json={"currency": None})) == {"currency"}
    r = admin.patch(f"/prices/{created['id']}", json={"currency": "GBP"})
    assert r.status_code == 200 and r.get_json()["data"]["currency"] == "GBP"


def test_songs_are_unique_by_title_and_artist(admin, build):
    build("songs", title="Hey Jude", artist="The Beatles")
    for body in (
        {"title": "Hey Jude", "artist": "The Beatles"},
        {"title": " Hey Jude ", "artist": "The Beatles "},  # strings are trimmed
    ):
        assert error_of(admin.post("/songs", json=body), 409, "already_exists")["details"] == {
            "fields": ["title", "artist"]
        }
    assert admin.create("songs", {"title": "Hey Jude", "artist": "Wilson Pickett"})["artist"] == "Wilson Pickett"
    assert admin.create("songs", {"title": "Hey Jude"})["artist"] is None
    other = admin.create("songs", {"title": "Let It Be", "artist": "The Beatles"})
    r = admin.patch(f"/songs/{other['id']}", json={"title": "Hey Jude"})
    assert error_of(r, 409, "already_exists")["details"] == {"fields": ["title", "artist"]}
    assert read(admin, "songs", other["id"]) == other


def test_two_songs_with_the_same_title_and_no_artist_clash(admin, build):
    build("songs", title="Wedding March", artist=None)
    for body in (
        {"title": "Wedding March"},
        {"title": "Wedding March", "artist": None},
        {"title": "Wedding March", "artist": " "},
    ):
        assert error_of(admin.post("/songs", json=body), 409, "already_exists")["details"] == {
            "fields": ["title", "artist"]
        }, body
    other = build("songs", title="Wedding March", artist="Mendelssohn")
    r = admin.patch(f"/songs/{other['id']}", json={"artist": None})
    assert error_of(r, 409, "already_exists")["details"] == {"fields": ["title", "artist"]}
    assert admin.get("/songs?filter[title]=Wedding%20March").get_json()["meta"]["total"] == 2


def test_a_blockout_ends_no_earlier_than_it_starts(admin, build):
    member_id = build.id("staff-members")
    body = {"staff_member_id": member_id}
    r = admin.post("/staff-member-blockouts", json={**body, "start_date": "2027-06-12", "end_date": "2027-06-11"})
    assert keys_of(r) == {"end_date"}
    one_day = admin.create("staff-member-blockouts", {**body, "start_date": "2027-06-12", "end_date": "2027-06-12"})
    assert without_stamps(one_day) == {**body, "start_date": "2027-06-12", "end_date": "2027-06-12", "reason": None}
    for change in ({"end_date": "2027-06-11"}, {"start_date": "2027-06-13"}):
        assert keys_of(admin.patch(f"/staff-member-blockouts/{one_day['id']}", json=change)) == {"end_date"}, change
    assert read(admin, "staff-member-blockouts", one_day["id"]) == one_day
    r = admin.patch(f"/staff-member-blockouts/{one_day['id']}", json={"end_date": "2027-06-20"})
    assert r.status_code == 200 and r.get_json()["data"]["end_date"] == "2027-06-20"


# --- deletes refused while a gig or product has children -----------------------------------------------

CHILDREN = ["gig-products", "gig-roles", "gig-moments", "gig-songs", "gig-contacts", "gig-equipment", "attachments"]


@pytest.mark.parametrize("child", CHILDREN)
def test_a_gig_with_a_child_cannot_be_deleted(admin, build, child):
    gig_id = build.id("gigs")
    record = build(child, gig_id=gig_id)
    build(child)  # another gig's child is not counted
    error = error_of(admin.delete(f"/gigs/{gig_id}"), 409, "resource_in_use")
    assert error["details"] == {"referenced_by": {child.replace("-", "_"): 1}}
    assert read(admin, "gigs", gig_id)["id"] == gig_id
    assert admin.delete(f"/{child}/{record['id']}").status_code == 204
    assert admin.delete(f"/gigs/{gig_id}").status_code == 204
    error_of(admin.get(f"/gigs/{gig_id}"), 404, "not_found")


def test_a_gig_with_children_reports_a_count_per_collection(admin, build):
    gig_id = build.id("gigs")
    children = [
        ("gig-products", {}),
        ("gig-products", {}),
        ("gig-moments", {}),
        ("gig-songs", {}),
        ("gig-songs", {"kind": "do_not_play"}),
        ("gig-songs", {"kind": "setlist"}),
        ("gig-contacts", {}),
        ("gig-roles", {}),
        ("gig-equipment", {}),
        ("attachments", {}),
    ]
    made = [(child, build.id(child, gig_id=gig_id, **fields)) for child, fields in children]
    error = error_of(admin.delete(f"/gigs/{gig_id}"), 409, "resource_in_use")
    assert error["details"] == {
        "referenced_by": {
            "gig_products": 2,
            "gig_roles": 1,
            "gig_moments": 1,
            "gig_songs": 3,
            "gig_contacts": 1,
            "gig_equipment": 1,
            "attachments": 1,
        }
    }
    for child, record_id in reversed(made):
        assert admin.delete(f"/{child}/{record_id}").status_code == 204, child
    assert admin.delete(f"/gigs/{gig_id}").status_code == 204


def test_a_gig_without_children_can_be_deleted(admin, build):
    gig = build("gigs", venue_id=build.id("venues"), gig_status_id=build.id("gig-statuses"))
    assert admin.delete(f"/gigs/{gig['id']}").status_code == 204
    error_of(admin.get(f"/gigs/{gig['id']}"), 404, "not_found")


def test_a_product_sold_on_a_gig_cannot_be_deleted(admin, build):
    product_id = build.id("products")
    sold = [build.id("gig-products", product_id=product_id) for _ in range(2)]
    error = error_of(admin.delete(f"/products/{product_id}"), 409, "resource_in_use")
    assert error["details"] == {"referenced_by": {"gig_products": 2}}
    assert admin.delete(f"/gig-products/{sold[0]}").status_code == 204
    error = error_of(admin.delete(f"/products/{product_id}"), 409, "resource_in_use")
    assert error["details"] == {"referenced_by": {"gig_products": 1}}
    assert admin.delete(f"/gig-products/{sold[1]}").status_code == 204
    assert admin.delete(f"/products/{product_id}").status_code == 204
    error_of(admin.get(f"/products/{product_id}"), 404, "not_found")
