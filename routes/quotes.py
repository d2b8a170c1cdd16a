"""Quotes' operations (SPEC §15): a draft from a gig's products, send, accept or decline on the client's behalf. Each
is one write with its events (`quote.sent`, `quote.superseded`, `quote.accepted`, `quote.declined`); the rules are
`domain/sales/quoting.py`. `answer_quote` is what the client's own page (SPEC §16) calls too, with `client`."""

from flask import Blueprint, g, request

from domain.sales import contracting, frozen, numbers, quoting, records
from formats.operation_schemas import QuoteAnswerSchema
from models import Quote
from openapi import operation
from resources import reject_parameters
from routes.gigs import GIGS
from routes.sales import CONTRACTS, QUOTES
from schemas import QuoteSchema, load
from web.lifecycle import json_body, json_text_response

blueprint = Blueprint("quotes", __name__)


@blueprint.post("/gigs/<id>/quotes")
@operation(capability="sales.edit", response=QuoteSchema, status=201, errors=(400, 404))
def quote_gig(id):
    """Draft a quote from the gig's products, for its primary contact."""
    reject_parameters(request.args)
    gig = GIGS.get(id)
    quote = QUOTES.create_with_lines({"gig_id": gig.id}, quoting.lines_of_gig(gig.id))
    response = json_text_response(f'{{"data":{QUOTES.read_json(quote.id)}}}', 201)
    response.headers["Location"] = f"/v1/quotes/{quote.id}"
    return response


@blueprint.post("/quotes/<id>/send")
@operation(capability="sales.edit", response=QuoteSchema, errors=(400, 404, 409))
def send_quote(id):
    """Send a draft quote: its number; the gig's earlier sent quotes are superseded."""
    reject_parameters(request.args)
    quote = records.locked(Quote, QUOTES.get(id).id)
    quoting.require_sendable(quote)
    superseded = quoting.send(quote, numbers.next_number("quote"))
    QUOTES.record_events("superseded", superseded)
    QUOTES.record_event("sent", quote)
    frozen.freeze_pdf("quote", quote)
    return {"data": QUOTES.read(quote.id)}


@blueprint.post("/quotes/<id>/accept")
@operation(capability="sales.edit", body=QuoteAnswerSchema, response=QuoteSchema, errors=(400, 404, 409, 413, 415, 422))
def accept_quote(id):
    """Accept a sent quote for the client: the gig to tentative, a contract drafted."""
    return answered(id, "accepted")


@blueprint.post("/quotes/<id>/decline")
@operation(capability="sales.edit", body=QuoteAnswerSchema, response=QuoteSchema, errors=(400, 404, 409, 413, 415, 422))
def decline_quote(id):
    """Decline a sent quote for the client."""
    return answered(id, "declined")


def answered(id, status):
    reject_parameters(request.args)
    note = load(QuoteAnswerSchema(), json_body() or {}).get("note")
    quote = answer_quote(QUOTES.get(id), status, g.caller.user_id, note)
    return {"data": QUOTES.read(quote.id)}


def answer_quote(quote, status, responded_by, note=None, actor=None):
    """The client's answer to `quote`, `accepted` or `declined`, given by `responded_by` (`client`, or the user who
    answered for them), with its event (the quote, and `note` when given); an accept moves the gig and drafts its
    contract (`accepted`). `actor`: who did it, when not the caller (events.record). Returns the quote."""
    quote = quoting.answer(records.locked(Quote, quote.id), status, responded_by)
    data = QUOTES.event_view(quote.id)
    QUOTES.record_event(status, quote, data={**data, "note": note} if note else data, actor=actor)
    if status == "accepted":
        accepted(quote)
    return quote


def accepted(quote):
    """What an accepted quote brings about: the gig from inquiry to tentative, its contract drafted."""
    gig = quoting.gig_of(quote)
    moved = quoting.status_moved(gig, *quoting.ACCEPTED)
    if moved:
        GIGS.change(gig, gig_status_id=moved)
    template = contracting.default_template()
    if template and not contracting.has_contract(gig.id):
        CONTRACTS.create({"gig_id": gig.id, "template_id": template.id, "quote_id": quote.id})
