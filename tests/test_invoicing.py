"""SPEC §15, invoicing through the API on either database: an invoice issued (its number, consecutive without gaps
also with 20 issues at once, its PDF kept byte for byte whatever `/office` says later), credit notes and money paid
back, the schedule a signed contract makes (the deposit issued, the balance drafted and issued by the worker 14 days
before it is due), a cancelled gig's drafts voided and its issued invoices listed to credit, and the PDFs read back."""

import datetime as dt
import hashlib
import io
import time

import pytest
from pypdf import PdfReader

from delivery import invoicing
from domain.sales.money import share
from tests.support.api import error_of
from tests.support.days import today
from tests.support.live import Live, at_once
from tests.support.pdfs import pdf_text, qr_codes
from tests.support.served import ServedOffice, Service, running
from tests.support.waiting import SLOW_MACHINE_SECONDS, wait_for

BANK = {"iban": "DE89370400440532013000", "bic": "COBADEFFXXX", "address_line1": "Hauptstraße 5", "city": "München"}


@pytest.fixture
def gig(admin, build):
    """A gig in 90 days with its couple as primary contact, and an office with bank details."""
    assert admin.patch("/office", json={"name": "The Swing Kings", **BANK}).status_code == 200
    gig = build("gigs", gig_date=today(90), title="Anna & Ben")
    couple = build("contacts", first_name="Anna", last_name="Berger", email="anna@couple.example")
    build("gig-contacts", gig_id=gig["id"], contact_id=couple["id"], is_primary=True)
    return {**gig, "couple_id": couple["id"]}


def sent(admin, collection, record_id):
    """`POST /quotes|contracts/{id}/send`: the document's number (its PDF kept in the same transaction)."""
    answer = admin.post(f"/{collection}/{record_id}/send")
    assert answer.status_code == 200, answer.get_json()
    return answer.get_json()["data"]["number"]


def accepted(admin, quote_id):
    """The quote sent and accepted on the client's behalf."""
    sent(admin, "quotes", quote_id)
    assert admin.post(f"/quotes/{quote_id}/accept", json={}).status_code == 200


def signed(admin, contract_id, name="Anna Berger"):
    """The contract sent (with a text, if it has none) and signed on paper on the client's behalf."""
    if admin.get(f"/contracts/{contract_id}").get_json()["data"]["status"] == "draft":
        if not admin.get(f"/contracts/{contract_id}").get_json()["data"]["body"]:
            admin.patch(f"/contracts/{contract_id}", json={"body": "We play from eight till late."})
        sent(admin, "contracts", contract_id)
    answer = admin.post(f"/contracts/{contract_id}/sign-on-behalf", json={"signed_name": name})
    assert answer.status_code == 200, answer.get_json()


def draft(admin, gig, *lines, kind="final", **fields):
    """A draft invoice of the gig with `lines` of (quantity, unit_price_cents, tax_rate_bp)."""
    invoice = admin.create("invoices", {"gig_id": gig["id"], "kind": kind, "due_date": today(14), **fields})
    for quantity, price, rate in lines:
        body = {"invoice_id": invoice["id"], "description": "Reception", "quantity": quantity}
        admin.create("invoice-lines", {**body, "unit_price_cents": price, "tax_rate_bp": rate})
    return invoice


def issue(admin, invoice_id):
    r = admin.post(f"/invoices/{invoice_id}/issue")
    assert r.status_code == 200, r.get_json()
    return r.get_json()["data"]


def read(admin, invoice_id):
    return admin.get(f"/invoices/{invoice_id}").get_json()["data"]


def events_of(admin, event_type, subject_id=None):
    query = f"/events?filter[type]={event_type}" + (f"&filter[subject_id]={subject_id}" if subject_id else "")
    r = admin.get(query)
    assert r.status_code == 200, r.get_json()
    return r.get_json()["data"]


