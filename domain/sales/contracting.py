"""A contract's way (SPEC §15): its text rendered from a template with the gig's facts, sent (its text frozen: the
sha256), signed (on paper, on the client's behalf, or by the client on their page) or void. Plain functions of
models that check, change and answer the rows; the routes (`routes/contracts.py`) record the events."""

from documents.data import text_sha256
from domain import office, postal_addresses
from domain.errors import conflict, invalid
from domain.sales import contract_text, contract_values, records
from formats.client_words import language_of
from models import (
    Contact,
    Contract,
    ContractSignature,
    ContractTemplate,
    Gig,
    GigContact,
    GigProduct,
    Product,
    Quote,
    Venue,
    now,
)

LIVE = ("draft", "sent", "signed")  # a contract that is not void


def default_template():
    """The active template marked default, or None."""
    return ContractTemplate.get_or_none(ContractTemplate.is_default & ContractTemplate.active)


def quote_for(gig_id, quote_id):
    """The quote a contract of the gig is made from: `quote_id`'s, or the gig's accepted one (None without)."""
    if quote_id:
        return Quote.get_by_id(quote_id)
    return Quote.get_or_none(Quote.gig == gig_id, Quote.status == "accepted")


def has_contract(gig_id):
    """Whether the gig has a contract that is not void."""
    return Contract.select().where(Contract.gig == gig_id, Contract.status.in_(LIVE)).exists()


def rendered(body, gig, quote):
    """The text of a template's `body` with the merge fields' values of `gig`, its contacts, venue and products,
    `quote` and the office, written in the primary contact's language. 422 at quote_id without a quote: the money
    fields are the quote's."""
    if quote is None:
        raise invalid({"quote_id": ["The gig has no accepted quote: accept one first, or name a quote."]})
    contacts = contacts_of(gig.id)
    primary = next((contact for contact, is_primary in contacts if is_primary), None)
    the_office = office.current()
    language = language_of(primary.language if primary else None, the_office.language)
    facts = contract_values.ContractFacts(
        client_names=[full_name(contact) for contact, _ in contacts],
        client_address=address_of(primary),
        gig_date=str(gig.gig_date),
        start_time=gig.start_time,
        end_time=gig.end_time,
        venue_name=venue.name if (venue := Venue.get_or_none(Venue.id == gig.venue_id)) else None,
        venue_address=postal_addresses.one_line(venue, named=False),
        products=products_of(gig.id),
        currency=quote.currency,
        quote_total_cents=quote.gross_cents,
        deposit_percent=quote.deposit_percent,
        deposit_due_days=quote.deposit_due_days,
        balance_due_days=quote.balance_due_days,
        office_name=the_office.name,
        office_address=office_address(the_office),
    )
    return contract_text.render(body, contract_values.values_for(facts, language))


def preview(body, gig_id, quote_id=None):
    """{text, quote_id}: `body` rendered for the gig `gig_id` as a contract made from it reads (the template editor's
    preview), with the quote `quote_id`, by default the gig's accepted one, else its newest. 422 naming each field
    at fault: `body` (its problems, by line, as a save says them), `gig_id` (no such gig, or a gig without a quote)
    or `quote_id` (not a quote of the gig)."""
    problems = {"body": contract_text.problems_of(body)}
    gig = Gig.get_or_none(Gig.id == gig_id)
    quote = None
    if gig is None:
        problems["gig_id"] = ["No gig with this id."]
    elif quote_id:
        quote = Quote.get_or_none(Quote.id == quote_id, Quote.gig == gig.id)
        problems["quote_id"] = [] if quote else ["Not a quote of this gig."]
    else:
        newest_first = (Quote.status == "accepted").desc(), Quote.created_at.desc(), Quote.id.desc()
        quote = Quote.select().where(Quote.gig == gig.id).order_by(*newest_first).first()
        problems["gig_id"] = [] if quote else ["The gig has no quote: the money fields are its quote's. Draft one."]
    if problems := {field: messages for field, messages in problems.items() if messages}:
        raise invalid(problems, "The preview cannot be made.")
    return {"text": rendered(body, gig, quote), "quote_id": quote.id}


def contacts_of(gig_id):
    """[(Contact, is_primary)] of the gig, the primary one first."""
    query = (
        Contact.select(Contact, GigContact.is_primary)
        .join(GigContact, on=GigContact.contact == Contact.id)
        .where(GigContact.gig == gig_id)
        .order_by(GigContact.is_primary.desc(), GigContact.created_at, GigContact.id)
    )
    return [(contact, bool(contact.gigcontact.is_primary)) for contact in query]


def full_name(contact):
    return " ".join(part for part in (contact.first_name, contact.last_name) if part)


def address_of(contact):
    """A contact's postal address: their custom field `address`, when the office keeps one."""
    address = (contact.custom_fields or {}).get("address") if contact else None
    return address if isinstance(address, str) else None


def products_of(gig_id):
    query = (
        GigProduct.select(GigProduct.start_time, GigProduct.end_time, Product.name)
        .join(Product)
        .where(GigProduct.gig == gig_id)
        .order_by(GigProduct.position.is_null(), GigProduct.position, GigProduct.created_at, GigProduct.id)
    )
    return [contract_values.Product(row.product.name, row.start_time, row.end_time) for row in query]


def office_address(the_office):
    town = " ".join(part for part in (the_office.postal_code, the_office.city) if part)
    parts = (the_office.address_line1, the_office.address_line2, town, the_office.country)
    return ", ".join(part for part in parts if part) or None


def send(contract, next_number):
    """Mark a draft `contract` with text sent under its number (`next_number("contract")`, taken once it may be
    sent), its text's sha256 kept: it never changes again."""
    records.editable(contract, "contract")
    if not (contract.body or "").strip():
        raise conflict("no_text", "The contract has no text: write its body or make it from a template.")
    stamp, number = now(), next_number("contract")
    contract.number, contract.sha256, contract.status = number, text_sha256(contract.body), "sent"
    contract.sent_at = contract.updated_at = stamp
    contract.save()
    return contract


def sign(contract, signed_name, signed_by, address, user_agent, drawing=None):
    """A sent contract signed by `signed_name`: `signed_by` is `client`, or the id of the user who recorded a paper
    signature; the address and browser of the request that signed; `drawing`, the SVG the client drew (checked:
    formats/signatures.py)."""
    if contract.status != "sent":
        message = f"This contract is {contract.status}: only a sent contract is signed."
        raise conflict("not_sent", message, status=contract.status)
    stamp = now()
    contract.status, contract.signed_name, contract.signed_by = "signed", signed_name, signed_by
    contract.signed_ip, contract.signed_user_agent = address, (user_agent or "")[:500] or None
    contract.signed_at = contract.updated_at = stamp
    contract.save()
    if drawing:
        ContractSignature.create(contract=contract.id, svg=drawing, created_at=stamp)
    return contract


def drawing_of(contract_id):
    """The SVG text of the signature drawn for the contract, or None."""
    drawn = ContractSignature.get_or_none(ContractSignature.contract == contract_id)
    return drawn.svg if drawn else None


def void(contract, reason):
    """Void `contract` (of any status but void) for `reason`."""
    if contract.status == "void":
        raise conflict("contract_void", "This contract is void already.", status=contract.status)
    contract.status, contract.void_reason, contract.updated_at = "void", reason, now()
    contract.save()
    return contract
