"""Builders of valid records for every collection, through the API, and names that are unique."""

import io
import itertools
import uuid

from tests.support.sales import issued

_counter = itertools.count(1)


def unique(prefix="x"):
    return f"{prefix} {next(_counter)}-{uuid.uuid4().hex[:6]}"


def _uid():
    return uuid.uuid4().hex[:8]


def _gig_of(b, given, collection):
    """The gig of a given child record (so that same-gig rules hold), else a new gig."""
    if given.get(f"{collection}_id"):
        return b.api.get(f"/{collection.replace('_', '-')}s/{given[collection + '_id']}").get_json()["data"]["gig_id"]
    return given.get("gig_id") or b.id("gigs")


def _gig_role(b, given):
    body = {"gig_id": _gig_of(b, given, "gig_product"), "role_id": given.get("role_id") or b.id("roles")}
    if given.get("staff_member_id"):  # a member put on a role must hold it
        b("staff-member-roles", staff_member_id=given["staff_member_id"], role_id=body["role_id"])
    return body


def _invitation(b, given):
    gig_role_id = given.get("gig_role_id") or b.id("gig-roles")
    role_id = b.api.get(f"/gig-roles/{gig_role_id}").get_json()["data"]["role_id"]
    staff_member_id = given.get("staff_member_id") or b.id("staff-members")
    existing = b.api.get(f"/staff-member-roles?filter[staff_member_id]={staff_member_id}&filter[role_id]={role_id}")
    if not existing.get_json()["data"]:
        b("staff-member-roles", staff_member_id=staff_member_id, role_id=role_id)
    return {"gig_role_id": gig_role_id, "staff_member_id": staff_member_id}


def _lines_document(b, given, collection):
    """The quote or invoice a line is for: the given one, else a new one on the gig of the given gig product."""
    return given.get(f"{collection}_id") or b.id(f"{collection}s", gig_id=_gig_of(b, given, "gig_product"))


def _contract(b, given):
    """A contract of the given quote's gig, or of a new gig with a quote of its own (a contract is made from one)."""
    gig_id = _gig_of(b, given, "quote")
    return {"gig_id": gig_id, "quote_id": given.get("quote_id") or b.id("quotes", gig_id=gig_id)}


def _payment(b, given):
    """A payment of an issued invoice with a line: the given invoice (issued first while a draft), else a new one."""
    invoice_id = given.get("invoice_id") or b.id("invoices")
    if b.api.get(f"/invoices/{invoice_id}").get_json()["data"]["status"] == "draft":
        b("invoice-lines", invoice_id=invoice_id)
        issued(invoice_id)
    return {"invoice_id": invoice_id, "amount_cents": 1000, "received_on": "2027-06-01"}


# A venue with a whole address (as messages, feeds and a musician's gigs write it: SCHLOSS_HOF_ADDRESS).
SCHLOSS_HOF = {
    "name": "Schloss Hof",
    "address_line1": "Schlosshof 1",
    "postal_code": "2294",
    "city": "Marchegg",
    "country": "AT",
    "timezone": "Europe/Vienna",
}
SCHLOSS_HOF_ADDRESS = "Schlosshof 1, 2294 Marchegg, AT"

# The office's letterhead as an Austrian band fills it in (SPEC §15's `/office` fields).
LETTERHEAD = {
    "address_line1": "Hauptstraße 1",
    "address_line2": "2. Stock",
    "postal_code": "1010",
    "city": "Wien",
    "country": "AT",
    "email": "office@hochzeitsband.example",
    "phone": "+43 1 234 56 78",
    "website": "https://hochzeitsband.example",
    "vat_id": "ATU12345678",
    "company_register": "Handelsgericht Wien FN 123456a",
    "iban": "AT611904300234573201",
    "bic": "BKAUATWW",
    "bank_name": "Bank Austria",
    "tax_note": "Kleinunternehmer: umsatzsteuerbefreit nach § 6 Abs. 1 Z 27 UStG.",
    "invoice_footer": "Danke, dass ihr mit uns feiert!",
}
NO_LETTERHEAD = dict.fromkeys(LETTERHEAD)  # a new office's: every field null

