"""The push gateways of SPEC §9, as the notification worker calls them: `Gateways(config)` from the settings,
`await gateways.send(platform, token, environment, message)` -> a `PushResult` (sent, dead, retry or failed),
`await gateways.aclose()` at the end. The caller deletes a device whose token is dead and backs off on retry;
this module only says which.

A message is `{notification_id, type, title, body, data}`, `data` holding ids alone; the notification's id goes
with every push, so that a repeat after a crash is recognisably the same message (SPEC §2.3). That it never
carries an address or an amount is the caller's duty (the app reads those from /me); here its title and body are
shortened so that it stays under 4 KB on every platform, and one whose data alone is too large is refused.

Each destination (scheme, host, port) takes at most outgoing.PER_DESTINATION pushes at once, the rest waiting
their turn within their timeout: a device whose endpoint hangs holds up the pushes to its own endpoint alone."""

import asyncio
import json
import time

from delivery.outgoing import ClientOnFirstUse, Destinations
from delivery.push.outcome import DEAD, FAILED, IDENTITY, RETRY, SENT, Outbound, PushResult
from delivery.push.unifiedpush import UnifiedPush
from domain.errors import ConfigError

PLATFORMS = ("ios", "android", "web", "unifiedpush")
DEVICES_PER_USER = 10  # a user keeps this many devices at most (SPEC §2.3): routes/devices.py drops the oldest
NEEDS = {
    "ios": ("APNS_KEY_FILE", "APNS_KEY_ID", "APNS_TEAM_ID", "APNS_TOPIC"),
    "android": ("FCM_CREDENTIALS",),
    "web": ("VAPID_PRIVATE_KEY", "VAPID_SUBJECT"),
}
MESSAGE_BYTES = 3072  # as compact JSON: each platform's framing (and Web Push's encryption) fits in 4 KB beside it
TTL_SECONDS = 24 * 3600  # how long a gateway keeps a push for a device that is offline
ELLIPSIS = "…"
CONNECTIONS = 100  # httpx's own default; the notification sender asks for as many as it may have on their way

__all__ = ["DEAD", "DEVICES_PER_USER", "FAILED", "PLATFORMS", "RETRY", "SENT", "Gateways", "PushResult", "check", "fit"]


