"""SPEC §8 webhooks, end to end: real servers (`app.py serve`) deliver to real receivers on 127.0.0.1, which
check every signature with the `standardwebhooks` library as a band's website would. Schedules are made fast by
configuration (BAND_WEBHOOK_*), never by patching."""

import email
import email.policy
import json
import uuid

import pytest
from standardwebhooks import Webhook, WebhookVerificationError

from outgoing import PER_DESTINATION
from tests.support.receiver import Answer, Receiver
from tests.support.served import ServedOffice, served_offices
from tests.support.waiting import SLOW_MACHINE_SECONDS, wait_for
from webhooks.sender import IN_FLIGHT

FAST = {"BAND_WEBHOOK_RETRY_SECONDS": "0.3,0.3,0.3", "BAND_WEBHOOK_TIMEOUT": "2"}
# 0.00001 days are 0.864 s: an endpoint failing that long is switched off after a few attempts 0.3 s apart
FAILING_FAST = {"BAND_WEBHOOK_FAILING_DAYS": "0.00001", "BAND_WEBHOOK_RETRY_SECONDS": ",".join(["0.3"] * 20)}


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


# --- delivery ---------------------------------------------------------------------------------------------------


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


# --- what is sent, to whom ------------------------------------------------------------------------------------


def test_after_a_rotation_deliveries_verify_with_the_old_secret_and_with_the_new(office):
    with Receiver() as receiver:
        endpoint = endpoint_for(office, receiver, event_types=["team.created"])
        old = endpoint["secret"]
        status, answer = send(office, "POST", f"/webhook-endpoints/{endpoint['id']}/rotate-secret")
        assert status == 200, answer
        new = answer["data"]["secret"]
        assert new.startswith("whsec_") and new != old and answer["data"]["secret_prefix"] == new[:10]
        read = office.call("GET", f"/webhook-endpoints/{endpoint['id']}")
        assert "secret" not in read and read["secret_prefix"] == new[:10]
        office.call("POST", "/teams", {"name": "Rotated"})
        [received] = wait_for(lambda: receiver.received)
        assert len(received.headers["webhook-signature"].split(" ")) == 2
        for secret in (old, new):  # a receiver knowing either one alone accepts it
            Webhook(secret).verify(received.body, received.headers)
        with pytest.raises(WebhookVerificationError):
            Webhook("whsec_" + "A" * 32).verify(received.body, received.headers)


def test_a_ping_goes_to_its_endpoint_alone_and_not_to_an_inactive_one(office):
    with Receiver() as pinged, Receiver() as bystander:
        endpoint = endpoint_for(office, pinged, event_types=["team.created"])
        other = endpoint_for(office, bystander)
        status, answer = send(office, "POST", f"/webhook-endpoints/{endpoint['id']}/ping")
        assert status == 202, answer
        ping = answer["data"]
        assert ping["endpoint_id"] == endpoint["id"] and ping["event_type"] == "ping" and ping["status"] == "pending"
        [received] = wait_for(lambda: pinged.received)
        assert received.verified and received.payload["type"] == "ping" and received.webhook_id == ping["event_id"]
        assert all(d["event_type"] != "ping" for d in deliveries(office, endpoint_id=other["id"]))
        assert all(r.payload["type"] != "ping" for r in bystander.received)
        # switched off: no ping, no redelivery
        office.call("PATCH", f"/webhook-endpoints/{endpoint['id']}", {"is_active": False})
        for path in (f"/webhook-endpoints/{endpoint['id']}/ping", f"/webhook-deliveries/{ping['id']}/redeliver"):
            error = refused(office, "POST", path, status=409)
            assert error["code"] == "conflict" and error["details"]["reason"] == "endpoint_inactive"


def test_pay_amounts_reach_only_the_endpoints_that_include_pay(office):
    with Receiver() as without_pay, Receiver() as with_pay:
        endpoint_for(office, without_pay, event_types=["gig_role.created"])
        endpoint_for(office, with_pay, event_types=["gig_role.created"], include_pay=True)
        gig = office.call("POST", "/gigs", {"gig_date": "2027-06-12", "title": "Paid"})
        role = office.call("POST", "/roles", {"name": "Bass"})
        office.call("POST", "/gig-roles", {"gig_id": gig["id"], "role_id": role["id"], "pay_cents": 30000})
        [hidden] = wait_for(lambda: without_pay.received)
        [shown] = wait_for(lambda: with_pay.received)
        assert hidden.verified and shown.verified
        assert hidden.payload["data"]["data"]["pay_cents"] is None
        assert shown.payload["data"]["data"]["pay_cents"] == 30000


def test_the_pay_groups_own_amounts_reach_only_the_endpoints_that_include_pay(office):
    with Receiver() as without_pay, Receiver() as with_pay:
        endpoint_for(office, without_pay, event_types=["rate.*"])
        endpoint_for(office, with_pay, event_types=["rate.*"], include_pay=True)
        role = office.call("POST", "/roles", {"name": "Keys"})
        rate = office.call("POST", "/rates", {"role_id": role["id"], "amount_cents": 12345})
        office.call("PATCH", f"/rates/{rate['id']}", {"amount_cents": 22222})
        hidden = {
            r.payload["type"]: r.payload["data"]
            for r in wait_for(lambda: len(without_pay.received) == 2 and without_pay.received)
        }
        shown = {
            r.payload["type"]: r.payload["data"]
            for r in wait_for(lambda: len(with_pay.received) == 2 and with_pay.received)
        }
        assert hidden["rate.created"]["data"]["amount_cents"] is None
        assert hidden["rate.updated"]["changes"]["amount_cents"] == {"from": None, "to": None}
        assert shown["rate.updated"]["changes"]["amount_cents"] == {"from": 12345, "to": 22222}
        assert "12345" not in str(hidden) and "22222" not in str(hidden)


