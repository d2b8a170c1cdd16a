"""SPEC §10: a musician's own work under /me, reached as the staff member linked to their user, whatever their
access roles: their record, invitations, pay sheet, blockouts and calendar feed, and what a page costs (their
gigs: test_me_gigs.py)."""

import pytest

from app import configure
from domain.errors import ConfigError
from service import settings
from tests.support.api import error_of
from tests.support.database import count_queries
from tests.support.musicians import Band, data, day
from tests.support.records import SCHLOSS_HOF_ADDRESS
from tests.support.users import make_token, make_user

PARTS = ("/me/staff-member", "/me/gigs", "/me/invitations", "/me/blockouts", "/me/calendar-url")


@pytest.fixture
def band(admin, build, anon):
    return Band(admin, build, anon)


# --- who reaches it ------------------------------------------------------------------------------------------


def test_a_user_no_staff_member_is_linked_to_finds_nothing_of_their_own(signed_in):
    office = signed_in("office")
    for path in PARTS:
        error = error_of(office.get(path), 404, "not_found")
        assert "No staff member is linked to your user" in error["message"]
    error_of(office.get("/me/pay-sheet?from=2027-01-01&to=2027-12-31"), 404, "not_found")
    error_of(office.post("/me/blockouts", {"start_date": "2027-01-01", "end_date": "2027-01-02"}), 404, "not_found")
    error_of(office.post("/me/calendar-url/rotate"), 404, "not_found")


def test_me_names_the_staff_member_linked_to_the_user_or_none(band, signed_in):
    assert data(signed_in("office").get("/me"))["staff_member_id"] is None
    assert data(band.me.get("/me"))["staff_member_id"] == band.sam["id"]


@pytest.mark.parametrize("path", [*PARTS[1:4], "/me/pay-sheet"])
def test_a_bad_parameter_is_400_before_the_missing_member_is_404(signed_in, path):
    error = error_of(signed_in("office").get(f"{path}?bogus=1"), 400, "invalid_query")
    assert "bogus" in error["details"]


def test_a_musician_reaches_their_own_work_whatever_their_access_roles(band, signed_in, anon):
    for roles in ((), ("staff",), ("crew",)):
        user = make_user(roles=roles)
        band.admin.patch(f"/staff-members/{band.kim['id']}", json={"user_id": user.id})
        kim = anon.with_token(make_token(user))
        for path in PARTS:
            assert kim.get(path).status_code == 200, (roles, path)
        assert [gig["title"] for gig in data(kim.get("/me/gigs"))] == ["Anna & Ben", "Kim's gig"]


def test_a_member_whose_user_was_deactivated_is_signed_out_of_it(band):
    assert band.me.get("/me/gigs").status_code == 200
    band.admin.patch(f"/users/{band.user.id}", json={"active": False})
    for path in PARTS:
        error_of(band.me.get(path), 401, "unauthenticated")
    error_of(
        band.me.post("/me/blockouts", {"start_date": "2027-01-01", "end_date": "2027-01-02"}), 401, "unauthenticated"
    )


def test_a_member_who_left_the_band_still_reads_their_record_and_pay_but_has_no_feed(band, anon):
    url = data(band.me.get("/me/calendar-url"))["url"]
    band.admin.patch(f"/staff-members/{band.sam['id']}", json={"active": False})
    assert data(band.me.get("/me/staff-member"))["active"] is False
    assert band.me.get(f"/me/pay-sheet?from={day(-30)}&to={day(30)}").get_json()["meta"]["total_cents"] == 70000
    error_of(anon.get("/v1/" + url.split("/v1/", 1)[1]), 404, "not_found")
    error_of(band.me.get("/me/calendar-url"), 404, "not_found")


# --- their record -------------------------------------------------------------------------------------------


def test_their_record_is_their_staff_member_as_the_office_reads_it(band):
    assert data(band.me.get("/me/staff-member")) == data(band.admin.get(f"/staff-members/{band.sam['id']}"))
    assert data(band.me.get("/me/staff-member?fields=first_name,email")) == {
        "id": band.sam["id"],
        "first_name": "Sam",
        "email": "sam@example.com",
    }
    error_of(band.me.get("/me/staff-member?fields=salary"), 400, "invalid_query")
    error_of(band.me.get("/me/staff-member?limit=1"), 400, "invalid_query")


# --- their invitations --------------------------------------------------------------------------------------


