"""The client's link (SPEC §16): the office makes (`POST`) or revokes (`DELETE`) a gig contact's link, and its
holder reads their gig and documents with it (`GET /v1/client`, the only endpoint a `bcl_` token opens; every
other answers it 401) on the page the link opens (`/client`, templates/client.html). The link is
`domain/sales/client_links.py`, what it shows `domain/sales/client_view.py`."""

from flask import Blueprint, current_app, request

from auth import client_link, public
from delivery.notifications import clients
from domain import wishes
from domain.errors import not_found, unauthenticated
from domain.sales import client_links, client_view
from formats import client_words
from formats.client_schemas import ClientLinkSchema, ClientViewSchema
from models import Contract, Gig, GigContact, Invoice, InvoiceLine, Quote, QuoteLine
from openapi import operation
from resources import reject_parameters
from routes import sales
from storage import writer
from web import lifecycle
from web.html_pages import page_with_nonce
from web.rate_limits import limit_address, limit_rate

blueprint = Blueprint("client", __name__)
pages = Blueprint("client_pages", __name__)


def gig_contact_of(id):
    reject_parameters(request.args)
    found = GigContact.get_or_none(GigContact.id == id)
    if found is None:
        raise not_found("No such gig contact.")
    return found


@blueprint.post("/gig-contacts/<id>/client-link")
@operation(capability="sales.edit", response=ClientLinkSchema, errors=(400, 404))
def make_client_link(id):
    """Make the gig contact's link to their page, replacing every link they had (their mails' too), and mail it to
    them; its address is shown only here and in that mail."""
    gig_contact = gig_contact_of(id)
    link = client_links.make(gig_contact, lifecycle.public_url())
    clients.mail_link(gig_contact, link["url"])
    return {"data": link}


@blueprint.delete("/gig-contacts/<id>/client-link")
@operation(capability="sales.edit", status=204, errors=(400, 404))
def revoke_client_link(id):
    """Revoke the gig contact's links (the office's and their mails'): they stop working at once. 404 when they have
    none."""
    if not client_links.revoke(gig_contact_of(id).id):
        raise not_found("This gig contact has no client link.")
    return "", 204


@blueprint.get("/client")
@client_link
@operation(response=ClientViewSchema, errors=(400, 401, 429))
def client():
    """The gig as its client sees it, with their quotes, contract, invoices and wishes: the bearer is their link's
    `bcl_` token (rate-limited per address: `holder()`)."""
    found = holder()
    view = client_view.view_of(found)
    documents = view.pop("documents")
    view["wishes"] = wishes.view_of(Gig.get_by_id(found.gig_id), found.contact_id, lock_days())
    view["gig"]["planning_locks_on"] = view["wishes"]["planning_locks_on"]
    return {"data": {**view, **shown(documents)}}


def holder(parameters=()):
    """The gig contact whose live link is this request's bearer; the request takes no query parameters but
    `parameters`. A request without a live link counts against sign-in's budget of its address (guessing a token
    costs what guessing a sign-in does: 429 past it, else 401); a live link's against a budget of its own
    (`BAND_CLIENT_RATE`), so that a couple editing their wishes does not run out of sign-in's."""
    scheme, _, value = request.headers.get("Authorization", "").partition(" ")
    found = client_links.holder(value.strip()) if scheme.lower() == "bearer" else None
    if found is None:
        limit_rate()
        raise unauthenticated("Send the token of your link as a bearer; ask the office for a new link.")
    limit_address("client_rate")
    reject_parameters(request.args, parameters)
    writer.note(clients.IN_USE, found.id)
    return found


def lock_days():
    return current_app.config["PLANNING_LOCK_DAYS"]


SHOWN = {  # what the client reads of each document: as GET shows it to the office's sales.view
    "quotes": Quote,
    "quote_lines": QuoteLine,
    "contract": Contract,
    "invoices": Invoice,
    "invoice_lines": InvoiceLine,
}


def shown(documents):
    """{key: record or [records]} of the documents' ids, each read as its collection shows it to `sales.view`."""
    found = {}
    for key, model in SHOWN.items():
        ids = documents[key]
        found[key] = [read(model, id) for id in ids] if isinstance(ids, list) else ids and read(model, ids)
    return found


def read(model, id):
    """The record `id` of `model` as its collection shows it to `sales.view`."""
    resource = next(resource for resource in sales.RESOURCES if resource.model is model)
    return resource.read(id, resource.readable(frozenset({"sales.view"}))[1])


@pages.get("/client")
@public
def client_page():
    """The page a client's link opens: its script keeps the link's token for this tab, takes it out of the address
    bar and shows what `GET /v1/client` answers; it changes nothing."""
    return page_with_nonce("client.html", words=client_words.page_catalogues())
