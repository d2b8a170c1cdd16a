"""SPEC §9, the timed rules, called as the worker calls them at the moments a test names: an invitation reminded
once before it expires, a gig's people reminded the day before, the office digest made only when something
happened; and two servers on one database making each of them once."""

import collections
import datetime as dt
import re

from delivery import worker
from delivery.notifications import run_timed
from models import GigRoleInvitation, Notification, NotificationSetting
from tests.support.database import connected
from tests.support.notified import (
    Office,
    assert_private,
    config,
    day,
    from_now,
    in_days,
    kinds_and_members,
    office_fixture,
    rows,
)
from tests.support.served import ServedOffice, Service, running
from tests.support.users import make_user
from tests.support.waiting import wait_for

office = office_fixture()


def test_a_pending_invitation_is_reminded_once_before_it_expires(app, office):
    now = dt.datetime.now(dt.UTC)
    kim = office.invite(office.kim, expires_at=from_now(hours=3))
    office.invite(office.alex, expires_at=from_now(minutes=50))  # never pending an hour before its expiry
    Notification.delete().execute()
    settings = config(app, INVITATION_REMINDER_HOURS=1)
    run_timed(settings, now + dt.timedelta(hours=1.9))
    assert rows() == []
    run_timed(settings, now + dt.timedelta(hours=2.1))
    [reminder] = rows()
    assert reminder.type == "invitation_reminder" and reminder.staff_member_id == office.kim["id"]
    assert reminder.recipient_user_id == office.kim_user.id and reminder.topic == f"invitation_reminder:{kim['id']}"
    assert reminder.title == f"Please answer: Bass at Müller wedding, {day(office.gig['gig_date'])}"
    assert "You have not answered the invitation to Müller wedding as Bass yet" in reminder.body
    assert "/answer#token=" in reminder.body
    assert_private(reminder, "350", "Schlosshof 1")
    run_timed(settings, now + dt.timedelta(hours=2.5))
    assert len(rows()) == 1


def test_an_answered_invitation_is_not_reminded(app, office):
    now = dt.datetime.now(dt.UTC)
    kim = office.invite(office.kim, expires_at=from_now(hours=3))
    office.post(f"/gig-role-invitations/{kim['id']}/decline")
    run_timed(config(app, INVITATION_REMINDER_HOURS=1), now + dt.timedelta(hours=2.1))
    assert rows("invitation_reminder") == []


def local_moment(date, hour, minute):
    return dt.datetime.combine(dt.date.fromisoformat(date), dt.time(hour, minute)).astimezone()


def test_the_day_before_a_gig_its_people_are_reminded_once(app, admin, build):
    office = Office(app, admin, build)
    eve = (dt.date.fromisoformat(office.gig["gig_date"]) - dt.timedelta(days=1)).isoformat()
    office.put(office.bass_role, office.kim)
    office.put(office.drums_role, office.sam)
    called_off, later = build("gigs", gig_date=office.gig["gig_date"]), build("gigs", gig_date=in_days(42))
    for gig in (called_off, later):
        admin.create(
            "gig-roles", {"gig_id": gig["id"], "role_id": office.bass["id"], "staff_member_id": office.alex["id"]}
        )
    admin.patch(f"/gigs/{called_off['id']}", {"gig_status_id": office.cancelled["id"]})
    Notification.delete().execute()  # Alex heard the gig was called off
    settings = config(app, GIG_REMINDER_TIME="10:00")
    run_timed(settings, local_moment(eve, 9, 59))
    run_timed(settings, local_moment(office.gig["gig_date"], 11, 0))  # the day itself: too late
    assert rows() == []
    run_timed(settings, local_moment(eve, 10, 0))
    assert kinds_and_members() == sorted([("gig_reminder", office.kim["id"]), ("gig_reminder", office.sam["id"])])
    kim = next(row for row in rows() if row.staff_member_id == office.kim["id"])
    sam = next(row for row in rows() if row.staff_member_id == office.sam["id"])
    assert kim.title == f"Tomorrow: Müller wedding, {day(office.gig['gig_date'])}"
    assert kim.summary == "Bass, call time 17:00, Schloss Hof" and sam.summary == "Drums, call time 18:00, Schloss Hof"
    assert "Lineup:\n  Kim Low: Bass\n  Sam Adams: Drums" in kim.body
    assert "Schloss Hof, Schlosshof 1, 2294 Marchegg, AT" in kim.body
    assert kim.data == {"gig_id": office.gig["id"], "gig_role_id": None, "invitation_id": None}
    run_timed(settings, local_moment(eve, 15, 0))
    assert len(rows()) == 2


