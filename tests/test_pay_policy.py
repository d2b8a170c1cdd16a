"""SPEC §4.6, §8, §9, §10: every answer that can carry a pay amount, walked for each kind of reader, shows exactly the
amounts `pay_policy` lets that reader see. The readers: the office with pay.view (the shipped `office` role), the
office without it (a booker), a musician (the shipped `staff` role, linked to Sam), the public answer endpoint (an
answer link), and webhook endpoints with and without `include_pay` (real receivers that check the signatures).
Every amount is written so that it cannot turn up by chance, and looked for as cents and as a message writes it."""

import datetime as dt
import json
import urllib.request

import pytest

from delivery.webhooks import deliveries
from domain import signed_links
from models import Notification
from storage import writer
from tests.support.receiver import Receiver
from tests.support.served import OPENER
from tests.support.users import make_token, make_user

SAMS = 313131313  # the role Sam plays on the wedding
KIMS = 424242424  # the role Kim plays on the wedding
OFFERED = 717171717  # an open role at the party that a pending invitation offers Sam
RATE = 646464646  # the drums' default rate (a record of the pay group)
TAKEN = 979797979  # a role at the party Sam declined, Kim holds at a pay of her own
DECLINED = 868686868  # a role at the party Sam declined, still open, its pay set since
EVERY = {SAMS, KIMS, OFFERED, RATE, TAKEN, DECLINED}
KIMS_TOTAL = KIMS + TAKEN  # her line of the period's pay sheet
PERIOD = "from=2000-01-01&to=2099-12-31"


def day(offset):
    return (dt.date.today() + dt.timedelta(days=offset)).isoformat()


def amounts_in(answer):
    """The amounts in `answer` (text, or anything JSON), as cents or as a message writes them (`7,171,717.17`)."""
    text = answer if isinstance(answer, str) else json.dumps(answer, ensure_ascii=False)
    return {cents for cents in EVERY | {KIMS_TOTAL} if str(cents) in text or f"{cents / 100:,.2f}" in text}


class Office:
    """The wedding (Sam sings, Kim drums), the party later (the roles above) and, on the wedding's night, a gala
    with an open singer role Sam was invited to before he was booked for the wedding (accepting it clashes). Two
    webhook endpoints, with and without include_pay, see every change."""

    def __init__(self, app, admin, build, anon, role, without_pay, with_pay):
        self.app, self.admin, self.anon = app, admin, anon
        app.config["NOTIFY_DELAY_SECONDS"] = 0  # the invitations' messages are told at once
        for receiver, include_pay in ((without_pay, False), (with_pay, True)):
            body = {"url": receiver.url, "include_pay": include_pay}
            receiver.secrets.append(admin.create("webhook-endpoints", body)["secret"])
        singer, drums = build("roles", name="Lead vocals"), build("roles", name="Drums")
        self.sam = build("staff-members", first_name="Sam", last_name="Player")
        kim = build("staff-members", first_name="Kim", last_name="Player")
        for member, roles in ((self.sam, [singer]), (kim, [singer, drums])):
            for held in roles:
                build("staff-member-roles", staff_member_id=member["id"], role_id=held["id"])
        self.user = make_user(roles=["staff"], email="sam.user@example.com")
        admin.patch(f"/staff-members/{self.sam['id']}", json={"user_id": self.user.id})
        build("rates", role_id=drums["id"], amount_cents=RATE)

        self.wedding = build("gigs", gig_date=day(10), title="Wedding", start_time="18:00", end_time="23:00")
        gala = build("gigs", gig_date=day(10), title="Gala", start_time="19:00", end_time="22:00")
        self.gala_role = build("gig-roles", gig_id=gala["id"], role_id=singer["id"])
        self.clashing = self.invite(self.gala_role)
        self.sams_role = self.role(self.wedding, singer, self.sam, SAMS)
        self.role(self.wedding, drums, kim, KIMS)

        party = build("gigs", gig_date=day(30), title="Party")
        self.offered_role = build("gig-roles", gig_id=party["id"], role_id=singer["id"], pay_cents=OFFERED)
        self.offered = self.invite(self.offered_role)
        self.taken = self.invite(build("gig-roles", gig_id=party["id"], role_id=singer["id"]))
        admin.post(f"/gig-role-invitations/{self.taken['id']}/decline")
        taken = {"staff_member_id": kim["id"], "pay_cents": TAKEN}
        assert admin.patch(f"/gig-roles/{self.taken['gig_role_id']}", json=taken).status_code == 200
        declined = self.invite(build("gig-roles", gig_id=party["id"], role_id=singer["id"]))
        admin.post(f"/gig-role-invitations/{declined['id']}/decline")
        assert admin.patch(f"/gig-roles/{declined['gig_role_id']}", json={"pay_cents": DECLINED}).status_code == 200

    def role(self, gig, role, member, pay_cents):
        body = {"gig_id": gig["id"], "role_id": role["id"], "staff_member_id": member["id"], "pay_cents": pay_cents}
        return self.admin.create("gig-roles", body)

    def invite(self, gig_role):
        body = {"gig_role_id": gig_role["id"], "staff_member_id": self.sam["id"]}
        return self.admin.create("gig-role-invitations", body)

    def answer_link(self, invitation, operation, **body):
        token = signed_links.answer_link(self.app.config, invitation["id"]).split("#token=", 1)[1]
        return self.anon.post(f"/invitations/{operation}", json={"token": token, **body})


