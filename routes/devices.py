"""Devices registered for push (SPEC §3): each belongs to the signed-in user who registered it last, and a user
keeps DEVICES_PER_USER at most (SPEC §2.3): registering one more drops their least recently updated. And the
public key a browser subscribes with (SPEC §13), for anyone to read."""

import base64
import functools
from urllib.parse import urlsplit

from cryptography.hazmat.primitives import serialization
from flask import Blueprint, current_app, g, request

import listing
from auth import public
from delivery import addresses
from delivery.push import DEVICES_PER_USER, NEEDS
from domain.errors import ApiError, invalid, not_found
from formats import push_tokens
from formats.operation_schemas import DeviceSchema, WebPushKeySchema
from models import Device, now
from openapi import operation
from schemas import load
from web.lifecycle import json_body, page_answer

blueprint = Blueprint("devices", __name__)

DEVICE_COLUMNS = listing.columns_of(Device, DeviceSchema())
REGISTER = "api.devices.register_device"


@blueprint.before_request
def judge_the_endpoint_first():
    """A registration's push endpoint is judged (its name resolved) before the write's transaction begins: a slow
    name server holds up no write."""
    if request.endpoint == REGISTER and isinstance(body := g.get("body"), dict):
        g.endpoint_refusal = endpoint_refusal(body.get("platform"), body.get("token"))


def endpoint_refusal(platform, token):
    """Why the endpoint `token` pushes to may not be registered (SPEC §2.3: a public address, or a host
    BAND_PUSH_PRIVATE_HOSTS allows), or None; a token of the wrong shape is the schema's to refuse."""
    try:
        url = push_tokens.endpoint_of(platform, token)
        host = url and urlsplit(url).hostname
    except (ValueError, TypeError):
        return None
    return host and addresses.refusal(host, current_app.config["PUSH_PRIVATE"])


@blueprint.post("/devices")
@operation(
    body=DeviceSchema,
    response=DeviceSchema,
    status=(201, 200),
    errors=(400, 413, 415, 422),
)
def register_device():
    """Register a device for push (201), or update the caller's own with this token (200); a token another user
    holds moves to the caller as a new device would be registered (201, telling nobody that it existed). A user
    keeps a bounded number of devices (SPEC §2.3): one more drops their least recently updated."""
    values = load(DeviceSchema(), json_body())
    if refusal := g.get("endpoint_refusal"):
        raise invalid({"token": [refusal]})
    existing = Device.get_or_none(Device.token == values["token"])
    mine = existing is not None and existing.user_id == g.caller.user_id
    device, moment = existing or Device(token=values["token"]), now()
    if not mine:  # new, or another user's moving over: nothing of its past (its age, its label) stays
        device.created_at, device.label = moment, None
    for name, value in values.items():
        setattr(device, name, value)
    device.user, device.updated_at = g.caller.user_id, moment
    device.save(force_insert=existing is None)
    drop_least_recently_updated(device)
    return {"data": {name: getattr(device, name) for name in DEVICE_COLUMNS}}, 200 if mine else 201


def drop_least_recently_updated(device):
    """Beside `device`, just registered, its user keeps the DEVICES_PER_USER - 1 devices updated last."""
    others = (Device.user == device.user_id) & (Device.id != device.id)
    kept = Device.select(Device.id).where(others).order_by(Device.updated_at.desc()).limit(DEVICES_PER_USER - 1)
    Device.delete().where(others, Device.id.not_in(kept)).execute()


@blueprint.get("/devices")
@operation(response=DeviceSchema, listing=DEVICE_COLUMNS, errors=(400,))
def list_devices():
    """The caller's devices."""
    page = listing.parse(request.args, DEVICE_COLUMNS, ["created_at"])
    return page_answer(*listing.json_page(Device, page, [Device.user == g.caller.user_id]), page)


@blueprint.delete("/devices/<path:token>")
@operation(status=204, errors=(404,))
def remove_device(token):
    """Remove one of the caller's devices by its push token."""
    removed = Device.delete().where(Device.token == token, Device.user == g.caller.user_id).execute()
    if not removed:
        raise ApiError(404, "not_found", "No device of yours has this token.")
    return "", 204


@blueprint.get("/push/web-key")
@public
@operation(response=WebPushKeySchema, errors=(404,))
def web_push_key():
    """The VAPID public key, a browser's applicationServerKey (404: no Web Push here)."""
    if not all(current_app.config[name] for name in NEEDS["web"]):
        raise not_found("This server does not push to browsers: its office has not set up Web Push (VAPID).")
    return {"data": {"public_key": public_key_of(current_app.config["VAPID_PRIVATE_KEY"])}}


@functools.cache
def public_key_of(private_key):
    """The public key of a VAPID private key (as BAND_VAPID_PRIVATE_KEY gives it), as an application server key:
    the uncompressed P-256 point in base64url without padding."""
    from delivery.push.web import read_vapid  # as push does: its libraries only where browsers are pushed to

    point = read_vapid(private_key).public_key.public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return base64.urlsafe_b64encode(point).rstrip(b"=").decode()
