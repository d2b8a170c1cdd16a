"""SPEC §2.3 and issue 10: what an attacker on the office LAN and a new user's first day found, each through
the API: strict digits, bounded filters and texts, private pay, the last admin, bodies that lie."""

import sqlite3

import pytest

from models import db
from tests.support.api import error_of
from tests.support.mail import link_token, mails, request_link

HUGE = "x" * 100_001


@pytest.mark.parametrize("field", ["start_time", "end_time", "load_in_time"])
def test_a_time_takes_ascii_digits_only(admin, field):
    r = admin.post("/gigs", {"gig_date": "2027-06-12", "title": "Odd", field: "1５:00"})
    assert field in error_of(r, 422, "validation_failed")["details"]
    assert admin.get("/gigs").get_json()["meta"]["total"] == 0


@pytest.mark.parametrize(
    "query",
    [
        "limit=１",
        "offset=１",
        "filter[guest_count][eq]=１０",
        "filter[gig_date][eq]=２０２７-06-12",
        "filter[start_time]=1５:00",
    ],
)
def test_query_numbers_take_ascii_digits_only(admin, query):
    error_of(admin.get(f"/gigs?{query}"), 400, "invalid_query")


def test_a_filter_value_is_at_most_200_characters(admin):
    assert admin.get("/gigs?filter[title][contains]=" + "a" * 200).status_code == 200
    for op in ("contains", "starts_with", "eq", "lt"):
        details = error_of(admin.get(f"/gigs?filter[title][{op}]=" + "a" * 50_000), 400, "invalid_query")["details"]
        assert "200" in details[f"filter[title][{op}]"]


def test_a_text_field_is_at_most_100_000_characters(admin, build):
    r = admin.post("/gigs", {"gig_date": "2027-06-12", "title": "Long", "notes": HUGE})
    assert error_of(r, 422, "validation_failed")["details"]["notes"] == ["Longer than 100000 characters."]
    product = build("products")
    r = admin.patch(f"/products/{product['id']}", {"description": HUGE})
    assert "description" in error_of(r, 422, "validation_failed")["details"]
    assert admin.post("/gigs", {"gig_date": "2027-06-12", "title": "Fits", "notes": "y" * 100_000}).status_code == 201


def test_in_and_nin_take_the_parameter_repeated(admin, build):
    first, second, third = (build("teams") for _ in range(3))
    found = admin.get(f"/teams?filter[id][in]={first['id']}&filter[id][in]={second['id']}").get_json()["data"]
    assert {t["id"] for t in found} == {first["id"], second["id"]}
    query = "&".join(f"filter[name][nin]={t['name']}" for t in (first, second))
    assert [t["id"] for t in admin.get(f"/teams?{query}").get_json()["data"]] == [third["id"]]
    error_of(admin.get("/teams?filter[name][eq]=a&filter[name][eq]=b"), 400, "invalid_query")
    error_of(admin.get("/teams?limit=1&limit=2"), 400, "invalid_query")


def test_contains_and_starts_with_fold_the_case_of_all_of_unicode(admin, build):
    munich = build("venues", name="Hofbräuhaus", city="München")
    build("venues", name="Elsewhere", city="Wien")
    for query in ("filter[city][contains]=MÜNCHEN", "filter[city][starts_with]=mün", "filter[name][contains]=BRÄU"):
        assert [v["id"] for v in admin.get(f"/venues?{query}").get_json()["data"]] == [munich["id"]], query
    assert admin.get("/venues?filter[city][contains]=%25").get_json()["data"] == []  # % is no wildcard
    assert admin.get("/venues?filter[city][contains]=_").get_json()["data"] == []


# --- pay is private (§4.6) --------------------------------------------------------------------------------


@pytest.fixture
def staffing_only(signed_in, role):
    role("planner", "staffing.*", "gigs.view")
    return signed_in("planner")


@pytest.fixture
def paid_role(build):
    member = build("staff-members")
    role_id = build.id("roles")
    build("staff-member-roles", staff_member_id=member["id"], role_id=role_id)
    product = build("products")
    build("staff-member-product-rates", staff_member_id=member["id"], product_id=product["id"], amount_cents=42_000)
    gig_product = build("gig-products", product_id=product["id"])
    gig_role = build("gig-roles", gig_id=gig_product["gig_id"], role_id=role_id, gig_product_id=gig_product["id"])
    return gig_role


