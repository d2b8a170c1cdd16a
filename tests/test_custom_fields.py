"""SPEC §4.7 and the `/custom-fields` row of §4.2: the definitions, and the uses of a definition that keep it
from being deleted or its options from being narrowed (the values records carry and lists filtered and sorted by
them: test_custom_field_values.py)."""

from tests.support.api import error_of, without_stamps
from tests.support.custom_fields import COLLECTIONS, TIERS, collection_fixtures, define

resource, collection = collection_fixtures()


# --- definitions ---------------------------------------------------------------------------------------


def test_a_definition_reads_back_whole_with_its_defaults(admin):
    created = define(admin, "gigs", "dress_code", "text")
    assert without_stamps(created) == {
        "resource": "gigs",
        "key": "dress_code",
        "label": "Dress Code",
        "field_type": "text",
        "options": None,
        "required": False,
        "position": None,
    }
    assert admin.get(f"/custom-fields/{created['id']}").get_json() == {"data": created}

    body = {
        "resource": "staff_members",
        "key": "shirt",
        "label": "Shirt size",
        "field_type": "select",
        "options": ["S", "M", "L"],
        "required": True,
        "position": 3,
    }
    created = admin.create("custom-fields", body)
    assert without_stamps(created) == body


def test_every_resource_takes_every_field_type(admin):
    for resource in COLLECTIONS:
        for field_type in ("text", "number", "boolean", "date"):
            assert define(admin, resource, f"k_{field_type}", field_type)["field_type"] == field_type
        assert define(admin, resource, "k_select", "select", options=["a"])["options"] == ["a"]
        listed = admin.get(f"/custom-fields?filter[resource]={resource}").get_json()["data"]
        assert sorted(d["key"] for d in listed) == ["k_boolean", "k_date", "k_number", "k_select", "k_text"]


def test_resource_and_field_type_are_one_of_their_five_and_label_is_checked(admin):
    cases = [("resource", v) for v in ("songs", "staff-members", "Gigs", "gig", "", 5, None)]
    cases += [("field_type", v) for v in ("string", "Number", "select_many", "", None, 1)]
    cases += [("label", v) for v in ("x" * 101, "  ", None, 7)]
    for name, value in cases:
        body = {"resource": "gigs", "key": "k", "label": "K", "field_type": "text", name: value}
        details = error_of(admin.post("/custom-fields", json=body), 422, "validation_failed")["details"]
        assert set(details) == {name}, (name, value)
    body = {"resource": "gigs", "key": "k", "field_type": "text"}
    assert set(error_of(admin.post("/custom-fields", json=body), 422, "validation_failed")["details"]) == {"label"}
    assert admin.get("/custom-fields").get_json()["meta"]["total"] == 0
    assert admin.create("custom-fields", {**body, "label": "x" * 100})["label"] == "x" * 100


def test_keys_must_match_the_pattern(admin):
    for key in ("A", "Dress", "1a", "_a", "a-b", "a b", "a.b", "é", "a" * 41, "dress code", "", 5, None):
        body = {"resource": "gigs", "key": key, "label": "K", "field_type": "text"}
        details = error_of(admin.post("/custom-fields", json=body), 422, "validation_failed")["details"]
        assert set(details) == {"key"}, key
    assert admin.get("/custom-fields").get_json()["meta"]["total"] == 0
    for key in ("a", "dress_code", "a1", "x_1_y", "z" + "9" * 39, "a_"):
        assert define(admin, "gigs", key, "text")["key"] == key


def test_options_are_required_and_non_empty_for_a_select_only(admin):
    cases = [
        ("select", {}),
        ("select", {"options": None}),
        ("select", {"options": []}),
        ("text", {"options": ["a"]}),
        ("number", {"options": ["1", "2"]}),
        ("boolean", {"options": ["yes"]}),
        ("date", {"options": ["2027-01-01"]}),
        ("text", {"options": []}),
    ]
    for field_type, options in cases:
        body = {"resource": "gigs", "key": "k", "label": "K", "field_type": field_type, **options}
        details = error_of(admin.post("/custom-fields", json=body), 422, "validation_failed")["details"]
        assert set(details) == {"options"}, (field_type, options)
    assert admin.get("/custom-fields").get_json()["meta"]["total"] == 0
    assert define(admin, "gigs", "plain", "text", options=None)["options"] is None


