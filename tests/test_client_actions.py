"""SPEC §16's client acting with their link (`/v1/client/...`, the `bcl_` bearer alone): accepting or declining a
sent quote as the office's operations do, recorded by `client`, the office told at once; signing the sent contract
with a typed name, consent and a drawn signature (an SVG kept from an allow-list), with what signing does (§15: the
gig confirmed, the deposit issued, the balance drafted) and its signed copy mailed to both sides; their documents'
PDFs byte for byte the office's. Another gig's documents are nobody's business: 404."""

import hashlib
import io

import pytest
from pypdf import PdfReader

from app import configure
from tests.support.api import error_of
from tests.support.days import today
from tests.support.notified import send_what_is_due
from tests.support.smtp_server import smtp_server
from tests.support.waiting import wait_for
from web.rate_limits import RateLimiter

TEMPLATE = "Agreement between {{ office_name }} and {{ client_names }} for {{ gig_date }}: {{ quote_total }}."
DRAWN = (
    '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 300 120" '
    'width="300" height="120"><path d="M 10.000,60.000 C 40.000,10.000 80.000,110.000 120.000,60.000" '
    'stroke-width="2.500" stroke="black" fill="none" stroke-linecap="round"></path>'
    '<circle r="1.5" cx="200" cy="60" fill="black"></circle></svg>'
)
BROWSER = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148"


@pytest.fixture(autouse=True)
def generous_rate(app):
    app.extensions["auth_rate"] = RateLimiter(1000, 60)  # the link shares sign-in's budget; these tests ask often


@pytest.fixture
def booked(admin, build):
    """Anna's gig (an inquiry) with a priced product, its quote sent by the office, the default template; another
    gig of another couple with a sent quote of its own; Anna's and the other couple's links."""
    assert admin.patch("/office", json={"name": "Elmau Band", "iban": "DE89370400440532013000"}).status_code == 200
    build("contract-templates", name="Standard", body=TEMPLATE, is_default=True)
    gig = build("gigs", gig_date=today(120), title="Anna & Ben")
    anna = build("contacts", first_name="Anna", last_name="Berger", email="anna@couple.example")
    gig_contact = build("gig-contacts", gig_id=gig["id"], contact_id=anna["id"], is_primary=True)
    band = build("products", name="Band, four sets")
    build("gig-products", gig_id=gig["id"], product_id=band["id"], price_cents=400000)
    quote = sent_quote(admin, gig["id"])
    other = build("gigs", gig_date=today(121), title="Cleo & Dan")
    cleo = build("contacts", first_name="Cleo", email="cleo@couple.example")
    other_contact = build("gig-contacts", gig_id=other["id"], contact_id=cleo["id"], is_primary=True)
    build("gig-products", gig_id=other["id"], product_id=band["id"], price_cents=300000)
    return {
        "gig": gig,
        "quote": quote,
        "gig_contact": gig_contact,
        "token": token_of(admin, gig_contact["id"]),
        "other_quote": sent_quote(admin, other["id"]),
        "other_token": token_of(admin, other_contact["id"]),
    }


def sent_quote(admin, gig_id):
    quote = admin.post(f"/gigs/{gig_id}/quotes").get_json()["data"]
    return ok(admin.post(f"/quotes/{quote['id']}/send"))


def token_of(admin, gig_contact_id):
    return ok(admin.post(f"/gig-contacts/{gig_contact_id}/client-link"))["url"].split("#token=")[1]


def ok(response, status=200):
    assert response.status_code == status, response.get_json()
    return response.get_json()["data"]


def as_client(anon, token):
    return anon.with_token(token)


def invalid_at(response, field):
    error = error_of(response, 422, "validation_failed")
    assert list(error["details"]) == [field], error
    return error["details"][field]


def curves(page):
    """The Bézier curves a PDF page draws: WeasyPrint draws an SVG's strokes as paths (its text is glyphs)."""
    return page.get_contents().get_data().count(b" c\n")


def history(admin, gig_id):
    return admin.get(f"/gigs/{gig_id}/history?limit=200").get_json()["data"]


