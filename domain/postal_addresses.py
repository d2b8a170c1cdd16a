"""A venue's address on one line, written one way wherever it is shown: messages (SPEC §9), the answer page, a
musician's own gigs (§10) and the calendar feeds' LOCATION."""


def one_line(venue, *, named=True):
    """`Schloss Hof, Schlosshof 1, 2294 Marchegg, AT` (without the venue's name unless `named`), or None when
    there is no venue or nothing is known."""
    if venue is None:
        return None
    town = " ".join(part for part in (venue.postal_code, venue.city) if part)
    name = venue.name if named else None
    parts = (name, venue.address_line1, venue.address_line2, town, venue.region, venue.country)
    return ", ".join(part for part in parts if part) or None


def place(venue):
    """Where a gig is, as its players read it: {name, address (one line, or None), timezone}; None without a venue."""
    if venue is None:
        return None
    return {"name": venue.name, "address": one_line(venue, named=False), "timezone": venue.timezone}
