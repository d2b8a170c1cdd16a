"""A served office whose webhook schedules are fast (tests/test_webhook_*.py), and the calls its tests make:
requests that may be refused, endpoints made for a receiver, deliveries and endpoints waited for until they read as
expected, users and API keys holding roles.

Real servers (`app.py serve`) deliver to real receivers on 127.0.0.1 (tests/support/receiver.py), which check every
signature with the `standardwebhooks` library as a band's website would; schedules are made fast by configuration
(BAND_WEBHOOK_*), never by patching."""

import json
import uuid

import pytest

from tests.support.receiver import Answer
from tests.support.served import ServedOffice, served_offices
from tests.support.waiting import wait_for

# a small timeout keeps the lease of a killed server's claims short (timeout + 5 s)
FAST = {"BAND_WEBHOOK_RETRY_SECONDS": "0.3,0.3,0.3", "BAND_WEBHOOK_TIMEOUT": "2"}
# 0.00001 days are 0.864 s: an endpoint failing that long is switched off after a few attempts 0.3 s apart
FAILING_FAST = {"BAND_WEBHOOK_FAILING_DAYS": "0.00001", "BAND_WEBHOOK_RETRY_SECONDS": ",".join(["0.3"] * 20)}


def webhook_fixtures():
    """The fixtures `serve`, `served` and `office`, for a test module to name at its top:
    `serve, served, office = webhook_fixtures()`."""

    @pytest.fixture
    def serve(tmp_path):
        """serve(**env) -> a served office with FAST schedules, `env` overriding; stopped after the test."""
        with served_offices(tmp_path, **FAST) as start:
            yield start

    @pytest.fixture(scope="module")
    def served(tmp_path_factory):
        """One office with FAST schedules for every test that needs no other settings: a start saved per test."""
        office = ServedOffice(tmp_path_factory.mktemp("served"), **FAST).start()
        yield office
        office.service.stop()

    @pytest.fixture
    def office(served):
        """The shared office, cleared after each test of its webhook endpoints (their deliveries go with them)."""
        yield served
        for endpoint in served.call("GET", "/webhook-endpoints?limit=200"):
            served.call("DELETE", f"/webhook-endpoints/{endpoint['id']}")

    return serve, served, office


def send(office, method, path, body=None, key=None):
    """(status, JSON answer) of a request that may be refused; as the office's admin unless `key` is given."""
    headers = {"Authorization": f"Bearer {key or office.key}", "Content-Type": "application/json"}
    data = None if body is None else json.dumps(body).encode()
    status, _, answer = office.service.request(method, path, data, headers)
    return status, json.loads(answer) if answer else None


def refused(office, method, path, body=None, key=None, status=422):
    """The error of a request that must be refused with `status`."""
    got, answer = send(office, method, path, body, key)
    assert got == status, answer
    return answer["error"]


def endpoint_for(office, receiver, **fields):
    created = office.call("POST", "/webhook-endpoints", {"url": receiver.url, **fields})
    receiver.secrets.append(created["secret"])
    return created


def deliveries(office, **filters):
    query = "&".join(f"filter[{name}]={value}" for name, value in filters.items())
    return office.call("GET", f"/webhook-deliveries?{query}")


def delivery_reading(office, endpoint, **expected):
    """Wait until the one delivery to `endpoint` reads as `expected` (status="failed", say), and return it."""

    def found():
        listed = deliveries(office, endpoint_id=endpoint["id"])
        return len(listed) == 1 and expected.items() <= listed[0].items() and listed[0]

    return wait_for(found)


def endpoint_reading(office, endpoint, **expected):
    """Wait until `endpoint` reads as `expected` (is_active=False, say), and return it."""

    def found():
        read = office.call("GET", f"/webhook-endpoints/{endpoint['id']}")
        return expected.items() <= read.items() and read

    return wait_for(found)


def user(office, *roles, active=True):
    """The address of a new user holding `roles`."""
    address = f"u-{uuid.uuid4().hex[:8]}@example.com"
    office.call("POST", "/users", {"email": address, "name": "Someone", "roles": list(roles), "active": active})
    return address


def key_of(office, *roles):
    """An API key of a new user holding `roles`."""
    return office.service.run("create-api-key", user(office, *roles), "--label", "tests").stdout.strip()


def always(status, **answer):
    return lambda number: Answer(status, **answer)
