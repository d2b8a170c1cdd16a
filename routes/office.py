"""The office's own settings (SPEC §12.1): `GET /office` for anyone signed in (the console formats money and dates
by them), `PATCH /office` with admin.edit, the capability of what the whole office shares."""

from flask import Blueprint, request

from domain import office
from formats.office_schemas import OfficeSchema
from openapi import operation
from resources import reject_parameters
from schemas import load
from web.lifecycle import json_body

blueprint = Blueprint("office", __name__)


def answer(settings):
    return {"data": {**settings._asdict(), "first_day": office.first_day(settings)}}


@blueprint.get("/office")
@operation(response=OfficeSchema, errors=(400,))
def read_office():
    """The office's name, time zone, currency, language, date style and clock, and its first day's checklist."""
    reject_parameters(request.args)
    return answer(office.current())


@blueprint.patch("/office")
@operation(capability="admin.edit", body=OfficeSchema, partial=True, response=OfficeSchema, errors=(400, 413, 415, 422))
def change_office():
    """Change any of the office's settings; what is shown in its zone, money and dates follows at once."""
    reject_parameters(request.args)
    return answer(office.change(load(OfficeSchema(), json_body(), partial=True)))
