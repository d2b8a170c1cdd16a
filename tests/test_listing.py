"""SPEC §2.1: limit, offset, sort, fields and every filter operator, parsed strictly."""

import itertools

import pytest

from dialects import dialect
from listing import OPERATORS
from tests.support.api import error_of
from tests.support.database import connected, count_queries


@pytest.fixture
def gigs(admin, build):
    """Five gigs with a spread of values and nulls."""
    venue = build("venues", name="Hall")
    rows = [
        dict(gig_date="2027-05-01", title="Alpha wedding", start_time="14:00", guest_count=80, venue_id=venue["id"]),
        dict(gig_date="2027-05-01", title="beta party", start_time=None, guest_count=None),
        dict(gig_date="2027-06-12", title="Gamma_gala", start_time="18:30", guest_count=120, venue_id=venue["id"]),
        dict(gig_date="2027-07-20", title="Delta 100% fun", start_time="20:00", guest_count=0),
        dict(gig_date="2027-08-02", title="epsilon", start_time="11:15", guest_count=250),
    ]
    return {row["title"]: build("gigs", **row) for row in rows}


def titles(response):
    assert response.status_code == 200, response.get_json()
    return [g["title"] for g in response.get_json()["data"]]


def test_list_envelope_and_defaults(admin, gigs):
    body = admin.get("/gigs").get_json()
    assert set(body) == {"data", "meta"}
    assert body["meta"] == {"total": 5, "limit": 50, "offset": 0}
    assert titles(admin.get("/gigs")) == ["beta party", "Alpha wedding", "Gamma_gala", "Delta 100% fun", "epsilon"]


def test_limit_and_offset_page_through_with_the_full_total(admin, gigs):
    r = admin.get("/gigs?limit=2&offset=1")
    assert r.get_json()["meta"] == {"total": 5, "limit": 2, "offset": 1}
    assert titles(r) == ["Alpha wedding", "Gamma_gala"]
    r = admin.get("/gigs?limit=2&offset=10")
    assert r.get_json()["data"] == [] and r.get_json()["meta"]["total"] == 5
    r = admin.get("/gigs?limit=10&offset=4")
    assert titles(r) == ["epsilon"] and r.get_json()["meta"]["total"] == 5


@pytest.mark.parametrize(
    "query",
    [
        "limit=0",
        "limit=201",
        "limit=-1",
        "limit=abc",
        "limit=1.5",
        "limit=+5",
        "limit=",
        "offset=-1",
        "offset=x",
        "offset=99999999999999999999",
    ],
)
def test_bad_limit_or_offset_is_400_never_clamped(admin, query):
    error = error_of(admin.get(f"/gigs?{query}"), 400, "invalid_query")
    assert query.split("=")[0] in error["details"]


def test_sort_descending_and_by_several_keys(admin, gigs):
    assert titles(admin.get("/gigs?sort=-gig_date,title")) == [
        "epsilon",
        "Delta 100% fun",
        "Gamma_gala",
        "Alpha wedding",
        "beta party",
    ]
    # binary comparison: upper case sorts before lower case
    assert titles(admin.get("/gigs?sort=title"))[:2] == ["Alpha wedding", "Delta 100% fun"]


def test_nulls_sort_first_ascending_and_last_descending(admin, gigs):
    assert titles(admin.get("/gigs?sort=guest_count"))[0] == "beta party"
    assert titles(admin.get("/gigs?sort=-guest_count"))[-1] == "beta party"


def test_equal_sort_keys_are_ordered_by_id(admin, build):
    ids = sorted(build("gigs", gig_date="2027-01-01", title="Same")["id"] for _ in range(4))
    r = admin.get("/gigs?sort=title&filter[title]=Same")
    assert [g["id"] for g in r.get_json()["data"]] == ids


@pytest.mark.parametrize("sort", ["nope", "-nope", "custom_fields", "title,", "--title"])
def test_bad_sort_is_400(admin, sort):
    assert "sort" in error_of(admin.get(f"/gigs?sort={sort}"), 400, "invalid_query")["details"]


def test_fields_narrow_the_records_and_always_keep_id(admin, gigs):
    data = admin.get("/gigs?fields=title,gig_date").get_json()["data"]
    assert all(set(g) == {"id", "title", "gig_date"} for g in data)
    single = admin.get(f"/gigs/{gigs['epsilon']['id']}?fields=guest_count").get_json()["data"]
    assert single == {"id": gigs["epsilon"]["id"], "guest_count": 250}


def test_unknown_field_in_fields_is_400(admin, gigs):
    assert "fields" in error_of(admin.get("/gigs?fields=title,secret"), 400, "invalid_query")["details"]


def test_single_record_takes_only_fields(admin, gigs):
    gig_id = gigs["epsilon"]["id"]
    assert "limit" in error_of(admin.get(f"/gigs/{gig_id}?limit=5"), 400, "invalid_query")["details"]


