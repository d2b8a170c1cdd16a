"""What a client does on their page (SPEC §16), with their link's `bcl_` token alone (as `GET /v1/client`, rate-limited
the same way): accept or decline a sent quote, sign the sent contract with a drawn signature, fetch their documents'
PDFs. Each answer does exactly what the office's operation does (`routes/quotes.py`'s `answer_quote`,
`routes/contracts.py`'s `sign_contract`), recorded by `client`; an id that is not one of the holder's documents is
404, whatever it is."""

from flask import Blueprint, request

from auth import client_link
from domain.errors import not_found
from domain.sales import client_view
from events import Actor
from formats import signatures
from formats.client_schemas import ClientAcceptSchema, ClientDeclineSchema, ClientSignSchema
from models import Contact, Contract, Quote
from openapi import operation
from routes import client, invoicing
from routes.contracts import sign_contract
from routes.quotes import answer_quote
from routes.sales import CONTRACTS, INVOICES, QUOTES
from schemas import ContractSchema, QuoteSchema, load
from web.lifecycle import json_body

blueprint = Blueprint("client_actions", __name__)
CLIENT = "client"  # who answered or signed (`responded_by`, `signed_by`), and the events' actor kind
ERRORS = (400, 401, 404, 429)
WRITE_ERRORS = (*ERRORS, 409, 413, 415, 422)


def own(kind, id, holder):
    """`id` if it is one of the documents (`quotes`, `contract`, `invoices`) the holder reads, else 404."""
    ids = client_view.documents_of(holder.gig_id, holder.contact_id)[kind]
    if id not in (ids if isinstance(ids, list) else [ids]):
        raise not_found("You have no such document.")
    return id


def actor_of(holder):
    """The events' actor: the client, named as the gig contact."""
    contact = Contact.get_by_id(holder.contact_id)
    return Actor(None, " ".join(filter(None, (contact.first_name, contact.last_name))), CLIENT)


@blueprint.post("/client/quotes/<id>/accept")
@client_link
@operation(body=ClientAcceptSchema, response=QuoteSchema, errors=WRITE_ERRORS)
def accept(id):
    """Accept the sent quote: the office hears of it at once; the gig moves on and its contract is drafted, as when
    the office accepts it for the client (`POST /quotes/{id}/accept`)."""
    holder = client.holder()
    load(ClientAcceptSchema(), json_body() or {})
    quote = Quote.get_by_id(own("quotes", id, holder))
    answer_quote(quote, "accepted", CLIENT, actor=actor_of(holder))
    return {"data": client.read(Quote, quote.id)}


@blueprint.post("/client/quotes/<id>/decline")
@client_link
@operation(body=ClientDeclineSchema, response=QuoteSchema, errors=WRITE_ERRORS)
def decline(id):
    """Decline the sent quote, with a message to the office if you like (kept in the event's `note`)."""
    holder = client.holder()
    message = load(ClientDeclineSchema(), json_body() or {}).get("message")
    quote = Quote.get_by_id(own("quotes", id, holder))
    answer_quote(quote, "declined", CLIENT, message, actor=actor_of(holder))
    return {"data": client.read(Quote, quote.id)}


@blueprint.post("/client/contracts/<id>/sign")
@client_link
@operation(body=ClientSignSchema, response=ContractSchema, errors=WRITE_ERRORS)
def sign(id):
    """Sign the sent contract: the typed full name, consent, the drawn signature. Recorded with the address and
    browser that signed, the time and the text's sha256; then what signing does (SPEC §15: the gig confirmed, the
    deposit issued, the balance drafted), and a signed copy mailed to the client and the office."""
    holder = client.holder()
    values = load(ClientSignSchema(), json_body())
    drawing = signatures.checked(values["signature_svg"])
    contract = Contract.get_by_id(own("contract", id, holder))
    where = (request.remote_addr, request.headers.get("User-Agent"))
    sign_contract(contract, values["full_name"], CLIENT, *where, actor=actor_of(holder), drawing=drawing)
    return {"data": client.read(Contract, contract.id)}


def pdf(kind, collection, resource, id):
    holder = client.holder()
    return invoicing.pdf_answer(kind, resource, own(collection, id, holder))


@blueprint.get("/client/quotes/<id>/pdf")
@client_link
@operation(media_type="application/pdf", errors=ERRORS)
def quote_pdf(id):
    """Your quote's PDF, as it was sent: byte for byte the office's."""
    return pdf("quote", "quotes", QUOTES, id)


@blueprint.get("/client/contracts/<id>/pdf")
@client_link
@operation(media_type="application/pdf", errors=ERRORS)
def contract_pdf(id):
    """Your contract's PDF, as sent, or once signed with your signature and its record."""
    return pdf("contract", "contract", CONTRACTS, id)


@blueprint.get("/client/invoices/<id>/pdf")
@client_link
@operation(media_type="application/pdf", errors=ERRORS)
def invoice_pdf(id):
    """Your invoice's PDF, as issued: byte for byte the office's."""
    return pdf("invoice", "invoices", INVOICES, id)