class Gateways:
    """The platforms this server can push to (`configured`), and a line saying which it skips (`skipped`)."""

    def __init__(self, config, clock=time.time, connections=CONNECTIONS):
        self.timeout = config["PUSH_TIMEOUT"]
        if not 0 < self.timeout <= 60:
            raise ConfigError("BAND_PUSH_TIMEOUT must be 0 to 60 seconds")
        for name in ("APNS_URL", "FCM_URL"):
            if config[name] and not config[name].startswith(("http://", "https://")):
                raise ConfigError(f"BAND_{name}={config[name]!r}: expected an http(s) URL")
        unset = {platform: [name for name in names if not config[name]] for platform, names in NEEDS.items()}
        for platform, missing in unset.items():
            if 0 < len(missing) < len(NEEDS[platform]):
                raise ConfigError(f"push to {platform} needs {', '.join('BAND_' + n for n in missing)} as well")
        self.unset = {platform: missing for platform, missing in unset.items() if missing}
        # The whole of a send, its wait for its destination's turn included, is cut off at the timeout (below);
        # httpx's own, a little later, is a backstop. The pool holds as many connections as the caller may have
        # pushes on their way, so that a push waits for its own destination alone, never for a free connection.
        limits = {"max_connections": connections, "max_keepalive_connections": min(connections, 20)}
        # The gateways the office configured (FCM) are reached as they are; the endpoints users registered
        # (UnifiedPush, Web Push) through a client that connects to public addresses alone (delivery/addresses.py).
        headers = {"user-agent": "Band-Office", **IDENTITY}
        options = {"timeout": self.timeout + 1, "trust_env": False, "headers": headers}
        self.client = ClientOnFirstUse(limits, **options)
        self.endpoints = ClientOnFirstUse(limits, public_only=config["PUSH_PRIVATE"], **options)
        self.clients = {"android": self.client, "unifiedpush": self.endpoints, "web": self.endpoints}
        destinations = Destinations()
        outbound, to_endpoints = Outbound(self.client, destinations), Outbound(self.endpoints, destinations)
        # A platform's libraries are loaded only when it is configured: together they weigh some 40 MB, a lot
        # on a Raspberry Pi that pushes to one platform or none.
        self.gateways = {"unifiedpush": UnifiedPush(to_endpoints, TTL_SECONDS)}
        if "ios" not in self.unset:
            from delivery.push.apns import Apns

            self.gateways["ios"] = Apns(config, self.timeout + 1, TTL_SECONDS, destinations, clock)
        if "android" not in self.unset:
            from delivery.push.fcm import Fcm

            self.gateways["android"] = Fcm(config, outbound, self.timeout, TTL_SECONDS)
        if "web" not in self.unset:
            from delivery.push.web import WebPush

            self.gateways["web"] = WebPush(config, to_endpoints, TTL_SECONDS)

    @property
    def configured(self):
        return frozenset(self.gateways)

    @property
    def skipped(self):
        """One line for the log at start, or None when every platform is configured."""
        if not self.unset:
            return None
        parts = [
            f"{platform} ({', '.join('BAND_' + n for n in names)} not set)" for platform, names in self.unset.items()
        ]
        return "push skipped for " + "; ".join(parts)

    async def send(self, platform, token, environment, message):
        """Push `message` to one device. A platform that is not configured fails at once: callers look at
        `configured` first and mark such devices skipped."""
        if platform not in PLATFORMS or environment not in ("production", "sandbox"):
            raise ValueError(f"no push platform {platform!r} in environment {environment!r}")
        if platform not in self.gateways:
            return PushResult(FAILED, f"Push to {platform} is not configured on this server.")
        fitted = fit(message)
        if fitted is None:
            return PushResult(FAILED, f"The message's data alone is over {MESSAGE_BYTES} bytes.")
        gateway = self.gateways[platform]
        if platform in self.clients:
            self.clients[platform].ready()  # before the timeout counts
        try:
            return await asyncio.wait_for(gateway.send(token, environment, fitted), self.timeout)
        except TimeoutError:
            return PushResult(RETRY, f"{gateway.name} gave no answer within {self.timeout:g} s.")

    async def aclose(self):
        for gateway in self.gateways.values():
            await gateway.aclose()
        await self.client.aclose()
        await self.endpoints.aclose()

    async def __aenter__(self):
        return self

    async def __aexit__(self, *exc_info):
        await self.aclose()


def check(config):
    """Raise ConfigError when the push settings are half made or a key cannot be used: `serve` then refuses to
    start, rather than run without push."""

    async def built():
        async with Gateways(config):
            pass

    asyncio.run(built())


def fit(message):
    """The message with its body, then its title, shortened (ending in …) until it is at most MESSAGE_BYTES as
    compact JSON; None when even empty ones would not fit. Its data must hold ids alone (strings, integers,
    null): anything else is a caller's mistake, a ValueError."""
    if set(message) != {"notification_id", "type", "title", "body", "data"} or not isinstance(message["data"], dict):
        raise ValueError("a push message is {notification_id, type, title, body, data}")
    if not all(isinstance(message[key], str) for key in ("notification_id", "type", "title", "body")):
        raise ValueError("a push message's notification_id, type, title and body are strings")
    if not all(isinstance(v, str | int | None) and not isinstance(v, bool) for v in message["data"].values()):
        raise ValueError("a push message's data holds ids alone")
    fitted = dict(message)
    for field in ("body", "title"):
        while (excess := size(fitted) - MESSAGE_BYTES) > 0 and fitted[field]:
            kept = fitted[field].encode()[: -excess - len(ELLIPSIS.encode())].decode(errors="ignore")
            fitted[field] = kept + ELLIPSIS if kept else ""
    return fitted if size(fitted) <= MESSAGE_BYTES else None


def size(message):
    return len(json.dumps(message, separators=(",", ":"), ensure_ascii=False).encode())
