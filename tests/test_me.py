"""SPEC §10: a musician's own work under /me, reached as the staff member linked to their user, whatever their
access roles: their record, gigs, invitations, pay sheet, blockouts and calendar feed."""

import datetime as dt

import pytest

import settings
from app import configure
from errors import ConfigError
from models import timestamp
from tests.support.api import error_of
from tests.support.database import count_queries
from tests.support.records import SCHLOSS_HOF, SCHLOSS_HOF_ADDRESS
from tests.support.users import make_token, make_user
from tests.support.waiting import wait_for

PARTS = ("/me/staff-member", "/me/gigs", "/me/invitations", "/me/blockouts", "/me/calendar-url")


def day(offset):
    return (dt.date.today() + dt.timedelta(days=offset)).isoformat()


def in_hours(hours):
    return timestamp(dt.datetime.now(dt.UTC) + dt.timedelta(hours=hours))


class Band:
    """Sam (the signed-in musician, access role `staff`) and Kim. Sam sings on the wedding in ten days, Kim drums
    there; Sam is invited to sing at a party in twenty days, and sang at a gig ten days ago; Kim plays a gig of her
    own. The singer's rate is 350 EUR; Kim's drums pay more on the wedding (an amount Sam never reads)."""

    def __init__(self, admin, build, anon):
        self.admin, self.build = admin, build
        self.venue = build("venues", **SCHLOSS_HOF)
        self.status = build("gig-statuses", name="Confirmed", kind="confirmed", is_default=True)
        self.singer = build("roles", name="Lead vocals", position=1)
        self.drums = build("roles", name="Drums", position=2)
        self.reception = build("products", name="Reception")
        build("rates", role_id=self.singer["id"], amount_cents=35000)
        self.user = make_user(roles=["staff"], name="Sam Adams")
        self.sam = self.member("Sam", "Adams", self.singer, email="sam@example.com", phone="+43 660 111")
        admin.patch(f"/staff-members/{self.sam['id']}", json={"user_id": self.user.id})
        self.kim = self.member("Kim", "Clark", self.drums, email="kim@example.com", phone="+43 660 999")
        self.me = anon.with_token(make_token(self.user))
        self.wedding = self.gig(10, "Anna & Ben", start_time="18:00", end_time="01:00", load_in_time="16:00")
        product = build(
            "gig-products",
            gig_id=self.wedding["id"],
            product_id=self.reception["id"],
            start_time="19:00",
            end_time="00:30",
        )
        self.vocals = self.role(self.wedding, self.singer, self.sam, gig_product_id=product["id"], call_time="17:00")
        self.kims_drums = self.role(self.wedding, self.drums, self.kim, pay_cents=765432109)
        self.role(self.wedding, self.singer)  # a second voice, still open
        self.entrance = build("gig-moments", gig_id=self.wedding["id"], name="Grand entrance", time="19:30", position=1)
        self.dance = build("gig-moments", gig_id=self.wedding["id"], name="First dance", time="21:00", position=2)
        self.song = build(
            "gig-songs",
            gig_id=self.wedding["id"],
            title="Superstition",
            kind="setlist",
            gig_moment_id=self.entrance["id"],
        )
        self.party = self.gig(20, "Birthday party")
        self.party_role = self.role(self.party, self.singer)
        self.invitation = self.invite(self.party_role, self.sam, message="Free then?")
        self.past = self.gig(-10, "Last month")
        self.role(self.past, self.singer, self.sam)
        self.kims_gig = self.gig(12, "Kim's gig")
        self.role(self.kims_gig, self.drums, self.kim)

    def member(self, first, last, role, **fields):
        member = self.build("staff-members", first_name=first, last_name=last, **fields)
        self.build("staff-member-roles", staff_member_id=member["id"], role_id=role["id"])
        return member

    def gig(self, offset, title, **fields):
        return self.build("gigs", gig_date=day(offset), title=title, venue_id=self.venue["id"], **fields)

    def role(self, gig, role, member=None, **fields):
        body = {"gig_id": gig["id"], "role_id": role["id"], "staff_member_id": member and member["id"], **fields}
        return data(self.admin.post("/gig-roles", json=body), 201)

    def invite(self, gig_role, member, **fields):
        body = {"gig_role_id": gig_role["id"], "staff_member_id": member["id"], **fields}
        return self.build("gig-role-invitations", **body)