def status_of(admin, gig_id):
    status_id = admin.get(f"/gigs/{gig_id}").get_json()["data"]["gig_status_id"]
    return admin.get(f"/gig-statuses/{status_id}").get_json()["data"]["kind"]


def office_news(admin):
    return sorted(row["title"] for row in admin.get("/me/notifications").get_json()["data"])


def accepted_and_sent(admin, anon, booked):
    """Anna accepts on her page; the office sends the contract drafted from it, and with it her new link (in
    `booked`'s token, as the contract's mail carries it). The contract."""
    ok(as_client(anon, booked["token"]).post(f"/client/quotes/{booked['quote']['id']}/accept"))
    [contract] = admin.get(f"/contracts?filter[gig_id]={booked['gig']['id']}").get_json()["data"]
    sent = ok(admin.post(f"/contracts/{contract['id']}/send"))
    booked["token"] = token_of(admin, booked["gig_contact"]["id"])
    return sent


def test_the_couple_accepts_their_quote_as_the_office_would_and_the_office_hears_at_once(admin, anon, booked):
    quote, gig_id = booked["quote"], booked["gig"]["id"]
    invalid_at(as_client(anon, booked["token"]).post(f"/client/quotes/{quote['id']}/accept", {"note": "Yes"}), "note")

    accepted = ok(as_client(anon, booked["token"]).post(f"/client/quotes/{quote['id']}/accept"))

    assert (accepted["status"], accepted["responded_by"]) == ("accepted", "client") and accepted["responded_at"]
    assert status_of(admin, gig_id) == "tentative"
    [contract] = admin.get(f"/contracts?filter[gig_id]={gig_id}").get_json()["data"]
    assert (contract["status"], contract["quote_id"]) == ("draft", quote["id"])
    [event] = [event for event in history(admin, gig_id) if event["type"] == "quote.accepted"]
    assert event["actor"] == {"user_id": None, "name": "Anna Berger", "token_kind": "client"}
    assert f"Quote {quote['number']} accepted: Anna & Ben" in office_news(admin)
    seen = ok(as_client(anon, booked["token"]).get("/client"))
    assert [q["status"] for q in seen["quotes"]] == ["accepted"]
    again = error_of(as_client(anon, booked["token"]).post(f"/client/quotes/{quote['id']}/accept"), 409, "conflict")
    assert again["details"]["reason"] == "not_sent"


def test_the_couple_declines_with_a_message_of_at_most_2000_characters(admin, anon, booked):
    quote, client = booked["quote"], as_client(anon, booked["token"])
    path = f"/client/quotes/{quote['id']}/decline"

    assert "2000" in invalid_at(client.post(path, {"message": "x" * 2001}), "message")[0]
    invalid_at(client.post(path, {"note": "the office's word"}), "note")
    assert admin.get(f"/quotes/{quote['id']}").get_json()["data"]["status"] == "sent"  # nothing changed

    declined = ok(client.post(path, {"message": "We found another band, sorry!"}))

    assert (declined["status"], declined["responded_by"]) == ("declined", "client")
    [event] = [event for event in history(admin, booked["gig"]["id"]) if event["type"] == "quote.declined"]
    assert event["data"]["note"] == "We found another band, sorry!" and event["actor"]["token_kind"] == "client"
    assert f"Quote {quote['number']} declined: Anna & Ben" in office_news(admin)
    assert status_of(admin, booked["gig"]["id"]) == "inquiry"


@pytest.fixture
def inbox(app):
    with smtp_server() as (inbox, port):
        configure(app, {**app.config, "MAIL_URL": f"smtp://127.0.0.1:{port}"})
        yield inbox