@pytest.fixture
def receivers():
    with Receiver() as without_pay, Receiver() as with_pay:
        yield without_pay, with_pay


@pytest.fixture
def office(app, admin, build, anon, role, receivers):
    return Office(app, admin, build, anon, role, *receivers)


@pytest.fixture
def readers(office, anon, role):
    role("booker", "gigs.*", "catalog.*", "staffing.*", "production.*", "people.*")
    return {
        kind: anon.with_token(make_token(make_user(roles=[kind])))
        for kind in ("office", "booker")  # with pay.view, without it
    }


def office_answers(office):
    """(path, the amounts the office with pay.view reads there, whether the office without it is refused: a filter or
    sort on pay, or a record of the pay group)."""
    wedding, sams_role = office.wedding["id"], office.sams_role["id"]
    every_role = {SAMS, KIMS, OFFERED, TAKEN, DECLINED}
    asked = {OFFERED, TAKEN, DECLINED}  # the roles of the invitations but the gala's
    return [
        ("/gig-roles?limit=200", every_role, False),
        (f"/gig-roles/{sams_role}", {SAMS}, False),
        (f"/gig-roles?filter[id]={sams_role}&fields=id,pay_cents", {SAMS}, False),
        ("/gig-role-invitations?expand=gig_role&limit=200", asked, False),
        (f"/gig-role-invitations/{office.offered['id']}?expand=gig_role", {OFFERED}, False),
        ("/gig-roles?filter[pay_cents][gte]=1&sort=-pay_cents&limit=200", every_role, True),
        ("/gig-role-invitations?filter[gig_role.pay_cents][gte]=1&expand=gig_role", asked, True),
        ("/gig-role-invitations?sort=gig_role.pay_cents", set(), True),
        ("/events?limit=200", EVERY, False),
        ("/events?filter[subject_collection]=gig_roles&limit=200", every_role, False),
        (f"/gigs/{wedding}/history?limit=200", {SAMS, KIMS}, False),
        (f"/gig-roles/{office.offered_role['id']}/candidates", {OFFERED}, False),
        (f"/gigs/{wedding}/pay-sheet", {SAMS, KIMS}, True),
        (f"/pay-sheet?{PERIOD}", {SAMS, KIMS_TOTAL}, True),
        ("/rates", {RATE}, True),
        ("/notifications?limit=200", set(), False),
    ]


