"""The couple's link (SPEC §16): made by the office for a gig contact, and the `bcl_` token in it."""

import re


def make_link(admin, gig_contact_id):
    """The link the office makes for the gig contact (`POST /gig-contacts/{id}/client-link`): its `url` and expiry."""
    response = admin.post(f"/gig-contacts/{gig_contact_id}/client-link")
    assert response.status_code == 200, response.get_json()
    return response.get_json()["data"]


def token_of(link):
    """The `bcl_` token in the link's URL (after `#token=`, so that it never reaches a server's log)."""
    return re.fullmatch(r"http://[^/]+/client#token=(bcl_[A-Za-z0-9_-]{43})", link["url"]).group(1)
