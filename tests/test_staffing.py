"""SPEC §4.3, §5.2 and §5.3: gig roles, conflicts, candidates, generated roles and invitations."""

import datetime as dt

import pytest

from models import GigRoleInvitation, timestamp
from tests.support.api import error_of
from tests.support.users import make_token, make_user


class Band:
    """A small band: a singer role with three holders, a confirmed and a closed status, one gig."""

    def __init__(self, admin, build):
        self.admin, self.build = admin, build
        self.confirmed = build.status("Confirmed", "confirmed", is_default=True)
        self.tentative = build.status("Hold", "tentative")
        self.closed = build("gig-statuses", name="Done", kind="cancelled")
        self.singer = build("roles", name="Singer")
        self.sam = self.member("Sam", "Adams", primary=True)
        self.alex = self.member("Alex", "Brown")
        self.kim = self.member("Kim", "Clark")
        self.gig = build("gigs", gig_date="2027-06-12", title="Wedding", start_time="18:00", end_time="23:00")
        self.role = build("gig-roles", gig_id=self.gig["id"], role_id=self.singer["id"])

    def member(self, first, last, primary=False, role=None):
        member = self.build("staff-members", first_name=first, last_name=last)
        role_id = (role or self.singer)["id"]
        self.build("staff-member-roles", staff_member_id=member["id"], role_id=role_id, is_primary=primary)
        return member

    def gig_on(self, date, start=None, end=None, status=None, title="Other gig"):
        return self.build(
            "gigs",
            gig_date=date,
            title=title,
            start_time=start,
            end_time=end,
            gig_status_id=(status or self.confirmed)["id"],
        )

    def put(self, gig, member, query=""):
        """Create a singer role on `gig` filled by `member`; the response."""
        body = {"gig_id": gig["id"], "role_id": self.singer["id"], "staff_member_id": member["id"]}
        return self.admin.post(f"/gig-roles{query}", json=body)

    def fill(self, member, query=""):
        return self.admin.patch(f"/gig-roles/{self.role['id']}{query}", json={"staff_member_id": member["id"]})

    def invite(self, member, **fields):
        return self.admin.post(
            "/gig-role-invitations", json={"gig_role_id": self.role["id"], "staff_member_id": member["id"], **fields}
        )


@pytest.fixture
def band(admin, build):
    return Band(admin, build)


def test_a_filled_role_reads_filled(band):
    r = band.fill(band.sam)
    assert r.status_code == 200 and r.get_json()["data"]["status"] == "filled"
    r = band.admin.patch(f"/gig-roles/{band.role['id']}", json={"staff_member_id": None})
    assert r.get_json()["data"]["status"] == "open"
    error_of(band.admin.patch(f"/gig-roles/{band.role['id']}", json={"status": "filled"}), 422, "validation_failed")


def test_a_member_must_hold_the_role_even_with_allow_conflicts(band, build):
    drummer = build("staff-members", first_name="Dee", last_name="Drums")
    for query in ("", "?allow_conflicts=true"):
        error = error_of(band.fill(drummer, query), 422, "validation_failed")
        assert error["details"] == {"staff_member_id": ["This staff member does not hold the role."]}


def test_an_inactive_member_cannot_be_put_on_a_role(band):
    band.admin.patch(f"/staff-members/{band.kim['id']}", json={"active": False})
    assert "staff_member_id" in error_of(band.fill(band.kim), 422, "validation_failed")["details"]


def test_a_blockout_on_the_gig_date_is_a_conflict(band, build):
    blockout = build(
        "staff-member-blockouts",
        staff_member_id=band.sam["id"],
        start_date="2027-06-10",
        end_date="2027-06-12",
        reason="Holiday",
    )
    error = error_of(band.fill(band.sam), 409, "conflict")
    assert error["details"]["reason"] == "staff_member_blocked_out"
    assert error["details"]["blockout"]["id"] == blockout["id"]
    assert band.admin.get(f"/gig-roles/{band.role['id']}").get_json()["data"]["staff_member_id"] is None


