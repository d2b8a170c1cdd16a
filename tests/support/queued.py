"""People with devices in a served office, and notifications queued as the rules queue them, straight into its
database: what the tests of the notification channels start from, and how they read each channel's state."""

import datetime as dt
import json
import uuid
from dataclasses import dataclass

from models import timestamp
from tests.support.database import connected
from tests.support.waiting import wait_for


@dataclass
class Person:
    address: str | None  # the user's address, or the member's own
    user_id: str | None
    member_id: str | None
    key: str | None = None  # an API key of the user, to register devices with


def person(office, user=True, address="", key=False, prefix="u"):
    """A staff member, linked to a new user (whose address it is) unless `user` is false; `address` None: a
    member without an address."""
    address = f"{prefix}-{uuid.uuid4().hex[:8]}@example.com" if address == "" else address
    member = {"first_name": "Sam", "last_name": f"Player {uuid.uuid4().hex[:6]}"}
    user_id = api_key = None
    if user:
        user_id = office.call("POST", "/users", {"email": address, "name": "Sam Player", "roles": []})["id"]
        member["user_id"] = user_id
        if key:
            api_key = office.service.run("create-api-key", address, "--label", "phone").stdout.strip()
    elif address:
        member["email"] = address
    member_id = office.call("POST", "/staff-members", member)["id"]
    return Person(address, user_id, member_id, api_key)


def register_device(office, someone, token, platform="unifiedpush"):
    body = {"token": token, "platform": platform, "environment": "production", "app_version": "1.0"}
    return call_as(office, someone.key, "POST", "/devices", body)


def devices_of(office, someone):
    return [device["token"] for device in call_as(office, someone.key, "GET", "/devices")]


def call_as(office, key, method, path, body=None):
    headers = {"Authorization": f"Bearer {key}", "Content-Type": "application/json"}
    status, _, answer = office.service.request(method, path, json.dumps(body).encode() if body else None, headers)
    assert status < 300, answer
    return json.loads(answer)["data"]


def mail_off(office, someone, push=True):
    """The user's settings: mail off, push as given."""
    with connected(office.db) as connection:
        settings = (someone.user_id, False, push, True)
        connection.execute("INSERT INTO notification_settings VALUES (?, ?, ?, ?)", settings)


def later(seconds):
    return timestamp(dt.datetime.now(dt.UTC) + dt.timedelta(seconds=seconds))


def queue(office, someone, type="gig_changed", due_in=0.0, **fields):
    """Queue a notification for `someone` as the rules do, straight into the served database: its id."""
    row = {
        "id": str(uuid.uuid4()),
        "created_at": later(0),
        "updated_at": later(0),
        "type": type,
        "recipient_user_id": someone.user_id,
        "staff_member_id": someone.member_id,
        "title": f"Wedding at Schloss Hof: {type}",
        "body": f"The whole message of {type}.\nSaturday 12 June 2027, 18:00, Schloss Hof, Hauptstraße 1.",
        "summary": f"Wedding at Schloss Hof on 12 June ({type})",
        "data": json.dumps({"gig_id": str(uuid.uuid4())}),
        "due_at": later(due_in),
        "email_state": "pending",
        "email_attempts": 0,
        "push_state": "pending",
        "push_attempts": 0,
        **fields,
    }
    with connected(office.db) as connection:
        connection.execute(
            f"INSERT INTO notifications ({', '.join(row)}) VALUES ({', '.join('?' * len(row))})", tuple(row.values())
        )
    return row["id"]


def stored(office, notification_id):
    """The notification as stored: its state per channel."""
    with connected(office.db, rows=dict) as connection:
        return connection.execute("SELECT * FROM notifications WHERE id = ?", (notification_id,)).fetchone()


def reading(office, notification_id, timeout=10, **expected):
    """Wait until the notification reads as `expected` (email_state="sent", say), and return it."""

    def found():
        row = stored(office, notification_id)
        return expected.items() <= row.items() and row

    return wait_for(found, timeout=timeout)


def log_lines(office, text):
    return [line for line in office.service.output().splitlines() if text in line]
