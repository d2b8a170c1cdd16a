"""SPEC §8 webhooks delivered: a change reaches its receiver signed, is retried with the same webhook-id until
it is taken, is cut off at the timeout, follows no redirect, honours Retry-After and is redelivered on demand; an
endpoint that hangs holds up no other."""

from delivery.outgoing import PER_DESTINATION
from delivery.webhooks.sender import IN_FLIGHT
from tests.support.receiver import Answer, Receiver
from tests.support.waiting import SLOW_MACHINE_SECONDS, wait_for
from tests.support.webhook_office import (
    always,
    deliveries,
    delivery_reading,
    endpoint_for,
    refused,
    send,
    webhook_fixtures,
)

serve, served, office = webhook_fixtures()


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


def test_a_receiver_that_never_answers_is_cut_off_at_the_timeout_and_retried(serve):
    office = serve(BAND_WEBHOOK_TIMEOUT="1", BAND_WEBHOOK_RETRY_SECONDS="0.3")
    with Receiver(always(200, delay=30)) as receiver:
        endpoint = endpoint_for(office, receiver, event_types=["team.created"])
        office.call("POST", "/teams", {"name": "Late"})
        delivery = delivery_reading(office, endpoint, status="failed")
        assert delivery["attempts"] == 2 and delivery["last_status_code"] is None
        assert "within 1 s" in delivery["last_error"] or "timed out" in delivery["last_error"].lower(), delivery
        first, second = receiver.received
        assert first.webhook_id == second.webhook_id == delivery["event_id"]
        assert second.at - first.at >= 1.2  # the whole second of the timeout, then the wait of 0.3 s (± 10 %)


def test_a_redirect_is_not_followed_and_counts_as_a_failure(office):
    elsewhere = Receiver()
    with elsewhere, Receiver(always(302, headers={"Location": elsewhere.url})) as receiver:
        endpoint = endpoint_for(office, receiver, event_types=["team.created"])
        office.call("POST", "/teams", {"name": "Moved"})
        delivery = delivery_reading(office, endpoint, status="failed")
        assert delivery["attempts"] == 4 and len(receiver.received) == 4
        assert delivery["last_status_code"] == 302 and "redirect" in delivery["last_error"].lower()
        assert elsewhere.url in delivery["last_error"]
        assert elsewhere.received == []


def test_retry_after_on_429_and_503_is_honoured(serve):
    office = serve(BAND_WEBHOOK_RETRY_SECONDS="0.2,0.2,0.2")
    answers = {1: Answer(429, headers={"Retry-After": "2"}), 2: Answer(503, headers={"Retry-After": "1"})}
    with Receiver(lambda n: answers.get(n, Answer())) as receiver:
        endpoint = endpoint_for(office, receiver, event_types=["team.created"])
        office.call("POST", "/teams", {"name": "Busy"})
        assert delivery_reading(office, endpoint, status="succeeded")["attempts"] == 3
        first, second, third = (r.at for r in receiver.received)
        assert second - first >= 1.95 and third - second >= 0.95  # not the 0.2 s of the schedule


def test_when_the_retries_are_used_up_the_delivery_fails_and_a_redelivery_is_one_more_attempt(serve):
    office = serve(BAND_WEBHOOK_RETRY_SECONDS="0.1,0.1")
    with Receiver(always(500, body=b"broken")) as receiver:
        endpoint = endpoint_for(office, receiver, event_types=["team.created"])
        office.call("POST", "/teams", {"name": "Gone"})
        delivery = delivery_reading(office, endpoint, status="failed")
        assert delivery["attempts"] == 3 and delivery["next_attempt_at"] is None
        assert delivery["last_status_code"] == 500 and delivery["response_excerpt"] == "broken"
        assert len(receiver.received) == 3
        status, answer = send(office, "POST", f"/webhook-deliveries/{delivery['id']}/redeliver")
        assert status == 202 and answer["data"]["id"] == delivery["id"] and answer["data"]["status"] == "pending"
        delivery = delivery_reading(office, endpoint, status="failed", attempts=4)
        assert delivery["next_attempt_at"] is None
        assert len(receiver.received) == 4 and set(receiver.ids()) == {delivery["event_id"]}


def test_a_redelivery_of_a_delivered_event_is_one_attempt_and_none_while_one_is_on_its_way(serve):
    office = serve(BAND_WEBHOOK_RETRY_SECONDS="0.1,0.1,0.1")
    answers = {1: Answer(200), 2: Answer(200, delay=1)}
    with Receiver(lambda n: answers.get(n, Answer(500))) as receiver:
        endpoint = endpoint_for(office, receiver, event_types=["team.created"])
        office.call("POST", "/teams", {"name": "Twice"})
        delivery = delivery_reading(office, endpoint, status="succeeded")
        path = f"/webhook-deliveries/{delivery['id']}/redeliver"
        assert send(office, "POST", path)[0] == 202
        assert wait_for(lambda: len(receiver.received) == 2)  # on its way: the receiver takes 1 s to answer
        assert refused(office, "POST", path, status=409)["details"]["reason"] == "delivery_in_flight"
        delivery_reading(office, endpoint, status="succeeded", attempts=2)
        assert send(office, "POST", path)[0] == 202  # this time it fails: one attempt, no retries
        delivery = delivery_reading(office, endpoint, status="failed", attempts=3)
        assert delivery["next_attempt_at"] is None and len(receiver.received) == 3


def test_an_endpoint_that_hangs_holds_up_no_other(serve):
    office = serve(BAND_WEBHOOK_TIMEOUT="60")  # held up, the quick one would wait a minute
    with Receiver(always(200, delay=60)) as hanging, Receiver() as quick:
        endpoint_for(office, hanging, event_types=["team.created"])
        for n in range(IN_FLIGHT + 4):  # more than every slot of the sender
            office.call("POST", "/teams", {"name": f"Backlog {n}"})
        assert wait_for(lambda: len(hanging.received) >= PER_DESTINATION)
        endpoint_for(office, quick, event_types=["team.created"])
        office.call("POST", "/teams", {"name": "Now"})
        assert wait_for(lambda: quick.received, timeout=SLOW_MACHINE_SECONDS)
        assert len(hanging.received) == PER_DESTINATION  # no more attempts on their way to one endpoint


def test_endpoints_on_one_host_and_port_that_hangs_hold_up_no_other(serve):
    """SPEC §2.3: the limit is the destination's (scheme, host and port), however many endpoints lead there."""
    office = serve(BAND_WEBHOOK_TIMEOUT="60")  # held up, the quick one would wait a minute
    with Receiver(always(200, delay=60)) as hanging, Receiver() as quick:
        for n in range(4):
            endpoint_for(office, hanging, url=f"{hanging.url}/{n}", event_types=["team.created"])
        for n in range(IN_FLIGHT // 4 + 2):  # with 4 endpoints, more deliveries than every slot of the sender
            office.call("POST", "/teams", {"name": f"Backlog {n}"})
        assert wait_for(lambda: len(hanging.received) >= PER_DESTINATION)
        endpoint_for(office, quick, event_types=["team.created"])
        office.call("POST", "/teams", {"name": "Now"})
        assert wait_for(lambda: quick.received, timeout=SLOW_MACHINE_SECONDS)
        assert len(hanging.received) == PER_DESTINATION