@pytest.fixture
def band(admin, build, anon):
    return Band(admin, build, anon)


def data(response, status=200):
    body = response.get_json()
    assert response.status_code == status, body
    return body["data"]


# --- who reaches it ------------------------------------------------------------------------------------------


def test_a_user_no_staff_member_is_linked_to_finds_nothing_of_their_own(signed_in):
    office = signed_in("office")
    for path in PARTS:
        error = error_of(office.get(path), 404, "not_found")
        assert "No staff member is linked to your user" in error["message"]
    error_of(office.get("/me/pay-sheet?from=2027-01-01&to=2027-12-31"), 404, "not_found")
    error_of(office.post("/me/blockouts", {"start_date": "2027-01-01", "end_date": "2027-01-02"}), 404, "not_found")
    error_of(office.post("/me/calendar-url/rotate"), 404, "not_found")


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


# --- their gigs ---------------------------------------------------------------------------------------------


def test_their_gigs_hold_what_they_need_to_play_them(band):
    body = band.me.get("/me/gigs").get_json()
    assert body["meta"] == {"total": 2, "limit": 50, "offset": 0}
    wedding, party = body["data"]
    place = {"name": "Schloss Hof", "address": SCHLOSS_HOF_ADDRESS, "timezone": "Europe/Vienna"}
    assert wedding == {
        "id": band.wedding["id"],
        "gig_date": day(10),
        "title": "Anna & Ben",
        "start_time": "18:00",
        "end_time": "01:00",
        "gig_status_id": band.status["id"],
        "status": {"name": "Confirmed", "kind": "confirmed"},
        "venue": place,
        "load_in_time": "16:00",
        "roles": [
            {
                "gig_role_id": band.vocals["id"],
                "role_id": band.singer["id"],
                "role": "Lead vocals",
                "product": {"name": "Reception", "start_time": "19:00", "end_time": "00:30"},
                "call_time": "17:00",
                "amount_cents": 35000,
                "invitation": None,
            }
        ],
        "lineup": [{"first_name": "Kim", "last_name": "Clark", "role": "Drums", "product": None}],
        "moments": [
            {"id": band.entrance["id"], "name": "Grand entrance", "time": "19:30", "notes": None},
            {"id": band.dance["id"], "name": "First dance", "time": "21:00", "notes": None},
        ],
        "songs": [
            {
                "id": band.song["id"],
                "title": "Superstition",
                "artist": None,
                "kind": "setlist",
                "gig_moment_id": band.entrance["id"],
                "notes": None,
            }
        ],
    }
    assert party["title"] == "Birthday party" and party["lineup"] == [] and party["moments"] == []
    invitation = {"id": band.invitation["id"], "expires_at": band.invitation["expires_at"]}
    assert [(role["gig_role_id"], role["amount_cents"], role["invitation"]) for role in party["roles"]] == [
        (band.party_role["id"], 35000, invitation)
    ]


def test_moments_and_songs_come_in_the_office_s_order(band):
    gig = band.wedding["id"]
    band.build("gig-moments", gig_id=gig, name="Cake", position=None)
    band.build("gig-moments", gig_id=gig, name="Apéritif", position=None)
    for title, position in (("Shout", None), ("Africa", None), ("Zombie", 1), ("Hey Jude", None)):
        band.build("gig-songs", gig_id=gig, title=title, position=position)
    [wedding] = [g for g in data(band.me.get("/me/gigs")) if g["id"] == gig]
    for part, collection in (("moments", "gig-moments"), ("songs", "gig-songs")):
        office = [record["id"] for record in data(band.admin.get(f"/{collection}?filter[gig_id]={gig}"))]
        assert [record["id"] for record in wedding[part]] == office, part
    assert [song["title"] for song in wedding["songs"]] == ["Superstition", "Shout", "Africa", "Hey Jude", "Zombie"]