def test_a_blockout_on_other_dates_is_no_conflict(band, build):
    build("staff-member-blockouts", staff_member_id=band.sam["id"], start_date="2027-06-13", end_date="2027-06-20")
    assert band.fill(band.sam).status_code == 200


@pytest.mark.parametrize(
    "date, start, end, clash",
    [
        ("2027-06-12", "20:00", "22:00", True),  # inside the window
        ("2027-06-12", "12:00", "15:00", False),  # earlier the same day
        ("2027-06-12", "23:00", "01:00", False),  # starts as ours ends
        ("2027-06-12", None, None, True),  # a gig without times takes its whole date
        ("2027-06-11", "21:00", "19:00", True),  # the day before, running past midnight into ours
        ("2027-06-11", "20:00", "23:59", False),
        ("2027-06-13", None, None, False),
    ],
)
def test_double_booking_compares_time_windows(band, date, start, end, clash):
    other = band.gig_on(date, start, end)
    booked = band.put(other, band.sam)
    assert booked.status_code == 201, booked.get_json()
    r = band.fill(band.sam)
    if clash:
        error = error_of(r, 409, "conflict")
        assert error["details"]["reason"] == "double_booked"
        assert error["details"]["gig_role"]["id"] == booked.get_json()["data"]["id"]
    else:
        assert r.status_code == 200, r.get_json()


def test_a_gig_without_times_clashes_with_any_gig_that_day(band):
    whole_day = band.gig_on("2027-07-01")
    assert band.put(band.gig_on("2027-07-01", "10:00", "11:00"), band.sam).status_code == 201
    error_of(band.put(whole_day, band.sam), 409, "conflict")


def test_roles_on_closed_gigs_and_on_the_same_gig_do_not_clash(band, build):
    closed = band.gig_on("2027-06-12", "18:00", "23:00", status=band.tentative)
    assert band.put(closed, band.sam).status_code == 201
    band.admin.patch(f"/gigs/{closed['id']}", json={"gig_status_id": band.closed["id"]})
    assert band.fill(band.sam).status_code == 200
    second_role = build("roles", name="Tambourine")
    build("staff-member-roles", staff_member_id=band.sam["id"], role_id=second_role["id"])
    r = band.admin.post(
        "/gig-roles", json={"gig_id": band.gig["id"], "role_id": second_role["id"], "staff_member_id": band.sam["id"]}
    )
    assert r.status_code == 201, r.get_json()


def test_allow_conflicts_overrides_blockouts_and_double_booking(band, build):
    build("staff-member-blockouts", staff_member_id=band.sam["id"], start_date="2027-06-12", end_date="2027-06-12")
    assert band.put(band.gig_on("2027-06-12", "19:00", "20:00"), band.sam, "?allow_conflicts=true").status_code == 201
    r = band.fill(band.sam, "?allow_conflicts=true")
    assert r.status_code == 200 and r.get_json()["data"]["staff_member_id"] == band.sam["id"]


@pytest.mark.parametrize("query", ["?allow_conflicts=yes", "?allow_conflicts=", "?force=true"])
def test_bad_write_parameters_are_400(band, query):
    error_of(band.fill(band.sam, query), 400, "invalid_query")


def test_a_closed_gig_takes_no_new_roles_or_invitations(band):
    band.admin.patch(f"/gigs/{band.gig['id']}", json={"gig_status_id": band.closed["id"]})
    r = band.admin.post("/gig-roles", json={"gig_id": band.gig["id"], "role_id": band.singer["id"]})
    assert error_of(r, 409, "conflict")["details"]["reason"] == "gig_closed"
    assert error_of(band.invite(band.sam), 409, "conflict")["details"]["reason"] == "gig_closed"
    generated = band.admin.post(f"/gigs/{band.gig['id']}/generate-roles")
    assert error_of(generated, 409, "conflict")["details"]["reason"] == "gig_closed"
    # the office can still record who played
    assert band.fill(band.sam).status_code == 200


