"""SPEC §2.3, push endpoints cannot be turned against the office: an endpoint a user registers must name a public
address in whatever spelling (422 at `token`), unless BAND_PUSH_PRIVATE_HOSTS names its host; each push checks it
again and sends nothing to a host that resolves to the office's own network; one user's hanging devices delay
nobody else's push; and no endpoint's URL (a credential) reaches the log. The receivers are real servers on
127.0.0.1, pushed to by `app.py serve`."""

import json
import time
import uuid

import pytest

from app import configure
from tests.support.api import error_of
from tests.support.database import connected
from tests.support.gateways import gateway_fixtures
from tests.support.push_servers import Answer, SilentServer, UnifiedPushServer, free_port
from tests.support.queued import call_as, devices_of, later, mail_off, person, queue, reading, register_device, stored
from tests.support.receiver import Receiver
from tests.support.served import Service, served_offices
from tests.support.waiting import wait_for

NOT_PUBLIC = "The push endpoint's host is not a public address (a host of the office's own network)."
DEVICE = {"platform": "unifiedpush", "environment": "production", "app_version": "1.0"}
KEYS = {"p256dh": "B" + "A" * 86, "auth": "c2l4dGVlbiBieXRlIGtleQ"}  # a P-256 point and 16 bytes, in base64url


def web(endpoint):
    return {**DEVICE, "platform": "web", "token": json.dumps({"endpoint": endpoint, "keys": KEYS})}


LOOPBACK_SPELLINGS = [
    "http://127.0.0.1:18399/x",
    "http://localhost:18399/x",
    "http://LocalHost.:18399/x",
    "http://push.localhost/x",
    "http://2130706433:18399/x",
    "http://0x7f000001:18399/x",
    "http://127.000.000.001:18399/x",
    "http://[::ffff:7f00:1]:18399/x",
    "http://[::1]/x",
    "http://[::7f00:1]/x",
    "http://[64:ff9b::7f00:1]/x",
]
OTHER_PRIVATE = [
    "http://10.1.2.3/x",
    "http://172.16.0.1/x",
    "http://192.168.1.20:8080/up",
    "http://169.254.169.254/latest/meta-data",  # link-local: a cloud's metadata service
    "http://100.64.0.1/x",  # shared address space (carrier-grade NAT)
    "http://0.0.0.0:18399/x",
    "http://224.0.0.1/x",  # multicast
    "http://240.0.0.1/x",  # reserved
    "http://255.255.255.255/x",
    "http://[fe80::1]/x",  # link-local
    "http://[fd00::1]/x",  # unique-local
    "http://[ff02::1]/x",  # multicast
    "http://[2002:c0a8:114::1]/x",  # 6to4 of 192.168.1.20
]


@pytest.mark.parametrize(
    "body",
    [{**DEVICE, "token": url} for url in LOOPBACK_SPELLINGS + OTHER_PRIVATE]
    + [web("https://localhost/push/abc"), web("https://[::ffff:c0a8:114]/push/abc"), web("https://2130706433/p")],
    ids=lambda body: body["token"][:60],
)
def test_a_push_endpoint_on_the_offices_own_network_is_refused_in_any_spelling(admin, body):
    r = admin.post("/devices", json=body)
    assert error_of(r, 422, "validation_failed")["details"] == {"token": [NOT_PUBLIC]}
    assert admin.get("/devices").get_json()["data"] == []


@pytest.mark.parametrize(
    "body",
    [
        {**DEVICE, "token": "https://1.1.1.1/up/abc"},
        {**DEVICE, "token": "https://[2606:4700:4700::1111]:8443/up/abc"},
        web("https://8.8.8.8/push/abc"),
    ],
)
def test_a_push_endpoint_on_a_public_address_is_registered(admin, body):
    assert admin.post("/devices", json=body).status_code == 201


def test_the_hosts_the_office_names_may_be_private(app, admin):
    configure(app, {**app.config, "PUSH_PRIVATE_HOSTS": "NAS.local, 127.0.0.1, 192.168.1.0/24"})
    for url in ["http://nas.local:8080/up", "http://localhost:1/x", "http://2130706433:1/x", "http://192.168.1.20/x"]:
        assert admin.post("/devices", json={**DEVICE, "token": url}).status_code == 201, url
    r = admin.post("/devices", json={**DEVICE, "token": "http://192.168.2.20/x"})
    assert set(error_of(r, 422, "validation_failed")["details"]) == {"token"}


def test_serve_refuses_to_start_with_a_private_host_it_cannot_read(tmp_path):
    result = Service(tmp_path, BAND_PUSH_PRIVATE_HOSTS="nas.local, http://nas.local/up").run("serve", "--port", "0")
    assert result.returncode != 0
    assert "BAND_PUSH_PRIVATE_HOSTS: 'http://nas.local/up' is neither a host name nor an address" in result.stderr


# --- pushes from a served office ---------------------------------------------------------------------------


@pytest.fixture
def offices(tmp_path):
    with served_offices(tmp_path, BAND_PUSH_TIMEOUT="20", BAND_WORKER_INTERVAL="0.2") as start:
        yield start


