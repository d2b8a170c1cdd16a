"""SPEC §15, money in: the sales group's collections through the API. Quotes and invoices keep their totals from
their lines (tax per rate on each rate's net total, rounded half up); a document changes only while it is a draft;
payments settle their invoice; invoices list by what the Money screen asks (`overdue`); nobody without `sales.view`
reads any of it, in lists, reads or events."""

import pytest
from peewee import IntegrityError

from domain.errors import ConfigError
from models import Contract, Quote, db
from service import settings
from tests.support.api import error_of
from tests.support.days import today
from tests.support.live import Live, at_once
from tests.support.sales import issued, line, sent


@pytest.fixture
def gig(build):
    """A gig with its primary contact, the couple."""
    gig = build("gigs", gig_date=today(90), title="Anna & Ben")
    couple = build("contacts", first_name="Anna", last_name="Berger", email="anna@couple.example")
    build("gig-contacts", gig_id=gig["id"], contact_id=build.id("contacts"))
    build("gig-contacts", gig_id=gig["id"], contact_id=couple["id"], is_primary=True)
    return {**gig, "couple_id": couple["id"]}


def totals(admin, collection, record_id):
    data = admin.get(f"/{collection}/{record_id}").get_json()["data"]
    return {name: value for name, value in data.items() if name.endswith("_cents") or name == "status"}


def test_the_shipped_roles_hold_sales_as_the_spec_gives_it(signed_in):
    held = {}
    for role in ("admin", "office", "viewer", "staff", "crew"):
        can = signed_in(role).get("/me").get_json()["data"]["can"]
        held[role] = (can["sales.view"], can["sales.edit"])
    assert held == {
        "admin": (True, True),
        "office": (True, True),
        "viewer": (True, False),
        "staff": (False, False),
        "crew": (False, False),
    }


def test_a_new_quote_is_a_draft_for_the_primary_contact_with_the_offices_defaults(admin, gig):
    assert admin.patch("/office", json={"currency": "CHF"}).status_code == 200
    quote = admin.create("quotes", {"gig_id": gig["id"]})
    assert {name: quote[name] for name in quote if name not in ("id", "created_at", "updated_at")} == {
        "gig_id": gig["id"],
        "contact_id": gig["couple_id"],
        "currency": "CHF",
        "valid_until": today(14),
        "intro": None,
        "terms": None,
        "deposit_percent": 30,
        "deposit_due_days": 14,
        "balance_due_days": 14,
        "number": None,
        "status": "draft",
        "sent_at": None,
        "responded_at": None,
        "responded_by": None,
        "net_cents": 0,
        "tax_cents": 0,
        "gross_cents": 0,
    }
    addressed = admin.create("quotes", {"gig_id": gig["id"], "contact_id": None, "deposit_percent": 0})
    assert (addressed["contact_id"], addressed["deposit_percent"]) == (None, 0)


def test_a_quotes_totals_tax_each_rates_net_total_rounded_half_up_as_its_lines_change(admin, gig):
    quote = admin.create("quotes", {"gig_id": gig["id"]})
    first = line(admin, "quote", quote["id"], 1, 1002, 2000)
    assert first["tax_rate_bp"] == 2000
    line(admin, "quote", quote["id"], 1, 1002, 2000)  # 200.4 + 200.4 a line, 400.8 the rate: 401, not 400
    line(admin, "quote", quote["id"], 1, 5, 1000)  # half a cent: up
    discount = line(admin, "quote", quote["id"], 1, -500, 2000)
    assert totals(admin, "quotes", quote["id"]) == {
        "status": "draft",
        "net_cents": 1509,
        "tax_cents": 301 + 1,
        "gross_cents": 1811,
    }
    assert admin.patch(f"/quote-lines/{first['id']}", json={"quantity": 3}).status_code == 200
    assert totals(admin, "quotes", quote["id"])["net_cents"] == 1509 + 2004
    assert admin.delete(f"/quote-lines/{discount['id']}").status_code == 204
    assert admin.delete(f"/quote-lines/{first['id']}").status_code == 204
    assert totals(admin, "quotes", quote["id"]) == {
        "status": "draft",
        "net_cents": 1007,
        "tax_cents": 201,
        "gross_cents": 1208,
    }
    events = admin.get(f"/events?filter[subject_id]={quote['id']}&filter[type]=quote.updated").get_json()["data"]
    assert {"from": 3513, "to": 4013} in [event["changes"].get("net_cents") for event in events]
    assert all(event["gig_id"] == gig["id"] for event in events)


