"""SPEC §8: every committed change is an event, written in the change's transaction, read through GET /events
and a gig's history by those who may view its subject's group."""

import hashlib
import json
import re

import pytest

from models import Event, Token
from tests.support.api import error_of
from tests.support.database import count_queries
from tests.support.mail import link_token, mails, request_link


def events(api, query=""):
    r = api.get(f"/events?limit=200{query}")
    assert r.status_code == 200, r.get_json()
    return r.get_json()["data"]


def of_type(api, event_type):
    return events(api, f"&filter[type]={event_type}")


def test_a_create_a_change_and_a_delete_are_three_events(admin):
    me = admin.get("/me").get_json()["data"]
    team = admin.post("/teams", {"name": "Horns"}, headers={"X-Request-Id": "req-create"}).get_json()["data"]
    admin.patch(f"/teams/{team['id']}", {"description": "Trumpets and sax"})
    admin.delete(f"/teams/{team['id']}")
    newest_first = events(admin, "&filter[subject_collection]=teams")
    assert [e["type"] for e in newest_first] == ["team.deleted", "team.updated", "team.created"]
    deleted, updated, created = newest_first
    assert created["data"] == team and created["request_id"] == "req-create"
    assert created["actor"] == {"user_id": me["id"], "name": me["name"], "token_kind": "session"}
    assert created["subject"] == {"collection": "teams", "id": team["id"]} and created["gig_id"] is None
    assert updated["changes"] == {"description": {"from": None, "to": "Trumpets and sax"}}
    assert deleted["data"]["description"] == "Trumpets and sax" and deleted["changes"] is None
    assert created["seq"] < updated["seq"] < deleted["seq"]


def test_a_refused_write_leaves_no_event(admin):
    error_of(admin.post("/teams", {"name": ""}), 422, "validation_failed")
    team = admin.create("teams", {"name": "Once"})
    error_of(admin.post("/teams", {"name": "Once"}), 409, "already_exists")
    admin.patch(f"/teams/{team['id']}", {"name": "Once"})  # no change: no event
    assert [e["type"] for e in events(admin)] == ["team.created"]


def test_a_gigs_history_holds_its_own_changes_and_its_childrens(admin, build):
    gig = build("gigs", title="Anna & Ben")
    other = build("gigs")
    admin.patch(f"/gigs/{gig['id']}", {"gig_date": "2027-06-19"})
    product = build("gig-products", gig_id=gig["id"])
    role = build("gig-roles", gig_id=gig["id"])
    invitation = build("gig-role-invitations", gig_role_id=role["id"])
    assert admin.post(f"/gig-role-invitations/{invitation['id']}/accept").status_code == 200
    history = admin.get(f"/gigs/{gig['id']}/history").get_json()
    types = [e["type"] for e in history["data"]]
    assert types[0] == "gig_role_invitation.accepted" and types[-1] == "gig.created"
    assert {"gig.updated", "gig_product.created", "gig_role.created", "gig_role_invitation.created"} <= set(types)
    assert all(e["gig_id"] == gig["id"] for e in history["data"]) and history["meta"]["total"] == len(types)
    moved = next(e for e in history["data"] if e["type"] == "gig.updated")
    assert moved["changes"] == {"gig_date": {"from": "2027-06-12", "to": "2027-06-19"}}
    assert product["id"] in {e["subject"]["id"] for e in history["data"]}
    assert other["id"] not in {e["subject"]["id"] for e in history["data"]}
    error_of(admin.get("/gigs/00000000-0000-4000-8000-000000000000/history"), 404, "not_found")


def test_events_show_only_to_those_who_may_view_their_subjects_group(admin, signed_in, build):
    build("teams")
    build("users")
    build("gigs")
    catalog = signed_in("crew")  # gigs.view, catalog.view, production.*: no admin, no people
    seen = {e["subject"]["collection"] for e in events(catalog)}
    assert "teams" in seen and "gigs" in seen and "users" not in seen
    assert "users" in {e["subject"]["collection"] for e in events(admin)}


def test_pay_in_events_reads_as_null_without_pay_view(admin, signed_in, role, build):
    gig_role = build("gig-roles")
    admin.patch(f"/gig-roles/{gig_role['id']}", {"pay_cents": 30_000})
    role("planner", "staffing.*", "gigs.view")
    planner = signed_in("planner")
    [changed] = of_type(planner, "gig_role.updated")
    assert changed["data"]["pay_cents"] is None and changed["changes"]["pay_cents"] == {"from": None, "to": None}
    [seen_by_admin] = of_type(admin, "gig_role.updated")
    assert seen_by_admin["changes"]["pay_cents"] == {"from": None, "to": 30_000}