servers = gateway_fixtures()[0]  # the push servers a test started, closed after it


def started(servers, server):
    servers.append(server)
    return server


def a_device_of(office, someone, token):
    """A device stored as registered when its host still resolved to a public address."""
    with connected(office.db) as connection:
        row = (str(uuid.uuid4()), later(-60), later(-60), someone.user_id, token)
        connection.execute("INSERT INTO devices VALUES (?, ?, ?, ?, ?, 'unifiedpush', 'production', '1', NULL)", row)


def test_a_device_whose_host_turns_private_after_registration_gets_no_request(offices, servers):
    office = offices(BAND_PUSH_PRIVATE_HOSTS="")
    phone = started(servers, UnifiedPushServer())
    someone = person(office, key=True)
    mail_off(office, someone)
    port = phone.origin.rsplit(":", 1)[1]
    tokens = [f"http://localhost:{port}/up/1", f"http://2130706433:{port}/up/2", f"http://[::ffff:7f00:1]:{port}/up/3"]
    for token in tokens:
        a_device_of(office, someone, token)
    notification = queue(office, someone)
    row = reading(office, notification, push_state="failed")
    assert "not a public address" in row["push_error"] and phone.received == []
    assert sorted(devices_of(office, someone)) == sorted(tokens)  # refused, not taken for gone


def test_a_host_the_office_names_is_pushed_to_though_private(offices, servers):
    office = offices(BAND_PUSH_PRIVATE_HOSTS="localhost")
    phone = started(servers, UnifiedPushServer())
    someone = person(office, key=True)
    mail_off(office, someone)
    port = phone.origin.rsplit(":", 1)[1]
    register_device(office, someone, f"http://localhost:{port}/up/nas")
    body = json.dumps({**DEVICE, "token": f"{phone.origin}/up/by-address"}).encode()  # the office named the name
    headers = {"Authorization": f"Bearer {someone.key}", "Content-Type": "application/json"}
    status, _, answer = office.service.request("POST", "/devices", body, headers)
    assert status == 422 and json.loads(answer)["error"]["details"] == {"token": [NOT_PUBLIC]}
    reading(office, queue(office, someone), push_state="sent")
    assert [request.path for request in phone.received] == ["/up/nas"]


HANGING_DEVICES = 6
QUEUED = 30
NORMAL_SECONDS = 5.0  # another user's push on a busy machine: far less than the push timeout (20 s)


def test_one_users_hanging_devices_delay_no_other_users_push(offices, servers):
    office = offices()
    hanging = [started(servers, SilentServer()) for _ in range(HANGING_DEVICES)]
    healthy = started(servers, UnifiedPushServer())
    musician, other = person(office, key=True), person(office, key=True)
    for user in (musician, other):
        mail_off(office, user)
    for server in hanging:
        register_device(office, musician, f"{server.origin}/up/{uuid.uuid4().hex}")
    register_device(office, other, f"{healthy.origin}/up/{uuid.uuid4().hex}")
    for _ in range(QUEUED):
        queue(office, musician)
    wait_for(lambda: all(server.accepted for server in hanging), timeout=NORMAL_SECONDS * 2)
    started_at = time.monotonic()
    notification = queue(office, other)
    wait_for(lambda: healthy.received, timeout=NORMAL_SECONDS)
    reading(office, notification, timeout=NORMAL_SECONDS - (time.monotonic() - started_at), push_state="sent")


def test_no_push_endpoints_url_nor_webhooks_reaches_the_log(offices, servers):
    office = offices(BAND_PUSH_TIMEOUT="2")
    gone = started(servers, UnifiedPushServer(lambda number: Answer(404)))
    failing = started(servers, UnifiedPushServer(lambda number: Answer(500)))
    fine = started(servers, UnifiedPushServer())
    silent = started(servers, SilentServer())
    someone = person(office, key=True)
    mail_off(office, someone)
    secrets = {server: uuid.uuid4().hex for server in (gone, failing, fine, silent)}
    for server, secret in secrets.items():
        register_device(office, someone, f"{server.origin}/up/{secret}")
    refused = uuid.uuid4().hex
    register_device(office, someone, f"http://127.0.0.1:{free_port()}/up/{refused}")
    notification = queue(office, someone)
    wait_for(lambda: stored(office, notification)["push_attempts"] >= 1, timeout=30)
    with Receiver() as website:
        hook_secret = uuid.uuid4().hex
        endpoint = office.call("POST", "/webhook-endpoints", {"url": f"{website.url}?key={hook_secret}"})
        office.call("POST", f"/webhook-endpoints/{endpoint['id']}/ping")
        wait_for(lambda: website.received, timeout=30)
    log = office.service.output()
    assert gone.received and fine.received and failing.received and "push device" in log  # the 404's: removed
    for secret in [*secrets.values(), refused, hook_secret]:
        assert secret not in log
    assert call_as(office, someone.key, "GET", "/devices")  # the others are still there