def test_an_invoices_totals_and_open_amount_follow_its_lines(admin, gig):
    invoice = admin.create("invoices", {"gig_id": gig["id"], "kind": "deposit", "due_date": today(14)})
    assert (invoice["service_date"], invoice["contact_id"], invoice["currency"]) == (
        gig["gig_date"],
        gig["couple_id"],
        "EUR",
    )
    line(admin, "invoice", invoice["id"], 2, 150000, 2000)
    line(admin, "invoice", invoice["id"], 1, 333, 0)
    assert totals(admin, "invoices", invoice["id"]) == {
        "status": "draft",
        "net_cents": 300333,
        "tax_cents": 60000,
        "gross_cents": 360333,
        "paid_cents": 0,
        "open_cents": 360333,
    }


def test_a_line_names_a_gig_product_of_its_documents_gig_only(admin, build, gig):
    quote = admin.create("quotes", {"gig_id": gig["id"]})
    elsewhere = build("gig-products", gig_id=build.id("gigs"))
    body = {"quote_id": quote["id"], "description": "Ceremony", "unit_price_cents": 90000}
    r = admin.post("/quote-lines", json={**body, "gig_product_id": elsewhere["id"]})
    assert list(error_of(r, 422, "validation_failed")["details"]) == ["gig_product_id"]
    own = build("gig-products", gig_id=gig["id"])
    assert admin.create("quote-lines", {**body, "gig_product_id": own["id"]})["gig_product_id"] == own["id"]


def test_a_credit_note_is_not_made_by_hand(admin, gig):
    r = admin.post("/invoices", json={"gig_id": gig["id"], "kind": "credit_note"})
    assert list(error_of(r, 422, "validation_failed")["details"]) == ["kind"]
    invoice = admin.create("invoices", {"gig_id": gig["id"], "kind": "final"})
    r = admin.patch(f"/invoices/{invoice['id']}", json={"kind": "credit_note"})
    assert list(error_of(r, 422, "validation_failed")["details"]) == ["kind"]
    assert admin.get("/invoices").get_json()["meta"]["total"] == 1


def refused_as_not_editable(response, status):
    error = error_of(response, 409, "conflict")
    assert error["details"] == {"reason": "not_editable", "status": status}


def test_a_sent_quote_and_its_lines_change_no_more(admin, gig):
    quote = admin.create("quotes", {"gig_id": gig["id"], "intro": "Dear Anna"})
    kept = line(admin, "quote", quote["id"], 1, 250000, 2000)
    sent(Quote, quote["id"])
    before = admin.get(f"/quotes/{quote['id']}").get_json()
    refused_as_not_editable(admin.patch(f"/quotes/{quote['id']}", json={"intro": "Changed"}), "sent")
    refused_as_not_editable(admin.delete(f"/quotes/{quote['id']}"), "sent")
    body = {"quote_id": quote["id"], "description": "Extra hour", "unit_price_cents": 30000}
    refused_as_not_editable(admin.post("/quote-lines", json=body), "sent")
    refused_as_not_editable(admin.patch(f"/quote-lines/{kept['id']}", json={"quantity": 2}), "sent")
    refused_as_not_editable(admin.delete(f"/quote-lines/{kept['id']}"), "sent")
    assert admin.get(f"/quotes/{quote['id']}").get_json() == before
    assert admin.get(f"/quote-lines?filter[quote_id]={quote['id']}").get_json()["data"] == [kept]


def test_an_issued_invoice_and_its_lines_change_no_more(admin, gig):
    invoice = admin.create("invoices", {"gig_id": gig["id"], "kind": "deposit"})
    kept = line(admin, "invoice", invoice["id"], 1, 75000, 2000)
    issued(invoice["id"])
    before = admin.get(f"/invoices/{invoice['id']}").get_json()
    refused_as_not_editable(admin.patch(f"/invoices/{invoice['id']}", json={"notes": "Changed"}), "issued")
    refused_as_not_editable(admin.delete(f"/invoices/{invoice['id']}"), "issued")
    body = {"invoice_id": invoice["id"], "description": "Extra", "unit_price_cents": 1}
    refused_as_not_editable(admin.post("/invoice-lines", json=body), "issued")
    refused_as_not_editable(admin.patch(f"/invoice-lines/{kept['id']}", json={"quantity": 2}), "issued")
    refused_as_not_editable(admin.delete(f"/invoice-lines/{kept['id']}"), "issued")
    assert admin.get(f"/invoices/{invoice['id']}").get_json() == before


