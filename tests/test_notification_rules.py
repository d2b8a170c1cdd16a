"""SPEC §9, who is told what, when: the rows of `Notification` each rule makes (in the event's own transaction),
the invitation's hold, the gathering of a gig's changes, the reminders made once, and the digest made only when
something happened. The timed rules are called as the worker calls them, at the moments a test names."""

import collections
import contextlib
import datetime as dt
import re
import sqlite3
import zoneinfo

import pytest

import notifications
import signing
import worker
import writer
from models import GigRoleInvitation, Notification, NotificationSetting, Setting, timestamp
from notifications import run_timed
from notifications import sender as notification_sender
from notifications.words import day
from routes.staffing import INVITATIONS
from tests.support.api import error_of
from tests.support.mail import mails
from tests.support.records import SCHLOSS_HOF
from tests.support.served import ServedOffice, Service
from tests.support.users import make_token, make_user
from tests.support.waiting import wait_for


def in_days(days):
    return (dt.date.today() + dt.timedelta(days=days)).isoformat()


def from_now(**delta):
    return timestamp(dt.datetime.now(dt.UTC) + dt.timedelta(**delta))


class Office:
    """A gig at Schloss Hof with a bass role (its own call time and pay) and a drums role; Kim and Sam play
    bass and drums and sign in; Alex plays bass and has no user (told by mail only)."""

    def __init__(self, app, admin, build, gig_date=None):
        self.app, self.admin, self.build = app, admin, build
        self.confirmed = build("gig-statuses", name="Confirmed", kind="confirmed", is_default=True)
        self.cancelled = build("gig-statuses", name="Called off", kind="cancelled")
        self.venue = build("venues", **SCHLOSS_HOF)
        self.other_venue = build("venues", name="Stadtsaal")
        self.product = build("products", name="Wedding party")
        self.bass, self.drums = build("roles", name="Bass"), build("roles", name="Drums")
        self.gig = build(
            "gigs",
            gig_date=gig_date or in_days(40),
            title="Müller wedding",
            venue_id=self.venue["id"],
            start_time="18:00",
            end_time="23:00",
        )
        gig_product = build("gig-products", gig_id=self.gig["id"], product_id=self.product["id"])
        self.bass_role = build(
            "gig-roles",
            gig_id=self.gig["id"],
            role_id=self.bass["id"],
            gig_product_id=gig_product["id"],
            call_time="17:00",
            pay_cents=35000,
        )
        self.drums_role = build("gig-roles", gig_id=self.gig["id"], role_id=self.drums["id"])
        self.kim_user, self.sam_user = make_user(name="Kim Low", roles=()), make_user(name="Sam Adams", roles=())
        self.kim = self.member("Kim", "Low", self.bass, self.kim_user)
        self.sam = self.member("Sam", "Adams", self.drums, self.sam_user)
        self.alex = self.member("Alex", "Brown", self.bass, None, email="alex@example.com")

    def member(self, first, last, role, user, email=None):
        body = {"first_name": first, "last_name": last, "email": email, "user_id": user.id if user else None}
        member = self.admin.create("staff-members", body)
        self.build("staff-member-roles", staff_member_id=member["id"], role_id=role["id"])
        return member

    def invite(self, member, **fields):
        body = {"gig_role_id": self.bass_role["id"], "staff_member_id": member["id"], **fields}
        return self.admin.create("gig-role-invitations", body)

    def put(self, gig_role, member):
        body = {"staff_member_id": member["id"] if member else None}
        response = self.admin.patch(f"/gig-roles/{gig_role['id']}", body)
        assert response.status_code == 200, response.get_json()

    def change_gig(self, **fields):
        response = self.admin.patch(f"/gigs/{self.gig['id']}", fields)
        assert response.status_code == 200, response.get_json()

    def post(self, path):
        response = self.admin.post(path)
        assert response.status_code == 200, response.get_json()


@pytest.fixture
def office(app, admin, build):
    return Office(app, admin, build)


