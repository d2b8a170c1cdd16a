"""SPEC §9: a user reads their own notifications under /me (those told: a held one is not yet), marks them read,
and chooses their channels; the office (staffing.view) sees what went out to whom, channel by channel, never a
body. Notifications are written here as the rules write them: rows of the notifications table."""

import datetime as dt
import uuid

import pytest

from models import Notification, NotificationSetting, timestamp
from tests.support.api import error_of
from tests.support.database import count_queries
from tests.support.records import unique

IN_APP_KEYS = {"id", "type", "title", "body", "data", "created_at", "read_at"}
ALL_ON = {"email": True, "push": True, "office_digest": True}


def user_id(api):
    return api.get("/me").get_json()["data"]["id"]


def at(minutes):
    """The stored timestamp `minutes` from now (negative: in the past)."""
    return timestamp(dt.datetime.now(dt.UTC) + dt.timedelta(minutes=minutes))


def notify(recipient, *, type="invitation", created=-10, due=-5, **fields):
    """A notification as the rules write one: created `created` minutes from now, told from `due` on."""
    values = {
        "type": type,
        "recipient_user": recipient,
        "title": unique("Invitation"),
        "body": "You are invited to play on 12 June at the Stadthalle for 300.00 EUR.",
        "summary": "You are invited to play on 12 June",
        "data": {"gig_id": str(uuid.uuid4())},
        "created_at": at(created),
        "due_at": at(due),
        "email_state": "pending",
        "push_state": "pending",
        **fields,
    }
    return Notification.create(**values)


def listed(api, query=""):
    r = api.get(f"/me/notifications?limit=200{query}")
    assert r.status_code == 200, r.get_json()
    return r.get_json()["data"]


def sent(api, query=""):
    r = api.get(f"/notifications?limit=200{query}")
    assert r.status_code == 200, r.get_json()
    return r.get_json()["data"]


# --- the caller's own ---------------------------------------------------------------------------------------


def test_a_user_lists_only_their_own_told_notifications_newest_first(signed_in):
    ada, bob = signed_in(), signed_in()
    mine = [notify(user_id(ada), created=-minutes) for minutes in (30, 20, 10)]
    notify(user_id(ada), created=-1, due=1)  # held for another minute: not told yet
    theirs = notify(user_id(bob))
    page = ada.get("/me/notifications").get_json()
    assert [n["id"] for n in page["data"]] == [n.id for n in reversed(mine)]
    assert page["meta"] == {"total": 3, "limit": 50, "offset": 0}
    first = page["data"][0]
    assert set(first) == IN_APP_KEYS
    assert first["body"] == mine[-1].body and first["created_at"] == mine[-1].created_at
    assert first["data"] == {"gig_id": mine[-1].data["gig_id"], "gig_role_id": None, "invitation_id": None}
    assert first["read_at"] is None and first["type"] == "invitation"
    assert [n["id"] for n in listed(bob)] == [theirs.id]


def test_a_held_notification_shows_once_it_is_due(signed_in):
    ada = signed_in()
    held = notify(user_id(ada), due=1)
    assert listed(ada) == []
    Notification.update(due_at=at(-0.01)).where(Notification.id == held.id).execute()
    assert [n["id"] for n in listed(ada)] == [held.id]


def test_own_notifications_filter_on_type_and_read_and_take_the_list_conventions(signed_in):
    ada = signed_in()
    me = user_id(ada)
    read = notify(me, type="invitation_withdrawn", read_at=at(-1), created=-3)
    unread = [notify(me, created=-2), notify(me, type="gig_changed", created=-1)]
    assert [n["id"] for n in listed(ada, "&filter[read]=false")] == [unread[1].id, unread[0].id]
    assert [n["id"] for n in listed(ada, "&filter[read]=true")] == [read.id]
    assert [n["id"] for n in listed(ada, "&filter[type]=invitation_withdrawn")] == [read.id]
    assert [n["id"] for n in listed(ada, "&filter[type][in]=invitation,gig_changed&sort=created_at")] == [
        unread[0].id,
        unread[1].id,
    ]
    assert [n["id"] for n in listed(ada, "&sort=-read,-created_at")] == [read.id, unread[1].id, unread[0].id]
    page = ada.get("/me/notifications?limit=1&fields=title,read").get_json()
    assert page["meta"] == {"total": 3, "limit": 1, "offset": 0}
    assert set(page["data"][0]) == {"id", "title", "read_at"}  # `read` is computed from read_at
    for query in ("filter[read]=yes", "filter[type]=party", "filter[data][eq]=x", "sort=data", "fields=summary"):
        error_of(ada.get(f"/me/notifications?{query}"), 400, "invalid_query")


