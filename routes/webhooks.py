"""Webhooks, in the admin group (SPEC §8): the endpoints events are sent to, with their signing secrets (shown
once), and the log of deliveries to them. Queueing, signing and sending are `delivery/webhooks/`'s."""

import json

from flask import Blueprint, request

import events
import listing
from delivery.webhooks import deliveries
from delivery.webhooks import signatures as webhook_signing
from domain.errors import conflict
from formats.operation_schemas import WebhookDeliverySchema, WebhookEndpointSecretSchema
from models import WebhookDelivery, WebhookEndpoint, now
from openapi import operation
from resources import Resource, reject_parameters
from schemas import WebhookEndpointSchema
from web.lifecycle import json_text_response

blueprint = Blueprint("webhooks", __name__)


class WebhookEndpoints(Resource):
    created = WebhookEndpointSecretSchema  # the create's answer shows the secret, once

    def before_save(self, write):
        endpoint = write.record
        if write.creating:
            webhook_signing.set_secret(endpoint, webhook_signing.new_secret())
        if "event_types" in write.changes:
            endpoint.event_types = list(dict.fromkeys(endpoint.event_types))
        stored = None if write.creating else WebhookEndpoint.get_by_id(endpoint.id)
        if stored is not None and stored.is_active != endpoint.is_active:  # the office's switch: the service's is past
            endpoint.disabled_reason = endpoint.failing_since = None

    def answer_json(self, record, written):
        return with_secret(written, record.secret)


def with_secret(endpoint_json, secret):
    return json.dumps({**json.loads(endpoint_json), "secret": secret}, separators=(",", ":"))


ENDPOINTS = WebhookEndpoints(WebhookEndpoint, WebhookEndpointSchema, "admin")
DELIVERIES = Resource(WebhookDelivery, WebhookDeliverySchema, "admin", order=["-created_at"])
RESOURCES = [ENDPOINTS]


def active_endpoint(endpoint_id):
    endpoint = ENDPOINTS.get(endpoint_id)
    if not endpoint.is_active:
        raise conflict("endpoint_inactive", "This webhook endpoint is switched off: set is_active to true first.")
    return endpoint


@blueprint.post("/webhook-endpoints/<id>/rotate-secret")
@operation(capability="admin.edit", response=WebhookEndpointSecretSchema, errors=(400, 404))
def rotate_secret(id):
    """A new signing secret, shown once; for 24 hours deliveries carry a signature with the old one too."""
    reject_parameters(request.args)
    endpoint = ENDPOINTS.get(id)
    secret = webhook_signing.rotate_secret(endpoint)
    endpoint.updated_at = now()
    endpoint.save()
    written = ENDPOINTS.record_event("secret_rotated", endpoint)
    return json_text_response(f'{{"data":{with_secret(written, secret)}}}')


@blueprint.post("/webhook-endpoints/<id>/ping")
@operation(capability="admin.edit", response=WebhookDeliverySchema, status=202, errors=(400, 404, 409))
def ping(id):
    """Queue a `ping` event to this endpoint alone: its delivery, to follow in the delivery log."""
    reject_parameters(request.args)
    endpoint = active_endpoint(id)
    table = WebhookEndpoint._meta.table_name
    event = events.record(deliveries.PING, table, endpoint.id, ENDPOINTS.group, {"endpoint_id": endpoint.id})
    return {"data": DELIVERIES.read(deliveries.queue(event, endpoint.id))}, 202


@blueprint.get("/webhook-deliveries")
@operation(capability="admin.view", response=WebhookDeliverySchema, listing=DELIVERIES, errors=(400,))
def list_deliveries():
    """The delivery log, newest first: each event on its way to each endpoint, and what its attempts came to."""
    return DELIVERIES.list(request.args)


@blueprint.get("/webhook-deliveries/<id>")
@operation(capability="admin.view", response=WebhookDeliverySchema, errors=(400, 404), fields=DELIVERIES.columns)
def read_delivery(id):
    """Read a delivery."""
    columns = listing.parse_fields_only(request.args, DELIVERIES.readable_columns())
    return json_text_response(f'{{"data":{DELIVERIES.read_json(id, columns)}}}')


@blueprint.post("/webhook-deliveries/<id>/redeliver")
@operation(capability="admin.edit", response=WebhookDeliverySchema, status=202, errors=(400, 404, 409))
def redeliver(id):
    """Queue one more attempt now, whatever the delivery's status; it keeps its webhook-id."""
    reject_parameters(request.args)
    delivery = DELIVERIES.get(id)
    active_endpoint(delivery.endpoint_id)
    if deliveries.in_flight(delivery):
        raise conflict("delivery_in_flight", "An attempt of this delivery is on its way: redeliver once it is done.")
    deliveries.redeliver(delivery)
    DELIVERIES.record_event("redelivered", delivery)
    return {"data": DELIVERIES.read(delivery.id)}, 202