def test_options_must_be_a_list_of_strings(admin):
    body = {"resource": "gigs", "key": "k", "label": "K", "field_type": "select"}
    for options in ["gold", {"a": 1}, ["gold", 5], [None]]:
        details = error_of(admin.post("/custom-fields", json={**body, "options": options}), 422, "validation_failed")
        assert details["details"] and all(k == "options" or k.startswith("options.") for k in details["details"])
    assert admin.get("/custom-fields").get_json()["meta"]["total"] == 0


def test_options_stay_required_for_a_select_and_forbidden_otherwise_on_patch(admin):
    select = define(admin, "gigs", "tier", "select", options=TIERS)
    for options in ([], None):
        r = admin.patch(f"/custom-fields/{select['id']}", json={"options": options})
        assert set(error_of(r, 422, "validation_failed")["details"]) == {"options"}
    text = define(admin, "gigs", "dress", "text")
    r = admin.patch(f"/custom-fields/{text['id']}", json={"options": ["a"]})
    assert set(error_of(r, 422, "validation_failed")["details"]) == {"options"}
    assert admin.get(f"/custom-fields/{select['id']}").get_json()["data"] == select
    assert admin.get(f"/custom-fields/{text['id']}").get_json()["data"] == text


def test_resource_and_key_are_unique_together(admin):
    define(admin, "gigs", "dress", "text")
    body = {"resource": "gigs", "key": "dress", "label": "Again", "field_type": "number"}
    error = error_of(admin.post("/custom-fields", json=body), 409, "already_exists")
    assert error["details"] == {"fields": ["resource", "key"]}
    # the same key on another resource is another field
    assert define(admin, "venues", "dress", "number")["resource"] == "venues"
    assert admin.get("/custom-fields?filter[key]=dress").get_json()["meta"]["total"] == 2


def test_resource_key_and_field_type_are_read_only_after_create(admin):
    created = define(admin, "gigs", "dress", "text")
    for change in ({"resource": "venues"}, {"key": "other"}, {"field_type": "number"}):
        r = admin.patch(f"/custom-fields/{created['id']}", json={**change, "label": "Changed"})
        assert set(error_of(r, 422, "validation_failed")["details"]) == set(change)
    assert admin.get(f"/custom-fields/{created['id']}").get_json()["data"] == created


def test_label_required_position_and_options_may_change(admin):
    created = define(admin, "gigs", "tier", "select", options=TIERS)
    change = {"label": "Package", "required": True, "position": 2, "options": ["gold", "silver", "bronze", "tin"]}
    r = admin.patch(f"/custom-fields/{created['id']}", json=change)
    assert r.status_code == 200, r.get_json()
    patched = r.get_json()["data"]
    assert patched == {**created, **change, "updated_at": patched["updated_at"]}


def test_custom_field_list_default_order_is_position_then_created_at(admin):
    # §2.1: `position` first, then (no name) `created_at`
    zeta = define(admin, "venues", "zeta", "text")
    alpha = define(admin, "contacts", "alpha", "text")
    beta = define(admin, "gigs", "beta", "text", position=1)
    listed = admin.get("/custom-fields").get_json()["data"]
    assert [d["id"] for d in listed] == [zeta["id"], alpha["id"], beta["id"]]


# --- deleting and narrowing definitions ----------------------------------------------------------------