def rows(kind=None, member_id=None):
    query = Notification.select().order_by(Notification.created_at, Notification.id)
    query = query.where(Notification.type == kind) if kind else query
    return list(query.where(Notification.staff_member == member_id) if member_id else query)


def kinds_and_members():
    return sorted((row.type, row.staff_member_id) for row in rows())


def assert_private(row, *secrets):
    """The title and summary (a lock screen) carry none of the amounts and addresses of the body."""
    for secret in secrets:
        assert secret in row.body
        assert secret not in row.title and secret not in row.summary, (secret, row.title, row.summary)


def make_due(*notifications):
    """Time passes: what was held is due (in-app: told)."""
    ids = [notification.id for notification in notifications]
    Notification.update(due_at=from_now(seconds=-1)).where(Notification.id.in_(ids)).execute()


def make_sent(*notifications):
    """Time passes and the sender mails them: their members were told."""
    make_due(*notifications)
    ids = [notification.id for notification in notifications]
    Notification.update(email_state="sent").where(Notification.id.in_(ids)).execute()


def send_what_is_due(app):
    """The worker's sender, in the process, until nothing is left to send: mail goes to the app's mail folder."""
    sender = notification_sender.Sender(app).start()
    pending = (Notification.email_state == "pending") | (Notification.push_state == "pending")
    try:
        wait_for(lambda: not Notification.select().where(pending & (Notification.due_at <= from_now())).exists())
    finally:
        sender.stop()


# --- invitation ----------------------------------------------------------------------------------------------


def test_an_invitation_is_held_and_tells_the_gig_the_pay_and_the_answer_link(app, office):
    expires = dt.datetime.combine(dt.date.today() + dt.timedelta(days=30), dt.time(13, 3), dt.UTC)
    in_vienna = expires.astimezone(zoneinfo.ZoneInfo("Europe/Vienna"))  # the venue's time zone
    answer_by = f"Please answer by {day(in_vienna.date().isoformat())}, {in_vienna:%H:%M} {in_vienna.tzname()}"
    before = from_now(seconds=60)
    invitation = office.invite(office.kim, message="Can you play?\nTwo sets.", expires_at=expires.isoformat())
    after = from_now(seconds=60)
    [row] = rows()
    assert row.type == "invitation" and row.topic == f"invitation:{invitation['id']}"
    assert row.recipient_user_id == office.kim_user.id and row.staff_member_id == office.kim["id"]
    assert before <= row.due_at <= after and row.email_next_at == row.push_next_at == row.due_at
    assert (row.email_state, row.push_state, row.read_at, row.email_to) == ("pending", "pending", None, None)
    assert row.data == {
        "gig_id": office.gig["id"],
        "gig_role_id": office.bass_role["id"],
        "invitation_id": invitation["id"],
    }
    assert row.title == f"Invitation: Bass at Müller wedding, {day(office.gig['gig_date'])}"
    for fact in (
        "Hello Kim,",
        f"{day(office.gig['gig_date'])}, 18:00–23:00",
        "Call time:",
        "17:00",
        "Schloss Hof, Schlosshof 1, 2294 Marchegg, AT",
        "Wedding party",
        "350.00 EUR",
        "  Can you play?\n  Two sets.",
        answer_by,
    ):
        assert fact in row.body, fact
    link = row.body.split("Accept or decline here:\n  ")[1].split()[0]
    assert link.startswith(f"{app.config['PUBLIC_URL']}/answer#token=")
    assert signing.answered_invitation(app.config, link.split("#token=")[1]) == invitation["id"]
    assert_private(row, "350", "Schlosshof 1", "2294", "#token=")
    assert answer_by in row.summary


