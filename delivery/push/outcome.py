"""What one push came to, as the notification worker needs it: sent, the token is dead (delete the device), try
again later (with the gateway's Retry-After, if it gave one), or failed for good; how an HTTP answer or a
transport error maps onto that, shared by the four gateways; and `Outbound`, how they POST: at most
outgoing.PER_DESTINATION at once to one destination, reading no more of an answer than its start."""

import datetime as dt
from dataclasses import dataclass

from delivery.backoff import retry_after_seconds
from delivery.outgoing import ClientOnFirstUse, Destinations

SENT, DEAD, RETRY, FAILED = "sent", "dead", "retry", "failed"
EXCERPT_BYTES = 4096  # of an answer's body: room for any gateway's reason
IDENTITY = {"accept-encoding": "identity"}  # so that the bytes read are the body, not a compressed bomb of it


@dataclass(frozen=True)
class PushResult:
    outcome: str  # SENT, DEAD, RETRY or FAILED
    error: str | None = None  # one short line for the log and the notification's channel state
    retry_after: float | None = None  # seconds the gateway asked us to wait (RETRY only), at most an hour


@dataclass(frozen=True)
class Outbound:
    """How the gateways POST: an HTTP client, and the turns each destination gives (outgoing.Destinations)."""

    client: ClientOnFirstUse  # or an httpx.AsyncClient of its own (APNs: HTTP/2)
    destinations: Destinations

    async def post(self, url, **request):
        """POST once `url`'s destination has room, and read at most EXCERPT_BYTES of the answer's body, then close
        it: the answer (its body unread) and the excerpt. A push endpoint may be a user's own: one that hangs must
        hold up no other destination's pushes, and one answering without end must not fill memory nor hold the
        push until the timeout."""
        async with self.destinations.turn(url):
            response = await self.client.send(self.client.build_request("POST", url, **request), stream=True)
            try:
                excerpt = b""
                async for chunk in response.aiter_raw():
                    excerpt += chunk
                    if len(excerpt) >= EXCERPT_BYTES:
                        break
            finally:
                await response.aclose()
        return response, excerpt[:EXCERPT_BYTES]


def answered(gateway, response, dead=False, reason=None):
    """The outcome of an HTTP answer: 2xx sent; `dead` when the gateway's own rules say the token is gone;
    429 and 5xx retry; anything else failed. `reason` is the gateway's word for it, if it gave one."""
    code = response.status_code
    if 200 <= code < 300:
        return PushResult(SENT)
    error = f"{gateway} answered {code}" + (f" {reason}" if reason else "") + "."
    if dead:
        return PushResult(DEAD, error)
    if code == 429 or code >= 500:
        moment = dt.datetime.now(dt.UTC)
        return PushResult(RETRY, error, retry_after_seconds(response.headers.get("retry-after"), moment))
    return PushResult(FAILED, error)


def unreachable(gateway, error):
    """The outcome of a request that got no answer: a refused connection, a timeout, a broken protocol."""
    import httpx  # here: loaded by the first push (outgoing.ClientOnFirstUse)

    kinds = {
        httpx.ConnectError: "could not connect",
        httpx.TimeoutException: "timed out",
        httpx.RemoteProtocolError: "broke the protocol",
    }
    kind = next((text for cls, text in kinds.items() if isinstance(error, cls)), type(error).__name__)
    return PushResult(RETRY, f"{gateway} {kind}" + (f": {error}" if str(error) else "") + ".")