def test_signing_on_the_page_confirms_the_gig_issues_the_deposit_and_mails_the_signed_copy_to_both(
    app, admin, anon, booked, inbox
):
    contract = accepted_and_sent(admin, anon, booked)
    gig_id = booked["gig"]["id"]
    body = {"full_name": "Anna Berger", "consent": True, "signature_svg": DRAWN}

    signed = ok(
        as_client(anon, booked["token"]).post(
            f"/client/contracts/{contract['id']}/sign", body, headers={"User-Agent": BROWSER}
        )
    )

    assert (signed["status"], signed["signed_by"], signed["signed_name"]) == ("signed", "client", "Anna Berger")
    assert (signed["signed_ip"], signed["signed_user_agent"]) == ("127.0.0.1", BROWSER) and signed["signed_at"]
    assert signed["sha256"] == hashlib.sha256(contract["body"].encode()).hexdigest()
    assert status_of(admin, gig_id) == "confirmed"
    invoices = admin.get(f"/invoices?filter[gig_id]={gig_id}").get_json()["data"]
    assert sorted((i["kind"], i["status"]) for i in invoices) == [("balance", "draft"), ("deposit", "issued")]
    [event] = [event for event in history(admin, gig_id) if event["type"] == "contract.signed"]
    assert event["actor"] == {"user_id": None, "name": "Anna Berger", "token_kind": "client"}

    office_pdf = admin.get(f"/contracts/{contract['id']}/pdf").get_data()
    client_pdf = as_client(anon, booked["token"]).get(f"/client/contracts/{contract['id']}/pdf")
    assert client_pdf.status_code == 200 and client_pdf.get_data() == office_pdf
    audit = PdfReader(io.BytesIO(office_pdf)).pages[-1]
    text = audit.extract_text()
    for words in ("Anna Berger", "127.0.0.1", "iPhone", signed["sha256"], "Signature"):
        assert words in text, text
    assert curves(audit) > 0  # the drawn signature

    send_what_is_due(app)
    admin_address = admin.get("/me").get_json()["data"]["email"]
    wait_for(lambda: inbox.messages("anna@couple.example") and inbox.messages(admin_address))
    copies = {}
    for address in ("anna@couple.example", admin_address):
        [mail] = [m for m in inbox.messages(address) if "signed" in m["Subject"]]
        [attachment] = list(mail.iter_attachments())
        copies[address] = attachment.get_content()
    assert copies["anna@couple.example"] == copies[admin_address] == office_pdf
    copy = PdfReader(io.BytesIO(copies["anna@couple.example"]))
    assert signed["sha256"] in copy.pages[-1].extract_text() and curves(copy.pages[-1]) > 0


def test_the_clients_actions_share_the_live_links_rate_per_address(app, admin, anon, booked):
    app.extensions["client_rate"] = RateLimiter(2, 60)  # BAND_CLIENT_RATE
    client, path = as_client(anon, booked["token"]), f"/client/quotes/{booked['quote']['id']}/pdf"
    answers = [client.get(path).status_code, client.get("/client").status_code]
    refused = client.post(f"/client/quotes/{booked['quote']['id']}/accept")

    assert answers == [200, 200]
    assert error_of(refused, 429, "rate_limited") and refused.headers["Retry-After"]
    assert admin.get(f"/quotes/{booked['quote']['id']}").get_json()["data"]["status"] == "sent"


def invoice_number(admin, invoice_id):
    return admin.get(f"/invoices/{invoice_id}").get_json()["data"]["number"]


HOSTILE = {
    "an entity bomb": '<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;">]>'
    '<svg xmlns="http://www.w3.org/2000/svg"><path d="M 1,1 L 2,2">&b;</path></svg>',
    "an external entity": '<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
    '<svg xmlns="http://www.w3.org/2000/svg"><path d="&x;"/></svg>',
    "no SVG": "<html><script>alert(1)</script></html>",
    "not XML": "<svg><path",
    "nothing drawn": '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script><foreignObject/></svg>',
    "too large": DRAWN.replace("</svg>", '<line x1="1" y1="1" x2="2" y2="2" stroke="black"/>' * 1400 + "</svg>"),
}


@pytest.mark.parametrize(
    "change, field",
    [
        ({"consent": False}, "consent"),
        ({"consent": None}, "consent"),
        ({"full_name": ""}, "full_name"),
        ({"full_name": "A" * 201}, "full_name"),
        ({"signature_svg": None}, "signature_svg"),
        *[({"signature_svg": svg}, "signature_svg") for svg in HOSTILE.values()],
    ],
    ids=["no consent", "consent null", "no name", "long name", "no signature", *HOSTILE],
)
def test_a_signature_without_consent_name_or_a_drawing_is_refused_naming_the_field_and_changes_nothing(
    admin, anon, booked, change, field
):
    contract = accepted_and_sent(admin, anon, booked)
    events_before = len(history(admin, booked["gig"]["id"]))
    body = {"full_name": "Anna Berger", "consent": True, "signature_svg": DRAWN, **change}

    invalid_at(as_client(anon, booked["token"]).post(f"/client/contracts/{contract['id']}/sign", body), field)

    assert admin.get(f"/contracts/{contract['id']}").get_json()["data"]["status"] == "sent"
    assert len(history(admin, booked["gig"]["id"])) == events_before
    assert admin.get(f"/invoices?filter[gig_id]={booked['gig']['id']}").get_json()["data"] == []