def test_a_contract_takes_the_default_templates_text_rendered_and_keeps_it_once_sent(admin, build, gig):
    build("contract-templates", name="Old", body="Old text", is_default=True)
    template = build("contract-templates", name="Wedding", body="We play for {{ client_names }}.", is_default=True)
    assert [t["name"] for t in admin.get("/contract-templates?filter[is_default]=true").get_json()["data"]] == [
        "Wedding"
    ]
    assert [t["name"] for t in admin.get("/contract-templates?q=wedd").get_json()["data"]] == ["Wedding"]
    quote = admin.create("quotes", {"gig_id": gig["id"]})
    contract = admin.create("contracts", {"gig_id": gig["id"], "quote_id": quote["id"]})
    assert (contract["template_id"], contract["status"]) == (template["id"], "draft")
    assert contract["body"].startswith("We play for Anna Berger and Contact ")  # the primary contact first
    r = admin.post("/contracts", json={"gig_id": build.id("gigs"), "quote_id": quote["id"]})
    assert list(error_of(r, 422, "validation_failed")["details"]) == ["quote_id"]
    assert admin.patch(f"/contracts/{contract['id']}", json={"body": "Agreed: three sets."}).status_code == 200
    sent(Contract, contract["id"])
    refused_as_not_editable(admin.patch(f"/contracts/{contract['id']}", json={"body": "Other"}), "sent")
    assert admin.get(f"/contracts/{contract['id']}").get_json()["data"]["body"] == "Agreed: three sets."


@pytest.fixture
def invoice(admin, gig):
    """An issued invoice of 1 200,00 (1 000,00 and 20 % tax), due in two weeks."""
    invoice = admin.create("invoices", {"gig_id": gig["id"], "kind": "deposit", "due_date": today(14)})
    line(admin, "invoice", invoice["id"], 1, 100000, 2000)
    issued(invoice["id"])
    return invoice


def pay(admin, invoice_id, amount_cents):
    return admin.post(
        "/payments", json={"invoice_id": invoice_id, "amount_cents": amount_cents, "received_on": today()}
    )


def test_payments_move_their_invoice_from_issued_to_partly_paid_to_paid_and_back(admin, invoice):
    first = pay(admin, invoice["id"], 20000).get_json()["data"]
    assert totals(admin, "invoices", invoice["id"])["status"] == "partly_paid"
    assert (
        totals(admin, "invoices", invoice["id"])["paid_cents"],
        totals(admin, "invoices", invoice["id"])["open_cents"],
    ) == (20000, 100000)
    second = pay(admin, invoice["id"], 100000).get_json()["data"]
    assert totals(admin, "invoices", invoice["id"]) == {
        "status": "paid",
        "net_cents": 100000,
        "tax_cents": 20000,
        "gross_cents": 120000,
        "paid_cents": 120000,
        "open_cents": 0,
    }
    assert admin.patch(f"/payments/{second['id']}", json={"amount_cents": 90000}).status_code == 200
    assert totals(admin, "invoices", invoice["id"])["status"] == "partly_paid"
    assert admin.delete(f"/payments/{second['id']}").status_code == 204
    assert admin.delete(f"/payments/{first['id']}").status_code == 204
    assert totals(admin, "invoices", invoice["id"])["status"] == "issued"
    assert totals(admin, "invoices", invoice["id"])["open_cents"] == 120000
    changes = admin.get(f"/events?filter[subject_id]={invoice['id']}").get_json()["data"][0]["changes"]
    assert changes["status"] == {"from": "partly_paid", "to": "issued"}


def test_a_payment_of_more_than_is_open_or_on_a_draft_is_refused_and_changes_nothing(admin, gig, invoice):
    r = pay(admin, invoice["id"], 120001)
    assert error_of(r, 422, "validation_failed")["details"] == {
        "amount_cents": ["More than the invoice's open amount (120000)."]
    }
    payment = pay(admin, invoice["id"], 120000).get_json()["data"]
    assert list(error_of(pay(admin, invoice["id"], 1), 422, "validation_failed")["details"]) == ["amount_cents"]
    r = admin.patch(f"/payments/{payment['id']}", json={"amount_cents": 120001})
    assert list(error_of(r, 422, "validation_failed")["details"]) == ["amount_cents"]
    draft = admin.create("invoices", {"gig_id": gig["id"], "kind": "balance"})
    line(admin, "invoice", draft["id"], 1, 500000, 2000)
    assert error_of(pay(admin, draft["id"], 100), 409, "conflict")["details"] == {
        "reason": "not_issued",
        "status": "draft",
    }
    assert admin.get("/payments").get_json()["meta"]["total"] == 1
    assert totals(admin, "invoices", invoice["id"])["paid_cents"] == 120000