# A minimal valid body for each collection, given the fields a test fixes; parents are created on the way.
RECIPES = {
    "teams": lambda b, g: {"name": unique("Team")},
    "gig-types": lambda b, g: {"name": unique("Gig type")},
    "gig-statuses": lambda b, g: {"name": unique("Status"), "kind": "confirmed"},
    "venues": lambda b, g: {"name": unique("Venue")},
    "gigs": lambda b, g: {"gig_date": "2027-06-12", "title": unique("Gig")},
    "users": lambda b, g: {"email": f"{_uid()}@example.com", "name": unique("User")},
    "access-roles": lambda b, g: {"name": f"role-{_uid()}", "grants": ["gigs.view"]},
    "webhook-endpoints": lambda b, g: {"url": f"http://127.0.0.1:9/{_uid()}", "event_types": ["gig.*"]},
    "products": lambda b, g: {"name": unique("Product")},
    "ensembles": lambda b, g: {"name": unique("Ensemble")},
    "ensemble-roles": lambda b, g: {"ensemble_id": b.id("ensembles"), "role_id": b.id("roles")},
    "product-ensembles": lambda b, g: {"product_id": b.id("products"), "ensemble_id": b.id("ensembles")},
    "roles": lambda b, g: {"name": unique("Role")},
    "prices": lambda b, g: {"product_id": b.id("products"), "amount_cents": 150000},
    "moments": lambda b, g: {"name": unique("Moment")},
    "songs": lambda b, g: {"title": unique("Song"), "artist": "The Band"},
    "custom-fields": lambda b, g: {
        "resource": "gigs",
        "key": f"k{_uid()}",
        "label": "Dress code",
        "field_type": "text",
    },
    "gig-products": lambda b, g: {"gig_id": b.id("gigs"), "product_id": b.id("products")},
    "gig-moments": lambda b, g: {"gig_id": _gig_of(b, g, "gig_product"), "name": unique("Moment")},
    "gig-songs": lambda b, g: {"gig_id": _gig_of(b, g, "gig_moment"), "title": unique("Song")},
    "gig-contacts": lambda b, g: {"gig_id": b.id("gigs"), "contact_id": b.id("contacts")},
    "client-notes": lambda b, g: {"gig_id": b.id("gigs"), "contact_id": b.id("contacts"), "body": "Our song, please"},
    "attachments": lambda b, g: {"gig_id": b.id("gigs"), "description": "Stage plan"},
    "gig-roles": _gig_role,
    "gig-role-invitations": _invitation,
    "staff-member-roles": lambda b, g: {"staff_member_id": b.id("staff-members"), "role_id": b.id("roles")},
    "staff-member-blockouts": lambda b, g: {
        "staff_member_id": b.id("staff-members"),
        "start_date": "2027-01-01",
        "end_date": "2027-01-02",
    },
    "equipment-types": lambda b, g: {"name": unique("Equipment type")},
    "equipment": lambda b, g: {"equipment_type_id": b.id("equipment-types"), "name": unique("Amp")},
    "product-equipment": lambda b, g: {"product_id": b.id("products"), "equipment_type_id": b.id("equipment-types")},
    "gig-equipment": lambda b, g: {"gig_id": b.id("gigs"), "equipment_id": b.id("equipment")},
    "equipment-issues": lambda b, g: {"equipment_id": b.id("equipment"), "title": unique("Hum")},
    "staff-members": lambda b, g: {"first_name": "Sam", "last_name": unique("Player")},
    "contacts": lambda b, g: {"first_name": unique("Contact")},
    "rates": lambda b, g: {"role_id": b.id("roles"), "amount_cents": 20000},
    "staff-member-product-rates": lambda b, g: {
        "staff_member_id": b.id("staff-members"),
        "product_id": b.id("products"),
        "amount_cents": 25000,
    },
    "quotes": lambda b, g: {"gig_id": b.id("gigs")},
    "quote-lines": lambda b, g: {
        "quote_id": _lines_document(b, g, "quote"),
        "description": unique("Reception"),
        "unit_price_cents": 150000,
    },
    "contract-templates": lambda b, g: {"name": unique("Contract"), "body": "Between {{ office_name }} and you."},
    "contracts": lambda b, g: _contract(b, g),
    "invoices": lambda b, g: {"gig_id": b.id("gigs"), "kind": "deposit"},
    "invoice-lines": lambda b, g: {
        "invoice_id": _lines_document(b, g, "invoice"),
        "description": unique("Deposit"),
        "unit_price_cents": 100000,
    },
    "payments": _payment,
}