def test_issuing_gives_the_number_the_time_the_status_and_the_issued_event(admin, gig):
    invoice = draft(admin, gig, (1, 100000, 1900), (2, 5000, 700))
    issued = issue(admin, invoice["id"])
    year = dt.datetime.now(dt.UTC).year
    assert issued["number"] == f"{year}-0001" and issued["status"] == "issued" and issued["issued_at"]
    assert (issued["gross_cents"], issued["open_cents"]) == (119000 + 10700, 129700)
    [event] = events_of(admin, "invoice.issued", invoice["id"])
    assert event["data"]["number"] == issued["number"]
    assert event["changes"]["status"] == {"from": "draft", "to": "issued"}
    assert issue(admin, draft(admin, gig, (1, 100, 0))["id"])["number"] == f"{year}-0002"


def test_an_issue_is_refused_without_lines_or_once_issued_and_changes_nothing(admin, gig):
    empty = draft(admin, gig)
    assert error_of(admin.post(f"/invoices/{empty['id']}/issue"), 409, "conflict")["details"]["reason"] == "no_lines"
    assert read(admin, empty["id"])["status"] == "draft" and read(admin, empty["id"])["number"] is None
    invoice = draft(admin, gig, (1, 1000, 0))
    number = issue(admin, invoice["id"])["number"]
    again = error_of(admin.post(f"/invoices/{invoice['id']}/issue"), 409, "conflict")["details"]
    assert again == {"reason": "not_editable", "status": "issued"}
    assert read(admin, invoice["id"])["number"] == number
    assert error_of(admin.post("/invoices/00000000-0000-4000-8000-000000000000/issue"), 404, "not_found")


def test_an_issued_invoices_pdf_is_kept_byte_for_byte_whatever_the_office_says_later(admin, gig):
    invoice = draft(admin, gig, (1, 100000, 1900))
    before = admin.get(f"/invoices/{invoice['id']}/pdf")
    assert before.status_code == 200 and before.mimetype == "application/pdf"
    assert "DRAFT" in pdf_text(before.data) and qr_codes(before.data) == []
    issued = issue(admin, invoice["id"])
    r = admin.get(f"/invoices/{invoice['id']}/pdf")
    assert r.status_code == 200 and r.mimetype == "application/pdf"
    assert r.headers["Content-Disposition"] == f'inline; filename="{issued["number"]}.pdf"'
    assert r.headers["ETag"] == f'"{hashlib.sha256(r.data).hexdigest()}"'
    text = pdf_text(r.data)
    assert issued["number"] in text and "1,190.00" in text and "DRAFT" not in text and "The Swing Kings" in text
    [epc] = qr_codes(r.data)
    assert epc.startswith("BCD") and "DE89370400440532013000" in epc and "EUR1190" in epc and issued["number"] in epc
    assert admin.patch("/office", json={"name": "Swing Kings Reloaded", "iban": None}).status_code == 200
    later = admin.get(f"/invoices/{invoice['id']}/pdf")
    assert later.data == r.data and later.headers["ETag"] == r.headers["ETag"]
    assert admin.get(f"/invoices/{invoice['id']}/pdf", headers={"If-None-Match": r.headers["ETag"]}).status_code == 304


def test_a_draft_quotes_and_contracts_pdf_is_made_on_request_and_says_draft(admin, build, gig):
    quote = admin.create("quotes", {"gig_id": gig["id"]})
    admin.create("quote-lines", {"quote_id": quote["id"], "description": "Band", "unit_price_cents": 250000})
    r = admin.get(f"/quotes/{quote['id']}/pdf")
    assert r.status_code == 200 and r.mimetype == "application/pdf" and "DRAFT" in pdf_text(r.data)
    assert f"draft-{quote['id']}.pdf" in r.headers["Content-Disposition"]
    contract = admin.create("contracts", {"gig_id": gig["id"], "quote_id": quote["id"]})
    admin.patch(f"/contracts/{contract['id']}", json={"body": "We play from eight till late."})
    text = pdf_text(admin.get(f"/contracts/{contract['id']}/pdf").data)
    assert "DRAFT" in text and "We play from eight till late." in text