def test_a_contract_is_signed_once_and_a_script_in_the_drawing_is_dropped(admin, anon, booked):
    contract = accepted_and_sent(admin, anon, booked)
    path = f"/client/contracts/{contract['id']}/sign"
    scripted = DRAWN.replace("<path ", '<script>alert(1)</script><path onclick="alert(2)" ')
    body = {"full_name": "Anna Berger", "consent": True, "signature_svg": scripted}

    ok(as_client(anon, booked["token"]).post(path, body))
    refusal = error_of(as_client(anon, booked["token"]).post(path, body), 409, "conflict")

    assert refusal["details"]["reason"] == "not_sent"
    pdf = admin.get(f"/contracts/{contract['id']}/pdf").get_data()
    assert b"alert" not in pdf and curves(PdfReader(io.BytesIO(pdf)).pages[-1]) > 0


def test_a_token_reaches_only_its_own_gigs_documents_and_their_pdfs_are_the_offices(admin, anon, build, booked):
    mine, theirs = as_client(anon, booked["token"]), as_client(anon, booked["other_token"])
    quote, other_quote = booked["quote"], booked["other_quote"]
    draft = admin.post(f"/gigs/{booked['gig']['id']}/quotes").get_json()["data"]
    for path in (
        f"/client/quotes/{other_quote['id']}/accept",
        f"/client/quotes/{draft['id']}/accept",
        f"/client/quotes/{other_quote['id']}/decline",
        "/client/quotes/not-an-id/accept",
    ):
        error_of(mine.post(path, {}), 404, "not_found")
    for path in (f"/client/quotes/{other_quote['id']}/pdf", f"/client/quotes/{draft['id']}/pdf"):
        error_of(mine.get(path), 404, "not_found")
    error_of(theirs.get(f"/client/quotes/{quote['id']}/pdf"), 404, "not_found")
    error_of(anon.post(f"/client/quotes/{quote['id']}/accept"), 401, "unauthenticated")
    error_of(anon.get(f"/client/quotes/{quote['id']}/pdf"), 401, "unauthenticated")
    assert admin.get(f"/quotes/{other_quote['id']}").get_json()["data"]["status"] == "sent"

    assert (
        mine.get(f"/client/quotes/{quote['id']}/pdf").get_data() == admin.get(f"/quotes/{quote['id']}/pdf").get_data()
    )
    invoice = build("invoices", gig_id=booked["gig"]["id"], kind="final", due_date=today(14))
    build("invoice-lines", invoice_id=invoice["id"], unit_price_cents=100000, tax_rate_bp=1900)
    ok(admin.post(f"/invoices/{invoice['id']}/issue"))
    mine = as_client(anon, token_of(admin, booked["gig_contact"]["id"]))  # the invoice's mail carried a new link
    pdf = mine.get(f"/client/invoices/{invoice['id']}/pdf")
    assert pdf.status_code == 200 and pdf.mimetype == "application/pdf"
    assert pdf.get_data() == admin.get(f"/invoices/{invoice['id']}/pdf").get_data()
    error_of(theirs.get(f"/client/invoices/{invoice['id']}/pdf"), 404, "not_found")
    [code] = ok(mine.get("/client"))["payment_codes"]
    assert code["invoice_id"] == invoice["id"] and code["svg"].startswith("<svg")
    paid_to = admin.get("/office").get_json()["data"]
    assert code["text"].splitlines()[:2] == ["BCD", "002"]
    assert {paid_to["iban"], "EUR1190", invoice_number(admin, invoice["id"])} <= set(code["text"].splitlines())