def test_their_invitations_come_pending_first_with_the_gig_and_their_pay(band):
    answered = band.invite(band.role(band.gig(40, "Later"), band.singer), band.sam)
    band.me.post(f"/gig-role-invitations/{answered['id']}/decline")
    band.invite(band.role(band.kims_gig, band.drums), band.kim)  # Kim's: never shown to Sam
    body = band.me.get("/me/invitations").get_json()
    assert body["meta"]["total"] == 2
    pending, declined = body["data"]
    assert (pending["id"], pending["status"], declined["id"], declined["status"]) == (
        band.invitation["id"],
        "pending",
        answered["id"],
        "declined",
    )
    assert pending == {
        "id": band.invitation["id"],
        "gig_role_id": band.party_role["id"],
        "status": "pending",
        "message": "Free then?",
        "expires_at": band.invitation["expires_at"],
        "responded_at": None,
        "created_at": band.invitation["created_at"],
        "updated_at": band.invitation["updated_at"],
        "gig": {
            "id": band.party["id"],
            "gig_date": day(20),
            "title": "Birthday party",
            "start_time": None,
            "end_time": None,
            "gig_status_id": band.status["id"],
            "status": {"name": "Confirmed", "kind": "confirmed"},
            "venue": {"name": "Schloss Hof", "address": SCHLOSS_HOF_ADDRESS, "timezone": "Europe/Vienna"},
        },
        "role": {
            "gig_role_id": band.party_role["id"],
            "role_id": band.singer["id"],
            "role": "Lead vocals",
            "product": None,
            "call_time": None,
            "amount_cents": 35000,
        },
    }
    only = band.me.get("/me/invitations?filter[status]=declined&fields=status,gig").get_json()["data"]
    assert [set(i) for i in only] == [{"id", "status", "gig"}]
    assert [i["id"] for i in data(band.me.get("/me/invitations?sort=created_at"))] == [
        band.invitation["id"],
        answered["id"],
    ]


@pytest.mark.parametrize("taken", [True, False], ids=["another-holds-it", "offered-to-another"])
def test_a_role_no_longer_offered_to_them_shows_no_pay(band, taken):
    """What a role pays once the musician said no may have been agreed with the next one asked."""
    band.me.post(f"/gig-role-invitations/{band.invitation['id']}/decline")
    band.build("staff-member-roles", staff_member_id=band.kim["id"], role_id=band.singer["id"])
    assert band.admin.patch(f"/gig-roles/{band.party_role['id']}", json={"pay_cents": 765432109}).status_code == 200
    if taken:
        band.admin.patch(f"/gig-roles/{band.party_role['id']}", json={"staff_member_id": band.kim["id"]})
    else:
        band.invite(band.party_role, band.kim)
    [declined] = data(band.me.get("/me/invitations"))
    assert declined["status"] == "declined" and declined["role"]["amount_cents"] is None
    pending = band.invite(band.role(band.party, band.singer, pay_cents=40000), band.sam)
    assert data(band.me.get("/me/invitations"))[0]["id"] == pending["id"]
    assert data(band.me.get("/me/invitations"))[0]["role"]["amount_cents"] == 40000


def test_they_answer_their_invitations_with_the_operations_of_invitations(band):
    accepted = data(band.me.post(f"/gig-role-invitations/{band.invitation['id']}/accept"))
    assert accepted["status"] == "accepted"
    assert data(band.me.get("/me/invitations"))[0]["status"] == "accepted"
    error_of(band.me.post(f"/gig-role-invitations/{band.invitation['id']}/withdraw"), 403, "forbidden")


# --- their pay sheet ----------------------------------------------------------------------------------------


def test_their_pay_sheet_is_their_line_of_the_office_s(band):
    period = f"from={day(-30)}&to={day(30)}"
    body = band.me.get(f"/me/pay-sheet?{period}").get_json()
    assert [(line["gig_date"], line["amount_cents"], line["source"]) for line in body["data"]] == [
        (day(-10), 35000, "role_default_rate"),
        (day(10), 35000, "role_default_rate"),
    ]
    assert set(body["data"][1]) == {"gig_role_id", "gig_id", "gig_date", "role_id", "amount_cents", "source"}
    assert body["data"][1]["gig_role_id"] == band.vocals["id"] and body["data"][1]["gig_id"] == band.wedding["id"]
    assert body["meta"] == {"total": 2, "limit": 50, "offset": 0, "total_cents": 70000, "currency": "EUR"}
    office = {line["staff_member_id"]: line for line in data(band.admin.get(f"/pay-sheet?{period}"))}
    assert office[band.sam["id"]]["total_cents"] == body["meta"]["total_cents"]
    assert band.me.get(f"/me/pay-sheet?{period}&limit=1").get_json()["meta"]["total_cents"] == 70000
    assert data(band.me.get(f"/me/pay-sheet?from={day(0)}&to={day(5)}")) == []


