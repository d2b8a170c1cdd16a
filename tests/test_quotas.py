"""SPEC §2.3: what one user can pile up is bounded: at most 25 live API keys, and at most BAND_MEMBER_WRITE_RATE
writes of a caller without any `.edit` capability (a musician)."""

import datetime as dt

import pytest

from domain.errors import ConfigError
from models import Event, StaffMemberBlockout, Token, timestamp
from service import settings
from tests.support.api import error_of
from tests.support.documented import Documented
from tests.support.users import make_token, make_user

# --- API keys -------------------------------------------------------------------------------------------------


def keys_of(client):
    return client.get("/api-keys?limit=200").get_json()["meta"]["total"]


def test_a_user_holds_at_most_25_live_api_keys(admin, signed_in):
    made = [admin.create("api-keys", {"label": f"key {n}"}) for n in range(25)]
    events = Event.select().count()
    error = error_of(admin.post("/api-keys", json={"label": "one too many"}), 409, "conflict")
    assert error["details"] == {"reason": "quota_exceeded", "limit": 25}
    assert "revoke one" in error["message"]
    assert keys_of(admin) == 25 and Event.select().count() == events  # nothing written, no event
    assert Token.select().where(Token.label == "one too many").count() == 0
    other = signed_in("admin")
    assert other.post("/api-keys", json={"label": "theirs"}).status_code == 201  # a budget per user
    assert admin.delete(f"/api-keys/{made[0]['id']}").status_code == 204
    assert admin.post("/api-keys", json={"label": "after a revoke"}).status_code == 201
    error_of(admin.post("/api-keys", json={"label": "full again"}), 409, "conflict")
    past = timestamp(dt.datetime.now(dt.UTC) - dt.timedelta(seconds=1))
    Token.update(expires_at=past).where(Token.id == made[1]["id"]).execute()
    assert admin.post("/api-keys", json={"label": "after an expiry"}).status_code == 201
    error_of(admin.post("/api-keys", json={"label": ""}), 422, "validation_failed")  # the body first, then 409


# --- a musician's writes --------------------------------------------------------------------------------------


@pytest.fixture
def musician(admin, build, anon):
    """A signed-in user of the `staff` access role (no `.edit` capability) linked to a staff member."""
    user = make_user(roles=["staff"], name="Sam Adams")
    member = build("staff-members", first_name="Sam", last_name="Adams")
    assert admin.patch(f"/staff-members/{member['id']}", json={"user_id": user.id}).status_code == 200
    return anon.with_token(make_token(user))


BLOCKOUT = {"start_date": "2031-05-01", "end_date": "2031-05-02"}


def spend_the_write_rate(client, writes=60):
    """`writes` writes by `client`: blockouts made and deleted, as a phone in a loop would."""
    for _ in range(writes // 2):
        made = client.post("/me/blockouts", BLOCKOUT)
        assert made.status_code == 201, made.get_json()
        assert client.delete(f"/me/blockouts/{made.get_json()['data']['id']}").status_code == 204


def test_a_musician_makes_at_most_60_writes_a_minute(musician, admin, signed_in, role):
    spend_the_write_rate(musician)
    events = Event.select().count()
    r = musician.post("/me/blockouts", BLOCKOUT)
    error_of(r, 429, "rate_limited")
    assert 1 <= int(r.headers["Retry-After"]) <= 60
    assert StaffMemberBlockout.select().count() == 0 and Event.select().count() == events  # nothing written
    error_of(musician.post("/api-keys", json={"label": "x"}), 429, "rate_limited")  # every write counts
    error_of(musician.post("/auth/signout"), 429, "rate_limited")
    error_of(musician.post("/gigs", json={"title": "x"}), 429, "rate_limited")  # refused ones too
    assert musician.get("/me/blockouts").status_code == 200  # reads do not count
    assert musician.get("/api-keys").status_code == 200
    assert admin.post("/api-keys", json={"label": "office"}).status_code == 201
    role("roadie", "catalog.view", "production.edit")
    crew = signed_in("roadie")  # any `.edit` capability is enough to write on
    assert all(crew.post("/api-keys", json={"label": f"k{n}"}).status_code in (201, 409) for n in range(70))


def test_the_rate_is_checked_before_the_write_reads_its_body(musician):
    spend_the_write_rate(musician)
    for body in (b"{not json", b"x" * (2 << 20)):  # neither 400 nor 413
        r = musician.post("/me/blockouts", data=body, content_type="application/json")
        error_of(r, 429, "rate_limited")


def test_the_rate_counts_per_user_whatever_token_they_use(musician, signed_in):
    key = musician.create("api-keys", {"label": "phone"})["key"]
    spend_the_write_rate(musician.with_token(key), writes=58)
    assert musician.post("/me/blockouts", BLOCKOUT).status_code == 201  # the 60th
    error_of(musician.with_token(key).post("/me/blockouts", BLOCKOUT), 429, "rate_limited")
    error_of(musician.post("/me/blockouts", BLOCKOUT), 429, "rate_limited")
    another = signed_in("staff")
    assert another.post("/api-keys", json={"label": "theirs"}).status_code == 201


def test_the_rate_is_a_setting():
    assert settings.load({"MEMBER_WRITE_RATE": "5/second"}, environ={})["MEMBER_WRITES"] == (5, 1)
    assert settings.load({}, environ={})["MEMBER_WRITES"] == (60, 60)
    with pytest.raises(ConfigError, match="BAND_MEMBER_WRITE_RATE"):
        settings.load({"MEMBER_WRITE_RATE": "lots"}, environ={})


def test_the_document_names_both_limits(anon):
    documented = Documented(anon.get("/openapi.json").get_json())
    writes = [
        (path, method, op)
        for path, operations in documented.document["paths"].items()
        for method, op in operations.items()
        if method in ("post", "put", "patch", "delete") and op.get("security") != []
    ]
    unlimited = [(path, method) for path, method, op in writes if 429 not in documented.error_statuses(op)]
    assert len(writes) > 100 and not unlimited, unlimited
    create_key = documented.document["paths"]["/api-keys"]["post"]
    assert 409 in documented.error_statuses(create_key)
    assert "`.edit`" in documented.resolved(create_key["responses"]["default"])["description"]
