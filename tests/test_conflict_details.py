"""SPEC §2.3: a 409 that names the record it clashed with shows of it no more than the caller may read. The office
reads it as its own read shows it (pay masked without pay.view, the office's notes with the group's view); a
musician without that view reads its collection, id, gig, date and title; the public answer endpoint the date and
the gig's title only. Every such 409 (double_booked, staff_member_blocked_out, staff_member_booked, equipment
double_booked), on every path that answers it, for each kind of caller."""

import pytest

from domain import signed_links
from tests.support.api import error_of
from tests.support.users import make_token, make_user

DATE = "2027-06-12"
NOTES = "OFFICE ONLY: his fee is double the others', don't tell the band."
CALLERS = ("office", "office_without_pay", "musician")


class Night:
    """Two gigs on one night: "Anna & Ben" (18:00–23:00) with an open singer role, and the "Müller party"
    (20:00–01:00) whose singer role pays 300.00 and carries the office's notes. Sam sings; a user of each kind of
    caller is signed in (`clients`): the office (every group but admin), the office without pay.view (a
    booker), a musician (access role `staff`)."""

    def __init__(self, app, admin, build, anon, role):
        self.app, self.admin, self.build, self.anon = app, admin, build, anon
        self.singer = build("roles", name="Singer")
        self.wedding = build("gigs", gig_date=DATE, title="Anna & Ben", start_time="18:00", end_time="23:00")
        self.party = build("gigs", gig_date=DATE, title="Müller party", start_time="20:00", end_time="01:00")
        self.open_role = build("gig-roles", gig_id=self.wedding["id"], role_id=self.singer["id"])
        self.sam = build("staff-members", first_name="Sam", last_name="Adams")
        build("staff-member-roles", staff_member_id=self.sam["id"], role_id=self.singer["id"])
        role("booker", "gigs.*", "staffing.*", "people.view", "production.*")
        kinds = {"office": "office", "office_without_pay": "booker", "musician": "staff"}
        self.users = {caller: make_user(roles=[kinds[caller]]) for caller in CALLERS}
        self.clients = {caller: anon.with_token(make_token(user)) for caller, user in self.users.items()}

    def invite(self):
        body = {"gig_role_id": self.open_role["id"], "staff_member_id": self.sam["id"]}
        return self.admin.create("gig-role-invitations", body)

    def put_sam_on_the_party(self):
        fields = {"gig_id": self.party["id"], "role_id": self.singer["id"], "pay_cents": 30000, "notes": NOTES}
        return self.admin.create("gig-roles", {"staff_member_id": self.sam["id"], **fields})

    def link_sam_to(self, caller):
        linked = self.admin.patch(f"/staff-members/{self.sam['id']}", json={"user_id": self.users[caller].id})
        assert linked.status_code == 200, linked.get_json()

    def answer_link(self, invitation):
        token = signed_links.answer_link(self.app.config, invitation["id"]).split("#token=", 1)[1]
        return self.anon.post("/invitations/answer", json={"token": token, "answer": "accept"})

    def summary(self, collection, record, gig):
        gig_fields = {"gig_id": gig["id"], "gig_date": DATE, "gig_title": gig["title"]}
        return {"collection": collection, "id": record["id"], **gig_fields}


@pytest.fixture
def night(app, admin, build, anon, role):
    return Night(app, admin, build, anon, role)


def clash(response, reason, key):
    error = error_of(response, 409, "conflict")
    assert set(error["details"]) == {"reason", key} and error["details"]["reason"] == reason, error
    return error["details"][key]


def as_read_by(client, path):
    return client.get(path).get_json()["data"]


def check_gig_role_as_read(client, shown, gig_role, pay_cents):
    assert shown == as_read_by(client, f"/gig-roles/{gig_role['id']}")
    assert (shown["notes"], shown["pay_cents"]) == (NOTES, pay_cents)


# --- double_booked: a role that night ----------------------------------------------------------------------------


@pytest.mark.parametrize("caller", CALLERS)
def test_accepting_while_booked_that_night_shows_the_role_as_the_caller_may_read_it(night, caller):
    invitation = night.invite()
    booked = night.put_sam_on_the_party()
    night.link_sam_to("musician")
    client = night.clients[caller]
    shown = clash(client.post(f"/gig-role-invitations/{invitation['id']}/accept"), "double_booked", "gig_role")
    if caller == "musician":
        assert shown == night.summary("gig_roles", booked, night.party)
    else:
        check_gig_role_as_read(client, shown, booked, 30000 if caller == "office" else None)


