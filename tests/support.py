"""Test helpers: an API client over Flask's test client, users and tokens made directly in the database,
builders of valid records for every collection, the check of the error envelope, the mail a test sent, a
count of the statements run, the shape of a database, polling with a deadline, and the service run as a user
runs it (`python app.py serve` in a process of its own)."""

import contextlib
import email
import email.policy
import io
import itertools
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from pathlib import Path

from auth import digest, expiry, new_secret
from dialects import dialect
from models import Token, User, db

PROJECT = Path(__file__).resolve().parent.parent
OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # 127.0.0.1 whatever the proxy settings


# How long a test waits for what happens "at once" on a machine of 2 cores shared with other test runs: far
# more than it takes there, far less than what it would take otherwise (a worker's interval of minutes).
SLOW_MACHINE_SECONDS = 30


def wait_for(predicate, timeout=10, interval=0.02):
    """Poll `predicate` until it gives something true, and return that; fail once `timeout` seconds passed."""
    deadline = time.monotonic() + timeout
    while not (value := predicate()):
        assert time.monotonic() < deadline, f"not so within {timeout} s"
        time.sleep(interval)
    return value


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
    return User.create(
        email=email or f"u-{uuid.uuid4().hex[:8]}@example.com", name=name, roles=list(roles), active=active
    )


def make_token(user, kind="session", days=30, label=None):
    value = new_secret("bos_" if kind == "session" else "bok_")
    Token.create(
        user=user.id, kind=kind, token_hash=digest(value), prefix=value[:12], label=label, expires_at=expiry(days=days)
    )
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


def _uid():
    return uuid.uuid4().hex[:8]


def _gig_of(b, given, collection):
    """The gig of a given child record (so that same-gig rules hold), else a new gig."""
    if given.get(f"{collection}_id"):
        return b.api.get(f"/{collection.replace('_', '-')}s/{given[collection + '_id']}").get_json()["data"]["gig_id"]
    return given.get("gig_id") or b.id("gigs")


def _gig_role(b, given):
    body = {"gig_id": _gig_of(b, given, "gig_product"), "role_id": given.get("role_id") or b.id("roles")}
    if given.get("staff_member_id"):  # a member put on a role must hold it
        b("staff-member-roles", staff_member_id=given["staff_member_id"], role_id=body["role_id"])
    return body


def _invitation(b, given):
    gig_role_id = given.get("gig_role_id") or b.id("gig-roles")
    role_id = b.api.get(f"/gig-roles/{gig_role_id}").get_json()["data"]["role_id"]
    staff_member_id = given.get("staff_member_id") or b.id("staff-members")
    existing = b.api.get(f"/staff-member-roles?filter[staff_member_id]={staff_member_id}&filter[role_id]={role_id}")
    if not existing.get_json()["data"]:
        b("staff-member-roles", staff_member_id=staff_member_id, role_id=role_id)
    return {"gig_role_id": gig_role_id, "staff_member_id": staff_member_id}


# A venue with a whole address (as messages, feeds and a musician's gigs write it: SCHLOSS_HOF_ADDRESS).
SCHLOSS_HOF = {
    "name": "Schloss Hof",
    "address_line1": "Schlosshof 1",
    "postal_code": "2294",
    "city": "Marchegg",
    "country": "AT",
    "timezone": "Europe/Vienna",
}
SCHLOSS_HOF_ADDRESS = "Schlosshof 1, 2294 Marchegg, AT"

