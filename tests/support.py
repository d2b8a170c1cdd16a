"""Test helpers: an API client over Flask's test client, users and tokens made directly in the database,
builders of valid records for every collection, and the check of the error envelope."""

import itertools
import uuid

from auth import digest, expiry, new_secret
from models import Token, User


class Api:
    """A test client speaking the API's JSON, with a bearer token when it has one."""

    def __init__(self, client, token=None):
        self.client, self.token = client, token

    def with_token(self, token):
        return Api(self.client, token)

    def request(self, method, path, json=None, headers=None, **kwargs):
        headers = dict(headers or {})
        if self.token:
            headers.setdefault("Authorization", f"Bearer {self.token}")
        url = path if path.startswith("/v1") or path.startswith("/signin") else "/v1" + path
        if json is not None:
            kwargs["json"] = json
        return self.client.open(url, method=method, headers=headers, **kwargs)

    def get(self, path, **kwargs):
        return self.request("GET", path, **kwargs)

    def post(self, path, json=None, **kwargs):
        return self.request("POST", path, json=json, **kwargs)

    def patch(self, path, json=None, **kwargs):
        return self.request("PATCH", path, json=json, **kwargs)

    def delete(self, path, **kwargs):
        return self.request("DELETE", path, **kwargs)

    def create(self, collection, body):
        """POST that must succeed: the new record."""
        response = self.post(f"/{collection}", body)
        assert response.status_code == 201, response.get_json()
        return response.get_json()["data"]


def make_user(email=None, roles=("admin",), active=True, name="Test User"):
    return User.create(email=email or f"u-{uuid.uuid4().hex[:8]}@example.com", name=name, roles=list(roles),
                       active=active)  # fmt: skip


def make_token(user, kind="session", days=30, label=None):
    value = new_secret("bos_" if kind == "session" else "bok_")
    Token.create(user=user.id, kind=kind, token_hash=digest(value), prefix=value[:12], label=label,
                 expires_at=expiry(days=days))  # fmt: skip
    return value


def error_of(response, status, code):
    """The error envelope of `response`, after checking its status, code and shape."""
    body = response.get_json()
    assert response.status_code == status, body
    assert set(body) == {"error"}, body
    error = body["error"]
    assert error["code"] == code and error["status"] == status, body
    assert isinstance(error["message"], str) and error["message"]
    assert set(error) <= {"code", "message", "status", "details"}
    return error


_counter = itertools.count(1)


def unique(prefix="x"):
    return f"{prefix} {next(_counter)}-{uuid.uuid4().hex[:6]}"


# A minimal valid body for each collection; parents are created on the way.
RECIPES = {
    "teams": lambda b: {"name": unique("Team")},
    "gig-types": lambda b: {"name": unique("Gig type")},
    "gig-statuses": lambda b: {"name": unique("Status"), "kind": "confirmed"},
    "venues": lambda b: {"name": unique("Venue")},
    "gigs": lambda b: {"gig_date": "2027-06-12", "title": unique("Gig")},
    "users": lambda b: {"email": f"{uuid.uuid4().hex[:10]}@example.com", "name": unique("User")},
    "access-roles": lambda b: {"name": f"role-{uuid.uuid4().hex[:8]}", "grants": ["gigs.view"]},
}


# A valid change of each collection's records, for the round trip.
PATCHES = {
    "teams": {"description": "Horns and rhythm"},
    "gig-types": {"description": "Saturday weddings"},
    "gig-statuses": {"color": "#112233", "position": 3},
    "venues": {"city": "Vienna", "country": "AT", "timezone": "Europe/Vienna"},
    "gigs": {"title": "Changed", "guest_count": 99, "start_time": "23:30", "end_time": "01:30"},
    "users": {"name": "Renamed", "roles": ["viewer"]},
    "access-roles": {"description": "Changed", "grants": ["gigs.*"]},
}


class Builder:
    """build(collection, **fields) creates a valid record through the API and returns it."""

    def __init__(self, api):
        self.api = api

    def body(self, collection, **fields):
        return {**RECIPES[collection](self), **fields}

    def __call__(self, collection, **fields):
        return self.api.create(collection, self.body(collection, **fields))

    def id(self, collection, **fields):
        return self(collection, **fields)["id"]
