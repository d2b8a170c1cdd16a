"""Firebase Cloud Messaging, HTTP v1 API (SPEC §9, platform `android`): authorised by an OAuth 2 access token
that google-auth gets from the service account file (the token endpoint is the file's `token_uri`). google-auth
refreshes it with blocking HTTP (requests), so that runs in a thread, one refresh at a time."""

import asyncio
import functools
import json

import google.auth.exceptions
import google.auth.transport.requests
import httpx
import requests
from google.oauth2 import service_account

from delivery.push.outcome import FAILED, RETRY, PushResult, answered, unreachable
from domain.errors import ConfigError

SCOPE = "https://www.googleapis.com/auth/firebase.messaging"
DEAD_CODES = {"UNREGISTERED"}


class Fcm:
    name = "FCM"

    def __init__(self, config, outbound, timeout, ttl):
        self.credentials = read_credentials(config["FCM_CREDENTIALS"])
        self.url = f"{config['FCM_URL'].rstrip('/')}/v1/projects/{self.credentials.project_id}/messages:send"
        self.outbound, self.ttl = outbound, ttl
        session = requests.Session()
        session.trust_env = False
        self.token_request = functools.partial(google.auth.transport.requests.Request(session), timeout=timeout)
        self.refreshing = asyncio.Lock()

    async def access_token(self):
        async with self.refreshing:
            if not self.credentials.valid:  # none yet, or less than google-auth's margin (minutes) left
                await asyncio.to_thread(self.credentials.refresh, self.token_request)
        return self.credentials.token

    async def send(self, token, environment, message):
        try:
            bearer = await self.access_token()
        except google.auth.exceptions.GoogleAuthError as error:
            return refusal(error)
        data = {"notification_id": message["notification_id"], "type": message["type"]}
        data |= {k: str(v) for k, v in message["data"].items() if v is not None}
        notification = {"title": message["title"], "body": message["body"]}
        body = {"message": {"token": token, "notification": notification, "data": data}}
        body["message"]["android"] = {"ttl": f"{self.ttl}s", "priority": "high"}
        try:
            response, excerpt = await self.outbound.post(
                self.url, json=body, headers={"authorization": f"Bearer {bearer}"}
            )
        except httpx.TransportError as error:
            return unreachable(self.name, error)
        if response.status_code == 401:  # the access token was revoked or has run out early: get another
            self.credentials.token = None
            return PushResult(RETRY, f"{self.name} answered 401.")
        # only FCM's own word: a wrong BAND_FCM_URL or project answers a bare 404 too, for every token
        code = error_code(excerpt)
        return answered(self.name, response, code in DEAD_CODES, code)

    async def aclose(self):
        pass


def error_code(excerpt):
    """FCM's reason: the FcmError detail's `errorCode` (UNREGISTERED, QUOTA_EXCEEDED, ...), else the `status`."""
    try:
        error = json.loads(excerpt)["error"]
        codes = [d.get("errorCode") for d in error.get("details", []) if isinstance(d, dict)]
        return next((c for c in codes if isinstance(c, str)), None) or error.get("status")
    except (ValueError, KeyError, TypeError, AttributeError):
        return None


def refusal(error):
    """The token endpoint did not give an access token: a broken connection is worth another try, a refusal
    (a revoked key, say) is not."""
    retryable = getattr(error, "retryable", False) or isinstance(error, google.auth.exceptions.TransportError)
    return PushResult(RETRY if retryable else FAILED, f"FCM's token endpoint: {error}"[:300])


def read_credentials(path):
    try:
        credentials = service_account.Credentials.from_service_account_file(path, scopes=[SCOPE])
    except (OSError, ValueError) as error:
        raise ConfigError(f"BAND_FCM_CREDENTIALS={path!r}: not a readable service account file ({error})") from None
    if not credentials.project_id:
        raise ConfigError(f"BAND_FCM_CREDENTIALS={path!r}: the service account file names no project_id")
    return credentials
