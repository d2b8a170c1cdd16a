"""SPEC §8 webhooks, end to end: real servers (`app.py serve`) deliver to real receivers on 127.0.0.1, which
check every signature with the `standardwebhooks` library as a band's website would."""

import pytest

from tests.receiver import Answer, Receiver
from tests.support import ServedOffice, wait_for

FAST = {"BAND_WEBHOOK_RETRY_SECONDS": "0.3,0.3,0.3", "BAND_WEBHOOK_TIMEOUT": "2"}


@pytest.fixture
def office(tmp_path):
    office = ServedOffice(tmp_path, **FAST).start()
    yield office
    office.service.stop()


def endpoint_for(office, receiver, **fields):
    created = office.call("POST", "/webhook-endpoints", {"url": receiver.url, **fields})
    receiver.secrets.append(created["secret"])
    return created


def deliveries(office, **filters):
    query = "&".join(f"filter[{name}]={value}" for name, value in filters.items())
    return office.call("GET", f"/webhook-deliveries?{query}")


def test_a_change_reaches_the_receiver_signed_with_the_event_as_data(office):
    with Receiver() as receiver:
        endpoint = endpoint_for(office, receiver, event_types=["team.*"])
        assert endpoint["secret"].startswith("whsec_") and endpoint["secret_prefix"] == endpoint["secret"][:10]
        team = office.call("POST", "/teams", {"name": "Horns"})
        assert wait_for(lambda: receiver.received)
        [received] = receiver.received
        assert received.verified
        payload = received.payload
        [event] = office.call("GET", f"/events?filter[subject_id]={team['id']}")
        assert payload == {"type": "team.created", "timestamp": event["occurred_at"], "data": event}
        assert received.webhook_id == event["id"]
        assert wait_for(lambda: deliveries(office, event_id=event["id"])[0]["status"] == "succeeded")
        [delivery] = deliveries(office, event_id=event["id"])
        assert delivery["attempts"] == 1 and delivery["last_status_code"] == 200
        assert delivery["response_excerpt"] == "ok" and delivery["next_attempt_at"] is None
        # the secret is shown once: never read back, never in an event
        read = office.call("GET", f"/webhook-endpoints/{endpoint['id']}")
        assert "secret" not in read
        for event in office.call("GET", "/events?limit=200"):
            assert endpoint["secret"][6:] not in str(event)


def test_a_failing_receiver_is_retried_with_the_same_webhook_id_until_it_answers(office):
    answers = {1: Answer(500, body=b"down"), 2: Answer(503)}
    with Receiver(lambda n: answers.get(n, Answer())) as receiver:
        endpoint_for(office, receiver, event_types=["team.created"])
        office.call("POST", "/teams", {"name": "Strings"})
        assert wait_for(lambda: len(receiver.received) >= 3)
        assert len(set(receiver.ids())) == 1 and all(r.verified for r in receiver.received)
        [delivery] = deliveries(office, event_type="team.created")
        assert wait_for(lambda: deliveries(office, event_type="team.created")[0]["status"] == "succeeded")
        [delivery] = deliveries(office, event_type="team.created")
        assert delivery["attempts"] == 3 and delivery["last_error"] is None
