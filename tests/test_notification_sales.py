"""SPEC §15's notifications of money in: the client hears by mail, in their language, of a quote sent, a contract to
sign, an invoice issued, a payment received, and of an open invoice 3 days before it is due and 7 days after, once
each (two servers on one database too); each mail carries a new link to their page, beside those of the mails before
(which keep working until the office makes a new link, which replaces them all). The office's users holding
sales.edit who keep the digest on hear in-app of a quote accepted or declined, a contract signed, an invoice overdue.

The operations that send, accept, sign and issue are other branches' (issue 35, second wave): until they are here,
`record` writes their documents' states and events as those operations will, in one write transaction."""

import re

import pytest

import events
from app import configure
from delivery.notifications import run_timed
from models import Contract, Invoice, Notification, NotificationSetting, Quote, now
from storage import writer
from tests.support.database import connected
from tests.support.days import today
from tests.support.notified import config, send_what_is_due
from tests.support.sales import issued
from tests.support.served import ServedOffice, Service, running
from tests.support.smtp_server import smtp_server
from tests.support.users import make_token, make_user
from tests.support.waiting import wait_for

GERMAN_DATE = re.compile(r"\d{1,2}\. [A-ZÄÖÜ][a-zäöü]+ \d{4}")


@pytest.fixture
def inbox(app):
    with smtp_server() as (inbox, port):
        configure(app, {**app.config, "MAIL_URL": f"smtp://127.0.0.1:{port}"})
        yield inbox


@pytest.fixture
def couple(admin, build):
    """Anna reads German (her contact's `language`), Ben English; both are the gig's contacts, Anna its primary."""
    gig = build("gigs", gig_date=today(120), title="Anna & Ben")
    anna = build("contacts", first_name="Anna", email="anna@couple.example", language="de")
    ben = build("contacts", first_name="Ben", email="ben@couple.example")
    annas = build("gig-contacts", gig_id=gig["id"], contact_id=anna["id"], is_primary=True)
    bens = build("gig-contacts", gig_id=gig["id"], contact_id=ben["id"])
    assert admin.patch("/office", json={"name": "Elmau Band", "iban": "DE89370400440532013000"}).status_code == 200
    return {"gig": gig, "anna": anna, "ben": ben, "gig_contact": annas, "bens": bens}


def record(app, model, record_id, event_type, collection, **state):
    """The document moved to `state` with its event, in one write transaction, as its operation will do it."""
    with app.app_context(), writer.transaction():
        model.update(**state).where(model.id == record_id).execute()
        events.record(event_type, collection, record_id, "sales", {"id": record_id})


def invoice_for(build, gig, contact, due_date, cents=100000):
    invoice = build("invoices", gig_id=gig["id"], contact_id=contact["id"], kind="deposit", due_date=due_date)
    build("invoice-lines", invoice_id=invoice["id"], unit_price_cents=cents, tax_rate_bp=0)
    issued(invoice["id"])
    return invoice


def link_in(message):
    return re.search(r"/client#token=(bcl_[A-Za-z0-9_-]+)", message.get_body(("plain",)).get_content()).group(1)


def client_view(anon, token):
    return anon.get("/client", headers={"Authorization": f"Bearer {token}"})