# A valid change of each collection's records, for the round trip.
PATCHES = {
    "teams": {"description": "Horns and rhythm"},
    "gig-types": {"description": "Saturday weddings"},
    "gig-statuses": {"color": "#112233", "position": 3},
    "venues": {"city": "Vienna", "country": "AT", "timezone": "Europe/Vienna"},
    "gigs": {"title": "Changed", "guest_count": 99, "start_time": "23:30", "end_time": "01:30"},
    "users": {"name": "Renamed", "roles": ["viewer"]},
    "access-roles": {"description": "Changed", "grants": ["gigs.*"]},
    "webhook-endpoints": {"description": "The website", "event_types": ["*"], "include_pay": True},
    "products": {"description": "Two sets", "default_duration_minutes": 90, "active": False},
    "ensembles": {"description": "Five piece", "active": False},
    "ensemble-roles": {"quantity": 2},
    "product-ensembles": {"is_default": True},
    "roles": {"description": "Lead vocals", "position": 1},
    "prices": {"amount_cents": 99000, "valid_from": "2027-01-01", "valid_to": "2027-12-31", "label": "2027"},
    "moments": {"description": "First dance", "position": 2},
    "songs": {"tempo_bpm": 120, "musical_key": "Am", "duration_seconds": 215},
    "custom-fields": {"label": "Attire", "required": True, "position": 4},
    "gig-products": {"start_time": "16:00", "end_time": "18:00", "price_cents": 120000},
    "gig-moments": {"time": "17:30", "notes": "Cue the band"},
    "gig-songs": {"kind": "do_not_play", "artist": "Someone"},
    "gig-contacts": {"relationship": "Bride", "is_primary": True},
    "client-notes": {"body": "No polka, please"},
    "attachments": {"filename": "plan.pdf", "description": "Stage plan v2"},
    "gig-roles": {"call_time": "15:00", "pay_cents": 30000},
    "gig-role-invitations": {"message": "Can you play?"},
    "staff-member-roles": {"is_primary": True},
    "staff-member-blockouts": {"reason": "Holiday", "end_date": "2027-01-05"},
    "equipment-types": {"description": "Speakers and desks"},
    "equipment": {"serial_number": "SN-0001", "status": "in_repair", "purchased_on": "2024-03-01"},
    "product-equipment": {"quantity": 2},
    "gig-equipment": {"notes": "Bring the spare"},
    "equipment-issues": {"severity": "high", "description": "Crackles"},
    "staff-members": {"phone": "+43 1 234 5678", "email": "sam@example.com"},
    "contacts": {"company": "Wedding Co", "last_name": "Smith"},
    "rates": {"amount_cents": 22000},
    "staff-member-product-rates": {"amount_cents": 26000, "currency": "USD"},
    "quotes": {"intro": "Dear Anna and Ben", "deposit_percent": 50, "valid_until": "2027-05-01"},
    "quote-lines": {"quantity": 2, "tax_rate_bp": 1000, "position": 1},
    "contract-templates": {"is_default": True, "body": "Between {{ office_name }} and {{ client_names }}."},
    "contracts": {"body": "The text, as agreed on the phone."},
    "invoices": {"due_date": "2027-05-29", "notes": "Thank you"},
    "invoice-lines": {"quantity": 3, "description": "Balance"},
    "payments": {"reference": "SEPA 42", "method": "cash"},
}

# Optional fields that a record still needs unless another field stands in (a moment's name, a song's title).
REQUIRED_UNLESS = {"gig-moments": {"name": "moment_id"}, "gig-songs": {"title": "song_id"}}

# Collections created by a multipart upload rather than a JSON body.
MULTIPART = {"attachments"}


class Builder:
    """build(collection, **fields) creates a valid record through the API and returns it."""

    def __init__(self, api):
        self.api = api

    def body(self, collection, **fields):
        return {**RECIPES[collection](self, fields), **fields}

    def post(self, collection, body):
        """POST a create as the collection takes it (JSON, or a multipart upload)."""
        if collection in MULTIPART:
            form = {k: str(v) for k, v in body.items()}
            form.setdefault("file", (io.BytesIO(b"%PDF-1.4 stage plan"), "plan.pdf", "application/pdf"))
            return self.api.post(f"/{collection}", data=form, content_type="multipart/form-data")
        return self.api.post(f"/{collection}", body)

    def __call__(self, collection, **fields):
        response = self.post(collection, self.body(collection, **fields))
        assert response.status_code == 201, (collection, response.get_json())
        return response.get_json()["data"]

    def id(self, collection, **fields):
        return self(collection, **fields)["id"]

    def status(self, name, kind, **fields):
        """The gig status `name` of `kind` with `fields`: the one a new database ships (SPEC §12.1), made so, or a
        new one."""
        shipped = self.api.get("/gig-statuses", query_string={"filter[name]": name}).get_json()["data"]
        if not shipped:
            return self("gig-statuses", name=name, kind=kind, **fields)
        response = self.api.patch(f"/gig-statuses/{shipped[0]['id']}", {"kind": kind, **fields})
        assert response.status_code == 200, response.get_json()
        return response.get_json()["data"]