def test_a_gig_moved_after_its_reminder_is_reminded_the_day_before_its_new_date(app, office):
    office.put(office.bass_role, office.kim)
    settings, first = config(app, GIG_REMINDER_TIME="10:00"), office.gig["gig_date"]
    run_timed(settings, local_moment(first, 10, 0) - dt.timedelta(days=1))
    moved = (dt.date.fromisoformat(first) + dt.timedelta(days=7)).isoformat()
    office.change_gig(gig_date=moved)
    run_timed(settings, local_moment(moved, 10, 0) - dt.timedelta(days=1))
    assert [row.title for row in rows("gig_reminder")] == [
        f"Tomorrow: Müller wedding, {day(d)}" for d in (first, moved)
    ]


def test_the_office_digest_goes_out_only_when_something_happened(app, admin, build, role):
    office = Office(app, admin, build, gig_date=in_days(5))
    start = dt.datetime.now(dt.UTC)
    role("dispatcher", "staffing.edit")
    role("planner", "staffing.view")
    NotificationSetting.create(user=make_user(roles=["dispatcher"]).id, office_digest=False)
    make_user(roles=["admin"], active=False), make_user(roles=["planner"])
    readers = {make_user(roles=["dispatcher"]).id, admin.get("/me").get_json()["data"]["id"]}
    later = build("gigs", gig_date=in_days(20), title="Later gig")
    build("gig-roles", gig_id=later["id"], role_id=office.bass["id"])
    called_off = build("gigs", gig_date=in_days(3), title="Off")
    build("gig-roles", gig_id=called_off["id"], role_id=office.bass["id"])
    admin.patch(f"/gigs/{called_off['id']}", {"gig_status_id": office.cancelled["id"]})
    settings = config(app, DIGEST_MINUTES=15)
    build("staff-member-roles", staff_member_id=office.alex["id"], role_id=office.drums["id"])
    kim, alex = office.invite(office.kim), office.invite(office.alex)
    sam = office.invite(office.sam, gig_role_id=office.drums_role["id"])
    lapsing = office.invite(office.alex, gig_role_id=office.drums_role["id"], expires_at=from_now(seconds=0.5))
    Notification.delete().execute()
    run_timed(settings, start)
    assert rows() == []  # invitations made and withdrawn are no news for the office
    office.post(f"/gig-role-invitations/{kim['id']}/accept")
    office.post(f"/gig-role-invitations/{sam['id']}/decline")
    wait_for(
        lambda: office.admin.get(f"/gig-role-invitations/{lapsing['id']}").get_json()["data"]["status"] == "expired"
    )
    worker.expire_invitations()
    assert GigRoleInvitation.get_by_id(alex["id"]).status == "withdrawn"
    run_timed(settings, start + dt.timedelta(minutes=1))
    digests = rows("office_digest")
    assert {row.recipient_user_id for row in digests} == readers and len(digests) == 2
    digest = digests[0]
    assert (digest.staff_member_id, digest.email_state, digest.push_state) == (None, "pending", "pending")
    assert digest.data == {"gig_id": None, "gig_role_id": None, "invitation_id": None}
    assert digest.title == "Office digest: 1 accepted, 1 declined, 1 expired"
    assert digest.summary == "1 accepted, 1 declined, 1 expired; 1 open role in the next 14 days"
    on = day(office.gig["gig_date"])
    for line in (
        f"  Accepted Kim Low: Bass at Müller wedding, {on}",
        f"  Declined Sam Adams: Drums at Müller wedding, {on}",
        f"  Expired  Alex Brown: Drums at Müller wedding, {on}",
        f"Open roles on gigs of the next 14 days:\n\n  {on}, Müller wedding: Drums (no invitation pending)\n",
    ):
        assert line in digest.body, line
    assert "Later gig" not in digest.body and "Off" not in digest.body and "Alex Brown: Bass" not in digest.body
    run_timed(settings, start + dt.timedelta(minutes=2))
    run_timed(settings, start + dt.timedelta(minutes=20))
    assert len(rows()) == 2  # nothing new
    again = office.invite(office.sam, gig_role_id=office.drums_role["id"])
    office.post(f"/gig-role-invitations/{again['id']}/accept")
    run_timed(settings, start + dt.timedelta(minutes=21))
    newest = rows("office_digest")[2:]
    assert {row.recipient_user_id for row in newest} == readers and len(newest) == 2
    assert newest[0].title == "Office digest: 1 accepted" and "Sam Adams: Drums" in newest[0].body
    assert "No open roles on gigs of the next 14 days." in newest[0].body
    late = build("gig-roles", gig_id=office.gig["id"], role_id=office.bass["id"])
    office.post(f"/gig-role-invitations/{office.invite(office.alex, gig_role_id=late['id'])['id']}/decline")
    run_timed(settings, start + dt.timedelta(minutes=35))  # 14 minutes after the last one: not yet
    assert len(rows("office_digest")) == 4
    run_timed(settings, start + dt.timedelta(minutes=36))
    assert [row.title for row in rows("office_digest")[4:]] == ["Office digest: 1 declined"] * 2