@pytest.mark.parametrize("query", ["", "from=2027-01-01", "from=2027-01-01&to=2027-02-30", "from=x&to=2027-01-01"])
def test_their_pay_sheet_needs_a_period(band, query):
    error_of(band.me.get(f"/me/pay-sheet?{query}"), 400, "invalid_query")


# --- their blockouts ----------------------------------------------------------------------------------------


def test_they_keep_their_own_blockouts(band):
    r = band.me.post("/me/blockouts", {"start_date": day(5), "end_date": day(6), "reason": "Holiday"})
    created = data(r, 201)
    assert r.headers["Location"] == f"/v1/me/blockouts/{created['id']}"
    assert created["staff_member_id"] == band.sam["id"]
    assert data(band.admin.get(f"/staff-member-blockouts/{created['id']}")) == created
    path = f"/me/blockouts/{created['id']}"
    assert data(band.me.get(path)) == created
    assert data(band.me.patch(path, {"end_date": day(7)}))["end_date"] == day(7)
    assert [b["id"] for b in data(band.me.get("/me/blockouts"))] == [created["id"]]
    assert band.me.delete(path).status_code == 204
    error_of(band.me.get(path), 404, "not_found")
    history = data(band.admin.get(f"/events?filter[subject_id]={created['id']}&sort=seq"))
    assert [e["type"] for e in history] == ["staff_member_blockout." + v for v in ("created", "updated", "deleted")]
    assert {e["actor"]["user_id"] for e in history} == {band.user.id}


def test_a_blockout_of_theirs_keeps_the_office_from_booking_them(band):
    data(band.me.post("/me/blockouts", {"start_date": day(20), "end_date": day(20)}), 201)
    role = band.role(band.party, band.singer)
    error = error_of(
        band.admin.patch(f"/gig-roles/{role['id']}", json={"staff_member_id": band.sam["id"]}), 409, "conflict"
    )
    assert error["details"]["reason"] == "staff_member_blocked_out"


def test_they_cannot_block_out_a_day_they_play_but_the_office_can(band):
    error = error_of(band.me.post("/me/blockouts", {"start_date": day(9), "end_date": day(11)}), 409, "conflict")
    assert error["details"]["reason"] == "staff_member_booked"
    assert error["details"]["gig_role"]["id"] == band.vocals["id"]
    free = data(band.me.post("/me/blockouts", {"start_date": day(11), "end_date": day(12)}), 201)
    error = error_of(band.me.patch(f"/me/blockouts/{free['id']}", {"start_date": day(10)}), 409, "conflict")
    assert error["details"]["reason"] == "staff_member_booked"
    assert data(band.me.patch(f"/me/blockouts/{free['id']}", {"reason": "Exams"}))["reason"] == "Exams"
    cancelled = band.build("gig-statuses", name="Called off", kind="cancelled")
    band.admin.patch(f"/gigs/{band.wedding['id']}", json={"gig_status_id": cancelled["id"]})
    assert band.me.post("/me/blockouts", {"start_date": day(10), "end_date": day(10)}).status_code == 201
    office = {"staff_member_id": band.sam["id"], "start_date": day(-10), "end_date": day(-10)}
    assert band.admin.post("/staff-member-blockouts", json=office).status_code == 201


def test_another_members_blockout_is_not_theirs(band):
    kims = band.build("staff-member-blockouts", staff_member_id=band.kim["id"], start_date=day(1), end_date=day(2))
    path = f"/me/blockouts/{kims['id']}"
    error_of(band.me.get(path), 404, "not_found")
    error_of(band.me.patch(path, {"reason": "Mine now"}), 404, "not_found")
    error_of(band.me.delete(path), 404, "not_found")
    assert data(band.admin.get(f"/staff-member-blockouts/{kims['id']}")) == kims
    assert data(band.me.get("/me/blockouts")) == []


