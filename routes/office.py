"""The office's own settings (SPEC §12.1): `GET /office` for anyone signed in (the console formats money and dates
by them), `PATCH /office` with admin.edit, the capability of what the whole office shares. Its letterhead (SPEC §15)
is among them, and its logo at `/office/logo`: read by anyone signed in (it is on every document the office sends),
set and removed with admin.edit."""

from flask import Blueprint, current_app, request
from werkzeug.http import quote_etag

from domain import office
from domain.errors import invalid, not_found
from formats import logos
from formats.office_schemas import OfficeSchema
from openapi import operation
from resources import reject_parameters
from resources.parameters import Multipart
from schemas import load
from web.lifecycle import json_body

blueprint = Blueprint("office", __name__)

LOGO_UPLOAD = Multipart(
    parts={"file": {"type": "string", "format": "binary", "description": "a PNG or SVG of at most 256 KB"}},
    required=("file",),
)
# An SVG opened on its own shows its drawing and runs nothing (sanitised as it is: a second guard).
LOGO_POLICY = "default-src 'none'; img-src data:; style-src 'unsafe-inline'; sandbox"


def answer(settings):
    logo = office.logo()
    facts = {key: value for key, value in logo._asdict().items() if key != "data"} if logo else None
    return {"data": {**settings._asdict(), "logo": facts, "first_day": office.first_day(settings)}}


@blueprint.get("/office")
@operation(response=OfficeSchema, errors=(400,))
def read_office():
    """The office's name, time zone, currency, language, date style, clock and letterhead, and its first day."""
    reject_parameters(request.args)
    return answer(office.current())


@blueprint.patch("/office")
@operation(capability="admin.edit", body=OfficeSchema, partial=True, response=OfficeSchema, errors=(400, 413, 415, 422))
def change_office():
    """Change any of the office's settings; what is shown in its zone, money and dates follows at once."""
    reject_parameters(request.args)
    return answer(office.change(load(OfficeSchema(), json_body(), partial=True)))


@blueprint.put("/office/logo")
@operation(capability="admin.edit", body=LOGO_UPLOAD, response=OfficeSchema, errors=(400, 413, 415, 422))
def change_logo():
    """Upload the office's logo: a PNG, or a drawing in SVG (kept without scripts, links or anything else)."""
    reject_parameters(request.args)
    upload = LOGO_UPLOAD.read().get("file")
    if upload is None:
        raise invalid({"file": ["Missing data for required field."]})
    office.change_logo(*logos.checked(upload.stream.read(logos.MAX_BYTES + 1)))
    return answer(office.current())


@blueprint.get("/office/logo")
@operation(media_type="*/*", errors=(400, 404))
def read_logo():
    """The office's logo as kept, image/png or image/svg+xml, with an ETag."""
    reject_parameters(request.args)
    logo = office.logo(with_data=True)
    if logo is None:
        raise not_found("The office has no logo.")
    headers = {
        "ETag": quote_etag(logo.sha256),
        "Cache-Control": "private, no-cache",
        "Content-Security-Policy": LOGO_POLICY,
    }
    if request.if_none_match.contains_weak(logo.sha256):
        return current_app.response_class(status=304, headers=headers)
    return current_app.response_class(logo.data, mimetype=logo.media_type, headers=headers)


@blueprint.delete("/office/logo")
@operation(capability="admin.edit", status=204, errors=(400, 404))
def remove_logo():
    """Remove the office's logo: documents made from now on have none."""
    reject_parameters(request.args)
    if not office.remove_logo():
        raise not_found("The office has no logo.")
    return "", 204
