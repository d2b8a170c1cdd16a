"""A quote's way (SPEC §15): drafted from its gig's products, sent, then accepted, declined, superseded by a later
one or expired. Plain functions of models that check, change and answer the rows; the routes (`routes/quotes.py`)
record the events of what they answer, in the same write transaction."""

from peewee import JOIN

from domain.errors import conflict
from domain.sales import records
from models import Ensemble, Gig, GigProduct, GigStatus, Product, Quote, QuoteLine, now

SENT = "sent"


def lines_of_gig(gig_id):
    """A new quote's lines from the gig's products, in their order: [{description, unit_price_cents,
    gig_product_id, position}], the description the product's name, its ensemble and its times (a product without
    a price is 0, for the office to fill in)."""
    query = (
        GigProduct.select(GigProduct, Product.name, Ensemble.name.alias("ensemble_name"))
        .join(Product)
        .switch(GigProduct)
        .join(Ensemble, join_type=JOIN.LEFT_OUTER)
        .where(GigProduct.gig == gig_id)
        .order_by(GigProduct.position.is_null(), GigProduct.position, GigProduct.created_at, GigProduct.id)
    )
    return [
        {
            "description": described(row.product.name, row.ensemble_name, row.start_time, row.end_time),
            "unit_price_cents": row.price_cents or 0,
            "gig_product_id": row.id,
            "position": position,
        }
        for position, row in enumerate(query.objects(), start=1)
    ]


DESCRIPTION_CHARS = 300  # a quote line's description (SPEC §15)


def described(product, ensemble, start, end):
    """`Reception (Trio), 18:00–23:00`: the parts known, cut to a line's length (a long product name is no refusal of
    the whole quote)."""
    text = f"{product} ({ensemble})" if ensemble else product
    text = f"{text}, {start}–{end}" if start and end else text
    return text if len(text) <= DESCRIPTION_CHARS else text[: DESCRIPTION_CHARS - 1] + "…"


def require_sendable(quote):
    """409 unless `quote` may be sent: a draft (`not_editable`), with an addressee (`no_contact`), with lines
    (`no_lines`), still valid (`quote_expired`)."""
    records.editable(quote, "quote")
    if quote.contact_id is None:
        raise conflict("no_contact", "The quote has no addressee: set its contact_id first.")
    if not QuoteLine.select().where(QuoteLine.quote == quote.id).exists():
        raise conflict("no_lines", "The quote has no lines: add what it offers first.")
    require_valid(quote)


def require_valid(quote):
    """409 `quote_expired` when the quote's valid_until is before the office's today."""
    if str(quote.valid_until) < records.office_today().isoformat():
        message = f"The quote was valid until {quote.valid_until}: it can no longer be sent or answered."
        raise conflict("quote_expired", message, valid_until=str(quote.valid_until))


def send(quote, number):
    """Mark `quote` sent under `number`; the gig's earlier sent quotes become superseded. Returns their ids."""
    earlier = Quote.select(Quote.id).where(Quote.gig == quote.gig_id, Quote.status == SENT, Quote.id != quote.id)
    superseded = [quote_id for (quote_id,) in earlier.tuples()]
    stamp = now()
    if superseded:
        Quote.update(status="superseded", updated_at=stamp).where(Quote.id.in_(superseded)).execute()
    quote.number, quote.status, quote.sent_at, quote.updated_at = number, SENT, stamp, stamp
    quote.save()
    return superseded


def answer(quote, status, responded_by):
    """The client's answer to a sent, valid quote, `accepted` or `declined`, given by `responded_by` (`client`, or
    the id of the user who answered for them). An accept is refused while the gig has an accepted quote
    (`quote_accepted`)."""
    if quote.status != SENT:
        raise conflict("not_sent", f"This quote is {quote.status}: only a sent quote is answered.", status=quote.status)
    require_valid(quote)
    if status == "accepted":
        accepted = Quote.get_or_none(Quote.gig == quote.gig_id, Quote.status == "accepted")
        if accepted:
            message = f"The gig has an accepted quote already ({accepted.number})."
            raise conflict("quote_accepted", message, quote_id=accepted.id)
    stamp = now()
    quote.status, quote.responded_at, quote.responded_by, quote.updated_at = status, stamp, responded_by, stamp
    quote.save()
    return quote


def expiring():
    """The condition of a sent quote past its valid_until (the office's today), which the worker marks expired."""
    return (Quote.status == SENT) & (Quote.valid_until < records.office_today().isoformat())


# How an answer moves its gig on (SPEC §15): (the kinds of status it moves from, None standing for no status; the kind
# it moves to). An accepted quote, then a signed contract.
ACCEPTED = (("inquiry",), "tentative")
SIGNED = (("inquiry", "tentative", None), "confirmed")


def status_moved(gig, from_kinds, to_kind):
    """The id of the first gig status (by position) of `to_kind` when the gig's status is of `from_kinds` (None
    standing for no status), else None: the gig stays where the office put it."""
    current = GigStatus.get_or_none(GigStatus.id == gig.gig_status_id) if gig.gig_status_id else None
    if (current.kind if current else None) not in from_kinds:
        return None
    first = (
        GigStatus.select(GigStatus.id)
        .where(GigStatus.kind == to_kind)
        .order_by(GigStatus.position.is_null(), GigStatus.position, GigStatus.name)
        .first()
    )
    return first.id if first else None


def gig_of(quote):
    return Gig.get_by_id(quote.gig_id)
