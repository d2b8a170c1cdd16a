"""The client's links (SPEC §16): `{public_url}/client#token=bcl_…`, the only credential of `/v1/client`. A token is
random and stored as its SHA-256 hash only, so it is shown once: when it is made. Each mail to the client carries a
link of its own, beside those of the mails before (an older mail's link keeps working); a link the office makes
replaces all of the contact's links (a link that went astray stops working at once). A link works until 90 days after
the gig, and one made later than that, 14 days from its making."""

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
    """The office's new link for `gig_contact`, replacing all of theirs, in the write transaction under way: {url,
    expires_at}."""
    revoke(gig_contact.id)
    return add(gig_contact, public_url)


def add(gig_contact, public_url):
    """Another link for `gig_contact` (a mail's), theirs kept, in the write transaction under way: {url, expires_at}."""
    token = PREFIX + secrets.token_urlsafe(32)
    gig = Gig.get_by_id(gig_contact.gig_id)
    expires_at = expiry(dt.date.fromisoformat(str(gig.gig_date)))
    ClientLink.create(gig_contact=gig_contact.id, token_hash=digest(token), expires_at=expires_at)
    return {"url": f"{public_url}/client#token={token}", "expires_at": expires_at}


def revoke(gig_contact_id):
    """Whether the gig contact had a link (none of theirs works any more)."""
    return ClientLink.delete().where(ClientLink.gig_contact == gig_contact_id).execute() > 0


def holder(token):
    """The gig contact a live link's token belongs to, or None (unknown, replaced, revoked or expired)."""
    if not token.startswith(PREFIX):
        return None
    link = ClientLink.get_or_none((ClientLink.token_hash == digest(token)) & (ClientLink.expires_at > now()))
    return GigContact.get_or_none(GigContact.id == link.gig_contact_id) if link else None