# A minimal valid body for each collection, given the fields a test fixes; parents are created on the way.
RECIPES = {
    "teams": lambda b, g: {"name": unique("Team")},
    "gig-types": lambda b, g: {"name": unique("Gig type")},
    "gig-statuses": lambda b, g: {"name": unique("Status"), "kind": "confirmed"},
    "venues": lambda b, g: {"name": unique("Venue")},
    "gigs": lambda b, g: {"gig_date": "2027-06-12", "title": unique("Gig")},
    "users": lambda b, g: {"email": f"{_uid()}@example.com", "name": unique("User")},
    "access-roles": lambda b, g: {"name": f"role-{_uid()}", "grants": ["gigs.view"]},
    "webhook-endpoints": lambda b, g: {"url": f"http://127.0.0.1:9/{_uid()}", "event_types": ["gig.*"]},
    "products": lambda b, g: {"name": unique("Product")},
    "ensembles": lambda b, g: {"name": unique("Ensemble")},
    "ensemble-roles": lambda b, g: {"ensemble_id": b.id("ensembles"), "role_id": b.id("roles")},
    "product-ensembles": lambda b, g: {"product_id": b.id("products"), "ensemble_id": b.id("ensembles")},
    "roles": lambda b, g: {"name": unique("Role")},
    "prices": lambda b, g: {"product_id": b.id("products"), "amount_cents": 150000},
    "moments": lambda b, g: {"name": unique("Moment")},
    "songs": lambda b, g: {"title": unique("Song"), "artist": "The Band"},
    "custom-fields": lambda b, g: {
        "resource": "gigs",
        "key": f"k{_uid()}",
        "label": "Dress code",
        "field_type": "text",
    },
    "gig-products": lambda b, g: {"gig_id": b.id("gigs"), "product_id": b.id("products")},
    "gig-moments": lambda b, g: {"gig_id": _gig_of(b, g, "gig_product"), "name": unique("Moment")},
    "gig-songs": lambda b, g: {"gig_id": _gig_of(b, g, "gig_moment"), "title": unique("Song")},
    "gig-contacts": lambda b, g: {"gig_id": b.id("gigs"), "contact_id": b.id("contacts")},
    "attachments": lambda b, g: {"gig_id": b.id("gigs"), "description": "Stage plan"},
    "gig-roles": _gig_role,
    "gig-role-invitations": _invitation,
    "staff-member-roles": lambda b, g: {"staff_member_id": b.id("staff-members"), "role_id": b.id("roles")},
    "staff-member-blockouts": lambda b, g: {
        "staff_member_id": b.id("staff-members"),
        "start_date": "2027-01-01",
        "end_date": "2027-01-02",
    },
    "equipment-types": lambda b, g: {"name": unique("Equipment type")},
    "equipment": lambda b, g: {"equipment_type_id": b.id("equipment-types"), "name": unique("Amp")},
    "product-equipment": lambda b, g: {"product_id": b.id("products"), "equipment_type_id": b.id("equipment-types")},
    "gig-equipment": lambda b, g: {"gig_id": b.id("gigs"), "equipment_id": b.id("equipment")},
    "equipment-issues": lambda b, g: {"equipment_id": b.id("equipment"), "title": unique("Hum")},
    "staff-members": lambda b, g: {"first_name": "Sam", "last_name": unique("Player")},
    "contacts": lambda b, g: {"first_name": unique("Contact")},
    "rates": lambda b, g: {"role_id": b.id("roles"), "amount_cents": 20000},
    "staff-member-product-rates": lambda b, g: {
        "staff_member_id": b.id("staff-members"),
        "product_id": b.id("products"),
        "amount_cents": 25000,
    },
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
    "webhook-endpoints": {"description": "The website", "event_types": ["*"], "include_pay": True},
    "products": {"description": "Two sets", "default_duration_minutes": 90, "active": False},
    "ensembles": {"description": "Five piece", "active": False},
    "ensemble-roles": {"quantity": 2},
    "product-ensembles": {"is_default": True},
    "roles": {"description": "Lead vocals", "position": 1},
    "prices": {"amount_cents": 99000, "valid_from": "2027-01-01", "valid_to": "2027-12-31", "label": "2027"},
    "moments": {"description": "First dance", "position": 2},
    "songs": {"tempo_bpm": 120, "musical_key": "Am", "duration_seconds": 215},
    "custom-fields": {"label": "Attire", "required": True, "position": 4},
    "gig-products": {"start_time": "16:00", "end_time": "18:00", "price_cents": 120000},
    "gig-moments": {"time": "17:30", "notes": "Cue the band"},
    "gig-songs": {"kind": "do_not_play", "artist": "Someone"},
    "gig-contacts": {"relationship": "Bride", "is_primary": True},
    "attachments": {"filename": "plan.pdf", "description": "Stage plan v2"},
    "gig-roles": {"call_time": "15:00", "pay_cents": 30000},
    "gig-role-invitations": {"message": "Can you play?"},
    "staff-member-roles": {"is_primary": True},
    "staff-member-blockouts": {"reason": "Holiday", "end_date": "2027-01-05"},
    "equipment-types": {"description": "Speakers and desks"},
    "equipment": {"serial_number": "SN-0001", "status": "in_repair", "purchased_on": "2024-03-01"},
    "product-equipment": {"quantity": 2},
    "gig-equipment": {"notes": "Bring the spare"},
    "equipment-issues": {"severity": "high", "description": "Crackles"},
    "staff-members": {"phone": "+43 1 234 5678", "email": "sam@example.com"},
    "contacts": {"company": "Wedding Co", "last_name": "Smith"},
    "rates": {"amount_cents": 22000},
    "staff-member-product-rates": {"amount_cents": 26000, "currency": "USD"},
}

