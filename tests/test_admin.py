"""SPEC §4.6b: users and access roles, and the admin's own capability."""

import pytest

from models import Device, StaffMember, Token, User
from tests.support.api import error_of
from tests.support.users import make_token, make_user


def me_id(client):
    return client.get("/me").get_json()["data"]["id"]


def test_user_email_is_stored_lower_case_and_unique(admin):
    user = admin.create("users", {"email": "New.Person@Example.COM", "name": "New", "roles": ["viewer"]})
    assert user["email"] == "new.person@example.com" and user["active"] is True
    r = admin.post("/users", json={"email": "new.person@example.com", "name": "Again"})
    assert error_of(r, 409, "already_exists")["details"] == {"fields": ["email"]}


def test_user_roles_must_exist(admin):
    r = admin.post("/users", json={"email": "x@example.com", "name": "X", "roles": ["viewer", "boss", "chief"]})
    assert error_of(r, 422, "validation_failed")["details"] == {
        "roles": ["No access role named 'boss'.", "No access role named 'chief'."]
    }


def test_a_new_user_can_sign_in_with_the_roles_given(admin, anon):
    user = admin.create("users", {"email": "crew@example.com", "name": "Crew", "roles": ["crew", "crew"]})
    assert user["roles"] == ["crew"]
    token = make_token(User.get_by_id(user["id"]))
    assert anon.with_token(token).get("/me").get_json()["data"]["can"]["production.edit"] is True


def test_deactivating_a_user_locks_them_out(admin, anon):
    user = make_user(roles=["viewer"])
    token = make_token(user)
    assert admin.patch(f"/users/{user.id}", json={"active": False}).status_code == 200
    error_of(anon.with_token(token).get("/me"), 401, "unauthenticated")


def test_deleting_a_user_deletes_their_tokens_and_devices(admin):
    user = make_user(roles=["viewer"])
    make_token(user)
    Device.create(user=user.id, token="t", platform="ios", environment="sandbox", app_version="1")
    assert admin.delete(f"/users/{user.id}").status_code == 204
    assert Token.select().where(Token.user == user.id).count() == 0
    assert Device.select().count() == 0


def test_a_user_linked_to_a_staff_member_cannot_be_deleted(admin):
    user = make_user(roles=["staff"])
    StaffMember.create(first_name="Sam", last_name="Sax", user=user.id)
    r = admin.delete(f"/users/{user.id}")
    assert error_of(r, 409, "resource_in_use")["details"] == {"referenced_by": {"staff_members": 1}}


@pytest.mark.parametrize("change", [{"roles": ["viewer"]}, {"roles": []}, {"active": False}])
def test_an_admin_cannot_remove_their_own_admin_capability(admin, change):
    r = admin.patch(f"/users/{me_id(admin)}", json=change)
    assert error_of(r, 409, "conflict")["details"]["reason"] == "own_admin_capability"
    assert admin.get("/me").get_json()["data"]["roles"] == ["admin"]


def test_an_admin_may_change_their_own_roles_while_keeping_admin(admin, role, signed_in):
    signed_in("admin")  # another admin: someone keeps every capability
    role("superuser", "admin.*")
    r = admin.patch(f"/users/{me_id(admin)}", json={"roles": ["superuser", "office"], "name": "Me"})
    assert r.status_code == 200 and r.get_json()["data"]["roles"] == ["superuser", "office"]


def test_an_admin_cannot_delete_themself(admin):
    error_of(admin.delete(f"/users/{me_id(admin)}"), 409, "conflict")


def test_access_role_grants_are_validated(admin):
    r = admin.post("/access-roles", json={"name": "bad", "grants": ["gigs.view", "gigs.delete", "everything", "x.*"]})
    assert error_of(r, 422, "validation_failed")["details"] == {
        "grants.1": ["Not a grant: *, <group>.*, <group>.view or <group>.edit."],
        "grants.2": ["Not a grant: *, <group>.*, <group>.view or <group>.edit."],
        "grants.3": ["Not a grant: *, <group>.*, <group>.view or <group>.edit."],
    }


@pytest.mark.parametrize("name", ["Admin", "1st", "has space", "x" * 41, "-dash"])
def test_access_role_names_follow_the_pattern(admin, name):
    assert "name" in error_of(admin.post("/access-roles", json={"name": name}), 422, "validation_failed")["details"]


def test_access_role_names_are_unique(admin):
    assert error_of(admin.post("/access-roles", json={"name": "viewer"}), 409, "already_exists")["details"] == {
        "fields": ["name"]
    }


def test_an_access_role_held_by_a_user_cannot_be_deleted_or_renamed(admin):
    role = admin.create("access-roles", {"name": "band-leader", "grants": ["staffing.*"]})
    holders = [make_user(roles=["band-leader"]).id, make_user(roles=["viewer", "band-leader"]).id]
    error = error_of(admin.delete(f"/access-roles/{role['id']}"), 409, "resource_in_use")
    assert error["details"] == {"referenced_by": {"users": 2}}
    error_of(admin.patch(f"/access-roles/{role['id']}", json={"name": "leader"}), 409, "resource_in_use")
    assert admin.patch(f"/access-roles/{role['id']}", json={"grants": ["staffing.view"]}).status_code == 200
    User.update(roles=["viewer"]).where(User.id.in_(holders)).execute()
    assert admin.patch(f"/access-roles/{role['id']}", json={"name": "leader"}).status_code == 200
    assert admin.delete(f"/access-roles/{role['id']}").status_code == 204


def test_changing_grants_takes_effect_at_once(admin, signed_in):
    viewer = signed_in("viewer")
    assert viewer.get("/gigs").status_code == 200
    role_id = admin.get("/access-roles?filter[name]=viewer").get_json()["data"][0]["id"]
    admin.patch(f"/access-roles/{role_id}", json={"grants": ["catalog.view"]})
    error_of(viewer.get("/gigs"), 403, "forbidden")


def test_an_admin_cannot_strip_admin_from_the_role_they_hold(signed_in, role):
    role("boss", "*")
    boss = signed_in("boss")
    role_id = boss.get("/access-roles?filter[name]=boss").get_json()["data"][0]["id"]
    r = boss.patch(f"/access-roles/{role_id}", json={"grants": ["gigs.*"]})
    assert error_of(r, 409, "conflict")["details"]["reason"] == "own_admin_capability"
    assert boss.get(f"/access-roles/{role_id}").get_json()["data"]["grants"] == ["*"]