def test_a_held_invitation_changed_says_the_new_message_and_expiry_and_stays_held(office):
    invitation = office.invite(office.kim, message="Can you play?")
    [held] = rows()
    expires = (dt.datetime.now(dt.UTC) + dt.timedelta(days=20)).replace(hour=12, minute=0)
    changed = {"message": "Can you play two sets?", "expires_at": expires.isoformat()}
    assert office.admin.patch(f"/gig-role-invitations/{invitation['id']}", changed).status_code == 200
    [row] = rows()
    assert row.id == held.id and row.due_at == held.due_at and row.title == held.title
    assert "Can you play two sets?" in row.body and "Can you play?" not in row.body
    assert f"Please answer by {day(expires.date().isoformat())}" in row.summary
    make_due(row)
    assert office.admin.patch(f"/gig-role-invitations/{invitation['id']}", {"message": "Later"}).status_code == 200
    assert "Later" not in Notification.get_by_id(row.id).body  # told already: it stays as it was


def test_a_member_without_a_user_is_told_by_mail_only(office):
    office.invite(office.alex)
    [row] = rows()
    assert row.recipient_user_id is None and row.staff_member_id == office.alex["id"]
    assert (row.email_state, row.push_state, row.push_next_at) == ("pending", "skipped", None)
    assert row.body.startswith("Hello Alex,")


def test_an_invitation_made_while_another_is_held_for_the_member_goes_with_it(office, build):
    first = office.invite(office.kim)
    other_gig = build("gigs", gig_date=in_days(41), title="Second wedding")
    second_role = build("gig-roles", gig_id=other_gig["id"], role_id=office.bass["id"])
    second = office.admin.create(
        "gig-role-invitations", {"gig_role_id": second_role["id"], "staff_member_id": office.kim["id"]}
    )
    held = {row.data["invitation_id"]: row.due_at for row in rows("invitation")}
    assert set(held) == {first["id"], second["id"]} and held[first["id"]] == held[second["id"]]
    office.invite(office.alex)  # another member's is held on its own
    assert len({row.due_at for row in rows("invitation")}) == 2


@pytest.mark.parametrize("answer", ["accept", "decline", "withdraw"])
def test_an_invitation_answered_or_withdrawn_while_held_is_never_sent(office, answer):
    kim, alex = office.invite(office.kim), office.invite(office.alex)
    assert len(rows("invitation")) == 2
    office.post(f"/gig-role-invitations/{kim['id']}/{answer}")
    if answer == "accept":  # Alex's invitation is withdrawn by Kim's accept: held, so never sent either
        assert GigRoleInvitation.get_by_id(alex["id"]).status == "withdrawn"
        assert rows() == []
    else:
        assert [row.staff_member_id for row in rows()] == [office.alex["id"]]


def test_a_member_told_of_an_invitation_hears_of_its_withdrawal_and_why(office):
    kim, alex = office.invite(office.kim), office.invite(office.alex)
    make_sent(*rows("invitation"))
    office.post(f"/gig-role-invitations/{kim['id']}/accept")
    [withdrawn] = rows("invitation_withdrawn")
    assert withdrawn.staff_member_id == office.alex["id"] and withdrawn.recipient_user_id is None
    assert withdrawn.data == {
        "gig_id": office.gig["id"],
        "gig_role_id": office.bass_role["id"],
        "invitation_id": alex["id"],
    }
    assert withdrawn.title == f"Withdrawn: Bass at Müller wedding, {day(office.gig['gig_date'])}"
    assert "is withdrawn: the role has been filled." in withdrawn.body
    assert withdrawn.due_at <= from_now() and len(rows()) == 3  # nothing for Kim, who accepted