def test_their_gigs_start_today_unless_they_filter_on_the_date(band):
    titles = lambda query: [gig["title"] for gig in data(band.me.get(f"/me/gigs{query}"))]
    assert titles("") == ["Anna & Ben", "Birthday party"]
    assert titles(f"?filter[gig_date][lt]={day(0)}") == ["Last month"]
    assert titles(f"?filter[gig_date][gte]={day(-365)}&sort=-gig_date") == [
        "Birthday party",
        "Anna & Ben",
        "Last month",
    ]
    assert titles("?filter[title][contains]=party") == ["Birthday party"]
    page = band.me.get("/me/gigs?limit=1&offset=1&fields=title").get_json()
    assert page == {
        "data": [{"id": band.party["id"], "title": "Birthday party"}],
        "meta": {"total": 2, "limit": 1, "offset": 1},
    }
    error_of(band.me.get("/me/gigs?filter[notes][contains]=x"), 400, "invalid_query")
    error_of(band.me.get("/me/gigs?sort=roles"), 400, "invalid_query")


def test_gigs_asked_for_by_id_come_whatever_their_date(band):
    assert [gig["title"] for gig in data(band.me.get(f"/me/gigs?filter[id]={band.past['id']}"))] == ["Last month"]
    assert data(band.me.get(f"/me/gigs?filter[id]={band.kims_gig['id']}")) == []
    cancelled = band.build("gig-statuses", name="Called off", kind="cancelled")
    band.admin.patch(f"/gigs/{band.wedding['id']}", json={"gig_status_id": cancelled["id"]})
    assert [gig["status"]["kind"] for gig in data(band.me.get("/me/gigs"))] == ["cancelled", "confirmed"]
    playing = data(band.me.get(f"/me/gigs?filter[gig_status_id][ne]={cancelled['id']}"))
    assert [gig["title"] for gig in playing] == ["Birthday party"]


def test_a_gig_they_were_only_invited_to_goes_once_the_invitation_is_answered(band):
    assert band.me.post(f"/gig-role-invitations/{band.invitation['id']}/decline").status_code == 200
    assert [gig["title"] for gig in data(band.me.get("/me/gigs"))] == ["Anna & Ben"]


def test_an_accepted_invitation_makes_the_role_theirs(band):
    assert band.me.post(f"/gig-role-invitations/{band.invitation['id']}/accept").status_code == 200
    party = data(band.me.get("/me/gigs"))[1]
    assert [(role["role"], role["invitation"]) for role in party["roles"]] == [("Lead vocals", None)]


def test_their_gigs_never_show_another_members_contact_details_or_pay(band):
    text = band.me.get(f"/me/gigs?filter[gig_date][gte]={day(-365)}").get_data(as_text=True)
    for private in ("kim@example.com", "+43 660 999", "765432109", band.kim["id"], band.kims_gig["id"]):
        assert private not in text


def test_a_change_by_the_office_shows_at_once(band):
    assert data(band.me.get("/me/gigs"))[0]["start_time"] == "18:00"
    band.admin.patch(f"/gigs/{band.wedding['id']}", json={"start_time": "17:30"})
    assert data(band.me.get("/me/gigs"))[0]["start_time"] == "17:30"
    band.admin.patch(f"/staff-members/{band.kim['id']}", json={"first_name": "Kimberly"})
    assert data(band.me.get("/me/gigs"))[0]["lineup"][0]["first_name"] == "Kimberly"


def test_an_invitation_that_expires_leaves_their_gigs_without_any_change_to_the_database(band):
    soon = band.invite(band.role(band.gig(30, "Soon over"), band.singer), band.sam, expires_at=in_hours(1 / 1800))
    assert "Soon over" in [gig["title"] for gig in data(band.me.get("/me/gigs"))]
    wait_for(lambda: "Soon over" not in [gig["title"] for gig in data(band.me.get("/me/gigs"))], timeout=10)
    statuses = {i["id"]: i["status"] for i in data(band.me.get("/me/invitations"))}
    assert statuses[soon["id"]] == "expired"


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
    assert body["meta"] == {"total": 2, "limit": 50, "offset": 0, "total_cents": 70000}
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