def test_a_sent_quotes_and_contracts_pdf_is_kept_and_a_signed_contract_kept_again_with_its_audit_page(admin, gig):
    quote = admin.create("quotes", {"gig_id": gig["id"]})
    admin.create("quote-lines", {"quote_id": quote["id"], "description": "Band", "unit_price_cents": 250000})
    number = sent(admin, "quotes", quote["id"])
    kept = admin.get(f"/quotes/{quote['id']}/pdf")
    assert number in pdf_text(kept.data) and "DRAFT" not in pdf_text(kept.data)
    assert kept.headers["Content-Disposition"] == f'inline; filename="{number}.pdf"'
    contract = admin.create("contracts", {"gig_id": gig["id"], "quote_id": quote["id"]})
    admin.patch(f"/contracts/{contract['id']}", json={"body": "We play from eight till late."})
    contract_number = sent(admin, "contracts", contract["id"])
    assert admin.patch("/office", json={"name": "Renamed Band"}).status_code == 200
    assert admin.get(f"/quotes/{quote['id']}/pdf").data == kept.data
    as_sent = admin.get(f"/contracts/{contract['id']}/pdf")
    assert "Signature record" not in pdf_text(as_sent.data) and "The Swing Kings" in pdf_text(as_sent.data)
    signed(admin, contract["id"], name="Anna Berger")
    as_signed = admin.get(f"/contracts/{contract['id']}/pdf")
    text = pdf_text(as_signed.data)
    assert "Signature record" in text and "Anna Berger" in text and contract_number in text
    assert as_signed.headers["ETag"] != as_sent.headers["ETag"]
    assert admin.get(f"/contracts/{contract['id']}/pdf").data == as_signed.data


def test_nobody_without_sales_view_reads_a_pdf(signed_in, admin, gig):
    invoice = draft(admin, gig, (1, 1000, 0))
    error_of(signed_in("staff").get(f"/invoices/{invoice['id']}/pdf"), 403, "forbidden")
    assert signed_in("viewer").get(f"/invoices/{invoice['id']}/pdf").status_code == 200
    error_of(signed_in("viewer").post(f"/invoices/{invoice['id']}/issue"), 403, "forbidden")


def test_an_e_invoice_the_office_cannot_make_is_refused_naming_what_it_lacks(admin, build, gig):
    for key, label in (("vat_id", "VAT id"), ("address", "Address")):
        build("custom-fields", resource="contacts", key=key, label=label, field_type="text")
    fields = {"vat_id": "DE987654321", "address": "Ring 1\n10115 Berlin"}
    company = build("contacts", first_name="Carl", last_name="Events", company="Acme Events GmbH", custom_fields=fields)
    invoice = draft(admin, gig, (1, 100000, 1900), contact_id=company["id"])
    details = error_of(admin.post(f"/invoices/{invoice['id']}/issue"), 409, "conflict")["details"]
    assert details == {"reason": "e_invoice_incomplete", "lacking": ["vat_id"]}  # its country: its IBAN's
    assert read(admin, invoice["id"])["status"] == "draft"
    assert admin.patch("/office", json={"vat_id": "DE123456789", "country": "DE"}).status_code == 200
    issued = issue(admin, invoice["id"])
    attachments = PdfReader(io.BytesIO(admin.get(f"/invoices/{invoice['id']}/pdf").data)).attachments
    assert "factur-x.xml" in attachments and issued["status"] == "issued"
    text = pdf_text(admin.get(f"/invoices/{invoice['id']}/pdf").data)
    assert all(shown in text for shown in ("Acme Events GmbH", "DE987654321", "Ring 1", "10115 Berlin"))