def test_withdrawing_by_hand_or_by_cancelling_the_gig_tells_the_invitees_told_and_a_decline_tells_nobody(office):
    kim, alex = office.invite(office.kim), office.invite(office.alex)
    make_sent(*rows("invitation"))
    office.post(f"/gig-role-invitations/{kim['id']}/decline")
    assert rows("invitation_withdrawn") == []
    office.change_gig(gig_status_id=office.cancelled["id"])
    [withdrawn] = rows("invitation_withdrawn")
    assert withdrawn.staff_member_id == office.alex["id"] and "the gig is cancelled" in withdrawn.summary
    office.change_gig(gig_status_id=office.confirmed["id"])
    again = office.invite(office.alex)
    make_sent(*rows("invitation"))
    office.post(f"/gig-role-invitations/{again['id']}/withdraw")
    assert [row.data["invitation_id"] for row in rows("invitation_withdrawn")] == [alex["id"], again["id"]]
    assert "withdrawn." in rows("invitation_withdrawn")[1].summary
    unheard = GigRoleInvitation.create(  # made before anyone was told of invitations: no message of it
        gig_role=office.drums_role["id"], staff_member=office.sam["id"], expires_at=from_now(hours=2)
    )
    office.post(f"/gig-role-invitations/{unheard.id}/withdraw")
    assert len(rows("invitation_withdrawn")) == 2


def test_an_invitation_withdrawn_before_its_mail_went_out_never_goes_and_only_those_told_hear_of_it(app, office):
    """The mail server was down when the invitations fell due: withdrawn, they never go out. Kim, who could read
    hers in the app, hears of the withdrawal; Alex, told by mail only, was never told and hears nothing."""
    kim, alex = office.invite(office.kim), office.invite(office.alex)
    make_due(*rows("invitation"))
    for invitation in (kim, alex):
        office.post(f"/gig-role-invitations/{invitation['id']}/withdraw")
    send_what_is_due(app)
    [withdrawn] = mails(app)
    assert withdrawn["To"] == office.kim_user.email and withdrawn["Subject"].startswith("Withdrawn: Bass at")
    for row in rows("invitation"):
        assert (row.email_state, row.email_error) == ("skipped", "Withdrawn before it went out.")
    assert {row.push_state for row in rows("invitation")} == {"skipped"}


def test_a_reminder_not_sent_when_its_invitation_is_answered_never_goes(app, office):
    now = dt.datetime.now(dt.UTC)
    invitation = office.invite(office.alex, expires_at=(now + dt.timedelta(hours=3)).isoformat())
    make_sent(*rows("invitation"))
    run_timed(config(app, INVITATION_REMINDER_HOURS=1), now + dt.timedelta(hours=2.1))
    office.post(f"/gig-role-invitations/{invitation['id']}/decline")
    [reminder] = rows("invitation_reminder")
    assert (reminder.email_state, reminder.email_error) == ("skipped", "Withdrawn before it went out.")


@pytest.mark.parametrize("way", ["answer link", "own accept", "office's decline"])
def test_answering_an_invitation_by_any_way_marks_its_notifications_read(app, office, anon, way):
    now = dt.datetime.now(dt.UTC)
    answered = office.invite(office.kim, expires_at=(now + dt.timedelta(hours=3)).isoformat())
    other_role = office.build("gig-roles", gig_id=office.gig["id"], role_id=office.bass["id"])
    other = office.invite(office.kim, gig_role_id=other_role["id"])
    make_due(*rows("invitation"))
    run_timed(config(app, INVITATION_REMINDER_HOURS=1), now + dt.timedelta(hours=2.1))
    kim = anon.with_token(make_token(office.kim_user))
    unread = kim.get("/me/notifications?filter[read]=false").get_json()["data"]
    assert sorted((n["type"], n["data"]["invitation_id"]) for n in unread) == sorted(
        [("invitation", answered["id"]), ("invitation_reminder", answered["id"]), ("invitation", other["id"])]
    )
    if way == "answer link":
        token = signing.answer_link(app.config, answered["id"]).split("#token=", 1)[1]
        response = anon.post("/invitations/answer", {"token": token, "answer": "accept"})
    elif way == "own accept":
        response = kim.post(f"/gig-role-invitations/{answered['id']}/accept")
    else:
        response = office.admin.post(f"/gig-role-invitations/{answered['id']}/decline")
    assert response.status_code == 200, response.get_json()
    unread = kim.get("/me/notifications?filter[read]=false").get_json()["data"]
    assert [(n["type"], n["data"]["invitation_id"]) for n in unread] == [("invitation", other["id"])]
    read = kim.get("/me/notifications?filter[read]=true").get_json()["data"]
    assert {n["data"]["invitation_id"] for n in read} == {answered["id"]} and len(read) == 2


