"""The push gateways (SPEC §9), each against a local server on 127.0.0.1 that speaks its protocol
(tests/support/push_servers.py): what a sent push carries, the credentials it goes with (APNs provider tokens,
FCM access tokens, VAPID), and a message shortened to fit."""

import asyncio
import json
import time

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa
from py_vapid import Vapid

from delivery.push import MESSAGE_BYTES, Gateways, fit
from tests.support.gateways import DEVICE, MESSAGE, SUBJECT, configured, gateway_fixtures, push
from tests.support.push_servers import (
    UnifiedPushServer,
    apns_refusal,
    b64url,
)

servers, apns, fcm, web = gateway_fixtures()


def test_an_apns_push_goes_over_http2_with_a_signed_provider_token(apns):
    server, config = apns()
    [result] = push(config, ("ios", DEVICE, "sandbox"))
    assert (result.outcome, result.error) == ("sent", None)
    [request] = server.received
    assert (request.protocol, request.method, request.path) == ("HTTP/2", "POST", f"/3/device/{DEVICE}")
    assert request.seen["kid"] == "KEY1234567" and request.seen["claims"]["iss"] == "TEAM123456"
    assert abs(request.seen["claims"]["iat"] - time.time()) < 60
    assert request.headers["apns-topic"] == "org.band.office" and request.headers["apns-push-type"] == "alert"
    assert request.headers["apns-collapse-id"] == MESSAGE["notification_id"]  # a repeat shows as the same one
    assert request.seen["payload"] == {
        "aps": {"alert": {"title": MESSAGE["title"], "body": MESSAGE["body"]}, "sound": "default"},
        "notification_id": MESSAGE["notification_id"],
        "type": "invitation",
        "data": MESSAGE["data"],
    }


def test_the_apns_provider_token_is_reused_and_made_anew_before_an_hour_passes(apns):
    server, config = apns()
    start = time.time() - 55 * 60  # Apple takes a token up to an hour old
    moments = iter([start, start + 49 * 60, start + 51 * 60])
    results = push(config, *[("ios", DEVICE, "production")] * 3, clock=lambda: next(moments))
    assert [r.outcome for r in results] == ["sent"] * 3
    first, second, third = (request.seen for request in server.received)
    assert first["token"] == second["token"]
    assert third["token"] != first["token"] and third["claims"]["iat"] == int(start + 51 * 60)


def test_an_expired_provider_token_is_retried_with_a_new_one(apns):
    server, config = apns(lambda n: apns_refusal(403, "ExpiredProviderToken") if n == 1 else None)
    first, second = push(config, ("ios", DEVICE, "production"), ("ios", DEVICE, "production"))
    assert (first.outcome, first.error) == ("retry", "APNs answered 403 ExpiredProviderToken.")
    assert second.outcome == "sent"
    assert server.received[0].seen["token"] != server.received[1].seen["token"]


def test_apns_checks_the_provider_tokens_signature(apns):
    _, config = apns(public_key=ec.generate_private_key(ec.SECP256R1()).public_key())
    [result] = push(config, ("ios", DEVICE, "production"))
    assert (result.outcome, result.error) == ("failed", "APNs answered 403 InvalidProviderToken.")


def test_the_environment_picks_apples_host(apns):
    _, config = apns()

    async def hosts():
        async with Gateways(configured(**{**config, "APNS_URL": ""})) as gateways:
            ios = gateways.gateways["ios"]
            return ios.host("production"), ios.host("sandbox")

    assert asyncio.run(hosts()) == ("https://api.push.apple.com", "https://api.sandbox.push.apple.com")


# FCM


def test_an_fcm_push_is_sent_with_an_access_token_from_the_service_account(fcm):
    server, config = fcm()
    results = push(config, ("android", "fcm-token-1", "production"), ("android", "fcm-token-2", "production"))
    assert [r.outcome for r in results] == ["sent", "sent"]
    assert server.issued == ["ya29.local-1"]  # one token, reused
    first = server.received[0]
    assert first.path == "/v1/projects/band-test/messages:send" and first.seen["bearer"] == "ya29.local-1"
    assert first.seen["message"] == {
        "token": "fcm-token-1",
        "notification": {"title": MESSAGE["title"], "body": MESSAGE["body"]},
        "data": {"notification_id": MESSAGE["notification_id"], "type": "invitation", **MESSAGE["data"]},
        "android": {"ttl": "86400s", "priority": "high"},
    }


