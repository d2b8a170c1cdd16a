"""SPEC §4.7: the values records carry under `custom_fields` (checked, merged, required on create), and list
filters and sorting by them."""

import pytest

from tests.support.api import error_of
from tests.support.custom_fields import COLLECTIONS, collection_fixtures, define, define_all
from tests.support.records import PATCHES

resource, collection = collection_fixtures()


# --- values on records -----------------------------------------------------------------------------------


def test_values_of_each_type_are_stored_and_read_back(admin, build, resource, collection):
    bare = build(collection)
    assert bare["custom_fields"] == {}
    define_all(admin, resource)
    # absent keys read as absent, not null
    assert build(collection)["custom_fields"] == {}
    assert admin.get(f"/{collection}/{bare['id']}").get_json()["data"]["custom_fields"] == {}

    values = {"dress": "Black tie", "n": 12, "b": False, "d": "2027-02-28", "tier": "silver"}
    created = build(collection, custom_fields=values)
    assert created["custom_fields"] == values
    assert admin.get(f"/{collection}/{created['id']}").get_json()["data"] == created
    listed = admin.get(f"/{collection}?filter[id]={created['id']}").get_json()["data"]
    assert listed == [created]
    assert admin.get(f"/{collection}/{created['id']}?fields=custom_fields").get_json()["data"] == {
        "id": created["id"],
        "custom_fields": values,
    }


def test_a_number_is_an_int_or_a_float(admin, build):
    define(admin, "gigs", "n", "number")
    for number in (0, -3, 2.5, -0.125, 1234567890123, 1e-3):
        created = build("gigs", custom_fields={"n": number})
        assert created["custom_fields"] == {"n": number}
        assert type(created["custom_fields"]["n"]) is type(number)


def test_a_leap_day_is_a_date(admin, build):
    define(admin, "gigs", "d", "date")
    assert build("gigs", custom_fields={"d": "2028-02-29"})["custom_fields"] == {"d": "2028-02-29"}


WRONG_VALUES = {
    "dress": [5, 1.5, True, ["Black tie"], {"a": "b"}],
    "n": ["5", "1.5", True, False, [1], {"n": 1}],
    "b": ["true", "false", 1, 0, "yes", [True]],
    "d": ["2027-02-30", "2027-1-1", "27-01-01", "2027-13-01", "2027-01-01T10:00:00Z", "01.02.2027", 20270101, True],
    "tier": ["platinum", "Gold", "gold ", "", 1, ["gold"], True],
}


def test_wrong_values_are_422_naming_the_key_and_store_nothing(admin, build, resource, collection):
    define_all(admin, resource)
    body = build.body(collection)
    record = build(collection, custom_fields={"dress": "Lounge", "n": 1})
    missed = []
    for key, values in WRONG_VALUES.items():
        for value in values:
            created = admin.post(f"/{collection}", json={**body, "custom_fields": {key: value}})
            patched = admin.patch(f"/{collection}/{record['id']}", json={"custom_fields": {"b": True, key: value}})
            for r in (created, patched):
                if r.status_code != 422 or set(r.get_json()["error"]["details"]) != {f"custom_fields.{key}"}:
                    missed.append((r.request.method, key, value, r.status_code, r.get_json()))
    assert missed == []
    assert admin.get(f"/{collection}").get_json()["meta"]["total"] == 1
    assert admin.get(f"/{collection}/{record['id']}").get_json()["data"] == record


def test_every_bad_key_is_named_at_once(admin, build):
    define_all(admin, "gigs")
    bad = {"dress": 1, "n": "x", "b": "x", "d": "x", "tier": "x", "nope": 1}
    details = error_of(admin.post("/gigs", json=build.body("gigs", custom_fields=bad)), 422, "validation_failed")[
        "details"
    ]
    assert set(details) == {f"custom_fields.{key}" for key in bad}
    assert all(messages and all(isinstance(m, str) and m for m in messages) for messages in details.values())