def test_delete_is_refused_while_a_record_holds_a_value(admin, build, resource, collection):
    definition = define(admin, resource, "n", "number")
    first = build(collection, custom_fields={"n": 0})  # zero is a value too
    second = build(collection, custom_fields={"n": 7.5})
    build(collection)  # one without a value does not count
    error = error_of(admin.delete(f"/custom-fields/{definition['id']}"), 409, "resource_in_use")
    assert error["details"] == {"referenced_by": {resource: 2}}
    assert admin.get(f"/custom-fields/{definition['id']}").get_json()["data"] == definition

    admin.patch(f"/{collection}/{first['id']}", json={"custom_fields": {"n": None}})
    error = error_of(admin.delete(f"/custom-fields/{definition['id']}"), 409, "resource_in_use")
    assert error["details"] == {"referenced_by": {resource: 1}}

    admin.patch(f"/{collection}/{second['id']}", json={"custom_fields": {"n": None}})
    assert admin.delete(f"/custom-fields/{definition['id']}").status_code == 204
    error_of(admin.get(f"/custom-fields/{definition['id']}"), 404, "not_found")
    # its key is no longer known
    r = admin.post(f"/{collection}", json=build.body(collection, custom_fields={"n": 1}))
    assert set(error_of(r, 422, "validation_failed")["details"]) == {"custom_fields.n"}


def test_a_definition_nobody_uses_can_be_deleted(admin, build):
    definition = define(admin, "contacts", "dress", "text")
    build("contacts")
    assert admin.delete(f"/custom-fields/{definition['id']}").status_code == 204
    assert admin.get("/custom-fields").get_json()["meta"]["total"] == 0


def test_false_counts_as_a_value(admin, build):
    flag = define(admin, "venues", "b", "boolean")
    build("venues", custom_fields={"b": False})
    error = error_of(admin.delete(f"/custom-fields/{flag['id']}"), 409, "resource_in_use")
    assert error["details"] == {"referenced_by": {"venues": 1}}


def test_only_the_definitions_own_resource_counts_as_its_use(admin, build):
    on_gigs = define(admin, "gigs", "tier", "select", options=TIERS)
    on_venues = define(admin, "venues", "tier", "select", options=TIERS)
    build("venues", custom_fields={"tier": "gold"})
    error = error_of(admin.delete(f"/custom-fields/{on_venues['id']}"), 409, "resource_in_use")
    assert error["details"] == {"referenced_by": {"venues": 1}}
    r = admin.patch(f"/custom-fields/{on_gigs['id']}", json={"options": ["silver"]})  # gold is held on venues only
    assert r.status_code == 200 and r.get_json()["data"]["options"] == ["silver"]
    assert admin.delete(f"/custom-fields/{on_gigs['id']}").status_code == 204


def test_narrowing_options_is_refused_while_records_hold_a_removed_value(admin, build, resource, collection):
    definition = define(admin, resource, "tier", "select", options=TIERS)
    gold = build(collection, custom_fields={"tier": "gold"})
    build(collection, custom_fields={"tier": "silver"})
    build(collection)
    path = f"/custom-fields/{definition['id']}"
    for options in (["silver", "bronze"], ["gold", "bronze"], ["bronze"], ["Gold", "silver"]):
        r = admin.patch(path, json={"options": options})
        assert set(error_of(r, 422, "validation_failed")["details"]) == {"options"}, options
    assert admin.get(path).get_json()["data"] == definition

    # dropping an option nobody holds, adding one, or reordering is fine
    r = admin.patch(path, json={"options": ["silver", "gold", "platinum"]})
    assert r.status_code == 200 and r.get_json()["data"]["options"] == ["silver", "gold", "platinum"]
    assert build(collection, custom_fields={"tier": "platinum"})["custom_fields"] == {"tier": "platinum"}
    r = admin.post(f"/{collection}", json=build.body(collection, custom_fields={"tier": "bronze"}))
    assert set(error_of(r, 422, "validation_failed")["details"]) == {"custom_fields.tier"}

    # once nobody holds gold, it can go
    admin.patch(f"/{collection}/{gold['id']}", json={"custom_fields": {"tier": "silver"}})
    r = admin.patch(path, json={"options": ["silver", "platinum"]})
    assert r.status_code == 200, r.get_json()
