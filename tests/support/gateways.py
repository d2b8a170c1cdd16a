"""Pushes sent through `push.Gateways` to the local gateways of tests/support/push_servers.py
(tests/test_push_*.py): the message sent, the settings of a configured server, and fixtures that start a gateway
with the settings of an account it knows."""

import asyncio
import json
import time

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa
from py_vapid import Vapid

from delivery.push import Gateways
from service import settings
from tests.support.push_servers import ApnsServer, FcmServer, WebPushServer, b64url
from tests.support.waiting import SLOW_MACHINE_SECONDS

MESSAGE = {
    "notification_id": "0b6f9c2e-4d1a-4f5e-9a7c-3e2b1d0c9f8a",
    "type": "invitation",
    "title": "Invitation: Miller wedding, Sat 14 June",
    "body": "Keys, 18:00 at Town Hall. Answer by Thursday.",
    "data": {"gig_id": "gig_1", "gig_role_id": "grl_2", "invitation_id": "inv_3"},
}
DEVICE = "a3f0" * 16  # an APNs device token: 64 hex digits
SUBJECT = "mailto:office@band.example"


# the stand-ins listen on 127.0.0.1, a push endpoint a user may register only where the office allows it (SPEC §2.3)
LOOPBACK_ALLOWED = {"PUSH_PRIVATE_HOSTS": "127.0.0.1"}


def configured(**overrides):
    """The settings of a configured server: a gateway's answer is waited for as long as a busy machine may take to give
    it (a stand-in's 500 took over 3 s on two cores running two suites), unless a test times out on purpose."""
    return settings.load({"PUSH_TIMEOUT": float(SLOW_MACHINE_SECONDS), **LOOPBACK_ALLOWED, **overrides}, environ={})


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


def gateway_fixtures():
    """The fixtures `servers` (the gateways a test started, closed after it) and `apns`, `fcm`, `web` (each
    `start(answer=None, ...)` -> (server, settings)), for a test module to name at its top:
    `servers, apns, fcm, web = gateway_fixtures()`."""

    @pytest.fixture
    def servers():
        started = []
        yield started
        for server in started:
            server.close()

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

    return servers, apns, fcm, web
