"""Apple Push Notification service (SPEC §9, platform `ios`): HTTP/2 only, authorised by an ES256 token (JWT)
signed with the team's .p8 key, made once and renewed every 50 minutes (Apple refuses one older than an hour,
and one renewed more often than every 20 minutes)."""

import json
import time
from urllib.parse import quote

import httpx
import jwt
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import load_pem_private_key

from delivery.push import outcome
from delivery.push.outcome import RETRY, PushResult, answered, unreachable
from domain.errors import ConfigError

HOSTS = {"production": "https://api.push.apple.com", "sandbox": "https://api.sandbox.push.apple.com"}
TOKEN_SECONDS = 50 * 60
DEAD_REASONS = {"BadDeviceToken", "Unregistered"}
STALE_TOKEN_REASONS = {"ExpiredProviderToken"}  # renewed at once; the next attempt carries a fresh one


class Apns:
    name = "APNs"

    def __init__(self, config, timeout, ttl, destinations, clock=time.time):
        self.key = read_key(config["APNS_KEY_FILE"])
        self.key_id, self.team_id, self.topic = config["APNS_KEY_ID"], config["APNS_TEAM_ID"], config["APNS_TOPIC"]
        self.url = config["APNS_URL"].rstrip("/")
        self.ttl, self.clock = ttl, clock
        self.token, self.made_at = None, None
        # http1=False: HTTP/2 only, negotiated by ALPN over TLS (prior knowledge on an http:// URL)
        self.client = httpx.AsyncClient(
            http1=False, http2=True, timeout=timeout, trust_env=False, headers=outcome.IDENTITY
        )
        self.outbound = outcome.Outbound(self.client, destinations)

    def host(self, environment):
        return self.url or HOSTS[environment]

    def bearer(self, moment):
        """The provider token, made anew when it is TOKEN_SECONDS old at `moment`."""
        if self.token is None or moment - self.made_at >= TOKEN_SECONDS:
            claims = {"iss": self.team_id, "iat": int(moment)}
            self.token = jwt.encode(claims, self.key, algorithm="ES256", headers={"kid": self.key_id})
            self.made_at = moment
        return self.token

    async def send(self, token, environment, message):
        moment = self.clock()
        payload = {"aps": {"alert": {"title": message["title"], "body": message["body"]}, "sound": "default"}}
        payload |= {"notification_id": message["notification_id"], "type": message["type"], "data": message["data"]}
        headers = {
            "authorization": f"bearer {self.bearer(moment)}",
            "apns-topic": self.topic,
            "apns-push-type": "alert",
            "apns-priority": "10",
            "apns-expiration": str(int(moment) + self.ttl),
            "apns-collapse-id": message["notification_id"],  # a repeat replaces the one shown, if still shown
        }
        url = f"{self.host(environment)}/3/device/{quote(token, safe='')}"
        try:
            response, excerpt = await self.outbound.post(url, json=payload, headers=headers)
        except httpx.TransportError as error:
            return unreachable(self.name, error)
        reason = reason_of(excerpt)
        if reason in STALE_TOKEN_REASONS:
            self.token = None
            return PushResult(RETRY, f"{self.name} answered {response.status_code} {reason}.")
        return answered(self.name, response, response.status_code == 410 or reason in DEAD_REASONS, reason)

    async def aclose(self):
        await self.client.aclose()


def reason_of(excerpt):
    """APNs says why in a JSON body `{"reason": ...}`."""
    try:
        reason = json.loads(excerpt).get("reason")
    except (ValueError, AttributeError):
        return None
    return reason if isinstance(reason, str) else None


def read_key(path):
    try:
        with open(path, "rb") as file:
            key = load_pem_private_key(file.read(), password=None)
    except (OSError, ValueError, TypeError) as error:
        raise ConfigError(f"BAND_APNS_KEY_FILE={path!r}: not a readable .p8 key ({error})") from None
    if not isinstance(key, ec.EllipticCurvePrivateKey) or key.curve.name != "secp256r1":
        raise ConfigError(f"BAND_APNS_KEY_FILE={path!r}: not an ES256 (P-256) key")
    return key