def test_the_answer_link_shows_the_date_and_the_gigs_title_only(night):
    invitation = night.invite()
    night.put_sam_on_the_party()
    shown = clash(night.answer_link(invitation), "double_booked", "gig_role")
    assert shown == {"gig_date": DATE, "gig_title": "Müller party"}


@pytest.mark.parametrize("caller", ["office", "office_without_pay"])
def test_putting_or_inviting_a_member_booked_that_night_shows_the_role_as_the_office_reads_it(night, caller):
    booked = night.put_sam_on_the_party()
    client, pay_cents = night.clients[caller], 30000 if caller == "office" else None
    put_on = client.patch(f"/gig-roles/{night.open_role['id']}", json={"staff_member_id": night.sam["id"]})
    sam = {"staff_member_id": night.sam["id"]}
    created = client.post("/gig-roles", {"gig_id": night.wedding["id"], "role_id": night.singer["id"], **sam})
    invited = client.post("/gig-role-invitations", {"gig_role_id": night.open_role["id"], **sam})
    for refused in (put_on, created, invited):
        check_gig_role_as_read(client, clash(refused, "double_booked", "gig_role"), booked, pay_cents)


# --- staff_member_blocked_out: their blockout --------------------------------------------------------------------


@pytest.mark.parametrize("caller", CALLERS)
def test_accepting_on_a_blocked_out_day_shows_the_blockout_as_the_caller_may_read_it(night, caller):
    invitation = night.invite()
    blockout = night.build(
        "staff-member-blockouts", staff_member_id=night.sam["id"], start_date=DATE, end_date=DATE, reason="Surgery"
    )
    night.link_sam_to("musician")
    client = night.clients[caller]
    accepted = client.post(f"/gig-role-invitations/{invitation['id']}/accept")
    shown = clash(accepted, "staff_member_blocked_out", "blockout")
    if caller == "musician":
        dates = {"start_date": DATE, "end_date": DATE}
        assert shown == {"collection": "staff_member_blockouts", "id": blockout["id"], **dates}
    else:
        assert shown == as_read_by(client, f"/staff-member-blockouts/{blockout['id']}")
        assert shown["reason"] == "Surgery"
    answered = night.answer_link(invitation)
    assert clash(answered, "staff_member_blocked_out", "blockout") == {"start_date": DATE, "end_date": DATE}


# --- staff_member_booked: a musician's blockout over a gig they play -------------------------------------------


@pytest.mark.parametrize("caller", CALLERS)
def test_blocking_out_a_day_one_plays_shows_the_role_as_the_caller_may_read_it(night, caller):
    booked = night.put_sam_on_the_party()
    night.link_sam_to(caller)
    client = night.clients[caller]
    created = client.post("/me/blockouts", {"start_date": DATE, "end_date": DATE})
    free = client.post("/me/blockouts", {"start_date": "2027-06-14", "end_date": "2027-06-14"}).get_json()["data"]
    changed = client.patch(f"/me/blockouts/{free['id']}", {"start_date": DATE})
    for shown in (clash(answer, "staff_member_booked", "gig_role") for answer in (created, changed)):
        if caller == "musician":
            assert shown == night.summary("gig_roles", booked, night.party)
        else:
            check_gig_role_as_read(client, shown, booked, 30000 if caller == "office" else None)


# --- double_booked: equipment on another gig that night ----------------------------------------------------------


def test_equipment_on_another_gig_shows_as_its_caller_may_read_it(night, role):
    mic = night.build("equipment", name="SM58 #1")
    taken = night.build("gig-equipment", gig_id=night.party["id"], equipment_id=mic["id"], notes=NOTES)
    body = {"gig_id": night.wedding["id"], "equipment_id": mic["id"]}
    office = night.clients["office"]
    shown = clash(office.post("/gig-equipment", body), "double_booked", "gig_equipment")
    assert shown == as_read_by(office, f"/gig-equipment/{taken['id']}") and shown["notes"] == NOTES
    role("rigger", "production.edit")
    rigger = night.anon.with_token(make_token(make_user(roles=["rigger"])))
    shown = clash(rigger.post("/gig-equipment", body), "double_booked", "gig_equipment")
    assert shown == night.summary("gig_equipment", taken, night.party)
