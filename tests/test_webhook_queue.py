"""SPEC §8: one delivery per event and matching active endpoint, queued in the event's own transaction (no
sending here: the app runs without its worker, so what is queued stays in the delivery log)."""

import uuid

from tests.support.api import error_of


def endpoint(admin, event_types, **fields):
    body = {"url": "http://127.0.0.1:9/hook", "event_types": event_types, **fields}
    return admin.post("/webhook-endpoints", body).get_json()["data"]["id"]


def deliveries(admin, **filters):
    query = "&".join(f"filter[{name}]={value}" for name, value in filters.items())
    return admin.get(f"/webhook-deliveries?limit=200&{query}").get_json()["data"]


def test_an_event_is_queued_to_each_active_endpoint_asking_for_its_type(admin):
    asking = {endpoint(admin, ["*"]), endpoint(admin, ["team.*"]), endpoint(admin, ["gig.*", "team.created"])}
    endpoint(admin, ["team.updated"])
    endpoint(admin, ["gig.*"])
    endpoint(admin, ["*"], is_active=False)
    team = admin.post("/teams", {"name": "Horns"}).get_json()["data"]
    [event] = admin.get(f"/events?filter[subject_id]={team['id']}").get_json()["data"]
    queued = deliveries(admin, event_id=event["id"])
    assert {d["endpoint_id"] for d in queued} == asking and len(queued) == 3
    for delivery in queued:
        assert uuid.UUID(delivery["id"]).version == 4
        assert delivery["status"] == "pending" and delivery["attempts"] == 0
        assert delivery["event_type"] == "team.created" and delivery["next_attempt_at"] == event["occurred_at"]
        assert admin.get(f"/webhook-deliveries/{delivery['id']}").get_json()["data"] == delivery
    assert len({d["id"] for d in queued}) == 3


def test_a_refused_write_queues_nothing(admin):
    endpoint(admin, ["*"])
    before = len(deliveries(admin))
    error_of(admin.post("/teams", {"name": ""}), 422, "validation_failed")
    assert len(deliveries(admin)) == before


def test_a_ping_goes_to_its_endpoint_alone(admin):
    pinged, other = endpoint(admin, ["*"]), endpoint(admin, ["*"])
    r = admin.post(f"/webhook-endpoints/{pinged}/ping")
    assert r.status_code == 202
    delivery = r.get_json()["data"]
    assert delivery["endpoint_id"] == pinged and delivery["event_type"] == "ping" and delivery["status"] == "pending"
    assert deliveries(admin, event_type="ping") == [delivery]
    assert deliveries(admin, endpoint_id=other, event_type="ping") == []


def test_an_endpoint_switched_off_takes_no_ping_and_no_redelivery(admin):
    off = endpoint(admin, ["*"])
    admin.post("/teams", {"name": "Strings"})
    [delivery] = deliveries(admin, endpoint_id=off, event_type="team.created")
    assert admin.patch(f"/webhook-endpoints/{off}", {"is_active": False}).status_code == 200
    for path in (f"/webhook-endpoints/{off}/ping", f"/webhook-deliveries/{delivery['id']}/redeliver"):
        assert error_of(admin.post(path), 409, "conflict")["details"]["reason"] == "endpoint_inactive"
    assert admin.post("/teams", {"name": "Brass"}).status_code == 201
    assert deliveries(admin, endpoint_id=off, event_type="team.created") == [delivery]


def test_deleting_an_endpoint_deletes_its_delivery_log(admin):
    gone = endpoint(admin, ["team.*"])
    admin.post("/teams", {"name": "Keys"})
    assert deliveries(admin, endpoint_id=gone)
    assert admin.delete(f"/webhook-endpoints/{gone}").status_code == 204
    assert deliveries(admin, endpoint_id=gone) == []


def test_webhooks_own_records_are_sent_to_no_receiver(admin):
    watching = endpoint(admin, ["*"])
    other = endpoint(admin, ["*"])
    admin.patch(f"/webhook-endpoints/{other}", {"description": "The chat bot"})
    admin.post(f"/webhook-endpoints/{other}/rotate-secret")
    assert [d["event_type"] for d in deliveries(admin, endpoint_id=watching)] == []
    assert {
        e["type"] for e in admin.get("/events?filter[subject_collection]=webhook_endpoints").get_json()["data"]
    } == {
        "webhook_endpoint.created",
        "webhook_endpoint.updated",
        "webhook_endpoint.secret_rotated",
    }