def test_unknown_keys_and_non_objects_are_422(admin, build, resource, collection):
    define(admin, resource, "dress", "text")
    other = next(r for r in COLLECTIONS if r != resource)
    define(admin, other, "elsewhere", "text")  # a key of another resource is unknown here
    for key in ("nope", "elsewhere", "Dress", "dress "):
        r = admin.post(f"/{collection}", json=build.body(collection, custom_fields={"dress": "x", key: "y"}))
        assert set(error_of(r, 422, "validation_failed")["details"]) == {f"custom_fields.{key}"}, key
    record = build(collection)
    r = admin.patch(f"/{collection}/{record['id']}", json={"custom_fields": {"nope": None}})
    assert set(error_of(r, 422, "validation_failed")["details"]) == {"custom_fields.nope"}
    for value in ("x", ["dress"], 5, True):
        r = admin.post(f"/{collection}", json=build.body(collection, custom_fields=value))
        assert set(error_of(r, 422, "validation_failed")["details"]) == {"custom_fields"}, value
        r = admin.patch(f"/{collection}/{record['id']}", json={"custom_fields": value})
        assert set(error_of(r, 422, "validation_failed")["details"]) == {"custom_fields"}, value
    assert admin.get(f"/{collection}").get_json()["meta"]["total"] == 1
    assert admin.get(f"/{collection}/{record['id']}").get_json()["data"] == record


def test_collections_without_custom_fields_refuse_them(admin, build):
    define(admin, "gigs", "dress", "text")
    for collection in ("products", "songs", "gig-products"):
        r = admin.post(f"/{collection}", json=build.body(collection, custom_fields={}))
        assert error_of(r, 422, "validation_failed")["details"] == {"custom_fields": ["Unknown field."]}


def test_required_keys_must_be_present_on_create(admin, build, resource, collection):
    define(admin, resource, "dress", "text")
    old = build(collection)  # made before the field was required
    old_with_value = build(collection, custom_fields={"dress": "Casual"})
    define(admin, resource, "n", "number", required=True)
    for values in ({}, {"dress": "Suits"}, {"n": None}):
        r = admin.post(f"/{collection}", json=build.body(collection, custom_fields=values))
        assert set(error_of(r, 422, "validation_failed")["details"]) == {"custom_fields.n"}, values
    r = admin.post(f"/{collection}", json={k: v for k, v in build.body(collection).items() if k != "custom_fields"})
    assert set(error_of(r, 422, "validation_failed")["details"]) == {"custom_fields.n"}
    assert build(collection, custom_fields={"n": 0})["custom_fields"] == {"n": 0}

    # records made before it was required are fine as they are, and can still be changed
    assert admin.get(f"/{collection}/{old['id']}").get_json()["data"]["custom_fields"] == {}
    r = admin.patch(f"/{collection}/{old['id']}", json=PATCHES[collection])
    assert r.status_code == 200, r.get_json()
    r = admin.patch(f"/{collection}/{old_with_value['id']}", json={"custom_fields": {"dress": "Tux"}})
    assert r.status_code == 200, r.get_json()
    assert r.get_json()["data"]["custom_fields"] == {"dress": "Tux"}

    # the requirement binds this resource only
    for other, other_collection in COLLECTIONS.items():
        if other != resource:
            assert build(other_collection)["custom_fields"] == {}


def test_patch_merges_and_null_removes_a_key(admin, build, resource, collection):
    define_all(admin, resource)
    record = build(collection, custom_fields={"dress": "Black tie", "n": 3, "d": None})
    assert record["custom_fields"] == {"dress": "Black tie", "n": 3}  # a null on create is no value

    def patch(values):
        r = admin.patch(f"/{collection}/{record['id']}", json={"custom_fields": values})
        assert r.status_code == 200, r.get_json()
        data = r.get_json()["data"]
        assert admin.get(f"/{collection}/{record['id']}").get_json()["data"] == data
        return data["custom_fields"]

    assert patch({"n": 4.5, "b": True}) == {"dress": "Black tie", "n": 4.5, "b": True}
    assert patch({"dress": None}) == {"n": 4.5, "b": True}  # removed: absent, not null
    assert patch({}) == {"n": 4.5, "b": True}
    assert patch({"tier": None, "d": None}) == {"n": 4.5, "b": True}  # removing what is not there
    assert patch({"b": False, "tier": "gold"}) == {"n": 4.5, "b": False, "tier": "gold"}
    r = admin.patch(f"/{collection}/{record['id']}", json=PATCHES[collection])  # other fields leave them be
    assert r.get_json()["data"]["custom_fields"] == {"n": 4.5, "b": False, "tier": "gold"}