def test_a_deleted_invitation_is_never_sent(office):
    held, due = office.invite(office.kim), office.invite(office.alex)
    make_due(*rows("invitation", office.alex["id"]))
    for invitation in (held, due):
        assert office.admin.delete(f"/gig-role-invitations/{invitation['id']}").status_code == 204
    [row] = rows()
    assert row.staff_member_id == office.alex["id"] and row.email_state == "skipped"


def test_listening_again_tells_nobody_twice(office):
    notifications.register()  # the app factory has done so already
    office.invite(office.kim)
    assert len(rows()) == 1


def test_a_refused_write_tells_nobody(app, office):
    GigRoleInvitation.create(
        gig_role=office.bass_role["id"], staff_member=office.kim["id"], expires_at=from_now(hours=2)
    )
    error_of(
        office.admin.post(
            "/gig-role-invitations", {"gig_role_id": office.bass_role["id"], "staff_member_id": office.kim["id"]}
        ),
        409,
        "already_exists",
    )
    error_of(office.admin.patch(f"/gigs/{office.gig['id']}", {"gig_date": "soon"}), 422, "validation_failed")
    with app.test_request_context(), pytest.raises(RuntimeError), writer.transaction():
        invitation = GigRoleInvitation.create(
            gig_role=office.bass_role["id"], staff_member=office.alex["id"], expires_at=from_now(hours=2)
        )
        INVITATIONS.record_event("created", invitation)
        assert len(rows("invitation")) == 1  # written in the event's transaction...
        raise RuntimeError("the write fails after its event")
    assert rows() == []  # ...and undone with it
    office.invite(office.alex)
    assert app.config["SECRET_KEY"] == Setting.get_by_id("secret_key").value  # links are signed with the key kept


# --- gig_changed and role_removed -------------------------------------------------------------------------------


def test_changes_of_a_gig_make_one_message_per_member_old_to_new(office):
    office.put(office.bass_role, office.kim)
    office.put(office.drums_role, office.sam)
    office.change_gig(title="The Müller wedding", guest_count=120)  # nothing its people need to hear of
    assert rows() == []
    old_day, new_day = day(office.gig["gig_date"]), day(in_days(41))
    office.change_gig(start_time="19:00")
    office.change_gig(venue_id=office.other_venue["id"])
    office.change_gig(gig_date=in_days(41))
    changed = rows("gig_changed")
    assert sorted(row.staff_member_id for row in changed) == sorted([office.kim["id"], office.sam["id"]])
    kim = next(row for row in changed if row.staff_member_id == office.kim["id"])
    assert kim.title == f"Changed: The Müller wedding, {new_day}" and kim.recipient_user_id == office.kim_user.id
    assert kim.topic == f"gig_changed:{office.gig['id']}:{office.kim['id']}" and kim.data["gig_id"] == office.gig["id"]
    assert "Müller wedding, where you are down as Bass, has changed:" in kim.body
    for label, said in (
        ("Date", f"{old_day} → {new_day}"),
        ("Starts", "18:00 → 19:00"),
        ("Venue", "Schloss Hof → Stadtsaal"),
    ):
        assert re.search(rf"\n  {label}: +{said}\n", kim.body) and f"{label}: {said}" in kim.summary, label
    assert from_now(minutes=9.9) < kim.due_at <= from_now(minutes=10)
    office.change_gig(start_time="18:00")  # back as it was: no change to tell
    kim = Notification.get_by_id(kim.id)
    assert "Starts" not in kim.body and "Venue: Schloss Hof → Stadtsaal" in kim.body and len(rows()) == 2
    office.change_gig(gig_date=office.gig["gig_date"], venue_id=office.venue["id"])
    assert rows() == []  # all of it undone before anyone was told