FILTERS = [
    ("filter[title]=epsilon", ["epsilon"]),
    ("filter[title][eq]=epsilon", ["epsilon"]),
    ("filter[gig_date][eq]=2027-05-01", ["beta party", "Alpha wedding"]),
    ("filter[gig_date][ne]=2027-05-01", ["Gamma_gala", "Delta 100% fun", "epsilon"]),
    ("filter[gig_date][lt]=2027-06-12", ["beta party", "Alpha wedding"]),
    ("filter[gig_date][lte]=2027-06-12", ["beta party", "Alpha wedding", "Gamma_gala"]),
    ("filter[gig_date][gt]=2027-07-20", ["epsilon"]),
    ("filter[gig_date][gte]=2027-07-20", ["Delta 100% fun", "epsilon"]),
    ("filter[guest_count][gt]=100", ["Gamma_gala", "epsilon"]),
    ("filter[guest_count][eq]=0", ["Delta 100% fun"]),
    ("filter[guest_count][ne]=80", ["beta party", "Gamma_gala", "Delta 100% fun", "epsilon"]),  # null matches ne
    ("filter[guest_count][in]=80,250", ["Alpha wedding", "epsilon"]),
    ("filter[guest_count][nin]=80,250", ["beta party", "Gamma_gala", "Delta 100% fun"]),  # null matches nin
    ("filter[guest_count][is_null]=true", ["beta party"]),
    ("filter[guest_count][is_null]=false", ["Alpha wedding", "Gamma_gala", "Delta 100% fun", "epsilon"]),
    ("filter[start_time][gte]=18:00", ["Gamma_gala", "Delta 100% fun"]),
    ("filter[start_time][lt]=12:00", ["epsilon"]),
    ("filter[title][contains]=ALPHA", ["Alpha wedding"]),
    ("filter[title][contains]=_", ["Gamma_gala"]),  # _ is literal, not a wildcard
    ("filter[title][contains]=100%25", ["Delta 100% fun"]),  # so is %
    ("filter[title][starts_with]=b", ["beta party"]),
    ("filter[title][starts_with]=Eps", ["epsilon"]),
    ("filter[title][lt]=B", ["Alpha wedding"]),
    ("filter[gig_date][gte]=2027-06-01&filter[guest_count][lt]=200", ["Gamma_gala", "Delta 100% fun"]),
    ("filter[created_at][gt]=2000-01-01T00:00:00Z&filter[title]=epsilon", ["epsilon"]),
    ("filter[created_at][lt]=2000-01-01T00:00:00%2B02:00", []),
]


@pytest.mark.parametrize("query, expected", FILTERS)
def test_filter_operators(admin, gigs, query, expected):
    assert titles(admin.get(f"/gigs?{query}")) == expected


def test_filters_on_references_and_ids(admin, gigs):
    venue_id = gigs["Alpha wedding"]["venue_id"]
    assert titles(admin.get(f"/gigs?filter[venue_id]={venue_id}")) == ["Alpha wedding", "Gamma_gala"]
    assert titles(admin.get(f"/gigs?filter[venue_id][eq]={venue_id.upper()}")) == ["Alpha wedding", "Gamma_gala"]
    assert titles(admin.get("/gigs?filter[venue_id][is_null]=true")) == ["beta party", "Delta 100% fun", "epsilon"]
    assert len(titles(admin.get(f"/gigs?filter[venue_id][ne]={venue_id}"))) == 3
    two = f"{gigs['epsilon']['id']},{gigs['beta party']['id']}"
    assert titles(admin.get(f"/gigs?filter[id][in]={two}")) == ["beta party", "epsilon"]


def test_filter_on_booleans(admin, build):
    build("gig-statuses", name="Maybe", kind="tentative")
    build("gig-statuses", name="Yes", kind="confirmed", is_default=True)
    r = admin.get("/gig-statuses?filter[is_default]=true")
    assert [s["name"] for s in r.get_json()["data"]] == ["Yes"]
    r = admin.get("/gig-statuses?filter[kind][in]=tentative,cancelled")
    assert {s["name"] for s in r.get_json()["data"]} == {"Maybe", "Hold", "Cancelled"}  # two a new database ships


BAD_FILTERS = [
    "filter[nope]=1",
    "filter[title][like]=x",
    "filter[guest_count][contains]=1",
    "filter[gig_date]=2026-02-30",
    "filter[gig_date]=2027-6-1",
    "filter[start_time]=24:00",
    "filter[start_time]=9:00",
    "filter[guest_count]=many",
    "filter[guest_count]=1.5",
    "filter[venue_id]=not-a-uuid",
    "filter[venue_id][lt]=00000000-0000-4000-8000-000000000000",
    "filter[id][ne]=00000000-0000-4000-8000-000000000000",
    "filter[created_at][gt]=yesterday",
    "filter[created_at][gt]=2027-01-01T00:00:00",
    "filter[title][is_null]=yes",
    "filter[custom_fields]=x",
    "filter[custom_fields.nothing]=x",
    "filter[title]=",
    "filter[title]=a&filter[title]=b",
    "filter[guest_count][in]=" + ",".join(["1"] * 101),
    "page=2",
    "filters[title]=x",
]


