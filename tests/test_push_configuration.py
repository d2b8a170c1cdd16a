"""The push configuration (SPEC §9): what a server with nothing configured can push, every platform when all
are, and a half-made configuration that stops the start."""

import asyncio

import pytest
from cryptography.hazmat.primitives.asymmetric import rsa

from delivery.push import Gateways
from domain.errors import ConfigError
from tests.support.gateways import DEVICE, MESSAGE, SUBJECT, configured, gateway_fixtures, pem, written
from tests.support.push_servers import (
    b64url,
)
from tests.support.served import Service

servers, apns, fcm, web = gateway_fixtures()


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
