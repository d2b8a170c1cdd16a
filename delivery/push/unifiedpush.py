"""UnifiedPush (SPEC §9, platform `unifiedpush`): the token is the endpoint URL the device's distributor gave; the
message is a plain POST of its JSON. Also how Web Push posts once it has encrypted the message."""

import json

from delivery.addresses import NotPublic
from delivery.push.outcome import FAILED, PushResult, answered, unreachable
from formats import push_tokens


class UnifiedPush:
    name = "The UnifiedPush server"

    def __init__(self, outbound, ttl):
        self.outbound, self.ttl = outbound, ttl

    async def send(self, token, environment, message):
        try:
            endpoint = push_tokens.endpoint(token)
        except ValueError as error:
            return PushResult(FAILED, str(error))
        headers = {"content-type": "application/json", "ttl": str(self.ttl)}
        return await post(self.outbound, self.name, endpoint, compact(message), headers)

    async def aclose(self):
        pass


async def post(outbound, name, endpoint, body, headers):
    """POST to a push endpoint: 404 and 410 mean the subscription is gone (RFC 8030); one whose host is not a
    public address gets no request."""
    import httpx  # here: loaded by the first push (outgoing.ClientOnFirstUse)

    try:
        response, _ = await outbound.post(endpoint, content=body, headers=headers)
    except httpx.TransportError as error:
        return unreachable(name, error)
    except NotPublic as refused:  # at each send: the name may resolve elsewhere than when it was registered
        return PushResult(FAILED, str(refused))
    return answered(name, response, response.status_code in (404, 410))


def compact(message):
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False).encode()
