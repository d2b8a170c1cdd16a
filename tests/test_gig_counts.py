"""SPEC §11: a gig's role_count, open_role_count and pending_invitation_count, kept by the database under every
write that changes them, read-only, filtered and sorted on."""

import collections
import contextlib
import datetime as dt
import random
import shutil
import sqlite3

import pytest

from delivery import worker
from models import Gig, GigRoleInvitation, timestamp
from tests.support import PROJECT
from tests.support.api import error_of
from tests.support.database import count_queries
from tests.support.served import served_offices

COUNTS = ("role_count", "open_role_count", "pending_invitation_count")


class Office:
    """Three gigs on three days, one role (singer) held by five members."""

    def __init__(self, admin, build):
        self.admin = admin
        build.status("Confirmed", "confirmed", is_default=True)
        self.singer = build("roles", name="Singer")
        self.members = []
        for first in ("Ann", "Ben", "Cem", "Dora", "Eli"):
            member = build("staff-members", first_name=first, last_name="Singer")
            build("staff-member-roles", staff_member_id=member["id"], role_id=self.singer["id"])
            self.members.append(member["id"])
        self.gigs = [build("gigs", gig_date=f"2027-06-1{day}", title=f"Gig {day}")["id"] for day in range(3)]

    def counts(self):
        """{gig id: (role_count, open_role_count, pending_invitation_count)} as GET /gigs reads them."""
        rows = self.admin.get("/gigs?limit=200").get_json()["data"]
        return {row["id"]: tuple(row[name] for name in COUNTS) for row in rows}

    def recount(self):
        """The same, counted from the roles and invitations the API lists."""
        roles = self.admin.get("/gig-roles?limit=200").get_json()["data"]
        pending = self.admin.get("/gig-role-invitations?limit=200&filter[status]=pending").get_json()["data"]
        gig_of = {role["id"]: role["gig_id"] for role in roles}
        found = {}
        for gig in self.gigs:
            mine = [role for role in roles if role["gig_id"] == gig]
            open_ = [role for role in mine if role["status"] == "open"]
            invited = [i for i in pending if gig_of[i["gig_role_id"]] == gig]
            found[gig] = (len(mine), len(open_), len(invited))
        return found


@pytest.fixture
def office(admin, build):
    return Office(admin, build)


def test_counts_start_at_zero_and_are_read_only(office, admin):
    assert set(office.counts().values()) == {(0, 0, 0)}
    gig = office.gigs[0]
    r = admin.patch(f"/gigs/{gig}", json={"open_role_count": 3})
    assert error_of(r, 422, "validation_failed")["details"] == {"open_role_count": ["Read-only field."]}
    r = admin.post("/gigs", json={"gig_date": "2027-07-01", "title": "New", "role_count": 1})
    assert "role_count" in error_of(r, 422, "validation_failed")["details"]


def test_a_change_to_the_gig_itself_keeps_its_counts(office, admin):
    gig = office.gigs[0]
    admin.post("/gig-roles", json={"gig_id": gig, "role_id": office.singer["id"]})
    assert admin.patch(f"/gigs/{gig}", json={"title": "Renamed"}).get_json()["data"]["role_count"] == 1
    assert admin.get(f"/gigs/{gig}").get_json()["data"]["open_role_count"] == 1


