"""SPEC §16's client link: the office makes (and replaces, and revokes) a gig contact's `bcl_` link; its holder
reads their gig and their documents once sent or issued, through `GET /v1/client` alone: never drafts, pay, the
band's people, notes, other contacts or another gig; every other endpoint answers a `bcl_` token as it answers
nobody."""

import re

import pytest

from models import Contract, Invoice, Quote
from service import settings
from tests.support.api import error_of
from tests.support.client_links import make_link, token_of
from tests.support.days import today
from tests.support.documented import operations, required_query
from tests.support.sales import issued, sent
from web.rate_limits import RateLimiter


@pytest.fixture
def couple(admin, build):
    """A gig at a venue with a product, a musician, notes, the couple (primary) and a planner, and another gig."""
    venue = build("venues", name="Schloss Elmau", address_line1="Elmau 2", city="Krün", postal_code="82493")
    gig = build("gigs", gig_date=today(90), title="Anna & Ben", venue_id=venue["id"], notes="Secret office note")
    build("gig-products", gig_id=gig["id"], start_time="19:00", end_time="23:00")
    anna = build("contacts", first_name="Anna", last_name="Berger", email="anna@couple.example")
    planner = build("contacts", first_name="Pia", last_name="Planner", email="pia@planner.example")
    link_of = build("gig-contacts", gig_id=gig["id"], contact_id=anna["id"], is_primary=True)
    build("gig-contacts", gig_id=gig["id"], contact_id=planner["id"])
    build("gig-roles", gig_id=gig["id"], pay_cents=424242)
    other_gig = build("gigs", gig_date=today(91), title="Other couple")
    other = build("contacts", first_name="Olga", last_name="Other", email="olga@other.example")
    other_contact = build("gig-contacts", gig_id=other_gig["id"], contact_id=other["id"])
    return {
        "gig": gig,
        "venue": venue,
        "gig_contact": link_of,
        "other_gig": other_gig,
        "anna": anna,
        "other_contact": other_contact,
    }


def as_client(anon, token, path="/client"):
    return anon.get(path, headers={"Authorization": f"Bearer {token}"})


def test_a_link_shows_its_holder_their_gig_and_documents_once_sent_and_nothing_else(
    admin, build, anon, couple, documented
):
    gig_id = couple["gig"]["id"]
    draft_quote = build("quotes", gig_id=gig_id, intro="Draft quote")
    quote = build("quotes", gig_id=gig_id, intro="Our offer")
    build("quote-lines", quote_id=quote["id"], description="Band, 4 sets", unit_price_cents=350000, tax_rate_bp=1900)
    sent(Quote, quote["id"])
    build("contracts", gig_id=gig_id, body="Draft contract")
    contract = build("contracts", gig_id=gig_id, body="The contract as sent")
    sent(Contract, contract["id"])
    build("invoices", gig_id=gig_id, kind="balance", notes="Draft invoice")
    voided = build("invoices", gig_id=gig_id, kind="final", notes="Draft voided")
    Invoice.update(status="void").where(Invoice.id == voided["id"]).execute()  # as cancelling the gig will
    invoice = build("invoices", gig_id=gig_id, kind="deposit", due_date=today(14))
    build("invoice-lines", invoice_id=invoice["id"], unit_price_cents=100000, tax_rate_bp=1900)
    issued(invoice["id"])
    build("quotes", gig_id=couple["other_gig"]["id"], intro="Another gig's quote")
    assert admin.patch("/office", json={"name": "Elmau Band", "iban": "DE89370400440532013000"}).status_code == 200

    link = make_link(admin, couple["gig_contact"]["id"])
    response = as_client(anon, token_of(link))

    assert response.status_code == 200, response.get_json()
    documented.check("GET", "/client", response)
    data = response.get_json()["data"]
    assert data["contact"] == {"first_name": "Anna", "last_name": "Berger"}
    assert data["language"] == "en"  # no custom field `language`: the office's
    assert data["gig"]["title"] == "Anna & Ben" and data["gig"]["gig_date"] == today(90)
    assert data["gig"]["venue"]["name"] == "Schloss Elmau" and "Elmau 2" in data["gig"]["venue"]["address"]
    assert [(p["start_time"], p["end_time"]) for p in data["gig"]["products"]] == [("19:00", "23:00")]
    assert data["office"]["name"] == "Elmau Band" and data["office"]["iban"] == "DE89370400440532013000"
    assert [(q["id"], q["status"], q["gross_cents"]) for q in data["quotes"]] == [(quote["id"], "sent", 416500)]
    assert [line["description"] for line in data["quote_lines"]] == ["Band, 4 sets"]
    assert [line["invoice_id"] for line in data["invoice_lines"]] == [invoice["id"]]
    assert (data["contract"]["id"], data["contract"]["body"]) == (contract["id"], "The contract as sent")
    assert [(i["id"], i["status"], i["open_cents"]) for i in data["invoices"]] == [(invoice["id"], "issued", 119000)]
    text = response.get_data(as_text=True)
    unseen = ("Draft", "Secret office note", "Pia", "Planner", "424242", "Another gig", draft_quote["id"])
    assert [word for word in unseen if word in text] == []