def test_the_office_reads_pay_with_pay_view_and_never_without(office, readers):
    for path, shown, refused in office_answers(office):
        with_pay = readers["office"].get(path)
        assert with_pay.status_code == 200, (path, with_pay.get_json())
        assert amounts_in(with_pay.get_json()) == shown, path
        without = readers["booker"].get(path)
        assert without.status_code == (403 if refused else 200), (path, without.get_json())
        assert amounts_in(without.get_json()) == set(), path


def test_a_write_answers_with_pay_as_the_callers_own_read_does(office, readers):
    path = f"/gig-roles/{office.sams_role['id']}"
    for reader, shown in ((readers["office"], {SAMS}), (readers["booker"], set())):
        for answer in (reader.patch(path, json={"notes": "Bring the in-ear monitors."}), reader.get(path)):
            assert answer.status_code == 200 and amounts_in(answer.get_json()) == shown


def test_a_conflict_shows_pay_as_the_callers_own_read_does(office, readers):
    sam = {"staff_member_id": office.sam["id"]}
    for reader, shown in ((readers["office"], {SAMS}), (readers["booker"], set())):
        refused = reader.patch(f"/gig-roles/{office.gala_role['id']}", json=sam)
        assert refused.status_code == 409 and refused.get_json()["error"]["details"]["gig_role"]["id"]
        assert amounts_in(refused.get_json()) == shown
    musician = office.anon.with_token(make_token(office.user))
    for refused in (
        musician.post(f"/gig-role-invitations/{office.clashing['id']}/accept"),
        office.answer_link(office.clashing, "answer", answer="accept"),
    ):
        assert refused.status_code == 409 and amounts_in(refused.get_json()) == set()


def test_a_musician_reads_the_pay_of_their_roles_and_of_what_is_offered_them(office):
    musician = office.anon.with_token(make_token(office.user))
    for path, shown in (
        ("/me/gigs?limit=100", {SAMS, OFFERED}),
        ("/me/invitations?limit=100", {OFFERED}),  # not what the roles he declined pay since
        (f"/me/pay-sheet?{PERIOD}", {SAMS}),
        ("/me/notifications?limit=100", {OFFERED}),  # the invitation's message: his pay if he says yes
    ):
        answer = musician.get(path)
        assert answer.status_code == 200, (path, answer.get_json())
        assert amounts_in(answer.get_json()) == shown, path
    for invitation, shown in ((office.offered, {OFFERED}), (office.taken, set())):
        preview = office.answer_link(invitation, "preview")
        assert preview.status_code == 200 and amounts_in(preview.get_json()) == shown


def test_no_title_or_summary_of_a_notification_carries_an_amount(office):
    told = list(Notification.select())
    assert told, "the invitations were told"
    assert all(amounts_in(n.title) == set() and amounts_in(n.summary) == set() for n in told)
    assert set().union(*(amounts_in(n.body) for n in told)) == {OFFERED}


def test_webhooks_carry_pay_only_to_the_endpoints_that_include_it(office, receivers):
    without_pay, with_pay = receivers
    sent = deliver_everything()
    assert sent > 20
    assert len(without_pay.received) + len(with_pay.received) == sent
    for receiver, shown in ((without_pay, set()), (with_pay, EVERY)):
        assert all(received.verified for received in receiver.received)
        assert set().union(*(amounts_in(received.body.decode()) for received in receiver.received)) == shown


def deliver_everything():
    """POST every queued delivery as the worker would (the payload `deliveries.claim` writes, signed): how many."""
    sent = 0
    while True:
        with writer.transaction():
            attempts = deliveries.claim(100, 30, [])
        if not attempts:
            return sent
        for attempt in attempts:
            headers = attempt.headers(dt.datetime.now(dt.UTC))
            request = urllib.request.Request(attempt.url, data=attempt.body.encode(), method="POST", headers=headers)
            with OPENER.open(request, timeout=10) as answer:
                assert answer.status == 200
            sent += 1
