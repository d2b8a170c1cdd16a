"""Web Push (SPEC §9, platform `web`): the token is the browser's PushSubscription JSON; the message is
encrypted for it with pywebpush and signed with our VAPID key (RFC 8291 and 8292), then POSTed to its endpoint
as UnifiedPush posts (delivery/push/unifiedpush.py)."""

import os
import time
from urllib.parse import urlsplit

from py_vapid import Vapid, VapidException
from pywebpush import WebPusher, WebPushException

from delivery.push.outcome import FAILED, PushResult
from delivery.push.unifiedpush import compact, post
from domain.errors import ConfigError
from formats import push_tokens

VAPID_SECONDS = 12 * 3600  # how long a VAPID signature holds (push services accept up to 24 hours)


class WebPush:
    name = "The Web Push service"

    def __init__(self, config, outbound, ttl):
        self.vapid = read_vapid(config["VAPID_PRIVATE_KEY"])
        self.subject = config["VAPID_SUBJECT"]
        if not self.subject.startswith(("mailto:", "https:")):
            raise ConfigError(f"BAND_VAPID_SUBJECT={self.subject!r}: expected a mailto: or https: URL")
        self.outbound, self.ttl = outbound, ttl

    async def send(self, token, environment, message):
        try:
            subscription = push_tokens.subscription(token)
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
        return await post(self.outbound, self.name, endpoint, body, headers)

    async def aclose(self):
        pass


def read_vapid(value):
    """The VAPID private key: a PEM file's path, or the key itself as pywebpush takes it (base64url, raw or DER)."""
    try:
        return Vapid.from_file(value) if os.path.isfile(value) else Vapid.from_string(value)
    except (VapidException, ValueError, TypeError) as error:
        raise ConfigError(f"BAND_VAPID_PRIVATE_KEY: not a usable P-256 private key ({error})") from None