def test_the_counts_follow_a_random_sequence_of_writes(office, admin):
    draw = random.Random(15)
    allowed = "?allow_conflicts=true"
    for step in range(120):
        roles = admin.get("/gig-roles?limit=200").get_json()["data"]
        pending = admin.get("/gig-role-invitations?limit=200&filter[status]=pending").get_json()["data"]
        open_roles = [role for role in roles if role["status"] == "open"]
        filled = [role for role in roles if role["status"] == "filled"]
        action = draw.choice(("add", "add", "fill", "empty", "drop", "invite", "invite", "answer", "expire"))
        if action == "add" or not roles:
            body = {"gig_id": draw.choice(office.gigs), "role_id": office.singer["id"]}
            if draw.random() < 0.3:
                body["staff_member_id"] = draw.choice(office.members)
            admin.post(f"/gig-roles{allowed}", json=body)
        elif action == "fill" and open_roles:
            role = draw.choice(open_roles)["id"]
            admin.patch(f"/gig-roles/{role}{allowed}", json={"staff_member_id": draw.choice(office.members)})
        elif action == "empty" and filled:
            admin.patch(f"/gig-roles/{draw.choice(filled)['id']}", json={"staff_member_id": None})
        elif action == "drop":
            role = draw.choice(roles)["id"]
            for invitation in admin.get(f"/gig-role-invitations?filter[gig_role_id]={role}").get_json()["data"]:
                admin.delete(f"/gig-role-invitations/{invitation['id']}")
            assert admin.delete(f"/gig-roles/{role}").status_code == 204
        elif action == "invite" and open_roles:
            body = {"gig_role_id": draw.choice(open_roles)["id"], "staff_member_id": draw.choice(office.members)}
            admin.post("/gig-role-invitations", json=body)
        elif action == "answer" and pending:
            invitation = draw.choice(pending)["id"]
            admin.post(f"/gig-role-invitations/{invitation}/{draw.choice(('accept', 'decline', 'withdraw'))}")
        elif action == "expire" and pending:
            past = timestamp(dt.datetime.now(dt.UTC) - dt.timedelta(seconds=1))
            GigRoleInvitation.update(expires_at=past).where(
                GigRoleInvitation.id == draw.choice(pending)["id"]
            ).execute()
            assert worker.expire_invitations() == 1
        if step % 10 == 9:
            assert office.counts() == office.recount(), f"after step {step} ({action})"
    counts = office.counts()
    assert counts == office.recount()
    assert sum(c[0] for c in counts.values()) > 5 and sum(c[2] for c in counts.values()) > 0  # the walk did write


def test_the_counts_filter_and_sort_gigs(office, admin):
    first, second, _ = office.gigs
    for gig, roles in ((first, 1), (second, 3)):
        for _ in range(roles):
            admin.post("/gig-roles", json={"gig_id": gig, "role_id": office.singer["id"]})
    admin.patch(
        f"/gig-roles/{admin.get(f'/gig-roles?filter[gig_id]={first}').get_json()['data'][0]['id']}",
        json={"staff_member_id": office.members[0]},
    )
    ids = lambda query: [g["id"] for g in admin.get(f"/gigs?{query}").get_json()["data"]]
    assert ids("filter[open_role_count][gt]=0") == [second]
    assert ids("filter[role_count][gte]=1&sort=-role_count") == [second, first]
    assert ids("sort=role_count,gig_date")[-1] == second
    assert ids("filter[pending_invitation_count]=0&fields=id") == office.gigs


def test_the_worker_wakes_when_the_first_pending_invitation_expires(app, office, admin):
    role = admin.post("/gig-roles", json={"gig_id": office.gigs[0], "role_id": office.singer["id"]}).get_json()
    soon = timestamp(dt.datetime.now(dt.UTC) + dt.timedelta(seconds=3))
    body = {"gig_role_id": role["data"]["id"], "staff_member_id": office.members[0], "expires_at": soon}
    assert admin.post("/gig-role-invitations", json=body).status_code == 201
    assert 0 < worker.Worker(app).pause(15) <= 3.1
    GigRoleInvitation.update(status="declined").execute()
    assert worker.Worker(app).pause(15) == 15


def test_a_gig_saved_after_its_roles_changed_keeps_the_counts_the_database_kept(office, admin):
    """A gig loaded before a role was added (by a script, or a later rule of the API) writes no stale count back."""
    gig = Gig.get_by_id(office.gigs[0])
    admin.post("/gig-roles", json={"gig_id": gig.id, "role_id": office.singer["id"]})
    gig.title = "Renamed"
    gig.save()
    assert admin.get(f"/gigs/{gig.id}").get_json()["data"]["role_count"] == 1


# --- an invitation past its expiry is not pending, whether or not the worker has run (SPEC §11) --------------


def overdue(invitation_id):
    """Put an invitation's expiry a second into the past, as time would; the worker has not run since."""
    past = timestamp(dt.datetime.now(dt.UTC) - dt.timedelta(seconds=1))
    GigRoleInvitation.update(expires_at=past).where(GigRoleInvitation.id == invitation_id).execute()


@pytest.fixture
def invited(office, admin):
    """Gig 0: two pending invitations, one of them overdue; gig 1: one, overdue; gig 2: none."""
    roles = [
        admin.post("/gig-roles", json={"gig_id": gig, "role_id": office.singer["id"]}).get_json()["data"]["id"]
        for gig in office.gigs[:2]
    ]
    asked = [(roles[0], office.members[0]), (roles[0], office.members[1]), (roles[1], office.members[2])]
    ids = [
        admin.post("/gig-role-invitations", json={"gig_role_id": role, "staff_member_id": member}).get_json()["data"][
            "id"
        ]
        for role, member in asked
    ]
    overdue(ids[1])
    overdue(ids[2])
    return {"roles": roles, "invitations": ids}