def test_a_revoked_access_token_is_retried_with_a_new_one(fcm):
    server, config = fcm()

    async def run():
        async with Gateways(config) as gateways:
            first = await gateways.send("android", "fcm-token-1", "production", MESSAGE)
            server.revoked.add("ya29.local-1")
            return first, *[await gateways.send("android", "fcm-token-1", "production", MESSAGE) for _ in "ab"]

    assert [r.outcome for r in asyncio.run(run())] == ["sent", "retry", "sent"]
    assert server.issued == ["ya29.local-1", "ya29.local-2"]


def test_an_fcm_token_endpoint_that_refuses_the_account_fails_the_push(fcm):
    server, config = fcm(public_key=rsa.generate_private_key(public_exponent=65537, key_size=2048).public_key())
    [result] = push(config, ("android", "fcm-token-1", "production"))
    assert result.outcome == "failed" and "invalid_grant" in result.error
    assert server.received == []


# Web Push and UnifiedPush


@pytest.mark.parametrize("key_as", ["file", "string"])
def test_a_web_push_is_encrypted_for_the_subscription_and_signed_with_vapid(web, key_as):
    server, config = web(key_as=key_as)
    [result] = push(config, ("web", server.subscription(), "production"))
    assert (result.outcome, result.error) == ("sent", None)
    [request] = server.received
    assert request.path == "/push/device-1" and request.headers["ttl"] == "86400"
    assert request.seen["message"] == MESSAGE  # decrypted with the subscription's private key
    assert request.seen["claims"]["aud"] == server.origin and request.seen["claims"]["sub"] == SUBJECT


def test_a_web_push_signed_with_another_vapid_key_is_refused(web):
    other = Vapid()
    other.generate_keys()
    public = other.public_key.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    server, config = web(expected_key=b64url(public))
    [result] = push(config, ("web", server.subscription(), "production"))
    assert (result.outcome, result.error) == ("failed", "The Web Push service answered 401.")


def test_a_unifiedpush_push_is_the_message_posted_as_json(servers):
    server = UnifiedPushServer()
    servers.append(server)
    [result] = push(configured(), ("unifiedpush", f"{server.origin}/up/abc?x=1", "production"))
    assert result.outcome == "sent"
    [request] = server.received
    assert (request.path, request.headers["content-type"]) == ("/up/abc?x=1", "application/json")
    assert json.loads(request.body) == MESSAGE


def test_a_long_message_is_shortened_to_fit_in_4_kb(web):
    server, config = web()
    long = {**MESSAGE, "title": "T" * 500, "body": "Ünïcödé " * 2000}
    [result] = push(config, ("web", server.subscription(), "production", long))
    assert result.outcome == "sent"
    [request] = server.received
    message = request.seen["message"]
    assert (
        len(request.body) <= 4096
        and len(json.dumps(message, separators=(",", ":"), ensure_ascii=False).encode()) <= MESSAGE_BYTES
    )
    assert message["title"] == "T" * 500 and message["body"].startswith("Ünïcödé Ü") and message["body"][-1] == "…"
    assert message["data"] == MESSAGE["data"]


def test_a_message_whose_ids_alone_are_too_large_is_refused(web):
    server, config = web()
    huge = {**MESSAGE, "data": {f"id_{n}": "x" * 40 for n in range(100)}}
    [result] = push(config, ("web", server.subscription(), "production", huge))
    assert result.outcome == "failed" and "over 3072 bytes" in result.error
    assert server.received == []
    with pytest.raises(ValueError, match="ids alone"):
        fit({**MESSAGE, "data": {"address": {"street": "Main St 1"}}})
