"""The push gateways' answers (SPEC §9), each from a local server on 127.0.0.1 that speaks its protocol
(tests/support/push_servers.py): a dead token, a busy gateway and a broken one told apart, a gateway down or
silent tried again later, a token that names no endpoint, and an endless answer read no further than its start."""

import json
import time

import pytest

from tests.support.gateways import DEVICE, configured, gateway_fixtures, push
from tests.support.push_servers import (
    Answer,
    UnifiedPushServer,
    apns_refusal,
    fcm_error,
    free_port,
)

servers, apns, fcm, web = gateway_fixtures()


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
    # the timeout leaves a busy machine time to hear the refusal of the one that is down (at 0.5 s, the timeout came
    # first on two cores running two suites)
    silent = UnifiedPushServer(lambda n: Answer(201, delay=20))
    servers.append(silent)
    started = time.monotonic()
    down, slow = push(
        configured(PUSH_TIMEOUT=2),
        ("unifiedpush", f"http://127.0.0.1:{free_port()}/up", "production"),
        ("unifiedpush", f"{silent.origin}/up", "production"),
    )
    assert (down.outcome, slow.outcome) == ("retry", "retry")
    assert (
        down.error.startswith("The UnifiedPush server could not connect")
        and slow.error == "The UnifiedPush server gave no answer within 2 s."
    )
    assert time.monotonic() - started < 10  # the timeout, not the silent gateway's answer


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
