"""SPEC §8 webhook endpoints: the event types and receiver URL an endpoint may have; who may read and change it."""

import pytest

from tests.support.webhook_office import key_of, refused, send, webhook_fixtures

serve, served, office = webhook_fixtures()


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
