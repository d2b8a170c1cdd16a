"""SPEC §9, who is told of a change to their gig: one message per member gathering the gig's changes from old to
new while it is held, nothing for a change undone before anyone was told or for a past gig, and a member taken off
a role told so (and no more of its gig)."""

import re

from models import Notification
from tests.support.notified import (
    Office,
    day,
    from_now,
    in_days,
    kinds_and_members,
    make_due,
    office_fixture,
    rows,
)

office = office_fixture()


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