def test_a_couples_invoice_carries_its_factur_x_xml_only_when_it_asked(admin, gig):
    assert admin.patch("/office", json={"vat_id": "DE123456789", "country": "DE"}).status_code == 200
    asked = draft(admin, gig, (1, 100000, 1900), e_invoice=True)
    plain = draft(admin, gig, (1, 100000, 1900))
    assert (asked["e_invoice"], plain["e_invoice"]) == (True, False)
    for invoice in (asked, plain):
        issue(admin, invoice["id"])
    attachments = {
        name: PdfReader(io.BytesIO(admin.get(f"/invoices/{invoice['id']}/pdf").data)).attachments
        for name, invoice in (("asked", asked), ("plain", plain))
    }
    assert "factur-x.xml" in attachments["asked"] and "factur-x.xml" not in attachments["plain"]
    assert b"Anna Berger" in attachments["asked"]["factur-x.xml"][0]
    refused = admin.patch(f"/invoices/{plain['id']}", json={"e_invoice": True})  # issued: kept as it went out
    error_of(refused, 409, "conflict")


@pytest.mark.timeout(300)  # twenty PDFs made one at a time: ~15 s alone, over 120 with two suites on two cores
def test_twenty_issues_at_once_take_consecutive_numbers_without_gaps(app, admin, gig):
    invoices = [draft(admin, gig, (1, 1000 + n, 0))["id"] for n in range(20)]
    live = Live(app, admin.token)

    def issued(invoice_id):
        """Issue as a client does: a 503 (each issue holds the number while its PDF is made) is asked again."""
        deadline = time.monotonic() + 8 * SLOW_MACHINE_SECONDS
        while (answer := live.call("POST", f"/invoices/{invoice_id}/issue"))[0] == 503:
            assert time.monotonic() < deadline, answer
        return answer

    try:
        results = at_once([lambda i=i: issued(i) for i in invoices], workers=20)
    finally:
        live.close()
    assert [status for status, _ in results] == [200] * 20, results
    year = dt.datetime.now(dt.UTC).year
    assert sorted(body["data"]["number"] for _, body in results) == [f"{year}-{n:04}" for n in range(1, 21)]
    listed = admin.get("/invoices?filter[status]=issued&limit=100").get_json()["data"]
    assert sorted(invoice["number"] for invoice in listed) == [f"{year}-{n:04}" for n in range(1, 21)]


def test_a_credit_note_negates_the_lines_and_brings_the_invoices_open_amount_down(admin, gig):
    invoice = draft(admin, gig, (1, 100000, 1900), (1, 20000, 700))
    issued = issue(admin, invoice["id"])
    lines = admin.get(f"/invoice-lines?filter[invoice_id]={invoice['id']}&sort=unit_price_cents").get_json()["data"]
    r = admin.post(f"/invoices/{invoice['id']}/credit", json={"lines": [lines[0]["id"]]})
    assert r.status_code == 200, r.get_json()
    note = r.get_json()["data"]
    assert (note["kind"], note["credits_invoice_id"], note["status"]) == ("credit_note", invoice["id"], "paid")
    assert note["number"] == f"{int(issued['number'][:4])}-0002" and note["gross_cents"] == -21400
    assert read(admin, invoice["id"])["open_cents"] == issued["gross_cents"] - 21400
    credited = admin.get(f"/invoice-lines?filter[invoice_id]={note['id']}").get_json()["data"]
    assert [(line["unit_price_cents"], line["tax_rate_bp"]) for line in credited] == [(-20000, 700)]
    text = pdf_text(admin.get(f"/invoices/{note['id']}/pdf").data)
    assert note["number"] in text and issued["number"] in text
    [event] = events_of(admin, "invoice.issued", note["id"])
    assert event["data"]["kind"] == "credit_note"
    rest = admin.post(f"/invoices/{invoice['id']}/credit", json={"lines": [lines[1]["id"]]})
    assert rest.status_code == 200 and rest.get_json()["data"]["gross_cents"] == -119000
    assert (read(admin, invoice["id"])["open_cents"], read(admin, invoice["id"])["status"]) == (0, "paid")


