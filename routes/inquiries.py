"""New couples (SPEC §16), public, without a bearer: the inquiry form's page (`/inquire`, templates/inquire.html), the
products it lists, a date's availability, and the inquiry itself, which makes the couple's contact and gig in one
transaction and tells them and the office; a robot's (the honeypot filled, the form's token missing, bad, too young
or too old) is answered as a person's and kept nowhere. The rules are `domain/inquiries.py`, the messages
`delivery/notifications/inquiries.py`."""

import datetime as dt
import time

from flask import Blueprint, current_app, request

import events
from auth import public
from delivery.notifications import inquiries as told
from domain import inquiries, office, rules, signed_links
from domain.errors import ApiError, invalid
from domain.sales.records import office_today
from events.resource import recorder_of
from formats import client_words
from formats.field_types import DATE_RE
from formats.inquiry_schemas import AvailabilitySchema, InquirySchema, PublicProductSchema, ReceivedSchema
from models import Contact, Gig, GigContact, GigProduct
from openapi import operation
from resources import reject_parameters
from schemas import load
from web.html_pages import page_with_nonce
from web.inquiry_words import WORDS
from web.lifecycle import json_body
from web.rate_limits import limit_address

blueprint = Blueprint("inquiries", __name__)
pages = Blueprint("inquiry_pages", __name__)


@blueprint.post("/inquiries")
@public
@operation(body=InquirySchema, response=ReceivedSchema, status=202, errors=(400, 413, 415, 422, 429))
def inquire():
    """A couple's inquiry from the form of `/inquire`: their contact, a gig with the first status of kind
    `inquiry`, its primary contact and the products asked for, in one transaction; the sender gets an
    acknowledgement, the users holding `sales.edit` the news. Answered 202 alike whatever happens next (an inquiry
    taken for a robot's is kept nowhere); `BAND_INQUIRY_RATE` per client address, past it 429."""
    limit_address("inquiry_rate")
    reject_parameters(request.args)
    values = load(InquirySchema(), json_body())
    if problem := inquiries.date_problem(dt.date.fromisoformat(values["gig_date"]), office_today()):
        raise invalid({"gig_date": [problem]})
    served_at = signed_links.form_served_at(current_app.config, values.get("form_token"))
    if not inquiries.from_a_robot(values, served_at, time.time()):
        keep(values)
    return {"data": {"received": True}}, 202


def keep(values):
    """The inquiry's records with their events (by `client`, named as the couple signed), and its messages."""
    contact = Contact.create(
        first_name=values["names"], email=values["email"], phone=values.get("phone"), language=values["language"]
    )
    gig = Gig.create(
        gig_date=values["gig_date"],
        title=values["names"],
        gig_status=inquiries.inquiry_status(),
        guest_count=values.get("guest_count"),
        notes=inquiries.gig_notes(values, office_today()),
    )
    gig_contact = GigContact.create(gig=gig.id, contact=contact.id, is_primary=True)
    products = inquiries.wanted_products(values["product_ids"])
    gig_products = [
        GigProduct.create(
            gig=gig.id,
            product=product.id,
            price_cents=rules.catalog_price(product.id, None, gig.gig_date),
            position=position,
        )
        for position, product in enumerate(products, 1)
    ]
    actor = events.Actor(None, values["names"], "client")
    for record in (contact, gig, gig_contact, *gig_products):
        recorder_of(type(record)).record_event("created", record, actor=actor)
    told.tell(gig, contact, values, products)


@blueprint.get("/public/products")
@public
@operation(response=PublicProductSchema, many=True, errors=(400,))
def public_products():
    """The active products' ids and names, in the office's order, for the inquiry form to offer."""
    reject_parameters(request.args)
    return {"data": inquiries.public_products()}


DATE = {"type": "string", "format": "date"}


@blueprint.get("/availability")
@public
@operation(response=AvailabilitySchema, errors=(400, 422, 429), params=(("date", DATE),))
def availability():
    """Whether a date (today to 3 years ahead) is free: false once its tentative and confirmed gigs reach
    `BAND_GIGS_PER_DAY`; nothing else is told. Per client address at sign-in's rate (`BAND_AUTH_RATE_LIMIT`), in a
    count of its own."""
    limit_address("availability_rate")
    reject_parameters(request.args, allowed=("date",))
    text = request.args.get("date", "")
    try:
        date = dt.date.fromisoformat(text) if DATE_RE.fullmatch(text) else None
    except ValueError:
        date = None
    if date is None:
        raise ApiError(400, "invalid_query", "Invalid query parameters.", {"date": "Expected a date, YYYY-MM-DD."})
    if problem := inquiries.date_problem(date, office_today()):
        raise invalid({"date": [problem]}, "The date cannot be asked for.")
    free = inquiries.available(date, current_app.config["GIGS_PER_DAY"])
    return {"data": {"date": date.isoformat(), "available": free}}


@pages.get("/inquire")
@public
def inquire_page():
    """The inquiry form, framed only by the origins of `BAND_INQUIRY_EMBED_ORIGINS`; it carries the signed time it
    was served (the form's token) and a honeypot. It speaks `?lang=` (en or de), else the browser's language when a
    client may read it, else the office's (`client_words.form_language`)."""
    config = current_app.config
    language = page_language()
    words = client_words.ClientWords(language)
    return page_with_nonce(
        "inquire.html",
        frame_ancestors=config["EMBED_ORIGINS"] or ("'none'",),
        form_token=signed_links.form_token(config),
        language=language,
        words={key: words(text) for key, text in WORDS.items()},
        dates={"min": office_today().isoformat(), "max": inquiries.latest_date(office_today()).isoformat()},
    )


def page_language():
    """The inquiry form's language: `client_words.form_language`; a `?lang=` no client reads is 400 naming it."""
    asked = request.args.get("lang")
    if asked is not None and asked not in client_words.languages():
        choices = ", ".join(client_words.languages())
        raise ApiError(400, "invalid_query", "Invalid query parameters.", {"lang": f"Expected one of {choices}."})
    return client_words.form_language(asked, request.accept_languages, office.current().language)
