"""SPEC §8 webhooks switched off: by a 410 or by days of nothing but failures (the admins are mailed), and
switched back on."""

import email
import email.policy

from tests.support.receiver import Answer, Receiver
from tests.support.waiting import wait_for
from tests.support.webhook_office import (
    FAILING_FAST,
    always,
    deliveries,
    delivery_reading,
    endpoint_for,
    endpoint_reading,
    user,
    webhook_fixtures,
)

serve, served, office = webhook_fixtures()


def test_a_receiver_answering_410_switches_the_endpoint_off(office):
    with Receiver(always(410)) as gone, Receiver() as witness:
        endpoint = endpoint_for(office, gone, event_types=["team.created"])
        endpoint_for(office, witness, event_types=["team.created"])
        office.call("POST", "/teams", {"name": "First"})
        delivery = delivery_reading(office, endpoint, status="failed")
        assert delivery["attempts"] == 1 and delivery["last_status_code"] == 410
        read = endpoint_reading(office, endpoint, is_active=False)
        assert "410" in read["disabled_reason"]
        # a later change is no longer sent to it
        office.call("POST", "/teams", {"name": "Second"})
        assert wait_for(lambda: len(witness.received) == 2)
        assert len(deliveries(office, endpoint_id=endpoint["id"])) == 1 and len(gone.received) == 1
        [switched_off] = office.call(
            "GET", f"/events?filter[type]=webhook_endpoint.updated&filter[subject_id]={endpoint['id']}"
        )
        assert switched_off["actor"] is None
        assert switched_off["changes"]["is_active"] == {"from": True, "to": False}
        assert switched_off["changes"]["disabled_reason"]["to"] == read["disabled_reason"]


def test_an_endpoint_failing_for_days_is_switched_off_and_the_admins_are_mailed(serve, tmp_path):
    outbox = tmp_path / "mail"
    office = serve(BAND_MAIL_URL=f"file:{outbox}", **FAILING_FAST)
    office.call("POST", "/access-roles", {"name": "hooks", "grants": ["admin.edit"]})
    admins = {"ops@example.com", user(office, "admin"), user(office, "hooks")}
    clerk, retired = user(office, "office"), user(office, "admin", active=False)
    with Receiver(always(500)) as receiver:
        endpoint = endpoint_for(office, receiver, event_types=["team.created"], description="The website")
        office.call("POST", "/teams", {"name": "Failing"})
        read = endpoint_reading(office, endpoint, is_active=False)
        assert read["disabled_reason"].startswith("Every delivery failed")

        def mailed():
            found = [
                email.message_from_bytes(p.read_bytes(), policy=email.policy.default) for p in outbox.glob("*.eml")
            ]
            return {m["To"] for m in found} >= admins and found

        found = wait_for(mailed)
        assert sorted(m["To"] for m in found) == sorted(admins)  # not the clerk, not the retired admin
        assert clerk not in {m["To"] for m in found} and retired not in {m["To"] for m in found}
        for text in (m.get_body(("plain",)).get_content() for m in found):  # which endpoint, but not its whole URL
            assert endpoint["id"] in text and "The website" in text and receiver.url not in text


def test_switching_an_endpoint_back_on_clears_the_reason_and_sends_what_waited(serve):
    office = serve(**FAILING_FAST)
    answer = {"status": 500}
    with Receiver(lambda n: Answer(answer["status"])) as receiver:
        endpoint = endpoint_for(office, receiver, event_types=["team.created"])
        office.call("POST", "/teams", {"name": "Patient"})
        assert endpoint_reading(office, endpoint, is_active=False)["disabled_reason"]
        waiting = delivery_reading(office, endpoint, status="pending")
        answer["status"] = 200
        office.call("PATCH", f"/webhook-endpoints/{endpoint['id']}", {"is_active": True})
        read = endpoint_reading(office, endpoint, is_active=True)
        assert read["disabled_reason"] is None
        sent = delivery_reading(office, endpoint, status="succeeded")
        assert sent["attempts"] == waiting["attempts"] + 1
        assert receiver.ids()[-1] == waiting["event_id"] and receiver.received[-1].verified