def test_an_invoice_is_credited_no_more_than_its_gross_and_only_once_issued(admin, gig):
    invoice = draft(admin, gig, (1, 50000, 0))
    assert error_of(admin.post(f"/invoices/{invoice['id']}/credit"), 409, "conflict")["details"] == {
        "reason": "not_creditable",
        "status": "draft",
    }
    issue(admin, invoice["id"])
    assert admin.post(f"/invoices/{invoice['id']}/credit").status_code == 200
    again = error_of(admin.post(f"/invoices/{invoice['id']}/credit"), 409, "conflict")
    assert again["details"]["reason"] == "not_creditable"
    stranger = draft(admin, gig, (1, 10, 0))
    strange_line = admin.get(f"/invoice-lines?filter[invoice_id]={stranger['id']}").get_json()["data"][0]["id"]
    other = issue(admin, draft(admin, gig, (1, 700, 0))["id"])
    body = {"lines": [strange_line]}
    assert (
        "lines"
        in error_of(admin.post(f"/invoices/{other['id']}/credit", json=body), 422, "validation_failed")["details"]
    )
    for bad in ({"lines": []}, {"lines": "all"}, {"lines": ["not an id"]}, {"lines": [strange_line], "x": 1}, []):
        r = admin.post(f"/invoices/{other['id']}/credit", json=bad)
        assert r.status_code == 422, (bad, r.get_json())
    assert admin.get("/invoices?filter[kind]=credit_note&limit=100").get_json()["meta"]["total"] == 1
    assert read(admin, other["id"])["open_cents"] == 700


def test_money_paid_back_is_a_negative_payment_on_the_credit_note(admin, gig):
    invoice = draft(admin, gig, (1, 100000, 0))
    issue(admin, invoice["id"])
    paid = {"invoice_id": invoice["id"], "amount_cents": 100000, "received_on": today()}
    assert admin.post("/payments", json=paid).status_code == 201
    note = admin.post(f"/invoices/{invoice['id']}/credit").get_json()["data"]
    assert (note["open_cents"], note["status"]) == (-100000, "issued")
    assert read(admin, invoice["id"])["open_cents"] == -100000
    back = {"invoice_id": note["id"], "amount_cents": 40000, "received_on": today()}
    positive = error_of(admin.post("/payments", json=back), 422, "validation_failed")
    assert "amount_cents" in positive["details"]
    too_much = error_of(admin.post("/payments", json={**back, "amount_cents": -100001}), 422, "validation_failed")
    assert "amount_cents" in too_much["details"]
    assert admin.post("/payments", json={**back, "amount_cents": -40000}).status_code == 201
    assert (read(admin, note["id"])["open_cents"], read(admin, note["id"])["status"]) == (-60000, "partly_paid")
    assert read(admin, invoice["id"])["open_cents"] == -60000
    assert admin.post("/payments", json={**back, "amount_cents": -60000}).status_code == 201
    assert (read(admin, note["id"])["open_cents"], read(admin, note["id"])["status"]) == (0, "paid")
    assert (read(admin, invoice["id"])["open_cents"], read(admin, invoice["id"])["status"]) == (0, "paid")


def signed_contract(admin, gig, deposit_percent=30, lines=((1, 300000, 1900), (1, 50000, 0))):
    """A quote accepted, and its contract signed: the schedule's invoices made in the signing's transaction."""
    quote = admin.create("quotes", {"gig_id": gig["id"], "deposit_percent": deposit_percent})
    for quantity, price, rate in lines:
        body = {"quote_id": quote["id"], "description": "Band", "quantity": quantity, "unit_price_cents": price}
        admin.create("quote-lines", {**body, "tax_rate_bp": rate})
    accepted(admin, quote["id"])
    contract = admin.create("contracts", {"gig_id": gig["id"], "quote_id": quote["id"]})
    signed(admin, contract["id"])
    return admin.get(f"/quotes/{quote['id']}").get_json()["data"]