def test_the_client_is_mailed_each_document_in_their_language_with_a_new_link(app, admin, build, anon, couple, inbox):
    gig, anna, ben = couple["gig"], couple["anna"], couple["ben"]
    quote = build("quotes", gig_id=gig["id"], contact_id=anna["id"])
    build("quote-lines", quote_id=quote["id"], unit_price_cents=450000, tax_rate_bp=0)
    record(app, Quote, quote["id"], "quote.sent", "quotes", status="sent", sent_at=now(), number="Q-2026-0007")
    contract = build("contracts", gig_id=gig["id"], body="Our contract")
    record(
        app, Contract, contract["id"], "contract.sent", "contracts", status="sent", sent_at=now(), number="C-2026-0003"
    )
    invoice = build("invoices", gig_id=gig["id"], contact_id=ben["id"], kind="deposit", due_date=today(14))
    build("invoice-lines", invoice_id=invoice["id"], unit_price_cents=135000, tax_rate_bp=0)
    state = {"status": "issued", "issued_at": now(), "number": "2026-0042"}
    record(app, Invoice, invoice["id"], "invoice.issued", "invoices", **state)
    paid = {"invoice_id": invoice["id"], "amount_cents": 35000, "received_on": today()}
    assert admin.post("/payments", json=paid).status_code == 201  # payment.created, as the route writes it
    send_what_is_due(app)

    wait_for(lambda: len(inbox.messages()) == 4)  # mails go out in no promised order: each found by its subject
    to_anna = {m["Subject"]: m for m in inbox.messages("anna@couple.example")}
    to_ben = {m["Subject"]: m for m in inbox.messages("ben@couple.example")}
    quote_mail, contract_mail = (
        to_anna["Ihr Angebot Q-2026-0007 von Elmau Band"],
        to_anna.pop("Ihr Vertrag C-2026-0003 zur Unterschrift"),
    )
    invoice_mail, payment_mail = (
        to_ben["Invoice 2026-0042 from Elmau Band"],
        to_ben.pop("Payment received: invoice 2026-0042"),
    )
    assert len(to_anna) == len(to_ben) == 1
    quote_text = quote_mail.get_body(("plain",)).get_content()
    assert "4.500,00\xa0€" in quote_text and GERMAN_DATE.search(quote_text), quote_text
    invoice_text = invoice_mail.get_body(("plain",)).get_content()
    assert "€1,350.00" in invoice_text and "DE89370400440532013000" in invoice_text, invoice_text
    assert "€1,000.00" in payment_mail.get_body(("plain",)).get_content()  # still open
    # an older mail's link still opens the page (the couple reopens the quote's mail after the contract's came)
    for mail in (quote_mail, contract_mail):
        assert client_view(anon, link_in(mail)).get_json()["data"]["contract"]["number"] == "C-2026-0003"
    for mail in (invoice_mail, payment_mail):
        assert client_view(anon, link_in(mail)).get_json()["data"]["invoices"][0]["open_cents"] == 100000
    links = {mail["Subject"]: link_in(mail) for mail in (quote_mail, contract_mail, invoice_mail, payment_mail)}
    assert len(set(links.values())) == 4  # a link of its own in each

    # the office's new link (one went astray, say) replaces all of Anna's; Ben's stay
    assert admin.post(f"/gig-contacts/{couple['gig_contact']['id']}/client-link").status_code == 200
    for mail in (quote_mail, contract_mail):
        assert client_view(anon, link_in(mail)).status_code == 401
    assert client_view(anon, link_in(payment_mail)).status_code == 200
    assert admin.delete(f"/gig-contacts/{couple['bens']['id']}/client-link").status_code == 204  # both of Ben's
    for mail in (invoice_mail, payment_mail):
        assert client_view(anon, link_in(mail)).status_code == 401


def test_a_link_the_office_makes_is_mailed_to_its_contact(app, admin, anon, couple, inbox):
    answered = admin.post(f"/gig-contacts/{couple['bens']['id']}/client-link").get_json()["data"]
    send_what_is_due(app)
    [mail] = wait_for(lambda: inbox.messages("ben@couple.example"))
    assert mail["Subject"] == "Your page for Anna & Ben"
    assert link_in(mail) == answered["url"].split("#token=")[1]


def test_the_office_hears_in_app_of_answers_and_signatures(app, anon, build, couple, signed_in):
    office, viewer = make_user(roles=("office",)), make_user(roles=("viewer",))
    quiet = make_user(roles=("office",))
    NotificationSetting.create(user=quiet.id, office_digest=False)
    gig = couple["gig"]
    quote = build("quotes", gig_id=gig["id"], contact_id=couple["anna"]["id"])
    declined = build("quotes", gig_id=gig["id"], contact_id=couple["anna"]["id"])
    contract = build("contracts", gig_id=gig["id"], body="Our contract")
    record(app, Quote, quote["id"], "quote.accepted", "quotes", status="accepted", number="Q-2026-0001")
    record(app, Quote, declined["id"], "quote.declined", "quotes", status="declined", number="Q-2026-0002")
    state = {"status": "signed", "number": "C-2026-0001", "signed_name": "Anna Berger"}
    record(app, Contract, contract["id"], "contract.signed", "contracts", **state)

    def titles(user):
        listed = anon.with_token(make_token(user)).get("/me/notifications").get_json()["data"]
        return sorted(row["title"] for row in listed)

    assert titles(office) == [
        "Contract C-2026-0001 signed: Anna & Ben",
        "Quote Q-2026-0001 accepted: Anna & Ben",
        "Quote Q-2026-0002 declined: Anna & Ben",
    ]
    assert titles(viewer) == titles(quiet) == []
    mailed = Notification.select().where(
        Notification.recipient_user == office.id, Notification.email_state != "skipped"
    )
    assert not mailed.exists()  # told by mail in the digest, not once per news


def test_an_open_invoice_is_reminded_before_it_is_due_and_after_once_each(app, build, couple):
    gig, anna = couple["gig"], couple["anna"]
    soon = invoice_for(build, gig, anna, today(2))
    late = invoice_for(build, gig, anna, today(-8))
    invoice_for(build, gig, anna, today(10))  # not yet
    invoice_for(build, gig, anna, today(-5))  # overdue, not long enough
    office = make_user(roles=("office",))
    for _ in range(2):
        run_timed(config(app))
    told = sorted((row.type, row.topic.split(":")[1], row.recipient_user_id) for row in Notification.select())
    admin_id = next(row[2] for row in told if row[0] == "invoice_overdue" and row[2] != office.id)
    assert told == sorted(
        [
            ("client_due_soon", soon["id"], None),
            ("client_overdue", late["id"], None),
            ("invoice_overdue", late["id"], office.id),  # each user holding sales.edit: the office's
            ("invoice_overdue", late["id"], admin_id),  # and the test's admin
        ]
    )
    overdue = Notification.get(Notification.type == "invoice_overdue")
    assert overdue.title.startswith("Invoice ") and overdue.title.endswith("overdue: Anna & Ben")
    reminder = Notification.get(Notification.type == "client_due_soon")
    assert reminder.email_to == "anna@couple.example" and "/client#token=bcl_" in reminder.body