# Optional fields that a record still needs unless another field stands in (a moment's name, a song's title).
REQUIRED_UNLESS = {"gig-moments": {"name": "moment_id"}, "gig-songs": {"title": "song_id"}}

# Collections created by a multipart upload rather than a JSON body.
MULTIPART = {"attachments"}


class Builder:
    """build(collection, **fields) creates a valid record through the API and returns it."""

    def __init__(self, api):
        self.api = api

    def body(self, collection, **fields):
        return {**RECIPES[collection](self, fields), **fields}

    def post(self, collection, body):
        """POST a create as the collection takes it (JSON, or a multipart upload)."""
        if collection in MULTIPART:
            form = {k: str(v) for k, v in body.items()}
            form.setdefault("file", (io.BytesIO(b"%PDF-1.4 stage plan"), "plan.pdf", "application/pdf"))
            return self.api.post(f"/{collection}", data=form, content_type="multipart/form-data")
        return self.api.post(f"/{collection}", body)

    def __call__(self, collection, **fields):
        response = self.post(collection, self.body(collection, **fields))
        assert response.status_code == 201, (collection, response.get_json())
        return response.get_json()["data"]

    def id(self, collection, **fields):
        return self(collection, **fields)["id"]


# --- what a test observes -----------------------------------------------------------------------------------


def count_queries(monkeypatch):
    """The statements run from now on, but for the caller's lookup: remembered for a moment, it is no
    endpoint's cost."""
    executed = []
    original = db.execute_sql

    def counting(sql, params=None, *args, **kwargs):
        if sql != dialect.CALLER_SQL:
            executed.append(sql)
        return original(sql, params, *args, **kwargs)

    monkeypatch.setattr(db.obj, "execute_sql", counting)  # the database behind the proxy
    return executed


def structure(connection):
    """Tables, columns, foreign keys and indexes of a database, in comparable form; not the search indexes (which
    no model declares: tests/test_daily_questions.py holds them to the collections' searched fields)."""
    tables = [
        r[0]
        for r in connection.execute("SELECT name FROM sqlite_master WHERE type='table' ORDER BY name")
        if "_search" not in r[0] and not r[0].startswith("sqlite_stat")
    ]
    shape = {}
    for table in tables:
        columns = connection.execute(f'PRAGMA table_info("{table}")').fetchall()
        keys = connection.execute(f'PRAGMA foreign_key_list("{table}")').fetchall()
        indexes = {}
        for _, name, unique, origin, partial in connection.execute(f'PRAGMA index_list("{table}")').fetchall():
            parts = [r[2] for r in connection.execute(f'PRAGMA index_info("{name}")').fetchall()]
            indexes[tuple(parts), unique, partial] = origin
        shape[table] = (
            sorted(columns),
            sorted((k[2], k[3], k[4], k[6]) for k in keys),
            sorted(indexes),
        )
    return shape


def request_link(anon, address):
    """Ask for a sign-in link and wait until the outbox has done what the request set off."""
    r = anon.post("/auth/link", json={"email": address})
    assert r.status_code == 200 and r.get_json() == {"data": {"sent": True}}, r.get_json()
    anon.client.application.extensions["outbox"].join()


def mails(app, address=None):
    """The messages the file mailer wrote, oldest first (after the outbox is done)."""
    app.extensions["outbox"].join()
    directory = Path(app.config["MAIL_URL"].removeprefix("file:"))
    found = [
        email.message_from_bytes(p.read_bytes(), policy=email.policy.default) for p in sorted(directory.glob("*.eml"))
    ]
    return [m for m in found if address is None or m["To"] == address]


