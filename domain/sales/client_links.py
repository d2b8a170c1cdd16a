"""The client's link (SPEC §16): one per gig contact, `{public_url}/client#token=bcl_…`, the only credential of
`/v1/client`. Its token is random and stored as its SHA-256 hash only, so it is shown once: when it is made. A new
link replaces the contact's old one (which stops working at once); it works until 90 days after the gig, and for
a link made later than that, 14 days from its making."""

import datetime as dt
import hashlib
import secrets

from models import ClientLink, Gig, GigContact, now, timestamp

PREFIX = "bcl_"
DAYS_AFTER_GIG = 90
DAYS_AT_LEAST = 14


def digest(token):
    return hashlib.sha256(token.encode()).hexdigest()


def expiry(gig_date):
    """When a link made now for a gig on `gig_date` stops working: the end of the 90th day after it (UTC)."""
    after_gig = dt.datetime.combine(gig_date, dt.time(), dt.UTC) + dt.timedelta(days=DAYS_AFTER_GIG + 1)
    at_least = dt.datetime.now(dt.UTC) + dt.timedelta(days=DAYS_AT_LEAST)
    return timestamp(max(after_gig, at_least))


def make(gig_contact, public_url):
    """A new link for `gig_contact`, replacing theirs, in the write transaction under way: {url, expires_at}."""
    token = PREFIX + secrets.token_urlsafe(32)
    gig = Gig.get_by_id(gig_contact.gig_id)
    expires_at = expiry(dt.date.fromisoformat(str(gig.gig_date)))
    revoke(gig_contact.id)
    ClientLink.create(gig_contact=gig_contact.id, token_hash=digest(token), expires_at=expires_at)
    return {"url": f"{public_url}/client#token={token}", "expires_at": expires_at}


def revoke(gig_contact_id):
    """Whether the gig contact had a link (it works no more)."""
    return ClientLink.delete().where(ClientLink.gig_contact == gig_contact_id).execute() > 0


def holder(token):
    """The gig contact a live link's token belongs to, or None (unknown, replaced, revoked or expired)."""
    if not token.startswith(PREFIX):
        return None
    link = ClientLink.get_or_none((ClientLink.token_hash == digest(token)) & (ClientLink.expires_at > now()))
    return GigContact.get_or_none(GigContact.id == link.gig_contact_id) if link else None
