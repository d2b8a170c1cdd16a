"""SPEC §8 (the worker) and §6 (the 10-second stop): webhooks are never lost and never sent twice at once. Real
servers (`app.py serve`) are killed with SIGKILL, stopped with SIGTERM, or run two on one database; real receivers
on 127.0.0.1 check every signature with the `standardwebhooks` library and count what arrives."""

import collections
import http.client
import json
import threading
import time

from tests.support.receiver import Answer, Receiver
from tests.support.served import ServedOffice, Service, running
from tests.support.waiting import wait_for
from tests.support.webhook_office import FAST, endpoint_for


def call(service, key, method, path, body=None):
    """The whole answer of one request that must succeed."""
    headers = {"Authorization": f"Bearer {key}", "Content-Type": "application/json"}
    status, _, answer = service.request(method, path, json.dumps(body).encode() if body else None, headers)
    assert status < 300, answer
    return json.loads(answer)


def every(service, key, path):
    """Every record of a list, page by page."""
    found, offset = [], 0
    while True:
        page = call(service, key, "GET", f"{path}{'&' if '?' in path else '?'}limit=200&offset={offset}")
        found += page["data"]
        offset += 200
        if offset >= page["meta"]["total"]:
            return found


def kill(service):
    service.proc.kill()
    service.proc.wait(10)


def make_teams(service, key, acknowledged, stop, most=None):
    """POST /teams as fast as the server answers, keeping the id of each acknowledged (201) one, until `stop` is
    set, `most` were made, or the server is gone."""
    headers = {"Authorization": f"Bearer {key}", "Content-Type": "application/json"}
    while not stop.is_set() and (most is None or len(acknowledged) < most):
        body = json.dumps({"name": f"Team {service.port}-{len(acknowledged)}"}).encode()
        try:
            status, _, answer = service.request("POST", "/teams", body, headers)
        except (OSError, http.client.HTTPException):  # killed under the request, or mid-answer: unacknowledged
            return
        assert status == 201, answer
        acknowledged.append(json.loads(answer)["data"]["id"])


def delivered(service, key, acknowledged):
    """The events of the acknowledged changes, once each has its event, each event its one delivery, and every
    delivery succeeded; else None."""
    events = {e["subject"]["id"]: e for e in every(service, key, "/events?filter[type]=team.created")}
    if not set(acknowledged) <= set(events):
        return None
    deliveries = every(service, key, "/webhook-deliveries")
    per_event = collections.Counter(d["event_id"] for d in deliveries)
    wanted = [events[team_id] for team_id in acknowledged]
    if any(per_event[e["id"]] != 1 for e in wanted) or any(d["status"] != "succeeded" for d in deliveries):
        return None
    return wanted


def test_after_a_kill_9_every_acknowledged_change_is_delivered_at_least_once(tmp_path):
    killed = threading.Event()

    def slow(number):
        """Deliveries stay on their way a while; from the fourth on, until the kill (on a busy machine a delivery
        seen on its way could otherwise be answered before the kill lands)."""
        if number > 3:
            killed.wait(30)
        return Answer(delay=0.1 + number % 3 * 0.05)

    office = ServedOffice(tmp_path, **FAST)
    service, key = office.service, office.key
    with Receiver(slow) as receiver:
        with running(service):
            endpoint_for(office, receiver, event_types=["*"])
            acknowledged, stop = [], threading.Event()
            client = threading.Thread(target=make_teams, args=(service, key, acknowledged, stop))
            client.start()
            try:
                wait_for(lambda: len(acknowledged) >= 40 and any(receiver.in_flight.values()), timeout=15)
                kill(service)
                with receiver.lock:
                    cut_off = {message_id for message_id, count in receiver.in_flight.items() if count}
            finally:
                killed.set()
                stop.set()
                client.join(15)
        assert cut_off, "no delivery was on its way when the server was killed"

        with running(service):  # the same database, the same settings
            events = wait_for(lambda: delivered(service, key, acknowledged), timeout=25, interval=0.2)
            assert service.stop() == 0
    assert [r.body for r in receiver.received if not r.verified] == []
    assert all(r.payload["data"]["id"] == r.webhook_id for r in receiver.received)
    assert {e["id"] for e in events} <= set(receiver.ids())
    arrived = collections.Counter(receiver.ids())
    assert all(arrived[message_id] >= 2 for message_id in cut_off)  # sent again: the same webhook-id


