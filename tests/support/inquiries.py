"""A couple's inquiry (SPEC §16, `POST /v1/inquiries`) as the form on `/inquire` sends it, and what one could have
made in the office."""

import time

from domain import signed_links
from tests.support.days import today


def form_token(app, seconds_ago=60):
    """The token of the form as `/inquire` served it `seconds_ago`."""
    with app.app_context():
        return signed_links.form_token(app.config, time.time() - seconds_ago)


def inquiry(app, **changes):
    """The body the form on `/inquire` sends for Anna and Ben, with `changes`."""
    body = {
        "names": "Anna & Ben",
        "email": "anna@couple.example",
        "phone": "+49 170 1234567",
        "gig_date": today(200),
        "venue_name": "Schloss Elmau",
        "city": "Krün",
        "guest_count": 120,
        "message": "We dance all night.\nSwing, please!",
        "consent": True,
        "form_token": form_token(app),
        "website": "",
    }
    return {**body, **changes}


def stored(admin):
    """What an inquiry could have made: the ids of the office's gigs, contacts, gig contacts and gig products."""
    lists = ("gigs", "contacts", "gig-contacts", "gig-products")
    return {name: {row["id"] for row in admin.get(f"/{name}?limit=100").get_json()["data"]} for name in lists}
