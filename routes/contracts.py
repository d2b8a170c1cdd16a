"""Contracts' operations (SPEC §15): send, sign on the client's behalf (on paper), void; the merge fields a template
may use, and a template's body previewed with a gig's facts. Each write is one transaction with its events
(`contract.sent`, `contract.signed`, `contract.voided`); the rules are `domain/sales/contracting.py`.
`sign_contract` is what the client's own page (SPEC §16) calls too, with `client`."""

from flask import Blueprint, g, request

from domain.sales import contract_text, contracting, frozen, numbers, quoting, records
from formats.operation_schemas import (
    ContractPreviewSchema,
    ContractPreviewTextSchema,
    MergeFieldSchema,
    SignOnBehalfSchema,
    VoidSchema,
)
from models import Contract
from openapi import operation
from resources import reject_parameters
from routes.gigs import GIGS
from routes.sales import CONTRACTS
from schemas import ContractSchema, load
from web.lifecycle import json_body

blueprint = Blueprint("contracts", __name__)


@blueprint.get("/contract-merge-fields")
@operation(capability="sales.view", response=MergeFieldSchema, many=True, errors=(400,))
def merge_fields():
    """The merge fields a template's body may use."""
    reject_parameters(request.args)
    return {"data": contract_text.merge_fields()}


@blueprint.post("/contract-template-preview")
@operation(
    capability="sales.view",
    body=ContractPreviewSchema,
    response=ContractPreviewTextSchema,
    errors=(400, 413, 415, 422),
)
def preview_template():
    """Render a template's body with a gig's facts, as a contract of that gig would read."""
    reject_parameters(request.args)
    values = load(ContractPreviewSchema(), json_body())
    return {"data": contracting.preview(values["body"], values["gig_id"], values.get("quote_id"))}


@blueprint.post("/contracts/<id>/send")
@operation(capability="sales.edit", response=ContractSchema, errors=(400, 404, 409))
def send_contract(id):
    """Send a draft contract: its number and its text's sha256."""
    reject_parameters(request.args)
    contract = contracting.send(records.locked(Contract, CONTRACTS.get(id).id), numbers.next_number)
    CONTRACTS.record_event("sent", contract)
    frozen.freeze_pdf("contract", contract)
    return {"data": CONTRACTS.read(contract.id)}


@blueprint.post("/contracts/<id>/sign-on-behalf")
@operation(
    capability="sales.edit", body=SignOnBehalfSchema, response=ContractSchema, errors=(400, 404, 409, 413, 415, 422)
)
def sign_on_behalf(id):
    """Record a sent contract signed on paper: the gig to confirmed."""
    reject_parameters(request.args)
    values = load(SignOnBehalfSchema(), json_body())
    where = (request.remote_addr, request.headers.get("User-Agent"))
    contract = sign_contract(CONTRACTS.get(id), values["signed_name"], g.caller.user_id, *where, values.get("note"))
    return {"data": CONTRACTS.read(contract.id)}


def sign_contract(contract, signed_name, signed_by, address, user_agent, note=None, actor=None, drawing=None):
    """`contract` signed by `signed_name` (`signed_by`: `client`, or the user who recorded it) from `address` with
    `user_agent`, with its event (the contract, and `note` when given); the gig moves to `confirmed`. `actor`: who
    did it, when not the caller (events.record); `drawing`: the client's drawn signature (SVG). Returns the
    contract."""
    locked = records.locked(Contract, contract.id)
    contract = contracting.sign(locked, signed_name, signed_by, address, user_agent, drawing)
    data = CONTRACTS.event_view(contract.id)
    CONTRACTS.record_event("signed", contract, data={**data, "note": note} if note else data, actor=actor)
    gig = GIGS.get(contract.gig_id)
    moved = quoting.status_moved(gig, *quoting.SIGNED)
    if moved:
        GIGS.change(gig, gig_status_id=moved)
    return contract


@blueprint.post("/contracts/<id>/void")
@operation(capability="sales.edit", body=VoidSchema, response=ContractSchema, errors=(400, 404, 409, 413, 415, 422))
def void_contract(id):
    """Void a contract, with the reason."""
    reject_parameters(request.args)
    reason = load(VoidSchema(), json_body())["reason"]
    contract = contracting.void(records.locked(Contract, CONTRACTS.get(id).id), reason)
    CONTRACTS.record_event("voided", contract)
    return {"data": CONTRACTS.read(contract.id)}
