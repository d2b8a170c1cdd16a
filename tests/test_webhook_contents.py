"""SPEC §8 webhooks, what is sent to whom: signatures across a secret's rotation, a ping to its endpoint alone,
pay amounts only to the endpoints that include pay, and the event types an endpoint asked for."""

import pytest
from standardwebhooks import Webhook, WebhookVerificationError

from tests.support.receiver import Receiver
from tests.support.waiting import wait_for
from tests.support.webhook_office import deliveries, endpoint_for, refused, send, webhook_fixtures

serve, served, office = webhook_fixtures()


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


def test_a_gigs_money_in_reaches_only_the_endpoints_that_include_sales(office):
    with Receiver() as without_sales, Receiver() as with_sales:
        endpoint_for(office, without_sales, event_types=["gig.updated"])
        endpoint_for(office, with_sales, event_types=["gig.updated"], include_sales=True)
        gig = office.call("POST", "/gigs", {"gig_date": "2027-06-12", "title": "Sold"})
        quote = office.call("POST", "/quotes", {"gig_id": gig["id"]})
        office.call("POST", "/quote-lines", {"quote_id": quote["id"], "description": "Band", "unit_price_cents": 100})
        office.call("PATCH", f"/gigs/{gig['id']}", {"title": "Sold, a draft quote"})
        [hidden] = wait_for(lambda: without_sales.received)
        [shown] = wait_for(lambda: with_sales.received)
        assert hidden.verified and shown.verified
        assert hidden.payload["data"]["data"]["quote_status"] is None
        assert shown.payload["data"]["data"]["quote_status"] == "draft"