# --- lists: filters and sorting ------------------------------------------------------------------------

ROWS = {
    "A": {"dress": "Black tie", "n": 10, "b": True, "d": "2027-05-01", "tier": "gold"},
    "B": {"dress": "smart casual", "n": 2.5, "b": False, "d": "2027-06-12", "tier": "silver"},
    "C": {"dress": "black jeans", "n": -1, "b": True, "d": "2027-06-30", "tier": "bronze"},
    "D": {"n": 100},
    "E": {},
}

FILTERS = [
    ("filter[custom_fields.n]=10", "A"),
    ("filter[custom_fields.n][eq]=10", "A"),
    ("filter[custom_fields.n][eq]=10.0", "A"),
    ("filter[custom_fields.n][eq]=2.5", "B"),
    ("filter[custom_fields.n][ne]=10", "BCDE"),
    ("filter[custom_fields.n][gt]=2", "ABD"),
    ("filter[custom_fields.n][gt]=2.5", "AD"),
    ("filter[custom_fields.n][gte]=2.5", "ABD"),
    ("filter[custom_fields.n][lt]=0", "C"),
    ("filter[custom_fields.n][lte]=10", "ABC"),
    ("filter[custom_fields.n][gt]=-5&filter[custom_fields.n][lt]=50", "ABC"),
    ("filter[custom_fields.n][in]=10,100", "AD"),
    ("filter[custom_fields.n][nin]=10,100", "BCE"),
    ("filter[custom_fields.n][is_null]=true", "E"),
    ("filter[custom_fields.n][is_null]=false", "ABCD"),
    ("filter[custom_fields.b]=true", "AC"),
    ("filter[custom_fields.b][eq]=false", "B"),
    ("filter[custom_fields.b][ne]=true", "BDE"),
    ("filter[custom_fields.b][is_null]=true", "DE"),
    ("filter[custom_fields.d][eq]=2027-06-30", "C"),
    ("filter[custom_fields.d][gte]=2027-06-01", "BC"),
    ("filter[custom_fields.d][lt]=2027-06-12", "A"),
    ("filter[custom_fields.d][lte]=2027-06-12", "AB"),
    ("filter[custom_fields.d][gte]=2027-06-01&filter[custom_fields.d][lte]=2027-06-15", "B"),
    ("filter[custom_fields.d][gt]=2027-12-31", ""),
    ("filter[custom_fields.tier]=silver", "B"),
    ("filter[custom_fields.tier][ne]=silver", "ACDE"),
    ("filter[custom_fields.tier][in]=gold,bronze", "AC"),
    ("filter[custom_fields.tier][nin]=gold", "BCDE"),
    ("filter[custom_fields.tier][is_null]=false", "ABC"),
    ("filter[custom_fields.dress][contains]=BLACK", "AC"),
    ("filter[custom_fields.dress][contains]=tie", "A"),
    ("filter[custom_fields.dress][contains]=a", "ABC"),
    ("filter[custom_fields.dress][starts_with]=black", "AC"),
    ("filter[custom_fields.dress][starts_with]=SMART", "B"),
    ("filter[custom_fields.dress][starts_with]=casual", ""),
    ("filter[custom_fields.dress][eq]=smart%20casual", "B"),
    ("filter[custom_fields.dress][is_null]=true", "DE"),
    ("filter[custom_fields.n][gt]=0&filter[custom_fields.tier]=gold", "A"),
    ("filter[custom_fields.b]=true&filter[custom_fields.dress][contains]=jeans", "C"),
]