def test_gig_role_pay_reads_as_null_without_pay_view(admin, staffing_only, paid_role):
    assert admin.patch(f"/gig-roles/{paid_role['id']}", {"pay_cents": 30_000}).status_code == 200
    assert admin.get(f"/gig-roles/{paid_role['id']}").get_json()["data"]["pay_cents"] == 30_000
    assert staffing_only.get(f"/gig-roles/{paid_role['id']}").get_json()["data"]["pay_cents"] is None
    listed = staffing_only.get("/gig-roles?fields=pay_cents").get_json()["data"]
    assert listed == [{"id": paid_role["id"], "pay_cents": None}]
    r = staffing_only.get(f"/gig-roles/{paid_role['id']}?fields=pay_cents")
    assert r.get_json()["data"] == {"id": paid_role["id"], "pay_cents": None}


@pytest.mark.parametrize("query", ["filter[pay_cents][gt]=0", "filter[pay_cents][is_null]=false", "sort=-pay_cents"])
def test_filtering_or_sorting_on_pay_needs_pay_view(staffing_only, paid_role, query):
    error = error_of(staffing_only.get(f"/gig-roles?{query}"), 403, "forbidden")
    assert error["details"] == {"required": "pay.view"}


def test_setting_pay_needs_pay_edit(staffing_only, paid_role, admin):
    r = staffing_only.patch(f"/gig-roles/{paid_role['id']}", {"pay_cents": 1})
    assert error_of(r, 403, "forbidden")["details"] == {"required": "pay.edit"}
    body = {"gig_id": paid_role["gig_id"], "role_id": paid_role["role_id"], "pay_cents": 1}
    assert error_of(staffing_only.post("/gig-roles", body), 403, "forbidden")["details"] == {"required": "pay.edit"}
    assert admin.get(f"/gig-roles/{paid_role['id']}").get_json()["data"]["pay_cents"] is None
    assert staffing_only.patch(f"/gig-roles/{paid_role['id']}", {"notes": "Bring a stand"}).status_code == 200


def test_candidates_show_pay_only_with_pay_view(admin, staffing_only, paid_role):
    [seen_by_office] = admin.get(f"/gig-roles/{paid_role['id']}/candidates").get_json()["data"]
    assert seen_by_office["amount_cents"] == 42_000  # the member's own product rate
    [seen_by_planner] = staffing_only.get(f"/gig-roles/{paid_role['id']}/candidates").get_json()["data"]
    assert seen_by_planner == {**seen_by_office, "amount_cents": None}


# --- the last admin, the admin role, and who may link a user to a staff member (§2.3) --------------------------


def test_the_last_user_holding_every_capability_stays(admin, signed_in, role):
    role("superuser", "admin.*")
    superuser = signed_in("superuser")
    me = admin.get("/me").get_json()["data"]["id"]
    for change in ({"roles": ["viewer"]}, {"active": False}):
        r = superuser.patch(f"/users/{me}", change)
        assert error_of(r, 409, "conflict")["details"]["reason"] == "last_admin"
    assert error_of(superuser.delete(f"/users/{me}"), 409, "conflict")["details"]["reason"] == "last_admin"
    assert admin.get("/me").get_json()["data"]["roles"] == ["admin"]


def test_the_admin_access_role_keeps_its_name_and_every_capability(admin):
    role_id = admin.get("/access-roles?filter[name]=admin").get_json()["data"][0]["id"]
    r = admin.patch(f"/access-roles/{role_id}", {"grants": ["admin.edit"]})
    assert error_of(r, 422, "validation_failed")["details"] == {"grants": ["The admin access role keeps the grant *."]}
    r = admin.patch(f"/access-roles/{role_id}", {"name": "boss"})
    assert list(error_of(r, 422, "validation_failed")["details"]) == ["name"]
    assert admin.patch(f"/access-roles/{role_id}", {"description": "Everything."}).status_code == 200
    admin.patch(f"/users/{admin.get('/me').get_json()['data']['id']}", {"name": "Still admin"})
    assert admin.get(f"/access-roles/{role_id}").get_json()["data"]["grants"] == ["*"]


def test_deleting_the_admin_role_is_refused_even_when_nobody_holds_it(signed_in, role):
    role("boss", "*")
    boss = signed_in("boss")
    role_id = boss.get("/access-roles?filter[name]=admin").get_json()["data"][0]["id"]
    assert error_of(boss.delete(f"/access-roles/{role_id}"), 409, "conflict")["details"]["reason"] == "admin_role"


