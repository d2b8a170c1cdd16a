"""SPEC §12.1, "Add musician": a staff member with their roles and rates in one step, and with "can sign in" a user
of the staff access role linked to them, welcomed by a mail whose link signs them in; "let them sign in" later. An
error leaves nothing of it behind."""

import pytest

from tests.support.api import error_of
from tests.support.mail import link_token, mails, text_of
from tests.support.notified import send_what_is_due
from tests.support.users import make_user


@pytest.fixture
def catalog(build):
    return {"bass": build("roles")["id"], "vocals": build("roles")["id"], "party": build("products")["id"]}


def staff(admin):
    return admin.get("/staff-members?limit=100").get_json()["data"]


def roles_of(admin, member_id):
    found = admin.get(f"/staff-member-roles?filter[staff_member_id]={member_id}").get_json()["data"]
    return {(r["role_id"], r["is_primary"]) for r in found}


def test_a_musician_who_does_not_sign_in_gets_roles_and_rates(admin, catalog, documented):
    body = {
        "first_name": "Mia",
        "last_name": "Berger",
        "phone": "+43 660 1234567",
        "roles": [catalog["vocals"], catalog["bass"]],
        "rates": [{"product_id": catalog["party"], "amount_cents": 45000}],
        "can_sign_in": False,
    }
    r = admin.post("/musicians", json=body)
    assert r.status_code == 201, r.get_json()
    documented.check("POST", "/musicians", r)
    member = r.get_json()["data"]
    assert member == admin.get(f"/staff-members/{member['id']}").get_json()["data"]
    assert [member[key] for key in ("first_name", "last_name", "email", "user_id")] == ["Mia", "Berger", None, None]
    assert roles_of(admin, member["id"]) == {(catalog["vocals"], True), (catalog["bass"], False)}
    [rate] = admin.get(f"/staff-member-product-rates?filter[staff_member_id]={member['id']}").get_json()["data"]
    assert (rate["product_id"], rate["amount_cents"], rate["currency"]) == (catalog["party"], 45000, "EUR")


def test_a_musician_who_signs_in_is_welcomed_by_mail_and_its_link_signs_them_in(app, anon, admin, catalog):
    admin.patch("/office", json={"name": "Die Hochzeitsband"})
    body = {"first_name": "Tom", "last_name": "Huber", "email": "Tom@Example.com", "roles": [catalog["bass"]]}
    r = admin.post("/musicians", json={**body, "can_sign_in": True})
    assert r.status_code == 201, r.get_json()
    member = r.get_json()["data"]
    assert member["email"] == "tom@example.com" and member["user_id"]
    user = admin.get(f"/users/{member['user_id']}").get_json()["data"]
    expected = ["tom@example.com", "Tom Huber", ["staff"], True]
    assert [user[key] for key in ("email", "name", "roles", "active")] == expected
    send_what_is_due(app)
    [mail] = mails(app, "tom@example.com")
    assert mail["Subject"] == "Welcome to Die Hochzeitsband"
    assert "Test User added you to Die Hochzeitsband" in text_of(mail)
    session = anon.post("/auth/confirm", json={"token": link_token(mail)})
    assert session.status_code == 200, session.get_json()
    musician = anon.with_token(session.get_json()["data"]["token"])
    assert musician.get("/me/staff-member").get_json()["data"]["id"] == member["id"]


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"email": None}, "email"),
        ({"email": "not an address"}, "email"),
        ({"first_name": ""}, "first_name"),
        ({"roles": ["00000000-0000-4000-8000-000000000009"]}, "roles.0"),
        ({"rates": [{"product_id": "00000000-0000-4000-8000-000000000009", "amount_cents": 1}]}, "rates.0.product_id"),
        ({"rates": [{"amount_cents": 1}]}, "rates.0.product_id"),
        ({"can_sign_in": "yes"}, "can_sign_in"),
        ({"user_id": "00000000-0000-4000-8000-000000000009"}, "user_id"),
    ],
)
def test_a_bad_musician_is_refused_at_its_field_and_nothing_is_made(app, admin, catalog, change, field):
    body = {"first_name": "Ann", "last_name": "Lee", "email": "ann@example.com", "can_sign_in": True, **change}
    r = admin.post("/musicians", json=body)
    assert field in error_of(r, 422, "validation_failed")["details"]
    assert staff(admin) == []
    assert admin.get("/users?filter[email]=ann@example.com").get_json()["data"] == []


def test_an_address_a_user_has_is_refused_and_nothing_is_made(app, admin, catalog, documented):
    make_user("taken@example.com", roles=("viewer",))
    body = {"first_name": "Ann", "last_name": "Lee", "email": "Taken@example.com", "roles": [catalog["bass"]]}
    r = admin.post("/musicians", json={**body, "can_sign_in": True})
    assert error_of(r, 409, "conflict")["details"]["reason"] == "email_in_use"
    documented.check("POST", "/musicians", r)
    assert staff(admin) == []
    assert admin.get("/staff-member-roles").get_json()["data"] == []
    send_what_is_due(app)
    assert mails(app) == []


def test_an_address_another_member_has_is_refused_and_nothing_is_made(admin, build):
    build("staff-members", email="sam@example.com")
    r = admin.post("/musicians", json={"first_name": "Ann", "last_name": "Lee", "email": "sam@example.com"})
    error_of(r, 409, "already_exists")
    assert len(staff(admin)) == 1


def test_adding_a_musician_needs_people_edit_and_rates_pay_edit(signed_in, role, catalog):
    role("people-only", "people.*", "catalog.view")
    r = signed_in("viewer").post("/musicians", json={"first_name": "Ann", "last_name": "Lee"})
    assert error_of(r, 403, "forbidden")["details"] == {"required": "people.edit"}
    clerk = signed_in("people-only")
    rates = [{"product_id": catalog["party"], "amount_cents": 100}]
    r = clerk.post("/musicians", json={"first_name": "Ann", "last_name": "Lee", "rates": rates})
    assert error_of(r, 403, "forbidden")["details"] == {"required": "pay.edit"}
    assert clerk.post("/musicians", json={"first_name": "Ann", "last_name": "Lee"}).status_code == 201


def test_letting_a_member_sign_in_later(app, anon, admin, build, documented):
    member = build("staff-members", email="Kim@Example.com")
    r = admin.post(f"/staff-members/{member['id']}/sign-in")
    assert r.status_code == 201, r.get_json()
    documented.check("POST", "/staff-members/{id}/sign-in", r)
    linked = r.get_json()["data"]
    assert linked == admin.get(f"/staff-members/{member['id']}").get_json()["data"] and linked["user_id"]
    send_what_is_due(app)
    [mail] = mails(app, "kim@example.com")
    session = anon.post("/auth/confirm", json={"token": link_token(mail)})
    assert session.get_json()["data"]["user"]["id"] == linked["user_id"]
    again = admin.post(f"/staff-members/{member['id']}/sign-in")
    assert error_of(again, 409, "conflict")["details"]["reason"] == "already_signs_in"


def test_a_member_without_an_address_cannot_be_let_sign_in(admin, build):
    member = build("staff-members")
    r = admin.post(f"/staff-members/{member['id']}/sign-in")
    assert list(error_of(r, 422, "validation_failed")["details"]) == ["email"]
    assert admin.get(f"/staff-members/{member['id']}").get_json()["data"]["user_id"] is None
    error_of(admin.post("/staff-members/00000000-0000-4000-8000-000000000009/sign-in"), 404, "not_found")