@pytest.mark.parametrize(
    "body, field",
    [
        ({"start_date": "2027-01-02", "end_date": "2027-01-01"}, "end_date"),
        ({"start_date": "2027-01-01"}, "end_date"),
        ({"start_date": "2027-01-01", "end_date": "2027-01-02", "staff_member_id": None}, "staff_member_id"),
        ({"start_date": "2027-02-30", "end_date": "2027-03-01"}, "start_date"),
        ({"start_date": "2027-01-01", "end_date": "2027-01-02", "reason": "x" * 201}, "reason"),
    ],
)
def test_a_blockout_they_cannot_make_is_422_naming_the_field(band, body, field):
    error = error_of(band.me.post("/me/blockouts", body), 422, "validation_failed")
    assert field in error["details"]
    assert data(band.admin.get("/staff-member-blockouts")) == []


def test_they_cannot_move_their_blockout_to_another_member(band):
    created = data(band.me.post("/me/blockouts", {"start_date": day(5), "end_date": day(6)}), 201)
    error = error_of(
        band.me.patch(f"/me/blockouts/{created['id']}", {"staff_member_id": band.kim["id"]}), 422, "validation_failed"
    )
    assert "staff_member_id" in error["details"]


# --- their calendar feed ------------------------------------------------------------------------------------


def test_their_calendar_feed_is_theirs_and_rotates(band, anon):
    url = data(band.me.get("/me/calendar-url"))["url"]
    assert url == data(band.admin.get(f"/staff-members/{band.sam['id']}/calendar-url"))["url"]
    feed = anon.get("/v1/" + url.split("/v1/", 1)[1])
    assert feed.status_code == 200 and b"Anna & Ben (Lead vocals)" in feed.data and b"Kim's gig" not in feed.data
    moved = data(band.me.post("/me/calendar-url/rotate"))["url"]
    assert moved != url and moved == data(band.me.get("/me/calendar-url"))["url"]
    error_of(anon.get("/v1/" + url.split("/v1/", 1)[1]), 404, "not_found")
    error_of(band.me.get("/me/calendar-url?x=1"), 400, "invalid_query")


# --- what a page costs --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "path", ["/me/gigs?", "/me/invitations?", "/me/blockouts?", f"/me/pay-sheet?from={day(-400)}&to={day(400)}&"]
)
def test_a_page_of_their_own_costs_the_same_queries_whatever_its_size(band, monkeypatch, path):
    for offset in range(30, 36):
        gig = band.gig(offset, f"More {offset}")
        band.role(gig, band.drums, band.kim)
        band.role(gig, band.singer, band.sam)
        band.build("gig-moments", gig_id=gig["id"], name="Dinner")
        band.build("gig-songs", gig_id=gig["id"], title="Shout")
        band.invite(band.role(gig, band.singer), band.sam)
        band.me.post("/me/blockouts", {"start_date": day(offset + 100), "end_date": day(offset + 100)})
    executed = count_queries(monkeypatch)
    counts = []
    for query in ("limit=1", "limit=2", "limit=200"):
        executed.clear()
        assert band.me.get(f"{path}{query}").status_code == 200
        counts.append(len(executed))
    assert max(counts) <= 10, counts


# On PostgreSQL a change is told by the server's snapshot, which also moves with the commits of the other tests'
# databases on the one test server (see the issue 25 note): a page is then asked again, correct but not remembered.
@pytest.mark.sqlite_only
@pytest.mark.parametrize("path", ["/me/gigs", "/me/invitations"])
def test_the_same_page_asked_again_is_remembered_until_the_database_changes(band, monkeypatch, path):
    first = band.me.get(path).get_json()
    executed = count_queries(monkeypatch)
    assert band.me.get(path).get_json() == first
    assert executed == []  # only whether the database changed, which is no query of the app's connection
    band.admin.patch(f"/gigs/{band.party['id']}", json={"title": "Birthday bash"})
    executed.clear()
    assert band.me.get(path).get_json() != first
    assert len(executed) > 1


def test_a_server_told_to_remember_no_pages_works_each_out_afresh(band, app, monkeypatch):
    configure(app, {"DB": app.config["DB"], "MAIL_URL": app.config["MAIL_URL"], "PAGE_MEMORY_KB": 0})
    first = band.me.get("/me/gigs").get_json()
    executed = count_queries(monkeypatch)
    assert band.me.get("/me/gigs").get_json() == first
    assert len(executed) > 1


def test_the_memory_for_pages_is_a_size():
    with pytest.raises(ConfigError, match="BAND_PAGE_MEMORY_KB"):
        settings.load(environ={"BAND_PAGE_MEMORY_KB": "-1"})
    assert settings.load(environ={"BAND_PAGE_MEMORY_KB": "0"})["PAGE_MEMORY_KB"] == 0
