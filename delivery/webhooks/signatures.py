"""Webhook signing (SPEC §8): each endpoint's secret, and the headers of the Standard Webhooks specification that
sign a delivery with it. A rotated secret keeps signing beside the new one for a day, while receivers move over.
(The service's other signed values, feed tokens and answer links, are `domain/signed_links.py`'s.)"""

import base64
import datetime as dt
import secrets

from standardwebhooks import Webhook

from models import WebhookEndpoint, now, timestamp
from storage import writer

SECRET_PREFIX_CHARS = 10  # `whsec_` and four characters: enough to tell two secrets apart, nothing to sign with
ROTATION = dt.timedelta(hours=24)  # how long the secret before a rotation still signs


def new_secret():
    """`whsec_` + base64 of 24 random bytes, as the Standard Webhooks libraries read it."""
    return "whsec_" + base64.b64encode(secrets.token_bytes(24)).decode()


def set_secret(endpoint, secret):
    endpoint.secret, endpoint.secret_prefix = secret, secret[:SECRET_PREFIX_CHARS]


def rotate_secret(endpoint):
    """A new secret; the old one keeps signing beside it for a day, while receivers move over. Returns it."""
    endpoint.previous_secret = endpoint.secret
    endpoint.previous_secret_until = timestamp(dt.datetime.now(dt.UTC) + ROTATION)
    set_secret(endpoint, new_secret())
    return endpoint.secret


def live_secrets(endpoint):
    """The secrets that sign a delivery to `endpoint` now: its own, and the one before a rotation for a day."""
    live = [endpoint.secret]
    if endpoint.previous_secret and endpoint.previous_secret_until > now():
        live.append(endpoint.previous_secret)
    return tuple(live)


def forget_old_secrets():
    """A secret replaced over a day ago signs nothing any more: it is not kept either."""
    with writer.transaction():
        expired = WebhookEndpoint.previous_secret_until < now()
        WebhookEndpoint.update(previous_secret=None, previous_secret_until=None).where(expired).execute()


def signed_headers(message_id, body, live, moment):
    """The Standard Webhooks headers of `body` sent at `moment`: one signature per secret of `live`."""
    signatures = " ".join(Webhook(secret).sign(message_id, moment, body) for secret in live)
    return {
        "content-type": "application/json",
        "webhook-id": message_id,
        "webhook-timestamp": str(int(moment.timestamp())),
        "webhook-signature": signatures,
    }