def test_a_cancelled_gig_says_so_and_a_change_after_the_quiet_time_is_a_new_message(office):
    office.put(office.bass_role, office.kim)
    office.change_gig(gig_status_id=office.cancelled["id"])
    [first] = rows("gig_changed")
    assert (
        first.title.startswith("Cancelled: Müller wedding")
        and "where you are down as Bass, is cancelled:" in first.body
    )
    assert "Status: Confirmed → Called off" in first.summary
    make_due(first)
    office.change_gig(gig_status_id=office.confirmed["id"])
    [_, second] = rows("gig_changed")
    assert second.title.startswith("Back on: Müller wedding") and "Status: Called off → Confirmed" in second.body
    office.change_gig(gig_status_id=office.cancelled["id"])  # called off again before anyone heard it was back
    assert rows() == [first]


def test_a_past_gig_corrected_for_the_books_tells_nobody(app, admin, build):
    office = Office(app, admin, build, gig_date=in_days(-3))
    office.put(office.bass_role, office.kim)
    office.change_gig(start_time="19:00")
    office.put(office.bass_role, None)
    assert rows() == []


def test_a_member_taken_off_a_role_is_told_and_no_longer_hears_of_its_gig(office):
    office.put(office.bass_role, office.kim)
    office.put(office.drums_role, office.sam)
    office.change_gig(start_time="19:00")
    assert len(rows("gig_changed")) == 2
    office.admin.patch(f"/gig-roles/{office.bass_role['id']}", {"call_time": "16:00", "notes": "Early"})
    assert len(rows()) == 2
    office.put(office.bass_role, office.alex)
    [removed] = rows("role_removed")
    assert removed.staff_member_id == office.kim["id"] and removed.recipient_user_id == office.kim_user.id
    assert removed.title == f"Taken off: Bass at Müller wedding, {day(office.gig['gig_date'])}"
    assert removed.data == {"gig_id": office.gig["id"], "gig_role_id": office.bass_role["id"], "invitation_id": None}
    assert kinds_and_members() == [("gig_changed", office.sam["id"]), ("role_removed", office.kim["id"])]
    assert office.admin.delete(f"/gig-roles/{office.drums_role['id']}").status_code == 204
    assert kinds_and_members() == sorted([("role_removed", office.kim["id"]), ("role_removed", office.sam["id"])])


def test_a_member_put_back_while_the_news_is_held_hears_nothing(office):
    office.put(office.bass_role, office.kim)
    before = from_now(seconds=60)
    office.put(office.bass_role, None)
    [removed] = rows("role_removed")
    assert before <= removed.due_at <= from_now(seconds=60)
    office.put(office.bass_role, office.kim)
    assert rows() == []
    office.put(office.bass_role, None)
    make_due(*rows())
    office.put(office.bass_role, office.kim)  # told already: it stays told
    assert kinds_and_members() == [("role_removed", office.kim["id"])]


# --- the timed rules --------------------------------------------------------------------------------------------


def config(app, **overrides):
    return {**app.config, **overrides}


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


@contextlib.contextmanager
def running(*services):
    for service in services:
        service.start()
    try:
        yield services
    finally:
        for service in services:
            service.stop()


def stored(path, sql):
    with sqlite3.connect(path) as connection:
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
        invitations = []
        for number in range(7):
            member = office.call("POST", "/staff-members", {"first_name": f"M{number}", "last_name": "Player"})
            office.call("POST", "/staff-member-roles", {"staff_member_id": member["id"], "role_id": bass["id"]})
            role = {"gig_id": gig["id"], "role_id": bass["id"], "staff_member_id": member["id"] if number < 3 else None}
            role = office.call("POST", "/gig-roles", role)
            if number >= 3:
                body = {"gig_role_id": role["id"], "staff_member_id": member["id"], "expires_at": from_now(seconds=6)}
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