def test_sign_in_keys_and_feeds_are_events_without_a_secret_in_any(app, anon, admin, build):
    user = admin.create("users", {"email": "sam@example.com", "name": "Sam", "roles": ["viewer"]})
    request_link(anon, user["email"])
    link = link_token(mails(app, user["email"])[0])
    session = anon.post("/auth/confirm", {"token": link}).get_json()["data"]["token"]
    key = admin.post("/api-keys", {"label": "booking site"}).get_json()["data"]
    assert admin.delete(f"/api-keys/{key['id']}").status_code == 204
    member = build("staff-members")
    admin.post(f"/staff-members/{member['id']}/calendar-url/rotate")
    admin.post("/calendar-url/rotate")
    assert anon.with_token(session).post("/auth/signout").status_code == 204
    endpoint = admin.post("/webhook-endpoints", {"url": "http://127.0.0.1:9/hook"}).get_json()["data"]
    rotated = admin.post(f"/webhook-endpoints/{endpoint['id']}/rotate-secret").get_json()["data"]
    admin.post(f"/webhook-endpoints/{endpoint['id']}/ping")
    types = [e["type"] for e in events(admin)]
    account = ("user.signed_in", "user.signed_out", "api_key.created", "api_key.revoked", "calendar_url.rotated")
    for expected in (*account, "webhook_endpoint.created", "webhook_endpoint.secret_rotated", "ping"):
        assert expected in types
    [signed_in] = of_type(admin, "user.signed_in")
    assert signed_in["actor"] == {"user_id": user["id"], "name": "Sam", "token_kind": "session"}
    stored = json.dumps([[e.data, e.changes] for e in Event.select()])
    secrets = [link, session, key["key"], *(t.token_hash for t in Token.select())]
    secrets += [endpoint["secret"].removeprefix("whsec_"), rotated["secret"].removeprefix("whsec_")]
    secrets += [hashlib.sha256(s.encode()).hexdigest() for s in (link, session, key["key"])]
    assert not any(secret in stored for secret in secrets)
    assert not re.search(r"bo[slk]_[A-Za-z0-9_-]{12,}", stored)  # a key's 12-character prefix is no secret
    assert not re.search(r"whsec_[A-Za-z0-9+/=]{5,}", stored)  # nor a webhook secret's 10-character prefix


def test_events_take_the_list_conventions(admin, build):
    for _ in range(3):
        build("teams")
    page = admin.get("/events?limit=2&fields=type,subject&filter[type][in]=team.created").get_json()
    assert page["meta"] == {"total": 3, "limit": 2, "offset": 0}
    assert all(set(e) == {"id", "type", "subject"} for e in page["data"])
    oldest_first = admin.get("/events?sort=seq&filter[subject_collection]=teams").get_json()["data"]
    assert [e["seq"] for e in oldest_first] == sorted(e["seq"] for e in oldest_first)
    error_of(admin.get("/events?filter[data][eq]=x"), 400, "invalid_query")
    error_of(admin.get("/events?sort=actor"), 400, "invalid_query")


@pytest.mark.parametrize("limit", [1, 200])
def test_an_events_page_costs_the_same_queries_whatever_its_size(admin, build, monkeypatch, limit):
    for _ in range(5):
        build("teams")
    executed = count_queries(monkeypatch)
    assert admin.get(f"/events?limit={limit}").status_code == 200
    assert len(executed) <= 2, executed


def test_an_upload_is_an_event_of_its_gig_without_the_bytes(admin, build):
    attachment = build("attachments")
    [created] = of_type(admin, "attachment.created")
    assert created["data"] == attachment and created["gig_id"] == attachment["gig_id"]
    assert "PDF" not in json.dumps(created)  # the bytes stay in their own table


def test_invitations_withdrawn_by_another_write_are_events_of_their_gig(admin, build):
    gig = build("gigs")
    roles = [build("gig-roles", gig_id=gig["id"]) for _ in range(2)]
    taken, others = build("gig-role-invitations", gig_role_id=roles[0]["id"]), []
    others.append(build("gig-role-invitations", gig_role_id=roles[0]["id"]))  # withdrawn by the accept
    others.append(build("gig-role-invitations", gig_role_id=roles[1]["id"]))  # by filling the role directly
    assert admin.post(f"/gig-role-invitations/{taken['id']}/accept").status_code == 200
    member = build("staff-members")
    build("staff-member-roles", staff_member_id=member["id"], role_id=roles[1]["role_id"])
    assert admin.patch(f"/gig-roles/{roles[1]['id']}", {"staff_member_id": member["id"]}).status_code == 200
    withdrawn = of_type(admin, "gig_role_invitation.withdrawn")
    assert sorted(e["subject"]["id"] for e in withdrawn) == sorted(i["id"] for i in others)
    for event in withdrawn:
        assert event["gig_id"] == gig["id"] and event["data"]["status"] == "withdrawn" and event["actor"]


def test_cancelling_a_gig_withdraws_its_invitations_as_events(admin, build):
    invitation = build("gig-role-invitations")
    gig_id = admin.get(f"/gig-roles/{invitation['gig_role_id']}").get_json()["data"]["gig_id"]
    cancelled = build("gig-statuses", kind="cancelled")
    assert admin.patch(f"/gigs/{gig_id}", {"gig_status_id": cancelled["id"]}).status_code == 200
    [event] = of_type(admin, "gig_role_invitation.withdrawn")
    assert event["subject"]["id"] == invitation["id"] and event["gig_id"] == gig_id
