"""SPEC §2.3, outgoing requests cannot be turned against the office: members register push devices whose endpoint
accepts connections and never answers, as many as they may, and are sent notifications; a served office
(`app.py serve`) still pushes to another member's healthy endpoint in its normal time, during the attack and
after the hanging server is gone, without a restart; and a user who kept more devices from before there was a
limit is pushed on their ten latest alone. The endpoints are real servers on 127.0.0.1."""

import time
import uuid

import pytest

from delivery.outgoing import PER_DESTINATION
from tests.support.database import connected
from tests.support.push_servers import SilentServer, UnifiedPushServer
from tests.support.queued import devices_of, later, person, queue, reading, register_device
from tests.support.served import served_offices
from tests.support.waiting import wait_for

PUSH_TIMEOUT = 15.0
NORMAL_SECONDS = 5.0  # a push to a healthy endpoint on a busy machine: far less than the timeout
ATTACKERS = 3
REGISTERED = 40  # devices each attacker registers
KEPT = 10  # of them, the latest (SPEC §2.3)


@pytest.fixture
def office(tmp_path):
    with served_offices(tmp_path, BAND_PUSH_TIMEOUT=str(PUSH_TIMEOUT), BAND_WORKER_INTERVAL="0.2") as start:
        yield start()


@pytest.fixture
def silent():
    server = SilentServer()
    yield server
    server.close()


@pytest.fixture
def healthy():
    server = UnifiedPushServer()
    yield server
    server.close()


def test_endpoints_that_hang_delay_no_one_elses_push_during_the_attack_nor_after_it(office, silent, healthy):
    member = person(office, key=True)
    register_device(office, member, f"{healthy.origin}/up/{uuid.uuid4().hex}")
    attackers = [person(office, key=True) for _ in range(ATTACKERS)]
    for attacker in attackers:
        for n in range(REGISTERED):
            register_device(office, attacker, f"{silent.origin}/up/{n}/{uuid.uuid4().hex}")
    for attacker in attackers:
        queue(office, attacker)
    wait_for(lambda: silent.open >= PER_DESTINATION)

    def pushed_in_normal_time(count):
        started = time.monotonic()
        notification = queue(office, member)
        wait_for(lambda: len(healthy.received) == count, timeout=NORMAL_SECONDS)
        reading(office, notification, timeout=NORMAL_SECONDS - (time.monotonic() - started), email_state="sent")

    pushed_in_normal_time(1)
    assert silent.most_open <= PER_DESTINATION  # the rest wait their turn within their own timeout
    silent.close()
    pushed_in_normal_time(2)
    assert [len(devices_of(office, attacker)) for attacker in attackers] == [KEPT] * ATTACKERS


def test_a_user_who_kept_more_devices_from_before_the_limit_is_pushed_on_the_ten_latest(office, healthy):
    someone = person(office)
    devices = [f"{healthy.origin}/up/{n}" for n in range(KEPT + 5)]  # the oldest first
    with connected(office.db) as connection:
        for n, token in enumerate(devices):
            row = (str(uuid.uuid4()), later(n - 60), later(n - 60), someone.user_id, token)
            connection.execute(
                "INSERT INTO devices VALUES (?, ?, ?, ?, ?, 'unifiedpush', 'production', '1', NULL)", row
            )
    notification = queue(office, someone)
    reading(office, notification, push_state="sent")
    assert sorted(request.path for request in healthy.received) == sorted(
        t.removeprefix(healthy.origin) for t in devices[-KEPT:]
    )