def invoices_of(admin, gig):
    found = admin.get(f"/invoices?filter[gig_id]={gig['id']}").get_json()["data"]
    return {invoice["kind"]: invoice for invoice in found}


def test_signing_issues_the_deposit_and_drafts_the_balance(admin, gig):
    quote = signed_contract(admin, gig)
    assert quote["gross_cents"] == 357000 + 50000
    made = invoices_of(admin, gig)
    deposit, balance = made["deposit"], made["balance"]
    assert deposit["gross_cents"] == share(quote["gross_cents"], 30) == 122100
    assert (deposit["status"], deposit["due_date"], deposit["contact_id"]) == ("issued", today(14), gig["couple_id"])
    assert deposit["number"] and events_of(admin, "invoice.issued", deposit["id"])
    assert (balance["status"], balance["due_date"], balance["number"]) == ("draft", today(90 - 14), None)
    assert deposit["gross_cents"] + balance["gross_cents"] == quote["gross_cents"]
    text = pdf_text(admin.get(f"/invoices/{deposit['id']}/pdf").data)
    day = dt.date.fromisoformat(gig["gig_date"])
    assert quote["number"] in text and f"Anna & Ben · {day:%B} {day.day}, {day.year}" in text


def test_a_deposit_the_office_cannot_issue_as_an_e_invoice_stays_a_draft_and_the_signing_stands(admin, build, gig):
    company = build("contacts", first_name="Carl", last_name="Events", company="Acme Events GmbH")
    admin.patch(f"/gigs/{gig['id']}", json={"title": "Acme summer party"})
    quote = admin.create("quotes", {"gig_id": gig["id"], "contact_id": company["id"]})
    admin.create("quote-lines", {"quote_id": quote["id"], "description": "Band", "unit_price_cents": 100000})
    accepted(admin, quote["id"])
    contract = admin.create("contracts", {"gig_id": gig["id"], "quote_id": quote["id"]})
    signed(admin, contract["id"])
    made = invoices_of(admin, gig)
    assert (made["deposit"]["status"], made["balance"]["status"]) == ("draft", "draft")
    assert admin.get(f"/contracts/{contract['id']}").get_json()["data"]["status"] == "signed"
    assert admin.patch("/office", json={"vat_id": "DE123456789"}).status_code == 200
    assert issue(admin, made["deposit"]["id"])["status"] == "issued"


def test_no_deposit_at_zero_percent(admin, gig):
    quote = signed_contract(admin, gig, deposit_percent=0)
    made = invoices_of(admin, gig)
    assert set(made) == {"balance"} and made["balance"]["gross_cents"] == quote["gross_cents"]


def test_the_worker_issues_a_balance_fourteen_days_before_it_is_due_once(app, admin, build, gig):
    signed_contract(admin, gig)
    late = build("gigs", gig_date=today(20), title="Soon")
    build("gig-contacts", gig_id=late["id"], contact_id=gig["couple_id"], is_primary=True)
    signed_contract(admin, late)
    far, near = invoices_of(admin, gig)["balance"], invoices_of(admin, late)["balance"]
    assert near["due_date"] == today(6) and near["status"] == "draft"
    with app.app_context():  # as the worker runs its rounds
        assert invoicing.issue_due_balances() == 1
        assert invoicing.issue_due_balances() == 0
    assert read(admin, near["id"])["status"] == "issued" and read(admin, near["id"])["number"]
    assert read(admin, far["id"])["status"] == "draft"
    [event] = events_of(admin, "invoice.issued", near["id"])
    assert event["actor"] is None
    issue(admin, far["id"])  # the office issued it sooner: the worker leaves it
    with app.app_context():
        assert invoicing.issue_due_balances() == 0