def test_linking_a_staff_member_to_a_user_needs_admin_edit(signed_in, build):
    office = signed_in("office")
    office_user = office.get("/me").get_json()["data"]["id"]
    member = build("staff-members")
    r = office.patch(f"/staff-members/{member['id']}", {"user_id": office_user})
    assert error_of(r, 403, "forbidden")["details"] == {"required": "admin.edit"}
    body = {"first_name": "Mallory", "last_name": "Linked", "user_id": office_user}
    assert error_of(office.post("/staff-members", body), 403, "forbidden")["details"] == {"required": "admin.edit"}
    assert office.get(f"/staff-members/{member['id']}").get_json()["data"]["user_id"] is None
    assert office.patch(f"/staff-members/{member['id']}", {"phone": "+43 1 234"}).status_code == 200


# --- bodies that lie, paths that trick, logs that must not (§2.2, §2.3) ------------------------------------------


@pytest.mark.parametrize(
    "raw",
    [
        '{"name": "\\ud800"}',
        '{"name": "Team", "description": "a\\udfffb"}',
        '{"\\ud800": 1}',
        '{"name": "T", "custom": {"deep": ["ok", "\\ud83d"]}}',
    ],
)
def test_a_lone_surrogate_is_invalid_json(admin, raw):
    r = admin.post("/teams", data=raw, content_type="application/json")
    assert "surrogate" in error_of(r, 400, "invalid_json")["message"]
    assert admin.get("/teams").get_json()["meta"]["total"] == 0


def test_a_surrogate_pair_is_one_character(admin):
    r = admin.post("/teams", data='{"name": "Horns \\ud83c\\udfba"}', content_type="application/json")
    assert r.status_code == 201 and r.get_json()["data"]["name"] == "Horns 🎺"


@pytest.mark.parametrize("raw", ['{"name": "A", "name": "B"}', '{"name": "A", "custom_fields": {"k": 1, "k": 2}}'])
def test_a_repeated_key_is_invalid_json(admin, raw):
    r = admin.post("/teams", data=raw, content_type="application/json")
    assert "twice" in error_of(r, 400, "invalid_json")["message"]
    assert admin.get("/teams").get_json()["meta"]["total"] == 0


@pytest.mark.parametrize("path", ["/v1//gigs", "//v1/gigs", "/v1/gigs//", "/v1/gigs/"])
def test_a_path_spelled_with_extra_slashes_is_no_route(admin, path):
    error_of(admin.get(path), 404, "not_found")


def test_list_and_record_bodies_end_with_one_newline(admin, build):
    team = build("teams")
    for path in ("/teams", f"/teams/{team['id']}", "/me", "/nowhere"):
        body = admin.get(path).get_data()
        assert body.endswith(b"\n") and not body.endswith(b"\n\n"), path


def test_security_headers(admin, anon):
    missing = "/teams/00000000-0000-4000-8000-000000000000"
    for response in (admin.get("/teams"), admin.get("/me"), admin.get(missing)):
        assert response.headers["X-Content-Type-Options"] == "nosniff"
        assert response.headers["Cache-Control"] == "no-store"
    health = anon.get("/health")
    assert health.headers["X-Content-Type-Options"] == "nosniff" and "no-store" not in health.headers.get(
        "Cache-Control", ""
    )
    for page in ("/signin", "/v1/docs"):
        r = anon.get(page)
        assert r.status_code == 200 and r.mimetype == "text/html"
        assert r.headers["X-Frame-Options"] == "DENY"
        assert "frame-ancestors 'none'" in r.headers["Content-Security-Policy"]
        assert r.headers["X-Content-Type-Options"] == "nosniff"


FEED_TOKEN = "WyJzdGFmZiJd.c2VjcmV0c2lnbmF0dXJl"