def test_reading_a_notification_marks_it_once_and_only_the_callers_own(signed_in):
    ada, bob = signed_in(), signed_in()
    mine, held, theirs = notify(user_id(ada)), notify(user_id(ada), due=1), notify(user_id(bob))
    r = ada.post(f"/me/notifications/{mine.id}/read")
    assert r.status_code == 200, r.get_json()
    first = r.get_json()["data"]
    assert set(first) == IN_APP_KEYS and first["id"] == mine.id and first["read_at"]
    again = ada.post(f"/me/notifications/{mine.id}/read").get_json()["data"]
    assert again == first  # idempotent: the first read_at stays
    assert [n["id"] for n in listed(ada, "&filter[read]=true")] == [mine.id]
    for other in (theirs.id, held.id, str(uuid.uuid4()), "not-an-id"):
        error_of(ada.post(f"/me/notifications/{other}/read"), 404, "not_found")
    assert Notification.get_by_id(theirs.id).read_at is None and Notification.get_by_id(held.id).read_at is None


def test_read_all_marks_the_callers_told_unread_ones_and_says_how_many(signed_in):
    ada, bob = signed_in(), signed_in()
    me = user_id(ada)
    unread, already = [notify(me), notify(me)], notify(me, read_at=at(-60))
    held, theirs = notify(me, due=1), notify(user_id(bob))
    r = ada.post("/me/notifications/read-all")
    assert r.status_code == 200 and r.get_json() == {"data": {"marked": 2}}
    assert all(Notification.get_by_id(n.id).read_at for n in unread)
    assert Notification.get_by_id(already.id).read_at == already.read_at
    assert Notification.get_by_id(held.id).read_at is None and Notification.get_by_id(theirs.id).read_at is None
    assert ada.post("/me/notifications/read-all").get_json() == {"data": {"marked": 0}}
    assert listed(ada, "&filter[read]=false") == []
    error_of(ada.post("/me/notifications/read-all?type=invitation"), 400, "invalid_query")


def test_own_notifications_need_a_signed_in_caller_and_no_capability(anon, signed_in):
    error_of(anon.get("/me/notifications"), 401, "unauthenticated")
    error_of(anon.post("/me/notifications/read-all"), 401, "unauthenticated")
    error_of(anon.get("/me/notification-settings"), 401, "unauthenticated")
    nobody = signed_in()  # no access role at all
    assert nobody.get("/me/notifications").status_code == 200
    assert nobody.get("/me/notification-settings").status_code == 200


# --- the caller's channels ----------------------------------------------------------------------------------


def test_settings_are_all_on_until_the_user_switches_one_off(signed_in):
    ada, bob = signed_in(), signed_in()
    assert ada.get("/me/notification-settings").get_json() == {"data": ALL_ON}
    r = ada.patch("/me/notification-settings", {"push": False})
    assert r.status_code == 200 and r.get_json() == {"data": {"email": True, "push": False, "office_digest": True}}
    r = ada.patch("/me/notification-settings", {"office_digest": False})
    assert r.get_json() == {"data": {"email": True, "push": False, "office_digest": False}}
    assert ada.get("/me/notification-settings").get_json() == r.get_json()
    stored = NotificationSetting.get_by_id(user_id(ada))
    assert (stored.email, stored.push, stored.office_digest) == (True, False, False)
    assert bob.get("/me/notification-settings").get_json() == {"data": ALL_ON}
    assert ada.patch("/me/notification-settings", {"push": True}).get_json()["data"]["push"] is True


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"email": "false"}, "email"),
        ({"push": 0}, "push"),
        ({"office_digest": None}, "office_digest"),
        ({"sms": True}, "sms"),
        ([], "_body"),
        (None, "_body"),
    ],
)
def test_settings_take_strict_booleans_and_name_the_bad_field(signed_in, body, field):
    ada = signed_in()
    kwargs = {} if body is None else {"json": body}
    error = error_of(ada.request("PATCH", "/me/notification-settings", **kwargs), 422, "validation_failed")
    assert list(error["details"]) == [field]
    assert ada.get("/me/notification-settings").get_json()["data"] == ALL_ON
    assert NotificationSetting.get_or_none(NotificationSetting.user == user_id(ada)) is None