def test_invoices_list_by_status_kind_contact_due_date_and_overdue_in_the_offices_today(admin, build, gig):
    def invoice(kind, due_in, issue=True, paid=0):
        made = admin.create("invoices", {"gig_id": gig["id"], "kind": kind, "due_date": today(due_in)})
        line(admin, "invoice", made["id"], 1, 10000, 0)
        if issue:
            issued(made["id"])
        if paid:
            pay(admin, made["id"], paid)
        return made["id"]

    late = invoice("deposit", -1)
    late_in_part = invoice("balance", -30, paid=5000)
    due_today = invoice("final", 0)
    invoice("final", -3, paid=10000)  # paid
    invoice("balance", -3, issue=False)  # a draft
    elsewhere = admin.create("invoices", {"gig_id": gig["id"], "kind": "final", "contact_id": build.id("contacts")})

    def listed(query):
        r = admin.get(f"/invoices?{query}&limit=200")
        assert r.status_code == 200, r.get_json()
        return {row["id"] for row in r.get_json()["data"]}

    assert listed("overdue=true") == {late, late_in_part}
    assert len(listed("overdue=false")) == 6 and due_today in listed("overdue=false")
    assert listed("overdue=true&filter[kind]=balance") == {late_in_part}
    assert listed("filter[status]=partly_paid") == {late_in_part}
    assert listed(f"filter[due_date][lt]={today()}&filter[status][in]=issued,partly_paid") == {late, late_in_part}
    assert listed(f"filter[contact_id]={elsewhere['contact_id']}") == {elsewhere["id"]}
    assert error_of(admin.get("/invoices?overdue=yes"), 400, "invalid_query")["details"] == {
        "overdue": "Expected true or false."
    }


def test_nothing_of_money_in_reaches_a_caller_without_sales_view(admin, build, signed_in, role, gig, invoice):
    quote = admin.create("quotes", {"gig_id": gig["id"]})
    line(admin, "quote", quote["id"], 1, 868686868, 2000)
    pay(admin, invoice["id"], 1000)
    role(
        "everything-but-sales",
        *(f"{group}.view" for group in ("gigs", "catalog", "staffing", "production", "people", "pay", "admin")),
    )
    office = signed_in("everything-but-sales")
    for path in (
        "/quotes",
        f"/quotes/{quote['id']}",
        "/quote-lines",
        "/contract-templates",
        "/contracts",
        "/invoices",
        f"/invoices/{invoice['id']}",
        "/invoice-lines",
        "/payments",
    ):
        assert error_of(office.get(path), 403, "forbidden")["details"] == {"required": "sales.view"}
    seen = office.get("/events?limit=200").get_data(as_text=True) + office.get(
        f"/gigs/{gig['id']}/history?limit=200"
    ).get_data(as_text=True)
    assert "868686868" not in seen and quote["id"] not in seen and invoice["id"] not in seen
    assert '"quote.' not in seen and '"invoice' not in seen and '"payment.' not in seen
    history = admin.get(f"/gigs/{gig['id']}/history?limit=200").get_json()["data"]
    types = {event["type"] for event in history}
    assert {
        "quote.created",
        "quote_line.created",
        "quote.updated",
        "invoice.created",
        "invoice_line.created",
        "payment.created",
    } <= types
    assert signed_in("viewer").get(f"/quotes/{quote['id']}").get_json()["data"]["net_cents"] == 868686868


def test_a_draft_goes_with_its_lines_and_a_document_another_record_keeps_stays(admin, gig, invoice):
    quote = admin.create("quotes", {"gig_id": gig["id"]})
    lines = [line(admin, "quote", quote["id"], 1, 1000, 2000)["id"] for _ in range(2)]
    admin.create("contracts", {"gig_id": gig["id"], "quote_id": quote["id"]})
    assert error_of(admin.delete(f"/quotes/{quote['id']}"), 409, "resource_in_use")["details"] == {
        "referenced_by": {"contracts": 1}
    }
    draft = admin.create("quotes", {"gig_id": gig["id"]})
    gone = [line(admin, "quote", draft["id"], 1, 1000, 2000)["id"] for _ in range(2)]
    assert admin.delete(f"/quotes/{draft['id']}").status_code == 204
    assert {row["id"] for row in admin.get("/quote-lines").get_json()["data"]} == set(lines)
    deleted = admin.get(f"/gigs/{gig['id']}/history?filter[type]=quote_line.deleted").get_json()["data"]
    assert sorted(event["subject"]["id"] for event in deleted) == sorted(gone)
    pay(admin, invoice["id"], 1000)
    r = admin.delete(f"/invoices/{invoice['id']}")
    assert error_of(r, 409, "resource_in_use")["details"] == {"referenced_by": {"payments": 1}}