def test_gig_product_of_a_role_must_be_of_the_same_gig(band, build):
    elsewhere = build("gig-products", gig_id=band.gig_on("2027-08-01")["id"])
    r = band.admin.patch(f"/gig-roles/{band.role['id']}", json={"gig_product_id": elsewhere["id"]})
    assert error_of(r, 422, "validation_failed")["details"] == {"gig_product_id": ["Belongs to another gig."]}


# --- generated roles ---------------------------------------------------------------------------------------


def test_generate_roles_follows_the_ensembles_and_is_idempotent(band, build):
    guitar = build("roles", name="Guitar")
    band_ensemble = build("ensembles", name="Duo")
    build("ensemble-roles", ensemble_id=band_ensemble["id"], role_id=band.singer["id"], quantity=2)
    build("ensemble-roles", ensemble_id=band_ensemble["id"], role_id=guitar["id"])
    with_ensemble = build("gig-products", gig_id=band.gig["id"], ensemble_id=band_ensemble["id"])
    build("gig-products", gig_id=band.gig["id"])  # no ensemble: nothing to generate
    build("gig-roles", gig_id=band.gig["id"], role_id=band.singer["id"], gig_product_id=with_ensemble["id"])
    r = band.admin.post(f"/gigs/{band.gig['id']}/generate-roles")
    assert r.status_code == 200, r.get_json()
    created = r.get_json()["data"]
    assert sorted(role["role_id"] for role in created) == sorted([band.singer["id"], guitar["id"]])
    assert all(role["gig_product_id"] == with_ensemble["id"] and role["status"] == "open" for role in created)
    assert band.admin.post(f"/gigs/{band.gig['id']}/generate-roles").get_json() == {"data": []}
    listed = band.admin.get(f"/gig-roles?filter[gig_product_id]={with_ensemble['id']}").get_json()
    assert listed["meta"]["total"] == 3


def test_generate_roles_needs_staffing_edit_and_a_gig(band, signed_in):
    error_of(signed_in("viewer").post(f"/gigs/{band.gig['id']}/generate-roles"), 403, "forbidden")
    error_of(band.admin.post("/gigs/00000000-0000-4000-8000-000000000000/generate-roles"), 404, "not_found")


# --- candidates --------------------------------------------------------------------------------------------


def test_candidates_say_who_is_free_why_not_and_what_they_would_earn(band, build):
    kim_busy = band.gig_on("2027-06-12", "19:00", "21:00")
    band.put(kim_busy, band.kim)
    build("staff-member-blockouts", staff_member_id=band.alex["id"], start_date="2027-06-12", end_date="2027-06-12")
    zoe = band.member("Zoe", "Young")
    build("rates", role_id=band.singer["id"], amount_cents=30000)
    build("staff-members", first_name="Nobody", last_name="Holds")  # not a candidate
    r = band.admin.get(f"/gig-roles/{band.role['id']}/candidates")
    assert r.status_code == 200, r.get_json()
    body = r.get_json()
    assert body["meta"] == {"total": 4, "limit": 50, "offset": 0, "currency": "EUR"}
    assert [(c["last_name"], c["available"], c["reasons"]) for c in body["data"]] == [
        ("Adams", True, []),  # available and primary first
        ("Young", True, []),
        ("Brown", False, ["blocked_out"]),
        ("Clark", False, ["double_booked"]),
    ]
    assert body["data"][0] == {
        "staff_member_id": band.sam["id"],
        "first_name": "Sam",
        "last_name": "Adams",
        "is_primary": True,
        "available": True,
        "reasons": [],
        "amount_cents": 30000,
        "busy_with": None,
    }
    assert body["data"][1]["staff_member_id"] == zoe["id"]
    assert body["data"][3]["busy_with"] == {
        "gig_id": kim_busy["id"],
        "title": "Other gig",
        "gig_date": "2027-06-12",
        "start_time": "19:00",
        "end_time": "21:00",
    }