# --- the office's view --------------------------------------------------------------------------------------


def test_the_office_sees_each_channels_state_and_whom_it_went_to_never_a_body(admin, signed_in, role, build):
    role("clerks", "staffing.view")
    office, ada = signed_in("clerks"), signed_in()
    member = build.id("staff-members")
    mailed = notify(
        user_id(ada),
        staff_member=member,
        email_to="ada.lovelace@example.com",
        email_state="failed",
        email_attempts=3,
        email_error="SMTPRecipientsRefused: ada.lovelace@example.com refused",
        push_state="sent",
        push_attempts=1,
        data={"gig_id": str(uuid.uuid4()), "gig_role_id": str(uuid.uuid4()), "invitation_id": str(uuid.uuid4())},
    )
    held = notify(None, staff_member=member, email_to="sam@example.com", push_state="skipped", due=1, created=-1)
    [newest, shown] = sent(office)
    assert newest["id"] == held.id and newest["recipient_user_id"] is None and newest["due_at"] == held.due_at
    assert set(shown) == {
        "id",
        "type",
        "title",
        "data",
        "recipient_user_id",
        "staff_member_id",
        "created_at",
        "due_at",
        "email",
        "push",
    }
    assert (shown["id"], shown["title"], shown["type"]) == (mailed.id, mailed.title, "invitation")
    assert (shown["recipient_user_id"], shown["staff_member_id"], shown["data"]) == (user_id(ada), member, mailed.data)
    assert shown["email"] == {
        "state": "failed",
        "error": "SMTPRecipientsRefused: a***@example.com refused",
        "attempts": 3,
        "to": "a***@example.com",
    }
    assert shown["push"] == {"state": "sent", "error": None, "attempts": 1}
    by_admin = {n["id"]: n for n in sent(admin)}
    assert by_admin[mailed.id]["email"]["to"] == "ada.lovelace@example.com"
    assert by_admin[mailed.id]["email"]["error"] == mailed.email_error
    for api in (office, admin):
        text = api.get("/notifications").get_data(as_text=True)
        assert mailed.body not in text and "Stadthalle" not in text and '"body"' not in text


def test_the_office_view_needs_staffing_view(signed_in, role):
    role("players", "catalog.view", "gigs.view")
    for api in (signed_in("players"), signed_in()):
        error = error_of(api.get("/notifications"), 403, "forbidden")
        assert error["details"] == {"required": "staffing.view"}


def test_the_office_view_filters_on_recipient_staff_member_type_and_created_at(admin, signed_in, build):
    ada, bob = signed_in(), signed_in()
    sam = build.id("staff-members")
    old = notify(user_id(ada), created=-120)
    withdrawn = notify(user_id(ada), type="invitation_withdrawn", staff_member=sam, created=-60)
    bobs = notify(user_id(bob), created=-30)
    ids = lambda query: [n["id"] for n in sent(admin, query)]
    assert ids(f"&filter[recipient_user_id]={user_id(ada)}") == [withdrawn.id, old.id]
    assert ids(f"&filter[staff_member_id]={sam}") == [withdrawn.id]
    assert ids("&filter[type]=invitation_withdrawn") == [withdrawn.id]
    assert ids(f"&filter[created_at][gte]={at(-90)}") == [bobs.id, withdrawn.id]
    assert ids("&sort=created_at") == [old.id, withdrawn.id, bobs.id]
    page = admin.get("/notifications?limit=1&offset=1&fields=email").get_json()
    assert page["meta"] == {"total": 3, "limit": 1, "offset": 1}
    unsent = {"state": "pending", "error": None, "attempts": 0, "to": None}
    assert page["data"] == [{"id": withdrawn.id, "email": unsent}]
    for query in ("filter[recipient_user_id]=ada", "filter[email][eq]=sent", "sort=push", "fields=body"):
        error_of(admin.get(f"/notifications?{query}"), 400, "invalid_query")


@pytest.mark.parametrize("limit", [1, 200])
def test_a_page_of_notifications_costs_the_same_queries_whatever_its_size(admin, build, monkeypatch, limit):
    me, member = user_id(admin), build.id("staff-members")
    for _ in range(5):
        notify(me, staff_member=member, email_to="ada@example.com")
    for path in ("/me/notifications", "/notifications"):
        executed = count_queries(monkeypatch)
        r = admin.get(f"{path}?limit={limit}")
        assert r.status_code == 200 and r.get_json()["meta"]["total"] == 5
        assert len(executed) <= 2, executed
