"""Concurrent clients against the real server (waitress, 8 threads, one SQLite connection each)."""

import pytest

from tests.support.live import Live, at_once
from tests.support.records import Builder, unique


@pytest.fixture
def live(app, admin):
    server = Live(app, admin.token)
    yield server
    server.close()


def test_simultaneous_accepts_have_exactly_one_winner(live, admin, build):
    role = build("roles", name="Singer")
    gig_role = build("gig-roles", role_id=role["id"])
    invitations = []
    for i in range(8):
        member = build("staff-members", first_name="Singer", last_name=f"No {i}")
        build("staff-member-roles", staff_member_id=member["id"], role_id=role["id"])
        invitations.append(build("gig-role-invitations", gig_role_id=gig_role["id"], staff_member_id=member["id"]))
    calls = [lambda i=i: live.call("POST", f"/gig-role-invitations/{i['id']}/accept") for i in invitations]
    results = at_once(calls, workers=8)
    statuses = sorted(status for status, _ in results)
    assert statuses == [200] + [409] * 7, results
    assert {body["error"]["details"]["reason"] for status, body in results if status == 409} == {"gig_role_filled"}
    winner = next(body["data"] for status, body in results if status == 200)
    filled = admin.get(f"/gig-roles/{gig_role['id']}").get_json()["data"]
    assert filled["staff_member_id"] == winner["staff_member_id"] and filled["status"] == "filled"
    listed = admin.get(f"/gig-role-invitations?filter[gig_role_id]={gig_role['id']}&limit=200").get_json()["data"]
    assert sorted(i["status"] for i in listed) == ["accepted"] + ["withdrawn"] * 7


def test_sixteen_threads_create_four_hundred_records(live, admin):
    names = [unique("Team") for _ in range(400)]
    results = at_once([lambda n=n: live.call("POST", "/teams", {"name": n}) for n in names])
    assert [status for status, _ in results] == [201] * 400, [r for r in results if r[0] != 201][:3]
    stored = admin.get("/teams?limit=200&fields=name").get_json()
    assert stored["meta"]["total"] == 400
    assert {t["name"] for t in stored["data"]} <= set(names)


def test_mixed_reads_and_writes_only_succeed(live, admin):
    builder = Builder(admin)
    gigs = [builder("gigs") for _ in range(5)]
    calls = []
    for i in range(240):
        gig = gigs[i % 5]
        calls += [
            lambda: live.call("GET", "/gigs?limit=50&sort=-gig_date"),
            lambda g=gig: live.call("GET", f"/gigs/{g['id']}"),
            lambda g=gig, i=i: live.call("PATCH", f"/gigs/{g['id']}", {"guest_count": i}),
            lambda i=i: live.call("POST", "/venues", {"name": f"Venue {i}"}),
        ][i % 4 : i % 4 + 1]
    results = at_once(calls)
    failures = [r for r in results if not 200 <= r[0] < 300]
    assert failures == []
    assert admin.get("/venues").get_json()["meta"]["total"] == 60


def test_two_admins_demoting_each_other_at_once_leave_one_admin(live, signed_in):
    """Each trial: two admins (besides the fixture's) PATCH each other's roles to viewer at the same moment."""
    for _ in range(10):
        first, second = signed_in("admin"), signed_in("admin")
        ids = [client.get("/me").get_json()["data"]["id"] for client in (first, second)]
        calls = [demote(live_as(live, first), ids[1]), demote(live_as(live, second), ids[0])]
        statuses = sorted(status for status, _ in at_once(calls))
        assert statuses == [200, 403], statuses
        roles = [live.call("GET", f"/users/{user_id}")[1]["data"]["roles"] for user_id in ids]
        assert sorted(roles) == [["admin"], ["viewer"]]


def demote(server, user_id):
    return lambda: server.call("PATCH", f"/users/{user_id}", {"roles": ["viewer"]})


def live_as(live, client):
    """The live server, called with `client`'s token."""
    other = object.__new__(Live)
    other.base, other.token = live.base, client.token
    return other