def test_a_candidate_s_other_gig_is_hidden_from_a_caller_without_gigs_view(band, signed_in, role):
    band.put(band.gig_on("2027-06-12", "19:00", "21:00"), band.kim)
    role("staffing-only", "staffing.view")
    found = signed_in("staffing-only").get(f"/gig-roles/{band.role['id']}/candidates").get_json()["data"]
    kim = next(c for c in found if c["staff_member_id"] == band.kim["id"])
    assert (kim["reasons"], kim["busy_with"]) == (["double_booked"], None)


def test_candidates_show_invited_and_declined(band):
    band.invite(band.sam)
    declined = band.invite(band.alex).get_json()["data"]
    band.admin.post(f"/gig-role-invitations/{declined['id']}/decline")
    reasons = {
        c["first_name"]: c["reasons"]
        for c in band.admin.get(f"/gig-roles/{band.role['id']}/candidates").get_json()["data"]
    }
    assert reasons == {"Sam": ["invited"], "Alex": ["declined"], "Kim": []}


def test_candidates_page_and_refuse_other_parameters(band, signed_in, role):
    r = band.admin.get(f"/gig-roles/{band.role['id']}/candidates?limit=1&offset=1")
    assert (
        r.get_json()["meta"] == {"total": 3, "limit": 1, "offset": 1, "currency": "EUR"}
        and len(r.get_json()["data"]) == 1
    )
    error_of(band.admin.get(f"/gig-roles/{band.role['id']}/candidates?sort=last_name"), 400, "invalid_query")
    role("staffing-reader", "staffing.view")
    assert signed_in("staffing-reader").get(f"/gig-roles/{band.role['id']}/candidates").status_code == 200
    for other in ("crew", "staff"):
        error_of(signed_in(other).get(f"/gig-roles/{band.role['id']}/candidates"), 403, "forbidden")


# --- invitations -------------------------------------------------------------------------------------------


def test_an_invitation_is_pending_and_expires_in_72_hours_by_default(band):
    r = band.invite(band.sam, message="Free on the 12th?")
    assert r.status_code == 201, r.get_json()
    invitation = r.get_json()["data"]
    assert invitation["status"] == "pending" and invitation["responded_at"] is None
    hours = (dt.datetime.fromisoformat(invitation["expires_at"]) - dt.datetime.now(dt.UTC)) / dt.timedelta(hours=1)
    assert 71.9 < hours <= 72


def test_invitation_lifetime_comes_from_configuration(app, band):
    app.config["INVITATION_HOURS"] = 5
    expires = dt.datetime.fromisoformat(band.invite(band.sam).get_json()["data"]["expires_at"])
    assert abs(expires - dt.datetime.now(dt.UTC) - dt.timedelta(hours=5)) < dt.timedelta(minutes=1)


def test_an_invitation_must_expire_in_the_future(band):
    past = timestamp(dt.datetime.now(dt.UTC) - dt.timedelta(minutes=1))
    assert error_of(band.invite(band.sam, expires_at=past), 422, "validation_failed")["details"] == {
        "expires_at": ["Must be in the future."]
    }


def test_invitation_checks(band, build):
    drummer = build("staff-members", first_name="Dee", last_name="Drums")
    assert "staff_member_id" in error_of(band.invite(drummer), 422, "validation_failed")["details"]
    build("staff-member-blockouts", staff_member_id=band.alex["id"], start_date="2027-06-12", end_date="2027-06-12")
    assert error_of(band.invite(band.alex), 409, "conflict")["details"]["reason"] == "staff_member_blocked_out"
    assert band.invite(band.sam).status_code == 201
    error = error_of(band.invite(band.sam), 409, "already_exists")
    assert error["details"] == {"fields": ["gig_role_id", "staff_member_id"]}
    band.fill(band.kim)
    assert error_of(band.invite(band.kim), 409, "conflict")["details"]["reason"] == "gig_role_filled"