def test_a_new_link_replaces_the_old_and_a_revoked_one_opens_nothing(admin, anon, couple):
    gig_contact_id = couple["gig_contact"]["id"]
    first = token_of(make_link(admin, gig_contact_id))
    second_link = make_link(admin, gig_contact_id)
    second = token_of(second_link)

    assert second_link["expires_at"] > f"{today(90)}T"  # until 90 days after the gig
    error_of(as_client(anon, first), 401, "unauthenticated")
    assert as_client(anon, second).status_code == 200
    assert admin.delete(f"/gig-contacts/{gig_contact_id}/client-link").status_code == 204
    error_of(as_client(anon, second), 401, "unauthenticated")
    error_of(admin.delete(f"/gig-contacts/{gig_contact_id}/client-link"), 404, "not_found")


def test_only_sales_edit_makes_a_link_and_a_gig_contact_deleted_takes_its_link(signed_in, admin, anon, couple):
    gig_contact_id = couple["gig_contact"]["id"]
    error_of(signed_in("viewer").post(f"/gig-contacts/{gig_contact_id}/client-link"), 403, "forbidden")
    error_of(admin.post("/gig-contacts/00000000-0000-4000-8000-000000000001/client-link"), 404, "not_found")
    token = token_of(make_link(admin, gig_contact_id))
    assert admin.delete(f"/gig-contacts/{gig_contact_id}").status_code == 204
    error_of(as_client(anon, token), 401, "unauthenticated")


def test_an_unknown_or_misspelt_client_token_is_401(app, admin, anon, couple):
    token = token_of(make_link(admin, couple["gig_contact"]["id"]))
    for wrong in ("bcl_" + "A" * 43, token[:-1], token.replace("bcl_", "bos_"), ""):
        error_of(as_client(anon, wrong), 401, "unauthenticated")
    error_of(anon.get("/client"), 401, "unauthenticated")


def test_guessing_tokens_costs_what_sign_in_does_and_a_live_link_has_a_budget_of_its_own(app, admin, anon, couple):
    token = token_of(make_link(admin, couple["gig_contact"]["id"]))
    revoked = token_of(make_link(admin, couple["other_contact"]["id"]))
    assert admin.delete(f"/gig-contacts/{couple['other_contact']['id']}/client-link").status_code == 204
    app.extensions["auth_rate"] = RateLimiter(10, 60)  # BAND_AUTH_RATE_LIMIT's default: 10/minute

    assert [as_client(anon, token).status_code for _ in range(10)] == [200] * 10
    assert as_client(anon, token, "/client/repertoire?q=love").status_code == 200  # the 11th in the minute
    wrong = ("bcl_" + "A" * 43, revoked, token[:-1], "")
    answers = [as_client(anon, wrong[n % len(wrong)]).status_code for n in range(10)]
    assert answers == [401] * 10
    for guess in (*wrong, None):
        refused = anon.get("/client") if guess is None else as_client(anon, guess)
        error_of(refused, 429, "rate_limited")
        assert int(refused.headers["Retry-After"]) > 0
    assert as_client(anon, token).status_code == 200  # the guesses spent sign-in's budget, not the link's


def test_a_live_link_past_its_own_rate_is_429_with_retry_after(app, admin, anon, couple):
    assert settings.load({})["CLIENT_REQUESTS"] == (120, 60)  # BAND_CLIENT_RATE's default: 120/minute
    token = token_of(make_link(admin, couple["gig_contact"]["id"]))
    app.extensions["client_rate"] = RateLimiter(3, 60)
    assert [as_client(anon, token).status_code for _ in range(3)] == [200] * 3
    refused = as_client(anon, token)
    error_of(refused, 429, "rate_limited")
    assert 0 < int(refused.headers["Retry-After"]) <= 60


def test_a_client_token_opens_no_endpoint_but_its_own_view(app, admin, anon, build, couple, documented):
    """The walk: every operation of the OpenAPI document, with the client's token as the bearer, answers as it
    answers a request with no bearer at all (401 wherever a bearer is needed), the client's own `/client…` alone
    excepted."""
    token = token_of(make_link(admin, couple["gig_contact"]["id"]))
    client = anon.with_token(token)
    ids = {"gigs": couple["gig"]["id"], "gig-contacts": couple["gig_contact"]["id"]}
    walked = 0
    for method, path, operation in operations(documented.document):
        if path == "/client" or path.startswith("/client/"):
            continue
        target = path.replace("{id}", ids.get(path.split("/")[1], couple["anna"]["id"]))
        target = re.sub(r"\{[a-z_]+\}", "not-a-token", target)
        target += required_query(operation)
        body = {} if method in ("POST", "PATCH", "PUT") else None
        with_token = client.request(method, target, json=body)
        without = anon.request(method, target, json=body)
        assert with_token.status_code == without.status_code, (method, target, with_token.status_code)
        if with_token.status_code < 400:
            assert with_token.get_data() == without.get_data() or method == "GET", (method, target)
        walked += 1
    assert walked > 200
    assert as_client(anon, token).status_code == 200