# --- the worker: two servers on one database ---------------------------------------------------------------------


def stored(path, sql):
    with connected(path) as connection:
        return connection.execute(sql).fetchall()


def test_two_servers_on_one_database_make_each_reminder_and_digest_once(tmp_path):
    fast = {
        "BAND_WORKER_INTERVAL": "0.05",
        "BAND_INVITATION_REMINDER_HOURS": "0.001",  # 3.6 s before expiry
        "BAND_DIGEST_MINUTES": "0.01",
        "BAND_GIG_REMINDER_TIME": "00:00",
    }
    office = ServedOffice(tmp_path, **fast)
    (tmp_path / "second").mkdir()
    with running(office.service, Service(tmp_path / "second", **office.service.env)):
        bass = office.call("POST", "/roles", {"name": "Bass"})
        gig = office.call("POST", "/gigs", {"gig_date": in_days(1), "title": "Tomorrow's gig"})
        open_roles = []
        for number in range(7):
            member = office.call("POST", "/staff-members", {"first_name": f"M{number}", "last_name": "Player"})
            office.call("POST", "/staff-member-roles", {"staff_member_id": member["id"], "role_id": bass["id"]})
            role = {"gig_id": gig["id"], "role_id": bass["id"], "staff_member_id": member["id"] if number < 3 else None}
            role = office.call("POST", "/gig-roles", role)
            if number >= 3:
                open_roles.append((role, member))
        invitations = []  # made last, one after the other: they expire within seconds, even on a busy machine
        for role, member in open_roles:
            body = {"gig_role_id": role["id"], "staff_member_id": member["id"], "expires_at": from_now(seconds=8)}
            invitations.append(office.call("POST", "/gig-role-invitations", body))
        office.call("POST", f"/gig-role-invitations/{invitations[0]['id']}/accept")
        wait_for(lambda: digested(office.db)["expired"] == 3, timeout=20, interval=0.1)
    kinds = dict(stored(office.db, "SELECT type, COUNT(*) FROM notifications GROUP BY type"))
    assert (kinds["invitation_reminder"], kinds["gig_reminder"]) == (3, 4)  # the three left pending; all who play
    twice = "SELECT topic, recipient_user_id FROM notifications GROUP BY topic, recipient_user_id HAVING COUNT(*) > 1"
    assert stored(office.db, twice) == []
    assert digested(office.db) == {"accepted": 1, "expired": 3}  # each answer in one digest


def digested(path):
    """How many answers of each kind the digests told of."""
    told = collections.Counter()
    for (title,) in stored(path, "SELECT title FROM notifications WHERE type = 'office_digest'"):
        told.update({what: int(count) for count, what in re.findall(r"(\d+) (accepted|declined|expired)", title)})
    return told
