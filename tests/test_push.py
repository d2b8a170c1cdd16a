"""The push gateways (SPEC §9), each against a local server on 127.0.0.1 that speaks its protocol
(tests/support/push_servers.py): what a sent push carries, and how a dead token, a busy gateway and a broken one are
told apart."""

import asyncio
import json
import time

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa
from py_vapid import Vapid

import settings
from errors import ConfigError
from push import MESSAGE_BYTES, Gateways, fit
from tests.support.push_servers import (
    Answer,
    ApnsServer,
    FcmServer,
    UnifiedPushServer,
    WebPushServer,
    apns_refusal,
    b64url,
    fcm_error,
    free_port,
)
from tests.support.served import Service

MESSAGE = {
    "notification_id": "0b6f9c2e-4d1a-4f5e-9a7c-3e2b1d0c9f8a",
    "type": "invitation",
    "title": "Invitation: Miller wedding, Sat 14 June",
    "body": "Keys, 18:00 at Town Hall. Answer by Thursday.",
    "data": {"gig_id": "gig_1", "gig_role_id": "grl_2", "invitation_id": "inv_3"},
}
DEVICE = "a3f0" * 16  # an APNs device token: 64 hex digits
SUBJECT = "mailto:office@band.example"


def configured(**overrides):
    return settings.load({"PUSH_TIMEOUT": 3.0, **overrides}, environ={})


def push(config, *sends, clock=time.time):
    """Each (platform, token, environment[, message]) in turn through one Gateways; their results."""

    async def run():
        async with Gateways(config, clock=clock) as gateways:
            return [await gateways.send(*send[:3], send[3] if len(send) > 3 else MESSAGE) for send in sends]

    return asyncio.run(run())


def pem(key):
    return key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )


def written(path, content):
    path.write_bytes(content)
    return str(path)


@pytest.fixture
def servers():
    started = []
    yield started
    for server in started:
        server.close()


# APNs


@pytest.fixture
def apns(tmp_path, servers):
    """An APNs stand-in, and the settings of a team whose key it knows."""
    key = ec.generate_private_key(ec.SECP256R1())

    def start(answer=None, public_key=key.public_key()):
        server = ApnsServer(public_key, "KEY1234567", "TEAM123456", "org.band.office", answer)
        servers.append(server)
        config = configured(
            APNS_KEY_FILE=written(tmp_path / "AuthKey.p8", pem(key)),
            APNS_KEY_ID="KEY1234567",
            APNS_TEAM_ID="TEAM123456",
            APNS_TOPIC="org.band.office",
            APNS_URL=server.origin,
        )
        return server, config

    return start


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


@pytest.mark.parametrize(
    ("answer", "outcome", "retry_after"),
    [
        (apns_refusal(410, "Unregistered"), "dead", None),
        (apns_refusal(410, "ExpiredToken"), "dead", None),
        (apns_refusal(400, "BadDeviceToken"), "dead", None),
        (apns_refusal(429, "TooManyRequests", {"retry-after": "120"}), "retry", 120),
        (apns_refusal(503, "ServiceUnavailable"), "retry", None),
        (apns_refusal(413, "PayloadTooLarge"), "failed", None),
    ],
)
def test_apns_answers_tell_a_dead_token_a_busy_gateway_and_a_failure_apart(apns, answer, outcome, retry_after):
    _, config = apns(lambda n: answer)
    [result] = push(config, ("ios", DEVICE, "production"))
    assert (result.outcome, result.retry_after) == (outcome, retry_after)
    assert json.loads(answer.body)["reason"] in result.error


def test_the_environment_picks_apples_host(apns):
    _, config = apns()

    async def hosts():
        async with Gateways(configured(**{**config, "APNS_URL": ""})) as gateways:
            ios = gateways.gateways["ios"]
            return ios.host("production"), ios.host("sandbox")

    assert asyncio.run(hosts()) == ("https://api.push.apple.com", "https://api.sandbox.push.apple.com")


# FCM


@pytest.fixture
def fcm(tmp_path, servers):
    """An FCM stand-in (token endpoint and HTTP v1 send), and a service account file that points at it."""
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)

    def start(answer=None, public_key=key.public_key()):
        server = FcmServer(public_key, "push@band-test.iam.gserviceaccount.com", answer)
        servers.append(server)
        account = {
            "type": "service_account",
            "project_id": "band-test",
            "private_key_id": "key-1",
            "private_key": pem(key).decode(),
            "client_email": "push@band-test.iam.gserviceaccount.com",
            "client_id": "1",
            "token_uri": server.token_uri,
        }
        (tmp_path / "service-account.json").write_text(json.dumps(account))
        return server, configured(FCM_CREDENTIALS=str(tmp_path / "service-account.json"), FCM_URL=server.origin)

    return start


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


