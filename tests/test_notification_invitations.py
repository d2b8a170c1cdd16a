"""SPEC §9, who is told of an invitation, and when: the `Notification` rows an invitation makes (in the event's own
transaction), held for a while and gone with another held for the same member; never sent once answered,
withdrawn or deleted meanwhile; its withdrawal told only to those told of it; read once answered, any way."""

import datetime as dt
import zoneinfo

import pytest

from delivery import notifications
from delivery.notifications import run_timed
from domain import signed_links
from models import GigRoleInvitation, Notification, Setting
from routes.staffing import INVITATIONS
from storage import writer
from tests.support.api import error_of
from tests.support.mail import mails
from tests.support.notified import (
    assert_private,
    config,
    day,
    from_now,
    in_days,
    make_due,
    make_sent,
    office_fixture,
    rows,
    send_what_is_due,
)
from tests.support.users import make_token

office = office_fixture()


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
    assert signed_links.answered_invitation(app.config, link.split("#token=")[1]) == invitation["id"]
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
        token = signed_links.answer_link(app.config, answered["id"]).split("#token=", 1)[1]
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