def test_an_endpoint_gets_the_event_types_it_asked_for(office):
    with Receiver() as gigs, Receiver() as teams:
        gig_endpoint = endpoint_for(office, gigs, event_types=["gig.*"])
        team_endpoint = endpoint_for(office, teams, event_types=["team.created"])
        office.call("POST", "/teams", {"name": "Rhythm"})
        gig = office.call("POST", "/gigs", {"gig_date": "2027-06-12", "title": "Matched"})
        office.call("PATCH", f"/gigs/{gig['id']}", {"title": "Renamed"})
        assert wait_for(lambda: len(gigs.received) == 2 and len(teams.received) == 1)
        assert sorted(r.payload["type"] for r in gigs.received) == ["gig.created", "gig.updated"]
        assert [r.payload["type"] for r in teams.received] == ["team.created"]
        assert {d["event_type"] for d in deliveries(office, endpoint_id=gig_endpoint["id"])} == {
            "gig.created",
            "gig.updated",
        }
        assert [d["event_type"] for d in deliveries(office, endpoint_id=team_endpoint["id"])] == ["team.created"]


# --- what an endpoint may be, who may see it -----------------------------------------------------------------------


@pytest.mark.parametrize("patterns", [["gig"], ["Gig.*"], ["*.*"], ["gig.*", "gig..x"], [], "gig.*"])
def test_event_types_must_be_types_or_patterns(office, patterns):
    body = {"url": "http://127.0.0.1:9/hook", "event_types": patterns}
    error = refused(office, "POST", "/webhook-endpoints", body)
    assert error["code"] == "validation_failed"
    assert any(name.startswith("event_types") for name in error["details"]), error


LONGEST_URL = "http://127.0.0.1/" + "a" * (2000 - len("http://127.0.0.1/"))
BAD_URLS = [
    "http://u:p@127.0.0.1/x",
    "http://u@127.0.0.1/x",
    "ftp://127.0.0.1/x",
    "file:///x",
    "hook",
    "http://[::1/x",
    "http://127.0.0.1:99999/x",
    LONGEST_URL + "a",
]


@pytest.mark.parametrize("url", BAD_URLS)
def test_a_receiver_url_is_http_without_user_info_and_at_most_2000_characters(office, url):
    error = refused(office, "POST", "/webhook-endpoints", {"url": url})
    assert error["code"] == "validation_failed" and list(error["details"]) == ["url"], error


def test_a_receiver_url_may_name_a_host_of_the_lan_and_be_2000_characters_long(office):
    off = {"is_active": False}  # switched off: nothing is sent, no name looked up
    assert office.call("POST", "/webhook-endpoints", {"url": LONGEST_URL, **off})["url"] == LONGEST_URL
    created = office.call("POST", "/webhook-endpoints", {"url": "http://nas:8080/hook", **off})
    assert created["url"] == "http://nas:8080/hook" and created["event_types"] == ["*"]
    path = f"/webhook-endpoints/{created['id']}"
    error = refused(office, "PATCH", path, {"url": "http://u:p@nas:8080/hook"})
    assert list(error["details"]) == ["url"]
    assert office.call("DELETE", path) is None


def test_webhooks_are_read_with_admin_view_and_changed_with_admin_edit(office):
    endpoint = office.call(
        "POST", "/webhook-endpoints", {"url": "http://127.0.0.1:9/hook", "event_types": ["team.created"]}
    )
    delivery = office.call("POST", f"/webhook-endpoints/{endpoint['id']}/ping")
    path = f"/webhook-endpoints/{endpoint['id']}"
    reads = ["/webhook-endpoints", path, "/webhook-deliveries", f"/webhook-deliveries/{delivery['id']}"]
    writes = [
        ("POST", "/webhook-endpoints", {"url": "http://127.0.0.1:9/other"}),
        ("PATCH", path, {"description": "Mine"}),
        ("DELETE", path, None),
        ("POST", f"{path}/rotate-secret", None),
        ("POST", f"{path}/ping", None),
        ("POST", f"/webhook-deliveries/{delivery['id']}/redeliver", None),
    ]
    for role in ("office", "viewer", "staff"):  # every default role but admin: none holds admin.view
        key = key_of(office, role)
        for read in reads:
            assert refused(office, "GET", read, key=key, status=403)["code"] == "forbidden"
    office.call("POST", "/access-roles", {"name": "hook-reader", "grants": ["admin.view"]})
    reader = key_of(office, "hook-reader")
    for read in reads:
        assert send(office, "GET", read, key=reader)[0] == 200
    for method, write, body in writes:
        assert refused(office, method, write, body, key=reader, status=403)["code"] == "forbidden"
    assert office.call("GET", path)["description"] is None