@pytest.mark.parametrize(
    ("answer", "outcome", "retry_after"),
    [
        (fcm_error(404, "UNREGISTERED"), "dead", None),
        # a wrong BAND_FCM_URL or project answers 404 too: that must not delete every android device
        (Answer(404, {"content-type": "text/html"}, b"<html>Not Found</html>"), "failed", None),
        (Answer.json(404, {"error": {"code": 404, "status": "NOT_FOUND", "message": "Not found."}}), "failed", None),
        (fcm_error(400, "INVALID_ARGUMENT"), "failed", None),
        (fcm_error(429, "QUOTA_EXCEEDED", {"retry-after": "30"}), "retry", 30),
        (fcm_error(503, "UNAVAILABLE"), "retry", None),
    ],
)
def test_fcm_answers_tell_a_dead_token_a_busy_gateway_and_a_failure_apart(fcm, answer, outcome, retry_after):
    _, config = fcm(lambda n: answer)
    [result] = push(config, ("android", "fcm-token-1", "production"))
    assert (result.outcome, result.retry_after) == (outcome, retry_after)


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


@pytest.fixture
def web(tmp_path, servers):
    """A Web Push service and the VAPID settings it expects: the key as a PEM file or as a base64url string."""
    vapid = Vapid()
    vapid.generate_keys()
    vapid.save_key(str(tmp_path / "vapid.pem"))
    public = b64url(
        vapid.public_key.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    )
    raw = b64url(vapid.private_key.private_numbers().private_value.to_bytes(32, "big"))

    def start(answer=None, expected_key=public, key_as="file"):
        server = WebPushServer(expected_key, SUBJECT, answer)
        servers.append(server)
        key = str(tmp_path / "vapid.pem") if key_as == "file" else raw
        return server, configured(VAPID_PRIVATE_KEY=key, VAPID_SUBJECT=SUBJECT)

    return start


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


@pytest.mark.parametrize("platform", ["web", "unifiedpush"])
@pytest.mark.parametrize(
    ("answer", "outcome", "retry_after"),
    [
        (Answer(410), "dead", None),
        (Answer(404), "dead", None),
        (Answer(429, {"retry-after": "45"}), "retry", 45),
        (Answer(500), "retry", None),
        (Answer(400), "failed", None),
        (Answer(301, {"location": "http://127.0.0.1:1/elsewhere"}), "failed", None),
    ],
)
def test_push_endpoints_tell_a_dead_token_a_busy_service_and_a_failure_apart(
    web, servers, platform, answer, outcome, retry_after
):
    server, config = web(lambda n: answer)
    if platform == "unifiedpush":
        server = UnifiedPushServer(lambda n: answer)
        servers.append(server)
    token = server.subscription() if platform == "web" else f"{server.origin}/up/abc"
    [result] = push(config, (platform, token, "production"))
    assert (result.outcome, result.retry_after) == (outcome, retry_after)
    assert f"answered {answer.status}." in result.error and len(server.received) == 1


def test_a_gateway_that_is_down_or_silent_is_tried_again_later(servers):
    silent = UnifiedPushServer(lambda n: Answer(201, delay=5))
    servers.append(silent)
    started = time.monotonic()
    down, slow = push(
        configured(PUSH_TIMEOUT=0.5),
        ("unifiedpush", f"http://127.0.0.1:{free_port()}/up", "production"),
        ("unifiedpush", f"{silent.origin}/up", "production"),
    )
    assert (down.outcome, slow.outcome) == ("retry", "retry")
    assert (
        down.error.startswith("The UnifiedPush server could not connect")
        and slow.error == "The UnifiedPush server gave no answer within 0.5 s."
    )
    assert time.monotonic() - started < 3


@pytest.mark.parametrize(
    ("platform", "token"),
    [
        ("unifiedpush", "not a url"),
        ("unifiedpush", "ftp://127.0.0.1/up"),
        ("unifiedpush", "http://user:secret@127.0.0.1/up"),
        ("web", '{"endpoint": "x"}'),
        ("web", "{"),
    ],
)
def test_a_token_that_names_no_endpoint_fails_without_a_request(web, platform, token):
    server, config = web()
    [result] = push(config, (platform, token, "production"))
    assert result.outcome == "failed" and server.received == []


# Answers