def text_of(msg):
    """The plain text of a mail (it has an HTML alternative too)."""
    return msg.get_body(("plain",)).get_content()


def link_token(msg):
    """The sign-in token a mailed link carries."""
    text = text_of(msg)
    return urllib.parse.unquote(re.search(r"token=([A-Za-z0-9_\-]+)", text).group(1))


# --- the service in a process of its own -----------------------------------------------------------------------

SERVING = re.compile(r"serving \S+ on http://\S+:(\d+)/v1 \(public URL (\S+?)[,)]")


class Service:
    """`python app.py serve --port 0` on a database of its own: the server takes a free port, and its start line
    says which (a port picked by the test could be taken by another before the server binds it)."""

    def __init__(self, tmp_path, **env):
        self.port = self.base = self.public_url = None
        self.env = {k: v for k, v in os.environ.items() if not k.startswith("BAND_")}
        self.env.update({"BAND_DB": str(tmp_path / "band.db"), "PYTHONUNBUFFERED": "1", **env})
        self.log_path = tmp_path / "server.log"

    def run(self, *args):
        """Run a command of app.py to its end."""
        return subprocess.run(
            [sys.executable, "app.py", *args], cwd=PROJECT, env=self.env, capture_output=True, text=True, timeout=60
        )

    def start(self, *options):
        self.log = open(self.log_path, "w")  # noqa: SIM115 (closed by stop)
        command = [sys.executable, "app.py", "serve", "--port", "0", "--threads", "4", *options]
        self.proc = subprocess.Popen(command, cwd=PROJECT, env=self.env, stdout=self.log, stderr=subprocess.STDOUT)

        def serving():
            assert self.proc.poll() is None, f"the server stopped:\n{self.output()}"
            return SERVING.search(self.output())

        try:
            match = wait_for(serving, timeout=30)
        except AssertionError as e:
            raise AssertionError(f"{e}\n{self.output()}") from None
        self.port, self.public_url = int(match[1]), match[2]
        self.base = f"http://127.0.0.1:{self.port}/v1"
        return self

    def request(self, method, path, body=None, headers=None):
        """(status, headers, body) of one request to the API."""
        request = urllib.request.Request(self.base + path, data=body, method=method, headers=headers or {})
        try:
            with OPENER.open(request, timeout=10) as r:
                return r.status, dict(r.headers), r.read()
        except urllib.error.HTTPError as e:
            return e.code, dict(e.headers), e.read()

    def connect(self, source="127.0.0.1", timeout=5):
        """A raw socket to the server, from `source` (another address of 127.0.0.0/8 is another client)."""
        s = socket.socket()
        s.settimeout(timeout)
        s.bind((source, 0))
        s.connect(("127.0.0.1", self.port))
        return s

    def output(self):
        if not self.log.closed:
            self.log.flush()
        return self.log_path.read_text()

    def stop(self):
        """SIGTERM, as a service manager stops it: the exit status."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                raise
        self.log.close()
        return self.proc.returncode


FAST = {"BAND_WORKER_INTERVAL": "0.2"}


class ServedOffice:
    """A served office with an admin API key, spoken to as JSON."""

    def __init__(self, tmp_path, **env):
        self.service = Service(tmp_path, **{**FAST, **env})
        self.service.run("create-user", "ops@example.com", "--name", "Ops", "--role", "admin")
        self.key = self.service.run("create-api-key", "ops@example.com", "--label", "tests").stdout.strip()
        self.db = tmp_path / "band.db"

    def start(self):
        self.service.start()
        return self

    def call(self, method, path, body=None):
        headers = {"Authorization": f"Bearer {self.key}", "Content-Type": "application/json"}
        status, _, answer = self.service.request(method, path, json.dumps(body).encode() if body else None, headers)
        assert status < 300, answer
        return json.loads(answer)["data"] if answer else None


@contextlib.contextmanager
def served_offices(tmp_path, **defaults):
    """start(**env) -> a served office of its own with `defaults`, `env` overriding; all stopped at the end."""
    started = []

    def start(**env):
        started.append(ServedOffice(tmp_path, **{**defaults, **env}).start())
        return started[-1]

    try:
        yield start
    finally:
        for office in started:
            office.service.stop()