def test_accept_fills_the_role_and_withdraws_the_other_invitations(band):
    mine = band.invite(band.sam).get_json()["data"]
    other = band.invite(band.alex).get_json()["data"]
    r = band.admin.post(f"/gig-role-invitations/{mine['id']}/accept")
    assert r.status_code == 200, r.get_json()
    accepted = r.get_json()["data"]
    assert accepted["status"] == "accepted" and accepted["responded_at"] is not None
    role = band.admin.get(f"/gig-roles/{band.role['id']}").get_json()["data"]
    assert (role["staff_member_id"], role["status"]) == (band.sam["id"], "filled")
    assert band.admin.get(f"/gig-role-invitations/{other['id']}").get_json()["data"]["status"] == "withdrawn"
    error = error_of(band.admin.post(f"/gig-role-invitations/{other['id']}/accept"), 409, "conflict")
    assert error["details"]["reason"] == "gig_role_filled"


def test_accept_rechecks_availability(band, build):
    invitation = band.invite(band.sam).get_json()["data"]
    build("staff-member-blockouts", staff_member_id=band.sam["id"], start_date="2027-06-12", end_date="2027-06-12")
    error = error_of(band.admin.post(f"/gig-role-invitations/{invitation['id']}/accept"), 409, "conflict")
    assert error["details"]["reason"] == "staff_member_blocked_out"
    assert band.admin.get(f"/gig-role-invitations/{invitation['id']}").get_json()["data"]["status"] == "pending"


def test_accepting_a_filled_role_is_refused(band):
    invitation = band.invite(band.sam).get_json()["data"]
    band.fill(band.alex)  # the office filled it directly: pending invitations are withdrawn
    assert band.admin.get(f"/gig-role-invitations/{invitation['id']}").get_json()["data"]["status"] == "withdrawn"
    error = error_of(band.admin.post(f"/gig-role-invitations/{invitation['id']}/accept"), 409, "conflict")
    assert error["details"]["reason"] == "gig_role_filled"


def test_decline_and_withdraw_only_pending_invitations(band):
    first = band.invite(band.sam).get_json()["data"]
    second = band.invite(band.alex).get_json()["data"]
    r = band.admin.post(f"/gig-role-invitations/{first['id']}/decline")
    assert r.status_code == 200 and r.get_json()["data"]["status"] == "declined"
    r = band.admin.post(f"/gig-role-invitations/{second['id']}/withdraw")
    assert r.status_code == 200 and r.get_json()["data"]["status"] == "withdrawn"
    for invitation in (first, second):
        for action in ("accept", "decline", "withdraw"):
            r = band.admin.post(f"/gig-role-invitations/{invitation['id']}/{action}")
            assert error_of(r, 409, "conflict")["details"]["reason"] == "invitation_not_pending"


def test_an_expired_invitation_reads_expired_everywhere(band):
    invitation = band.invite(band.sam).get_json()["data"]
    past = timestamp(dt.datetime.now(dt.UTC) - dt.timedelta(seconds=1))
    GigRoleInvitation.update(expires_at=past).execute()
    assert band.admin.get(f"/gig-role-invitations/{invitation['id']}").get_json()["data"]["status"] == "expired"
    assert band.admin.get("/gig-role-invitations?filter[status]=expired").get_json()["meta"]["total"] == 1
    assert band.admin.get("/gig-role-invitations?filter[status]=pending").get_json()["meta"]["total"] == 0
    error = error_of(band.admin.post(f"/gig-role-invitations/{invitation['id']}/accept"), 409, "conflict")
    assert error["details"]["reason"] == "invitation_expired"
    assert band.invite(band.sam).status_code == 201  # an expired one is no longer a pending twin