@pytest.mark.parametrize("platform", ["ios", "android", "web", "unifiedpush"])
def test_an_endless_answer_is_read_no_further_than_its_start(apns, fcm, web, servers, platform):
    """An endpoint (a user's own, for web and unifiedpush) streaming without end neither fills memory nor
    holds the push until the timeout: its first bytes are read, enough for the gateway's reason."""
    endless = {
        "ios": Answer(400, {"content-type": "application/json"}, b'{"reason": "BadDeviceToken"}', endless=True),
        "android": Answer(**{**vars(fcm_error(404, "UNREGISTERED")), "endless": True}),
        "web": Answer(201, endless=True),
        "unifiedpush": Answer(201, endless=True),
    }[platform]
    if platform == "ios":
        (server, config), token = apns(lambda n: endless), DEVICE
    elif platform == "android":
        (server, config), token = fcm(lambda n: endless), "fcm-token-1"
    else:
        server, config = web(lambda n: endless)
        token = server.subscription()
        if platform == "unifiedpush":
            server = UnifiedPushServer(lambda n: endless)
            servers.append(server)
            token = f"{server.origin}/up/abc"
    started = time.monotonic()
    [result] = push(config, (platform, token, "production"))
    assert result.outcome == ("sent" if endless.status == 201 else "dead"), result.error
    assert time.monotonic() - started < config["PUSH_TIMEOUT"] and len(server.received) == 1


# The message and the configuration


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


def test_only_unifiedpush_works_with_nothing_configured():
    async def run():
        async with Gateways(configured()) as gateways:
            result = await gateways.send("ios", DEVICE, "production", MESSAGE)
            return gateways.configured, gateways.skipped, result

    platforms, skipped, result = asyncio.run(run())
    assert platforms == {"unifiedpush"}
    assert skipped == (
        "push skipped for ios (BAND_APNS_KEY_FILE, BAND_APNS_KEY_ID, BAND_APNS_TEAM_ID, BAND_APNS_TOPIC not set); "
        "android (BAND_FCM_CREDENTIALS not set); web (BAND_VAPID_PRIVATE_KEY, BAND_VAPID_SUBJECT not set)"
    )
    assert (result.outcome, result.error) == ("failed", "Push to ios is not configured on this server.")


def test_every_platform_works_when_configured(apns, fcm, web):
    config = {**apns()[1], **{k: v for k, v in fcm()[1].items() if k.startswith("FCM")}}
    config |= {k: v for k, v in web()[1].items() if k.startswith("VAPID")}

    async def run():
        async with Gateways(config) as gateways:
            return gateways.configured, gateways.skipped

    assert asyncio.run(run()) == ({"ios", "android", "web", "unifiedpush"}, None)


@pytest.mark.parametrize(
    ("overrides", "complaint"),
    [
        ({"APNS_KEY_ID": "KEY1234567"}, "needs BAND_APNS_KEY_FILE, BAND_APNS_TEAM_ID, BAND_APNS_TOPIC as well"),
        ({"VAPID_SUBJECT": SUBJECT}, "needs BAND_VAPID_PRIVATE_KEY as well"),
        ({"FCM_CREDENTIALS": "/nonexistent/account.json"}, "not a readable service account file"),
        ({"VAPID_PRIVATE_KEY": "not-a-key", "VAPID_SUBJECT": SUBJECT}, "not a usable P-256 private key"),
        ({"VAPID_PRIVATE_KEY": b64url(bytes(range(1, 33))), "VAPID_SUBJECT": "office@band"}, "mailto: or https:"),
        ({"PUSH_TIMEOUT": 0.0}, "BAND_PUSH_TIMEOUT must be 0 to 60 seconds"),
        ({"FCM_URL": "fcm.example"}, "expected an http(s) URL"),
    ],
)
def test_a_half_made_configuration_stops_the_start(overrides, complaint):
    with pytest.raises(ConfigError, match=complaint.replace("(", r"\(").replace(")", r"\)")):
        Gateways(configured(**overrides))


def test_an_apns_key_that_is_not_es256_stops_the_start(tmp_path):
    names = {"APNS_KEY_ID": "K", "APNS_TEAM_ID": "T", "APNS_TOPIC": "org.band.office"}
    rsa_key = written(tmp_path / "rsa.p8", pem(rsa.generate_private_key(public_exponent=65537, key_size=2048)))
    with pytest.raises(ConfigError, match="not an ES256"):
        Gateways(configured(APNS_KEY_FILE=rsa_key, **names))


def test_serve_refuses_to_start_with_a_half_made_push_configuration(tmp_path):
    result = Service(tmp_path, BAND_APNS_KEY_ID="KEY1234567").run("serve", "--port", "0")
    assert result.returncode != 0
    assert "needs BAND_APNS_KEY_FILE, BAND_APNS_TEAM_ID, BAND_APNS_TOPIC as well" in result.stderr + result.stdout