def pending_counts(admin, query=""):
    rows = admin.get(f"/gigs?fields=pending_invitation_count{query}").get_json()["data"]
    return [(row["id"], row["pending_invitation_count"]) for row in rows]


def test_an_overdue_invitation_is_not_counted_pending_before_the_worker_runs(office, admin, invited):
    gig, other, empty = office.gigs
    before = GigRoleInvitation.select().where(GigRoleInvitation.status == "pending").count()
    for read in range(2):  # before the worker's round, and after it
        assert pending_counts(admin) == [(gig, 1), (other, 0), (empty, 0)], f"read {read}"
        assert admin.get(f"/gigs/{other}").get_json()["data"]["pending_invitation_count"] == 0
        assert [g for g, _ in pending_counts(admin, "&filter[pending_invitation_count][gt]=0")] == [gig]
        assert [g for g, _ in pending_counts(admin, "&filter[pending_invitation_count]=0")] == [other, empty]
        assert pending_counts(admin, "&sort=-pending_invitation_count,gig_date")[0] == (gig, 1)
        # a gig embedded in another record, and followed through a reference
        roles = admin.get("/gig-roles?expand=gig&sort=gig.gig_date").get_json()["data"]
        assert [r["gig"]["pending_invitation_count"] for r in roles] == [1, 0]
        role = admin.get(f"/gig-roles/{invited['roles'][1]}?expand=gig").get_json()["data"]
        assert role["gig"]["pending_invitation_count"] == 0
        through = admin.get("/gig-roles?filter[gig.pending_invitation_count][gte]=1").get_json()["data"]
        assert [r["id"] for r in through] == invited["roles"][:1]
        # the invitations read alike: pending is the one that has not expired
        listed = admin.get("/gig-role-invitations?filter[status]=pending").get_json()["data"]
        assert [i["id"] for i in listed] == invited["invitations"][:1]
        assert admin.get(f"/gig-role-invitations/{invited['invitations'][2]}").get_json()["data"]["status"] == "expired"
        if read == 0:
            # reading wrote nothing: the worker still finds both to mark
            after = GigRoleInvitation.select().where(GigRoleInvitation.status == "pending").count()
            assert before == after == 3 and worker.expire_invitations() == 2


def test_reads_cost_the_same_queries_while_an_invitation_is_overdue(office, admin, invited, monkeypatch):
    executed = count_queries(monkeypatch)
    counts = []
    for query in ("/gigs?limit=1", "/gigs?limit=200&sort=pending_invitation_count", "/gig-roles?expand=gig"):
        executed.clear()
        assert admin.get(query).status_code == 200
        counts.append(len(executed))
    assert max(counts) <= 3, counts


def test_with_no_worker_the_demos_counts_agree_with_its_invitations(tmp_path):
    """The demo, served with BAND_WORKER=off after some of its invitations stored as pending have expired: nothing
    marks them so, and each gig counts those that still read pending."""
    shutil.copy(PROJECT / "band.db.example", tmp_path / "band.db")
    with contextlib.closing(sqlite3.connect(tmp_path / "band.db")) as db, db:  # one more, should none have yet
        one = "SELECT id FROM gig_role_invitations WHERE status = 'pending' LIMIT 1"
        expired = db.execute(
            f"UPDATE gig_role_invitations SET expires_at = '2026-01-01T00:00:00.000000Z' WHERE id = ({one})"
        )
        assert expired.rowcount == 1
    with served_offices(tmp_path, BAND_WORKER="off") as start:
        office = start()
        gigs = office.call("GET", "/gigs?limit=200&fields=pending_invitation_count")
        roles = [r for offset in (0, 200, 400) for r in office.call("GET", f"/gig-roles?limit=200&offset={offset}")]
        pending = office.call("GET", "/gig-role-invitations?limit=200&filter[status]=pending&fields=gig_role_id")
    assert len(roles) < 600 and len(gigs) < 200
    gig_of = {role["id"]: role["gig_id"] for role in roles}
    expected = collections.Counter(gig_of[invitation["gig_role_id"]] for invitation in pending)
    assert {gig["id"]: gig["pending_invitation_count"] for gig in gigs} == {g["id"]: expected[g["id"]] for g in gigs}
