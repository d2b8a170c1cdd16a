"""New couples' inquiries (SPEC §16), as plain rules: which dates may be asked for, whether a date is taken, what
tells a person's inquiry from a robot's, and what the office reads of it on the new gig."""

from models import Gig, GigStatus, Product

YEARS_AHEAD = 3  # a date further ahead is a typo, not a booking
SOONEST_SECONDS = 3  # a person takes longer than this to fill the form in
FORM_LIFETIME_SECONDS = 24 * 3600  # a form served longer ago than this is an old copy (or a robot's)
TAKING_KINDS = ("tentative", "confirmed")  # the gig statuses that take a date
HONEYPOT = "website"  # the form's field that only a robot fills in (hidden from people and screen readers)


def latest_date(today):
    """The last date an inquiry or an availability question may name: YEARS_AHEAD years from `today`."""
    try:
        return today.replace(year=today.year + YEARS_AHEAD)
    except ValueError:  # 29 February
        return today.replace(year=today.year + YEARS_AHEAD, day=28)


def date_problem(date, today):
    """Why `date` (a date) cannot be asked for, or None."""
    if date < today:
        return "This date is in the past."
    if date > latest_date(today):
        return f"We take bookings up to {YEARS_AHEAD} years ahead: choose a date until {latest_date(today)}."
    return None


def available(date, gigs_per_day):
    """Whether `date` has room for another gig: fewer than `gigs_per_day` tentative or confirmed gigs on it."""
    taking = (
        Gig.select(Gig.id)
        .join(GigStatus, on=Gig.gig_status == GigStatus.id)
        .where(Gig.gig_date == date.isoformat(), GigStatus.kind.in_(TAKING_KINDS))
    )
    return taking.limit(gigs_per_day).count() < gigs_per_day


def from_a_robot(values, served_at, moment):
    """Whether an inquiry is to be dropped unseen: the honeypot filled, the form's token not ours, or the form
    sent sooner than a person could fill it in, or long after it was served (Unix seconds `served_at`, `moment`)."""
    if values.get(HONEYPOT) or served_at is None:
        return True
    return not SOONEST_SECONDS <= moment - served_at <= FORM_LIFETIME_SECONDS


def inquiry_status():
    """The first gig status (by position) of kind `inquiry`, or None when the office keeps none."""
    first = (
        GigStatus.select(GigStatus.id)
        .where(GigStatus.kind == "inquiry")
        .order_by(GigStatus.position.is_null(), GigStatus.position, GigStatus.name)
        .first()
    )
    return first.id if first else None


def wanted_products(product_ids):
    """The active products among `product_ids`, in the order asked, each once (others are left out unsaid)."""
    if not product_ids:
        return []
    active = {
        product.id: product
        for product in Product.select(Product.id, Product.name).where(
            Product.id.in_(list(product_ids)),
            Product.active == True,  # noqa: E712
        )
    }
    return [active[id] for id in dict.fromkeys(product_ids) if id in active]


def public_products():
    """The active products as the inquiry form lists them: id and name, in the office's order."""
    query = Product.select(Product.id, Product.name).where(Product.active == True)  # noqa: E712
    ordered = query.order_by(Product.position.is_null(), Product.position, Product.name)
    return [{"id": product.id, "name": product.name} for product in ordered]


NOTES = {  # what the office reads on the new gig; the sender's words are kept as sent
    "heading": "Inquiry from the form on {date}.",
    "venue_name": "Venue: {}",
    "city": "City: {}",
    "message": "Message:\n{}",
}


def gig_notes(values, today):
    """The new gig's notes: where the couple means to celebrate and their message."""
    parts = [NOTES["heading"].format(date=today.isoformat())]
    parts += [NOTES[name].format(values[name]) for name in ("venue_name", "city", "message") if values.get(name)]
    return "\n".join(parts)