def test_a_webhook_endpoint_is_sent_money_in_only_when_it_includes_sales(admin, gig):
    def endpoint(**fields):
        body = {"url": "http://127.0.0.1:9/hook", "event_types": ["*"], **fields}
        return admin.create("webhook-endpoints", body)["id"]

    without, with_sales = endpoint(), endpoint(include_sales=True)
    quote = admin.create("quotes", {"gig_id": gig["id"]})
    line(admin, "quote", quote["id"], 1, 1000, 2000)
    admin.patch(f"/gigs/{gig['id']}", json={"title": "Anna & Ben, the wedding"})

    def sent_to(endpoint_id):
        query = f"/webhook-deliveries?filter[endpoint_id]={endpoint_id}&limit=200"
        return sorted(delivery["event_type"] for delivery in admin.get(query).get_json()["data"])

    assert sent_to(without) == ["gig.updated"]
    assert sent_to(with_sales) == ["gig.updated", "quote.created", "quote.updated", "quote_line.created"]


def test_new_quotes_and_lines_take_the_configured_defaults_and_a_wrong_one_is_refused_at_start(app, admin, gig):
    app.config.update(QUOTE_DAYS=30, DEPOSIT_PERCENT=50, TAX_RATE_BP=1000)
    quote = admin.create("quotes", {"gig_id": gig["id"]})
    assert (quote["valid_until"], quote["deposit_percent"]) == (today(30), 50)
    assert line(admin, "quote", quote["id"], 1, 1000, 2000)["tax_rate_bp"] == 2000
    body = {"quote_id": quote["id"], "description": "Ceremony", "unit_price_cents": 1000}
    assert admin.create("quote-lines", body)["tax_rate_bp"] == 1000
    for name, value in (("QUOTE_DAYS", "-1"), ("DEPOSIT_PERCENT", "101"), ("TAX_RATE_BP", "10001")):
        with pytest.raises(ConfigError, match=f"BAND_{name}"):
            settings.load(environ={f"BAND_{name}": value})


def test_a_gig_holds_one_accepted_quote_at_most(admin, build, gig):
    """The database's own rule, for the operations that accept a quote (none yet in the API)."""
    first, second = (admin.create("quotes", {"gig_id": gig["id"]})["id"] for _ in range(2))
    elsewhere = admin.create("quotes", {"gig_id": build.id("gigs")})["id"]
    Quote.update(status="accepted").where(Quote.id.in_([first, elsewhere])).execute()
    with pytest.raises(IntegrityError), db.atomic():
        Quote.update(status="accepted").where(Quote.id == second).execute()
    assert admin.get(f"/quotes/{second}").get_json()["data"]["status"] == "draft"


def test_payments_arriving_at_once_never_pay_more_than_is_open(app, admin, invoice):
    live = Live(app, admin.token)
    try:
        body = {"invoice_id": invoice["id"], "amount_cents": 30000, "received_on": today()}
        answers = at_once([lambda: live.call("POST", "/payments", body) for _ in range(10)], workers=10)
    finally:
        live.close()
    assert sorted(status for status, _ in answers) == [201] * 4 + [422] * 6, answers
    assert totals(admin, "invoices", invoice["id"]) == {
        "status": "paid",
        "net_cents": 100000,
        "tax_cents": 20000,
        "gross_cents": 120000,
        "paid_cents": 120000,
        "open_cents": 0,
    }


def test_lines_written_at_once_each_count_in_their_quotes_totals(app, admin, gig):
    quote = admin.create("quotes", {"gig_id": gig["id"]})
    live = Live(app, admin.token)
    try:
        body = {"quote_id": quote["id"], "description": "Reception", "unit_price_cents": 1000, "tax_rate_bp": 2000}
        answers = at_once([lambda: live.call("POST", "/quote-lines", body) for _ in range(16)], workers=16)
    finally:
        live.close()
    assert [status for status, _ in answers] == [201] * 16, answers
    assert totals(admin, "quotes", quote["id"]) == {
        "status": "draft",
        "net_cents": 16000,
        "tax_cents": 3200,
        "gross_cents": 19200,
    }