@pytest.mark.parametrize("query", BAD_FILTERS)
def test_bad_filters_are_400_naming_the_parameter(admin, gigs, query):
    error = error_of(admin.get(f"/gigs?{query}"), 400, "invalid_query")
    assert query.split("=")[0] in error["details"]


def test_enum_filter_values_are_checked(admin):
    assert "filter[kind]" in error_of(admin.get("/gig-statuses?filter[kind]=maybe"), 400, "invalid_query")["details"]


@pytest.mark.parametrize("collection", ["gigs", "venues", "teams", "gig-statuses", "users"])
def test_a_list_costs_the_same_queries_whatever_the_page_size(admin, build, monkeypatch, collection):
    for _ in range(30):
        build(collection)
    executed = count_queries(monkeypatch)
    counts = []
    for query in ("limit=1", "limit=30", "limit=200", "limit=5&offset=3"):
        executed.clear()
        assert admin.get(f"/{collection}?{query}").status_code == 200
        counts.append(len(executed))
    # the bearer's lookup, the page and (when the page does not show it) the total: never a query per row
    assert max(counts) <= 3, counts


def test_a_hundred_filters_at_once_are_fine(admin, gigs):
    """Found by fuzzing: a hundred ANDed conditions overflowed SQLite's parser when nested; they are joined
    side by side now. Every filter of every gig field, each with a value valid for it."""
    values = {
        "id": gigs["epsilon"]["id"],
        "ref": gigs["epsilon"]["id"],
        "str": "zzz",
        "int": "7",
        "date": "2027-06-12",
        "time": "12:00",
        "timestamp": "2000-01-01T00:00:00Z",
        "bool": "true",
    }
    from routes import RESOURCES

    gig_columns = next(r for r in RESOURCES if r.name == "gigs").columns.values()
    params = [
        f"filter[{c.name}][{op}]={'false' if op == 'is_null' else c.choices[0] if c.kind == 'enum' else values[c.kind]}"
        for c in gig_columns
        for op in OPERATORS[c.kind]
    ]
    assert len(params) > 100
    r = admin.get("/gigs?" + "&".join(params))
    assert r.status_code == 200 and r.get_json()["data"] == [], r.get_json()


def test_lists_and_records_answer_the_same_values_as_the_create(admin, build):
    # SQLite writes lists and records as JSON: text, booleans, nulls and JSON columns must come out as stored
    text = 'Zoë\'s "hold" \\ ☂ €'
    status = build("gig-statuses", name=text, position=None)
    user = build("users", name=text, roles=["viewer", "crew"])
    assert (status["name"], status["is_default"], status["position"]) == (text, False, None)
    assert (user["name"], user["roles"], user["active"]) == (text, ["viewer", "crew"], True)
    for collection, record in (("gig-statuses", status), ("users", user)):
        listed = admin.get(f"/{collection}?filter[id]={record['id']}").get_json()["data"]
        assert listed == [record] == [admin.get(f"/{collection}/{record['id']}").get_json()["data"]]


def test_a_remembered_total_follows_every_change_to_the_database(app, admin, build):
    for _ in range(3):
        build("teams")
    assert admin.get("/teams?limit=1").get_json()["meta"]["total"] == 3  # counted, then remembered
    build("teams")  # through the API
    assert admin.get("/teams?limit=1").get_json()["meta"]["total"] == 4
    with connected(app.config["DB"]) as other:  # another process, say a command
        other.execute("DELETE FROM teams WHERE id = (SELECT id FROM teams LIMIT 1)")
    assert admin.get("/teams?limit=1").get_json()["meta"]["total"] == 3


def test_fields_in_any_order_answer_in_the_records_order_with_one_shape_of_sql(admin, build):
    build("teams", description="Horns")
    permutations = list(itertools.permutations(["name", "description", "created_at", "updated_at"]))
    admin.get(f"/teams?fields={','.join(permutations[0])}")
    shapes = len(dialect.pages._JSON_SQL)
    for names in permutations:
        [team] = admin.get(f"/teams?fields={','.join(names)}").get_json()["data"]
        assert list(team) == ["id", "created_at", "updated_at", "name", "description"]
    assert len(dialect.pages._JSON_SQL) == shapes  # 24 orders, one statement remembered
    assert len(dialect.pages._JSON_SQL) <= dialect.pages.MAX_REMEMBERED_SQL
