"""SPEC §2.3: the 50 ms ceiling holds for every list shape the document offers. Free text is neither sorted nor
filtered through a reference, no text is matched inside another record, a sort through a reference by a key that
no index serves orders a short list only, a page lies near an end of its list, and a request stopped by the budget
has spent at most the budget, all its statements together (issue 33: a viewer's costliest shapes at 20 000 gigs)."""

import re
import time

import pytest

from dialects import dialect
from models import Gig, GigRole, Venue, db, new_id
from tests.support.api import error_of

GIGS, ROLES_PER_GIG = 2_100, 10  # more gigs than an unindexed sort may order, 21 000 roles: over twice MAX_WALK


@pytest.fixture
def agency(app, build):
    """2 100 gigs at three venues, ten roles on each, as rows written in one go."""
    roles = [build("roles", name=f"Role {n}", position=n)["id"] for n in range(ROLES_PER_GIG)]
    venues = [build("venues", name=name)["id"] for name in ("Schloss Hof", "Zum Keller", "Alte Mühle")]
    gigs = [
        {
            "id": new_id(),
            "gig_date": f"2027-{1 + n % 12:02d}-{1 + n % 28:02d}",
            "title": f"{n:05d} wedding",
            "venue": venues[n % 3],
            "notes": "zz" if n % 2 else None,
        }
        for n in range(GIGS)
    ]
    with db.atomic():
        Gig.insert_many(gigs).execute()
        rows = [{"id": new_id(), "gig": gig["id"], "role": role} for gig in gigs for role in roles]
        for start in range(0, len(rows), 5_000):
            GigRole.insert_many(rows[start : start + 5_000]).execute()
    return app


# (path, the parameter refused, the key its message names): free text through a reference, or text matched in it
REFUSED = [
    ("/gig-roles?sort=gig.notes,staff_member.notes&offset=100000", "sort", "gig.notes"),
    ("/gig-role-invitations?sort=gig_role.notes&filter[message][contains]=e", "sort", "gig_role.notes"),
    ("/gig-roles?filter[gig.notes][contains]=zz", "filter[gig.notes][contains]", "gig.notes"),
    ("/gig-roles?filter[staff_member.notes][eq]=zz", "filter[staff_member.notes][eq]", "staff_member.notes"),
    ("/gig-roles?filter[gig.title][contains]=e&sort=-gig.title", "filter[gig.title][contains]", "gig.title"),
    ("/gig-roles?filter[gig.title][starts_with]=0", "filter[gig.title][starts_with]", "gig.title"),
    ("/gig-roles?sort=-gig.notes", "sort", "gig.notes"),
]


@pytest.mark.parametrize("path, parameter, key", REFUSED)
def test_free_text_and_text_matching_through_a_reference_are_refused_up_front(signed_in, path, parameter, key):
    error = error_of(signed_in("viewer").get(path), 400, "invalid_query")
    assert parameter in error["details"] and key in error["details"][parameter], error


def test_the_document_does_not_offer_them(anon):
    document = anon.get("/openapi.json").get_json()
    roles = {p["name"]: p for p in document["paths"]["/gig-roles"]["get"]["parameters"]}
    sorts = roles["sort"]["schema"]["pattern"]
    assert re.fullmatch(sorts, "gig.title,role.name") and re.fullmatch(sorts, "-gig.gig_date")
    assert not re.fullmatch(sorts, "gig.notes") and not re.fullmatch(sorts, "staff_member.notes")
    filters = roles["filter"]["schema"]
    assert filters["additionalProperties"] is False  # a key no pattern matches is no filter of the list

    def offered(key):
        return any(re.fullmatch(pattern, key) for pattern in filters["patternProperties"])

    assert offered("filter[gig.title][eq]") and offered("filter[notes][contains]")
    for refused in ("filter[gig.title][contains]", "filter[gig.notes][eq]", "filter[staff_member.notes][is_null]"):
        assert not offered(refused), refused
    invitations = {p["name"]: p for p in document["paths"]["/gig-role-invitations"]["get"]["parameters"]}
    assert not re.fullmatch(invitations["sort"]["schema"]["pattern"], "gig_role.notes")
    assert "no index serves" in roles["sort"]["description"] and "10000" in roles["offset"]["description"]