SORTS = [
    ("custom_fields.n", "ECBAD"),
    ("-custom_fields.n", "DABCE"),
    ("custom_fields.tier,-custom_fields.n", "DECAB"),
    ("-custom_fields.tier,custom_fields.n", "BACED"),
    ("-custom_fields.d,custom_fields.n", "CBAED"),
    ("custom_fields.b,custom_fields.n", "EDBCA"),
    ("custom_fields.dress,custom_fields.n", "EDACB"),  # binary: "Black tie" < "black jeans" < "smart casual"
]

BAD_FILTERS = [
    "filter[custom_fields.nope]=1",
    "filter[custom_fields.N]=1",
    "filter[custom_fields.]=1",
    "filter[custom_fields.elsewhere]=x",
    "filter[custom_fields.n]=abc",
    "filter[custom_fields.n]=true",
    "filter[custom_fields.n][gt]=2027-01-01",
    "filter[custom_fields.n][in]=1,x",
    "filter[custom_fields.n][contains]=1",
    "filter[custom_fields.n][is_null]=yes",
    "filter[custom_fields.b]=yes",
    "filter[custom_fields.b]=1",
    "filter[custom_fields.b][gt]=false",
    "filter[custom_fields.d]=2027-02-30",
    "filter[custom_fields.d][gte]=2027-6-1",
    "filter[custom_fields.d][lt]=tomorrow",
    "filter[custom_fields.d][contains]=2027",
    "filter[custom_fields.tier]=platinum",
    "filter[custom_fields.tier][in]=gold,platinum",
    "filter[custom_fields.tier][nin]=Gold",
    "filter[custom_fields.dress][like]=x",
    "filter[custom_fields.dress]=",
]


@pytest.fixture
def rows(admin, build, resource, collection):
    """The records A..E of ROWS on `resource`, as {id: label}; and a key defined on another resource only."""
    define_all(admin, resource)
    define(admin, next(r for r in COLLECTIONS if r != resource), "elsewhere", "text")
    return {build.id(collection, custom_fields=values): label for label, values in ROWS.items()}


def labels(response, rows, ordered=False):
    assert response.status_code == 200, response.get_json()
    found = [rows[record["id"]] for record in response.get_json()["data"]]
    return "".join(found if ordered else sorted(found))


def test_lists_filter_and_sort_by_custom_fields(admin, rows, collection):
    wrong = []
    for query, expected in FILTERS:
        r = admin.get(f"/{collection}?{query}")
        got = labels(r, rows)
        if got != expected or r.get_json()["meta"]["total"] != len(expected):
            wrong.append((query, expected, got))
    for sort, expected in SORTS:
        got = labels(admin.get(f"/{collection}?sort={sort}"), rows, ordered=True)
        if got != expected:
            wrong.append((f"sort={sort}", expected, got))
    assert wrong == []


def test_bad_custom_field_filters_and_sorts_are_400_naming_the_parameter(admin, rows, collection):
    sorts = ["sort=custom_fields.nope", "sort=-custom_fields.elsewhere", "sort=custom_fields"]
    missed = []
    for query in [*BAD_FILTERS, *sorts]:
        r = admin.get(f"/{collection}?{query}")
        body = r.get_json()
        parameter = query.split("=")[0]
        if (
            r.status_code != 400
            or body["error"]["code"] != "invalid_query"
            or parameter not in body["error"]["details"]
        ):
            missed.append((query, r.status_code, body))
    assert missed == []


def test_filters_follow_a_definition_once_it_exists(admin, build):
    build("gigs")
    error_of(admin.get("/gigs?filter[custom_fields.n][gt]=1"), 400, "invalid_query")
    define(admin, "gigs", "n", "number")
    gig = build("gigs", custom_fields={"n": 5})
    assert [g["id"] for g in admin.get("/gigs?filter[custom_fields.n][gt]=1").get_json()["data"]] == [gig["id"]]