def test_two_servers_on_one_database_remind_an_invoice_once(tmp_path):
    office = ServedOffice(tmp_path, BAND_WORKER_INTERVAL="0.05")
    (tmp_path / "second").mkdir()
    with running(office.service, Service(tmp_path / "second", **office.service.env)):
        gig = office.call("POST", "/gigs", {"gig_date": today(30), "title": "Anna & Ben"})
        anna = office.call("POST", "/contacts", {"first_name": "Anna", "email": "anna@couple.example"})
        office.call("POST", "/gig-contacts", {"gig_id": gig["id"], "contact_id": anna["id"], "is_primary": True})
        invoices = []
        for due in (today(1), today(-9)) * 3:
            invoice = {"gig_id": gig["id"], "kind": "deposit", "due_date": due}
            invoices.append(office.call("POST", "/invoices", invoice)["id"])
            line = {"invoice_id": invoices[-1], "description": "Band", "unit_price_cents": 1000, "tax_rate_bp": 0}
            office.call("POST", "/invoice-lines", line)
        with connected(office.db) as connection:  # issued as `POST /invoices/{id}/issue` will leave them
            for number, invoice_id in enumerate(invoices):
                connection.execute(
                    "UPDATE invoices SET status = 'issued', issued_at = ?, number = ? WHERE id = ?",
                    (now(), f"T-{number}", invoice_id),
                )
        wait_for(lambda: count(office.db, "client_overdue") == 3, timeout=30, interval=0.1)
        wait_for(lambda: count(office.db, "client_due_soon") == 3, timeout=30, interval=0.1)
    with connected(office.db) as connection:
        kinds = dict(connection.execute("SELECT type, COUNT(*) FROM notifications GROUP BY type").fetchall())
    assert (kinds["client_due_soon"], kinds["client_overdue"], kinds["invoice_overdue"]) == (3, 3, 3)  # one admin


def count(location, kind):
    with connected(location) as connection:
        return connection.execute("SELECT COUNT(*) FROM notifications WHERE type = ?", (kind,)).fetchone()[0]


def test_the_office_digest_tells_sales_edit_of_answers_and_signatures(app, build, couple, role):
    role("seller", "sales.*")
    role("dispatcher", "staffing.*")
    seller, dispatcher = make_user(roles=("seller",)), make_user(roles=("dispatcher",))
    office = make_user(roles=("office",))
    gig = couple["gig"]
    quote = build("quotes", gig_id=gig["id"], contact_id=couple["anna"]["id"])
    contract = build("contracts", gig_id=gig["id"], body="Our contract")
    record(app, Quote, quote["id"], "quote.accepted", "quotes", status="accepted", number="Q-2026-0001")
    record(app, Contract, contract["id"], "contract.signed", "contracts", status="signed", number="C-2026-0001")
    run_timed(config(app, DIGEST_MINUTES=15))  # the first digest: what happened within its minutes

    digests = {row.recipient_user_id: row for row in Notification.select().where(Notification.type == "office_digest")}
    assert dispatcher.id not in digests  # money in is not theirs
    assert digests[seller.id].title == digests[office.id].title == "Office digest: 1 quote accepted, 1 contract signed"
    for reader in (seller, office):
        body = digests[reader.id].body
        assert "Quote accepted: Q-2026-0001 for Anna & Ben" in body and "Contract signed: C-2026-0001" in body
    assert "Open roles" not in digests[seller.id].body and "open roles" in digests[office.id].body.lower()


def test_a_client_without_an_address_keeps_their_link_and_their_mail_is_skipped(app, admin, build, anon, couple):
    gig = couple["gig"]
    cleo = build("contacts", first_name="Cleo")  # no email: the office gave her the link by phone
    cleos = build("gig-contacts", gig_id=gig["id"], contact_id=cleo["id"])
    url = admin.post(f"/gig-contacts/{cleos['id']}/client-link").get_json()["data"]["url"]
    invoice = build("invoices", gig_id=gig["id"], contact_id=cleo["id"], kind="deposit", due_date=today(14))
    build("invoice-lines", invoice_id=invoice["id"], unit_price_cents=1000, tax_rate_bp=0)
    record(app, Invoice, invoice["id"], "invoice.issued", "invoices", status="issued", issued_at=now(), number="9")
    send_what_is_due(app)

    assert client_view(anon, url.split("#token=")[1]).status_code == 200
    told = Notification.get(Notification.type == "client_invoice")
    assert (told.email_state, told.email_error, told.push_state) == ("skipped", "No address to mail.", "skipped")
    assert "bcl_" not in told.body