@pytest.mark.parametrize(
    "path",
    [
        f"/v1//calendar/{FEED_TOKEN}.ics",
        f"/V1/CALENDAR/{FEED_TOKEN}.ICS",
        f"/v1/calendar/{FEED_TOKEN}.ics/",
        f"/v1/calendar//{FEED_TOKEN}",
        f"/v1/Devices/{FEED_TOKEN}",
        f"/v1/nothing/bos_{FEED_TOKEN}",
        f"/v1/calendar/{FEED_TOKEN}.ics/x",
        f"/v1/calendar/x/{FEED_TOKEN}.ics",
        f"/v1/calendars/{FEED_TOKEN}.ics",
        f"/v1/calendar-url/{FEED_TOKEN}",
    ],
)
def test_the_access_log_holds_no_token_on_any_path_spelling(admin, caplog, path):
    with caplog.at_level("INFO", logger="band.access"):
        admin.get(path)
    [line] = [r.getMessage() for r in caplog.records if r.name == "band.access"]
    assert "c2VjcmV0c2lnbmF0dXJl" not in line and "[token]" in line


def test_control_characters_from_a_client_cannot_forge_log_lines(anon, caplog):
    with caplog.at_level("INFO"):
        anon.get("/v1/x%0a2027-01-01 INFO band.access: GET /v1/forged 200")
        anon.post("/auth/link", {"email": "a@b.c\n2027-01-01 INFO band.auth: forged"})
        anon.post("/auth/link", {"email": "e\u200frtl\u202eevil@example.com" + "x" * 5000})
    messages = [r.getMessage() for r in caplog.records if r.name in ("band.access", "band.auth")]
    assert messages and all("\n" not in m for m in messages)
    assert any("\\x0a2027-01-01" in m for m in messages)
    assert any("\\u200frtl\\u202eevil" in m for m in messages)
    assert all("\u202e" not in m and len(m) < 1000 for m in messages)


def test_the_answer_that_carries_a_session_token_is_not_stored(app, anon, admin):
    admin.create("users", {"email": "stored-not@example.com", "name": "Sam", "roles": ["viewer"]})
    request_link(anon, "stored-not@example.com")
    r = anon.post("/auth/confirm", {"token": link_token(mails(app, "stored-not@example.com")[0])})
    assert r.status_code == 200 and r.headers["Cache-Control"] == "no-store"


def test_a_refused_confirmation_spends_the_link(app, anon, admin):
    user = admin.create("users", {"email": "inactive-soon@example.com", "name": "Ina", "roles": ["viewer"]})
    request_link(anon, user["email"])
    [mail] = mails(app, user["email"])
    token = link_token(mail)
    admin.patch(f"/users/{user['id']}", {"active": False})
    error_of(anon.post("/auth/confirm", {"token": token}), 401, "unauthenticated")
    admin.patch(f"/users/{user['id']}", {"active": True})
    error_of(anon.post("/auth/confirm", {"token": token}), 401, "unauthenticated")


@pytest.mark.sqlite_only  # holds SQLite's write lock, the whole file's, from another connection (sqlite3)
def test_a_write_that_cannot_get_the_database_is_503_with_retry_after(admin):
    holder = sqlite3.connect(db.database, timeout=0)
    holder.execute("BEGIN IMMEDIATE")  # another process holds the write lock past the busy timeout
    try:
        r = admin.post("/teams", {"name": "Waiting"})
    finally:
        holder.rollback()
        holder.close()
    assert error_of(r, 503, "unavailable") and r.headers["Retry-After"] == "1"
    assert admin.post("/teams", {"name": "Waiting"}).status_code == 201


@pytest.mark.parametrize("date", ["9999-12-31", "0001-01-01"])
def test_a_date_at_the_edge_of_the_calendar_is_refused(admin, date):
    r = admin.post("/gigs", {"gig_date": date, "title": "Y10K", "start_time": "23:00", "end_time": "01:00"})
    assert "gig_date" in error_of(r, 422, "validation_failed")["details"]
    assert admin.post("/gigs", {"gig_date": "9998-12-31", "title": "Far off"}).status_code == 201


@pytest.mark.parametrize("position", [-(10**30), 10**30, -(2**63)])
def test_an_integer_beyond_what_every_client_holds_is_refused(admin, position):
    r = admin.post("/products", {"name": "Huge", "position": position})
    assert "position" in error_of(r, 422, "validation_failed")["details"]


def test_a_custom_text_field_is_at_most_100_000_characters(admin):
    admin.create("custom-fields", {"resource": "gigs", "key": "memo", "label": "Memo", "field_type": "text"})
    r = admin.post("/gigs", {"gig_date": "2027-06-12", "title": "Memo", "custom_fields": {"memo": HUGE}})
    assert "custom_fields.memo" in error_of(r, 422, "validation_failed")["details"]
