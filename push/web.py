"""The two gateways that POST to a URL the device gave (SPEC §9): Web Push (platform `web`; the token is the
browser's PushSubscription JSON; the message is encrypted for it with pywebpush and signed with our VAPID key,
RFC 8291 and 8292) and UnifiedPush (platform `unifiedpush`; the token is the endpoint URL; a plain POST)."""

import json
import os
import time
from urllib.parse import urlsplit

import httpx
from py_vapid import Vapid, VapidException
from pywebpush import WebPusher, WebPushException

from errors import ConfigError
from push import outcome, tokens
from push.outcome import FAILED, PushResult, answered, unreachable

VAPID_SECONDS = 12 * 3600  # how long a VAPID signature holds (push services accept up to 24 hours)


class WebPush:
    name = "The Web Push service"

    def __init__(self, config, client, ttl):
        self.vapid = read_vapid(config["VAPID_PRIVATE_KEY"])
        self.subject = config["VAPID_SUBJECT"]
        if not self.subject.startswith(("mailto:", "https:")):
            raise ConfigError(f"BAND_VAPID_SUBJECT={self.subject!r}: expected a mailto: or https: URL")
        self.client, self.ttl = client, ttl

    async def send(self, token, environment, message):
        try:
            subscription = tokens.subscription(token)
            endpoint = subscription["endpoint"]
            body = WebPusher(subscription).encode(compact(message), "aes128gcm")["body"]
        except (ValueError, TypeError, KeyError, WebPushException) as error:
            return PushResult(FAILED, f"Not a usable PushSubscription: {error}"[:300])
        origin = "{0.scheme}://{0.netloc}".format(urlsplit(endpoint))
        claims = {"sub": self.subject, "aud": origin, "exp": int(time.time()) + VAPID_SECONDS}
        headers = self.vapid.sign(claims) | {
            "content-encoding": "aes128gcm",
            "content-type": "application/octet-stream",
            "ttl": str(self.ttl),
        }
        return await post(self.client, self.name, endpoint, body, headers)

    async def aclose(self):
        pass


class UnifiedPush:
    name = "The UnifiedPush server"

    def __init__(self, client, ttl):
        self.client, self.ttl = client, ttl

    async def send(self, token, environment, message):
        try:
            endpoint = tokens.endpoint(token)
        except ValueError as error:
            return PushResult(FAILED, str(error))
        headers = {"content-type": "application/json", "ttl": str(self.ttl)}
        return await post(self.client, self.name, endpoint, compact(message), headers)

    async def aclose(self):
        pass


async def post(client, name, endpoint, body, headers):
    """POST to a push endpoint: 404 and 410 mean the subscription is gone (RFC 8030)."""
    try:
        response, _ = await outcome.post(client, endpoint, content=body, headers=headers)
    except httpx.TransportError as error:
        return unreachable(name, error)
    return answered(name, response, response.status_code in (404, 410))


def compact(message):
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False).encode()


def read_vapid(value):
    """The VAPID private key: a PEM file's path, or the key itself as pywebpush takes it (base64url, raw or DER)."""
    try:
        return Vapid.from_file(value) if os.path.isfile(value) else Vapid.from_string(value)
    except (VapidException, ValueError, TypeError) as error:
        raise ConfigError(f"BAND_VAPID_PRIVATE_KEY: not a usable P-256 private key ({error})") from None