def test_a_page_lies_at_most_ten_thousand_rows_from_an_end_of_its_list(agency, signed_in):
    agency.config["QUERY_BUDGET_MS"] = 60_000  # what is refused here is the page's place, whatever a busy machine takes
    viewer = signed_in("viewer")
    total = GIGS * ROLES_PER_GIG
    middle = "/gig-roles?limit=200&sort=gig.title,role.name&offset=10001"
    error = error_of(viewer.get(middle), 400, "invalid_query")
    assert set(error["details"]) == {"offset"} and "10000 rows from an end" in error["details"]["offset"]
    for offset in (10_000, total - 10_000, total + 5):  # near an end, or past it: answered
        page = viewer.get(f"/gig-roles?limit=200&sort=gig.title,role.name&offset={offset}")
        assert page.status_code == 200, page.get_json()
        assert page.get_json()["meta"] == {"total": total, "limit": 200, "offset": offset}
    last = viewer.get(f"/gig-roles?limit=200&sort=gig.title,role.name&offset={total - 200}&expand=gig,role")
    assert [(r["gig"]["title"], r["role"]["name"]) for r in last.get_json()["data"]][-1] == ("02099 wedding", "Role 9")
    narrowed = viewer.get("/gig-roles?filter[gig.title][lt]=00500&sort=gig.title&offset=4000").get_json()
    assert narrowed["meta"]["total"] == 5_000 and len(narrowed["data"]) == 50  # a filter brings it near an end
    own = viewer.get("/gig-roles?limit=200&sort=created_at&offset=10001")  # its own order: read to any depth
    assert own.status_code == 200 and len(own.get_json()["data"]) == 200, own.get_json()


def test_a_sort_through_a_reference_no_index_serves_orders_a_short_list_only(agency, signed_in):
    viewer = signed_in("viewer")
    error = error_of(viewer.get("/gigs?sort=venue.name,-title&expand=venue,gig_status,gig_type"), 400, "invalid_query")
    assert set(error["details"]) == {"sort"} and "No index serves venue.name" in error["details"]["sort"]
    error_of(viewer.get("/gig-roles?sort=role.position&limit=1"), 400, "invalid_query")
    keller = Venue.get(Venue.name == "Zum Keller").id
    narrowed = viewer.get(f"/gigs?filter[venue_id]={keller}&filter[gig_date][lt]=2027-07-01&sort=venue.name,-title")
    assert narrowed.status_code == 200, narrowed.get_json()
    titles = [gig["title"] for gig in narrowed.get_json()["data"]]
    assert titles == sorted(titles, reverse=True) and narrowed.get_json()["meta"]["total"] == 350
    gig = Gig.get(Gig.title == "00007 wedding").id  # a gig's roles by their position: the console's staffing
    roles = viewer.get(f"/gig-roles?filter[gig_id]={gig}&sort=role.position,role.name&expand=role").get_json()
    assert [r["role"]["position"] for r in roles["data"]] == list(range(ROLES_PER_GIG))
    by_gig = viewer.get("/gig-roles?sort=gig.gig_date,gig.start_time,gig_id,role.position&limit=20").get_json()
    assert by_gig["meta"]["total"] == GIGS * ROLES_PER_GIG  # an indexed key first: the list may be long
    assert [r["role_id"] for r in by_gig["data"][:ROLES_PER_GIG]] == [r["role"]["id"] for r in roles["data"]]


@pytest.mark.sqlite_only  # a budget of CPU time, spent by counting: PostgreSQL's is wall time (the test below)
def test_a_request_stopped_by_the_budget_spent_at_most_the_budget_in_all(app):
    def counting(n):
        return f"WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < {n}) SELECT count(*) FROM c"

    costs = []
    for _ in range(3):
        started = time.thread_time()
        db.execute_sql(counting(300_000)).fetchone()
        costs.append(time.thread_time() - started)
    budget_ms = max(5, int(min(costs) * 3 * 1000))  # each statement a third of the budget: alone, never stopped
    assert_stopped_in_all(budget_ms, lambda: db.execute_sql(counting(300_000)).fetchone(), each_alone=6)


@pytest.mark.postgresql_only
def test_a_request_stopped_by_the_budget_spent_at_most_the_budget_in_all_on_postgresql(app):
    assert_stopped_in_all(500, lambda: db.execute_sql("SELECT pg_sleep(0.15)").fetchone(), each_alone=6)


def assert_stopped_in_all(budget_ms, statement, each_alone):
    """`statement`, run `each_alone` times under `budget_ms`, is stopped once the runs have spent the budget together
    (each one alone is well within it); a new request's budget starts afresh."""
    dialect.limit_statements(budget_ms)
    try:
        ran = 0
        with pytest.raises(Exception) as stopped:
            for _ in range(each_alone):
                statement()
                ran += 1
        assert dialect.over_budget(stopped.value) and 1 <= ran < each_alone, ran
        dialect.limit_statements(budget_ms)  # the next request
        statement()
    finally:
        dialect.limit_statements(None)