def test_two_servers_on_one_database_never_send_one_delivery_twice_at_once(tmp_path):
    office = ServedOffice(tmp_path, **FAST)
    (tmp_path / "second").mkdir()
    servers = [office.service, Service(tmp_path / "second", **office.service.env)]  # the same database and settings
    with Receiver(lambda number: Answer(delay=0.3)) as receiver, running(servers[0]), running(servers[1]):
        endpoint_for(office, receiver, event_types=["team.*"])
        acknowledged, stop = [], threading.Event()
        clients = [threading.Thread(target=make_teams, args=(s, office.key, acknowledged, stop, 50)) for s in servers]
        for client in clients:
            client.start()
        for client in clients:
            client.join(20)
        assert len(acknowledged) >= 50
        events = every(servers[1], office.key, "/events?filter[type]=team.created")
        assert {e["subject"]["id"] for e in events} == set(acknowledged)
        doubled = lambda: [i for i, most in receiver.most_in_flight.items() if most > 1]
        assert wait_for(lambda: doubled() or {e["id"] for e in events} <= set(receiver.ids()), timeout=20)
        assert not doubled(), "a delivery was on its way twice at once"
        assert wait_for(lambda: delivered(servers[1], office.key, acknowledged), timeout=20, interval=0.2)
        assert {d["attempts"] for d in every(servers[0], office.key, "/webhook-deliveries")} == {1}
        assert [server.stop() for server in servers] == [0, 0]
    arrived = collections.Counter(receiver.ids())
    assert set(arrived) == {e["id"] for e in events}
    assert set(arrived.values()) == {1}, "a delivery was sent twice"
    assert [r.body for r in receiver.received if not r.verified] == []


def test_sigterm_abandons_a_hanging_attempt_within_10_s_and_the_next_start_sends_it(tmp_path):
    hang = lambda number: Answer(delay=60) if number == 1 else Answer()
    # the defaults of a real installation: a 10 s timeout, a look at the queue every 15 s
    office = ServedOffice(tmp_path, BAND_WEBHOOK_TIMEOUT="10", BAND_WORKER_INTERVAL="15")
    with Receiver(hang) as receiver:
        with running(office.service):
            endpoint_for(office, receiver, event_types=["team.created"])
            office.call("POST", "/teams", {"name": "Brass"})
            [hanging] = wait_for(lambda: receiver.received)
            started = time.monotonic()
            assert office.service.stop() == 0
            assert time.monotonic() - started < 10

        with running(office.service):
            assert wait_for(lambda: len(receiver.received) >= 2, timeout=5)  # given back: no wait for its lease
            [_, again] = receiver.received
            assert again.webhook_id == hanging.webhook_id and again.verified
            query = f"/webhook-deliveries?filter[event_id]={hanging.webhook_id}&filter[status]=succeeded"
            [delivery] = wait_for(lambda: office.call("GET", query))
            assert delivery["last_status_code"] == 200
            assert office.service.stop() == 0


def test_with_the_worker_off_deliveries_wait_in_the_database_for_a_server_with_it_on(tmp_path):
    office = ServedOffice(tmp_path, **FAST, BAND_WORKER="off")
    (tmp_path / "on").mkdir()
    witness = ServedOffice(tmp_path / "on", **FAST)  # the same settings but the worker's, on a database of its own
    with Receiver() as receiver, Receiver() as witnessed:
        with running(office.service, witness.service):
            endpoint_for(office, receiver, event_types=["team.created"])
            endpoint_for(witness, witnessed, event_types=["team.created"])
            team = office.call("POST", "/teams", {"name": "Rhythm"})
            [event] = office.call("GET", f"/events?filter[subject_id]={team['id']}")
            [delivery] = office.call("GET", f"/webhook-deliveries?filter[event_id]={event['id']}")
            assert delivery["status"] == "pending" and delivery["attempts"] == 0
            # a worker's rounds since: the witness's claimed, sent and recorded a delivery queued after this one
            witness.call("POST", "/teams", {"name": "Witness"})
            assert wait_for(lambda: witness.call("GET", "/webhook-deliveries?filter[status]=succeeded"))
            assert receiver.received == []
            assert office.call("GET", f"/webhook-deliveries/{delivery['id']}") == delivery
            assert office.service.stop() == 0

        office.service.env["BAND_WORKER"] = "on"
        with running(office.service):
            [received] = wait_for(lambda: receiver.received)
            assert received.webhook_id == event["id"] and received.verified
            sent = lambda: office.call("GET", f"/webhook-deliveries/{delivery['id']}")["status"] == "succeeded"
            assert wait_for(sent)
            assert office.service.stop() == 0