def test_two_servers_on_one_database_issue_each_due_balance_once(tmp_path):
    office = ServedOffice(tmp_path, BAND_WORKER_INTERVAL="0.05")
    (tmp_path / "second").mkdir()

    def issued():
        found = office.call("GET", "/invoices?filter[status]=issued")
        return found if len(found) == len(balances) else None

    with running(office.service, Service(tmp_path / "second", **office.service.env)):
        office.call("PATCH", "/office", BANK)
        gig = office.call("POST", "/gigs", {"gig_date": today(20), "title": "Soon"})
        balances = []
        for n in range(5):
            made = office.call("POST", "/invoices", {"gig_id": gig["id"], "kind": "balance", "due_date": today(60)})
            line = {"invoice_id": made["id"], "description": "Balance", "unit_price_cents": 1000 + n, "tax_rate_bp": 0}
            office.call("POST", "/invoice-lines", line)
            balances.append(made["id"])
        for invoice_id in balances:  # due within 14 days now: both workers look for it in every round
            office.call("PATCH", f"/invoices/{invoice_id}", {"due_date": today(6)})
        # five PDFs rendered by the workers: over 30 s on two cores running two suites, 8 s alone
        found = wait_for(issued, timeout=3 * SLOW_MACHINE_SECONDS, interval=0.1)
        events = office.call("GET", "/events?filter[type]=invoice.issued&limit=100")
    year = dt.datetime.now(dt.UTC).year
    assert sorted(invoice["number"] for invoice in found) == [f"{year}-{n:04}" for n in range(1, 6)]
    assert sorted(event["subject"]["id"] for event in events) == sorted(balances)


def test_an_issued_invoice_past_its_due_date_is_overdue(admin, gig):
    late = draft(admin, gig, (1, 1000, 0), due_date=today(-1))
    issue(admin, late["id"])
    issue(admin, draft(admin, gig, (1, 1000, 0), due_date=today())["id"])
    draft(admin, gig, (1, 1000, 0), due_date=today(-3))
    overdue = admin.get("/invoices?overdue=true").get_json()["data"]
    assert [invoice["id"] for invoice in overdue] == [late["id"]]


def test_cancelling_a_gig_voids_its_drafts_and_lists_its_issued_invoices_to_credit(admin, build, gig):
    [cancelled] = admin.get("/gig-statuses?filter[kind]=cancelled").get_json()["data"]
    quote = admin.create("quotes", {"gig_id": gig["id"]})
    sent_quote = admin.create("quotes", {"gig_id": gig["id"]})
    admin.create("quote-lines", {"quote_id": sent_quote["id"], "description": "Band", "unit_price_cents": 100000})
    accepted(admin, sent_quote["id"])
    waiting = draft(admin, gig, (1, 1000, 0))
    open_one = draft(admin, gig, (1, 2000, 0))
    issue(admin, open_one["id"])
    elsewhere = build("gigs", gig_date=today(30), title="Other")
    other = draft(admin, elsewhere, (1, 3000, 0))
    issue(admin, other["id"])
    assert admin.get("/invoices?to_credit=true").get_json()["data"] == []
    assert admin.patch(f"/gigs/{gig['id']}", json={"gig_status_id": cancelled["id"]}).status_code == 200
    assert read(admin, waiting["id"])["status"] == "void"
    assert admin.get(f"/quotes/{quote['id']}").get_json()["data"]["status"] == "void"
    assert admin.get(f"/quotes/{sent_quote['id']}").get_json()["data"]["status"] == "accepted"
    assert read(admin, open_one["id"])["status"] == "issued"
    assert [event["subject"]["id"] for event in events_of(admin, "invoice.voided")] == [waiting["id"]]
    assert [event["subject"]["id"] for event in events_of(admin, "quote.voided")] == [quote["id"]]
    listed = admin.get("/invoices?to_credit=true").get_json()["data"]
    assert [invoice["id"] for invoice in listed] == [open_one["id"]]
    admin.post(f"/invoices/{open_one['id']}/credit")
    assert admin.get("/invoices?to_credit=true").get_json()["data"] == []