def test_only_message_and_expires_at_change_and_only_while_pending(band):
    invitation = band.invite(band.sam).get_json()["data"]
    path = f"/gig-role-invitations/{invitation['id']}"
    later = timestamp(dt.datetime.now(dt.UTC) + dt.timedelta(days=5))
    r = band.admin.patch(path, json={"message": "Please?", "expires_at": later})
    assert r.status_code == 200 and r.get_json()["data"]["message"] == "Please?"
    for field in ("gig_role_id", "staff_member_id", "status", "responded_at"):
        error_of(band.admin.patch(path, json={field: invitation.get(field)}), 422, "validation_failed")
    band.admin.post(f"{path}/decline")
    error = error_of(band.admin.patch(path, json={"message": "Too late"}), 409, "conflict")
    assert error["details"]["reason"] == "invitation_not_pending"


def test_the_invited_members_own_user_may_accept_or_decline(band, anon, build):
    user = make_user(roles=["staff"])
    band.admin.patch(f"/staff-members/{band.sam['id']}", json={"user_id": user.id})
    sam = anon.with_token(make_token(user))
    stranger = anon.with_token(make_token(make_user(roles=["staff"])))
    mine = band.invite(band.sam).get_json()["data"]
    error_of(stranger.post(f"/gig-role-invitations/{mine['id']}/accept"), 403, "forbidden")
    error_of(sam.post(f"/gig-role-invitations/{mine['id']}/withdraw"), 403, "forbidden")
    error_of(sam.post("/gig-role-invitations/00000000-0000-4000-8000-000000000000/accept"), 403, "forbidden")
    assert sam.post(f"/gig-role-invitations/{mine['id']}/accept").status_code == 200
    second_role = build("gig-roles", gig_id=band.gig["id"], role_id=band.singer["id"])
    other = band.admin.post(
        "/gig-role-invitations", json={"gig_role_id": second_role["id"], "staff_member_id": band.alex["id"]}
    ).get_json()["data"]
    error_of(sam.post(f"/gig-role-invitations/{other['id']}/decline"), 403, "forbidden")


def test_closing_a_gig_withdraws_its_pending_invitations(band):
    invitation = band.invite(band.sam).get_json()["data"]
    band.admin.patch(f"/gigs/{band.gig['id']}", json={"gig_status_id": band.closed["id"]})
    assert band.admin.get(f"/gig-role-invitations/{invitation['id']}").get_json()["data"]["status"] == "withdrawn"


def test_making_a_status_closed_withdraws_the_invitations_of_its_gigs(band):
    band.admin.patch(f"/gigs/{band.gig['id']}", json={"gig_status_id": band.tentative["id"]})
    invitation = band.invite(band.sam).get_json()["data"]
    band.admin.patch(f"/gig-statuses/{band.tentative['id']}", json={"kind": "cancelled"})
    assert band.admin.get(f"/gig-role-invitations/{invitation['id']}").get_json()["data"]["status"] == "withdrawn"


def test_accepting_twice_tells_the_invitee_it_is_no_longer_pending(band):
    invitation = band.invite(band.sam).get_json()["data"]
    assert band.admin.post(f"/gig-role-invitations/{invitation['id']}/accept").status_code == 200
    error = error_of(band.admin.post(f"/gig-role-invitations/{invitation['id']}/accept"), 409, "conflict")
    assert error["details"]["reason"] == "invitation_not_pending"


def test_accepting_after_declining_is_not_pending_even_when_another_took_the_role(band):
    declined = band.invite(band.sam).get_json()["data"]
    assert band.admin.post(f"/gig-role-invitations/{declined['id']}/decline").status_code == 200
    band.fill(band.alex)
    error = error_of(band.admin.post(f"/gig-role-invitations/{declined['id']}/accept"), 409, "conflict")
    assert error["details"]["reason"] == "invitation_not_pending"
