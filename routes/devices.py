"""Devices registered for push (SPEC §3): each belongs to the signed-in user who registered it last, and a user
keeps DEVICES_PER_USER at most (SPEC §2.3): registering one more drops their least recently updated."""

from flask import Blueprint, g, request

import listing
import sqlite_dialect as dialect
from bodies import DeviceSchema
from conventions import json_body
from errors import ApiError
from models import Device, now
from openapi import operation
from schemas import load

blueprint = Blueprint("devices", __name__)

DEVICE_COLUMNS = listing.columns_of(Device, DeviceSchema())
DEVICES_PER_USER = 10


@blueprint.post("/devices")
@operation(
    body=DeviceSchema,
    response=DeviceSchema,
    status=(201, 200),
    errors=(400, 413, 415, 422),
)
def register_device():
    """Register a device for push (201), or update the caller's own with this token (200); a token another user
    holds becomes a new device of the caller's (201, telling nobody that it existed). A user keeps 10 devices:
    an 11th drops their least recently updated."""
    values = load(DeviceSchema(), json_body())
    user_id = g.caller.user_id
    device = Device.get_or_none(Device.token == values["token"])
    if device and device.user_id != user_id:
        device.delete_instance()
        device = None
    status = 200 if device else 201
    device = device or Device(token=values["token"], user=user_id)
    for name, value in values.items():
        setattr(device, name, value)
    device.updated_at = now()
    device.save(force_insert=status == 201)
    drop_least_recently_updated(device)
    return {"data": {name: getattr(device, name) for name in DEVICE_COLUMNS}}, status


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
    return listing.page_answer(*dialect.json_page(Device, page, [Device.user == g.caller.user_id]), page)


@blueprint.delete("/devices/<path:token>")
@operation(status=204, errors=(404,))
def remove_device(token):
    """Remove one of the caller's devices by its push token."""
    removed = Device.delete().where(Device.token == token, Device.user == g.caller.user_id).execute()
    if not removed:
        raise ApiError(404, "not_found", "No device of yours has this token.")
    return "", 204
