"""SPEC §4.4: equipment issues: who reported them, when, and who may."""

import datetime as dt

import pytest

from tests.support.api import error_of, moment
from tests.support.users import make_token, make_user


def utc_now():
    return dt.datetime.now(dt.UTC)


def test_an_issue_records_who_reported_it(anon, build):
    user = make_user(roles=["crew"])
    crew = anon.with_token(make_token(user))
    equipment = build.id("equipment")
    r = crew.post("/equipment-issues", json={"equipment_id": equipment, "title": "Hum on channel 2"})
    assert r.status_code == 201
    issue = r.get_json()["data"]
    moment(issue["created_at"]), moment(issue["updated_at"])
    assert issue == {
        "id": issue["id"],
        "equipment_id": equipment,
        "title": "Hum on channel 2",
        "description": None,
        "severity": "medium",
        "status": "open",
        "reported_by_user_id": str(user.id),
        "resolved_at": None,
        "created_at": issue["created_at"],
        "updated_at": issue["updated_at"],
    }
    # someone else's change leaves the reporter as it was
    other = anon.with_token(make_token(make_user(roles=["crew"])))
    r = other.patch(f"/equipment-issues/{issue['id']}", json={"severity": "high"})
    assert r.get_json()["data"]["reported_by_user_id"] == str(user.id)


def test_reported_by_user_id_is_read_only(admin, build):
    someone = str(make_user(roles=["crew"]).id)
    body = build.body("equipment-issues", reported_by_user_id=someone)
    r = admin.post("/equipment-issues", json=body)
    assert "reported_by_user_id" in error_of(r, 422, "validation_failed")["details"]
    issue = build("equipment-issues")
    r = admin.patch(f"/equipment-issues/{issue['id']}", json={"reported_by_user_id": someone})
    assert "reported_by_user_id" in error_of(r, 422, "validation_failed")["details"]
    assert admin.get(f"/equipment-issues/{issue['id']}").get_json()["data"] == issue


@pytest.mark.parametrize("change", [{"severity": "urgent"}, {"status": "closed"}, {"severity": None}])
def test_issue_severity_and_status_are_enums(admin, build, change):
    issue = build("equipment-issues")
    r = admin.patch(f"/equipment-issues/{issue['id']}", json=change)
    assert set(error_of(r, 422, "validation_failed")["details"]) == set(change)


def test_resolved_at_follows_the_status(admin, build):
    issue = build("equipment-issues", severity="low")
    assert (issue["severity"], issue["status"], issue["resolved_at"]) == ("low", "open", None)
    path = f"/equipment-issues/{issue['id']}"
    before = utc_now() - dt.timedelta(seconds=1)
    resolved = admin.patch(path, json={"status": "resolved"}).get_json()["data"]
    assert resolved["status"] == "resolved"
    assert before <= moment(resolved["resolved_at"]) <= utc_now() + dt.timedelta(seconds=1)
    # other changes while resolved keep the moment it was resolved
    again = admin.patch(path, json={"description": "Replaced the cable", "status": "resolved"}).get_json()["data"]
    assert again["resolved_at"] == resolved["resolved_at"]
    reopened = admin.patch(path, json={"status": "open"}).get_json()["data"]
    assert (reopened["status"], reopened["resolved_at"]) == ("open", None)
    assert admin.get(path).get_json()["data"]["resolved_at"] is None
    assert admin.patch(path, json={"status": "resolved"}).get_json()["data"]["resolved_at"] is not None


def test_an_issue_created_resolved_has_resolved_at(admin, build):
    before = utc_now() - dt.timedelta(seconds=1)
    issue = build("equipment-issues", status="resolved")
    assert before <= moment(issue["resolved_at"]) <= utc_now() + dt.timedelta(seconds=1)


def test_resolved_at_is_read_only(admin, build):
    stamp = "2027-01-01T10:00:00Z"
    r = admin.post("/equipment-issues", json=build.body("equipment-issues", resolved_at=stamp))
    assert "resolved_at" in error_of(r, 422, "validation_failed")["details"]
    issue = build("equipment-issues", status="resolved")
    for change in ({"resolved_at": stamp}, {"resolved_at": None}, {"status": "resolved", "resolved_at": stamp}):
        r = admin.patch(f"/equipment-issues/{issue['id']}", json=change)
        assert "resolved_at" in error_of(r, 422, "validation_failed")["details"]
    assert admin.get(f"/equipment-issues/{issue['id']}").get_json()["data"] == issue
