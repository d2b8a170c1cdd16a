"""An office whose members are told of a gig (tests/test_notification_*.py): a gig with a bass and a drums role,
three members, and the `Notification` rows the rules make, made due or sent as time would; the settings the timed
rules are called with."""

import datetime as dt

import pytest

from delivery.notifications import sender as notification_sender
from delivery.notifications import words
from domain import office
from models import Notification, timestamp
from tests.support.records import SCHLOSS_HOF
from tests.support.users import make_user
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
        self.confirmed = build.status("Confirmed", "confirmed", is_default=True)
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


def office_fixture():
    """The fixture `office` (an Office on the test's database), for a test module to name at its top:
    `office = office_fixture()`."""

    @pytest.fixture
    def office(app, admin, build):
        return Office(app, admin, build)

    return office


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


def config(app, **overrides):
    """The app's settings with `overrides`, to call the timed rules with."""
    return {**app.config, **overrides}


def day(date_text):
    """A date as the office's messages write it, in its date style now."""
    return words.day(date_text, office.current())
