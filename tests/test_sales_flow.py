"""SPEC §15's operations on quotes and contracts, through the API: a quote drafted from a gig's products, sent,
accepted or declined on the client's behalf, superseded or expired; a contract rendered from the default template,
sent, signed on behalf (on paper) or void; the gig's status moving with them; every refusal; who may do what."""

import datetime as dt
import hashlib
import zoneinfo

import pytest

from tests.support.api import error_of
from tests.support.served import ServedOffice
from tests.support.waiting import wait_for

TEMPLATE = """Agreement between {{ office_name }} and {{ client_names }}.
The band plays on {{ gig_date }} at {{ venue_name }}:
{{ products }}
Total {{ quote_total }}{% if deposit_amount %}, deposit {{ deposit_amount }}{% endif %}."""
EARLY, LATE = "Pacific/Pago_Pago", "Pacific/Kiritimati"  # UTC-11 and UTC+14: the later's today is always a day on


def today(zone="UTC", days=0):
    return (dt.datetime.now(zoneinfo.ZoneInfo(zone)).date() + dt.timedelta(days=days)).isoformat()


@pytest.fixture
def gig(build, admin):
    """A gig at Schloss Hof, status Inquiry, for Anna and Ben (Anna its primary contact), with two products: a
    trio's reception with its times and price, and a party without a price."""
    venue = build("venues", name="Schloss Hof")
    gig = build("gigs", gig_date="2027-06-12", title="Anna & Ben", venue_id=venue["id"])
    anna = build("contacts", first_name="Anna", last_name="Berger")
    ben = build("contacts", first_name="Ben", last_name="Huber")
    build("gig-contacts", gig_id=gig["id"], contact_id=ben["id"])
    build("gig-contacts", gig_id=gig["id"], contact_id=anna["id"], is_primary=True)
    reception, party, trio = build("products", name="Reception"), build("products", name="Party"), build("ensembles")
    build("product-ensembles", product_id=reception["id"], ensemble_id=trio["id"])
    times = {"start_time": "18:00", "end_time": "19:30", "price_cents": 150000, "position": 1}
    first = build("gig-products", gig_id=gig["id"], product_id=reception["id"], ensemble_id=trio["id"], **times)
    second = build("gig-products", gig_id=gig["id"], product_id=party["id"], price_cents=None, position=2)
    return {**gig, "anna": anna["id"], "trio": trio["name"], "products": [first["id"], second["id"]]}


def post(api, path, body=None, status=200, **kwargs):
    response = api.post(path, body, **kwargs)
    assert response.status_code == status, response.get_json()
    return response.get_json()["data"]


def refusal(response, reason, status=409):
    error = error_of(response, status, "conflict")
    assert error["details"]["reason"] == reason, error
    return error


def invalid_at(response, field):
    error = error_of(response, 422, "validation_failed")
    assert field in error["details"], error
    return error["details"][field]


def status_of(admin, gig):
    status_id = admin.get(f"/gigs/{gig['id']}").get_json()["data"]["gig_status_id"]
    return admin.get(f"/gig-statuses/{status_id}").get_json()["data"]["name"]


def events_of(admin, gig):
    return admin.get(f"/gigs/{gig['id']}/history?limit=200").get_json()["data"]


def sent_quote(admin, gig):
    quote = post(admin, f"/gigs/{gig['id']}/quotes", status=201)
    return post(admin, f"/quotes/{quote['id']}/send")


def test_the_whole_way_from_inquiry_to_a_contract_signed_on_paper(admin, build, gig):
    build("gig-statuses", name="A pencil", kind="tentative", position=9)  # first by name, last by position
    build("contract-templates", name="Standard", body=TEMPLATE, is_default=True)
    user_id = admin.get("/me").get_json()["data"]["id"]
    year = today()[:4]

    quote = post(admin, f"/gigs/{gig['id']}/quotes", status=201)
    lines = admin.get(f"/quote-lines?filter[quote_id]={quote['id']}&sort=position").get_json()["data"]
    assert [
        (line["description"], line["unit_price_cents"], line["tax_rate_bp"], line["gig_product_id"]) for line in lines
    ] == [
        (f"Reception ({gig['trio']}), 18:00–19:30", 150000, 2000, gig["products"][0]),
        ("Party", 0, 2000, gig["products"][1]),
    ]
    assert (quote["status"], quote["contact_id"], quote["number"], quote["gross_cents"]) == (
        "draft",
        gig["anna"],
        None,
        180000,
    )

    sent = post(admin, f"/quotes/{quote['id']}/send")
    assert (sent["status"], sent["number"]) == ("sent", f"Q-{year}-0001") and sent["sent_at"]
    assert status_of(admin, gig) == "Inquiry"

    accepted = post(admin, f"/quotes/{quote['id']}/accept", {"note": "Yes please, by phone"})
    assert (accepted["status"], accepted["responded_by"]) == ("accepted", user_id) and accepted["responded_at"]
    assert status_of(admin, gig) == "Hold"

    [contract] = admin.get(f"/contracts?filter[gig_id]={gig['id']}").get_json()["data"]
    assert (contract["status"], contract["quote_id"], contract["number"]) == ("draft", quote["id"], None)
    assert contract["body"] == (
        "Agreement between Band Office and Anna Berger and Ben Huber.\n"
        "The band plays on Saturday, June 12, 2027 at Schloss Hof:\n"
        "Reception, 6:00\u202fPM–7:30\u202fPM\nParty\n"
        "Total €1,800.00, deposit €540.00."
    )

    sent_contract = post(admin, f"/contracts/{contract['id']}/send")
    assert (sent_contract["status"], sent_contract["number"]) == ("sent", f"C-{year}-0001")
    assert sent_contract["sha256"] == hashlib.sha256(contract["body"].encode()).hexdigest() and sent_contract["sent_at"]

    body = {"signed_name": "Anna Berger", "note": "signed at the office"}
    signed = post(admin, f"/contracts/{contract['id']}/sign-on-behalf", body, headers={"User-Agent": "Office/1.0"})
    assert {
        name: signed[name] for name in ("status", "signed_name", "signed_by", "signed_ip", "signed_user_agent")
    } == {
        "status": "signed",
        "signed_name": "Anna Berger",
        "signed_by": user_id,
        "signed_ip": "127.0.0.1",
        "signed_user_agent": "Office/1.0",
    }
    assert signed["signed_at"] and status_of(admin, gig) == "Confirmed"

    history = events_of(admin, gig)
    types = {event["type"] for event in history}
    assert {"quote.sent", "quote.accepted", "contract.created", "contract.sent", "contract.signed"} <= types
    [accept_event] = [event for event in history if event["type"] == "quote.accepted"]
    assert accept_event["data"]["status"] == "accepted" and accept_event["data"]["note"] == "Yes please, by phone"
    [sign_event] = [event for event in history if event["type"] == "contract.signed"]
    assert sign_event["data"]["signed_name"] == "Anna Berger" and sign_event["data"]["note"] == "signed at the office"
    moves = [event["changes"]["gig_status_id"] for event in history if event["type"] == "gig.updated"]
    assert len(moves) == 2


def test_a_quote_drafted_from_the_gigs_products_is_one_write_in_the_gigs_history(admin, gig):
    """The draft and its lines are made in one write, and recorded as that: the quote created with its totals, each
    line created, and no `quote.updated` per priced line (the history showed one for each)."""
    quote = post(admin, f"/gigs/{gig['id']}/quotes", status=201)
    lines = admin.get(f"/quote-lines?filter[quote_id]={quote['id']}").get_json()["data"]
    recorded = [event for event in events_of(admin, gig) if event["type"].startswith("quote")]
    assert sorted(event["type"] for event in recorded) == ["quote.created", "quote_line.created", "quote_line.created"]
    [created] = [event["data"] for event in recorded if event["type"] == "quote.created"]
    assert created == quote and quote["gross_cents"] == 180000, created  # the reception's 1 500.00 and 20 % tax
    assert {event["subject"]["id"]: event["data"] for event in recorded if event["type"] == "quote_line.created"} == {
        line["id"]: line for line in lines
    }


def test_a_new_sent_quote_supersedes_the_gigs_earlier_sent_one(admin, gig):
    first = sent_quote(admin, gig)
    second = sent_quote(admin, gig)
    assert second["number"][-4:] == "0002"
    assert admin.get(f"/quotes/{first['id']}").get_json()["data"]["status"] == "superseded"
    superseded = [event for event in events_of(admin, gig) if event["type"] == "quote.superseded"]
    assert [event["subject"]["id"] for event in superseded] == [first["id"]]
    refusal(admin.post(f"/quotes/{first['id']}/accept"), "not_sent")


def test_declining_on_the_clients_behalf_keeps_the_gig_where_it_is(admin, gig):
    quote = sent_quote(admin, gig)
    declined = post(admin, f"/quotes/{quote['id']}/decline")
    assert declined["status"] == "declined" and declined["responded_at"]
    assert status_of(admin, gig) == "Inquiry"
    [event] = [event for event in events_of(admin, gig) if event["type"] == "quote.declined"]
    assert "note" not in event["data"]
    assert admin.get(f"/contracts?filter[gig_id]={gig['id']}").get_json()["data"] == []


def test_accepting_without_a_default_template_drafts_no_contract_and_a_later_status_stays(admin, build, gig):
    build("contract-templates", name="Not the default", body=TEMPLATE)
    assert (
        admin.patch(
            f"/gigs/{gig['id']}", json={"gig_status_id": build.id("gig-statuses", kind="confirmed")}
        ).status_code
        == 200
    )
    before = admin.get(f"/gigs/{gig['id']}").get_json()["data"]["gig_status_id"]
    post(admin, f"/quotes/{sent_quote(admin, gig)['id']}/accept")
    assert admin.get(f"/gigs/{gig['id']}").get_json()["data"]["gig_status_id"] == before
    assert admin.get(f"/contracts?filter[gig_id]={gig['id']}").get_json()["data"] == []


def test_a_quote_is_refused_sending_without_lines_contact_or_validity_and_once_sent(admin, gig, build):
    empty = build("quotes", gig_id=gig["id"])
    refusal(admin.post(f"/quotes/{empty['id']}/send"), "no_lines")
    nobody = post(admin, f"/gigs/{gig['id']}/quotes", status=201)
    assert admin.patch(f"/quotes/{nobody['id']}", json={"contact_id": None}).status_code == 200
    refusal(admin.post(f"/quotes/{nobody['id']}/send"), "no_contact")
    old = post(admin, f"/gigs/{gig['id']}/quotes", status=201)
    assert admin.patch(f"/quotes/{old['id']}", json={"valid_until": today(days=-1)}).status_code == 200
    assert refusal(admin.post(f"/quotes/{old['id']}/send"), "quote_expired")["details"]["valid_until"] == today(days=-1)
    quote = sent_quote(admin, gig)
    refusal(admin.post(f"/quotes/{quote['id']}/send"), "not_editable")
    for refused in (empty, nobody, old):  # a refused send takes no number and changes nothing
        assert admin.get(f"/quotes/{refused['id']}").get_json()["data"]["status"] == "draft"
    assert quote["number"].endswith("-0001")
    assert admin.post("/quotes/nope/send").status_code == 404


def test_answers_are_refused_on_a_draft_a_second_accept_and_past_validity(admin, gig):
    draft = post(admin, f"/gigs/{gig['id']}/quotes", status=201)
    assert refusal(admin.post(f"/quotes/{draft['id']}/accept"), "not_sent")["details"]["status"] == "draft"
    refusal(admin.post(f"/quotes/{draft['id']}/decline"), "not_sent")
    invalid_at(admin.post(f"/quotes/{draft['id']}/accept", {"note": 5}), "note")
    invalid_at(admin.post(f"/quotes/{draft['id']}/decline", {"answer": "yes"}), "answer")

    first = sent_quote(admin, gig)
    post(admin, f"/quotes/{first['id']}/accept")
    refusal(admin.post(f"/quotes/{first['id']}/decline"), "not_sent")
    second = sent_quote(admin, gig)  # the accepted one is not superseded: only sent ones are
    assert admin.get(f"/quotes/{first['id']}").get_json()["data"]["status"] == "accepted"
    assert refusal(admin.post(f"/quotes/{second['id']}/accept"), "quote_accepted")["details"]["quote_id"] == first["id"]
    post(admin, f"/quotes/{second['id']}/decline")

    # the office moves to a zone a day ahead: a quote valid until the old today is past its validity
    assert admin.patch("/office", json={"time_zone": EARLY}).status_code == 200
    late = post(admin, f"/gigs/{gig['id']}/quotes", status=201)
    assert admin.patch(f"/quotes/{late['id']}", json={"valid_until": today(EARLY)}).status_code == 200
    post(admin, f"/quotes/{late['id']}/send")
    assert admin.patch("/office", json={"time_zone": LATE}).status_code == 200
    refusal(admin.post(f"/quotes/{late['id']}/decline"), "quote_expired")
    assert admin.get(f"/quotes/{late['id']}").get_json()["data"]["status"] == "sent"


def test_contract_templates_are_checked_and_one_is_the_default(admin, build):
    error = invalid_at(admin.post("/contract-templates", {"name": "Bad", "body": "Hi\n{{ client_nmes }}"}), "body")
    assert "line 2" in error[0] and "client_nmes" in error[0]
    first = build("contract-templates", name="First", body=TEMPLATE, is_default=True)
    second = build("contract-templates", name="Second", body=TEMPLATE, is_default=True)
    assert admin.get(f"/contract-templates/{first['id']}").get_json()["data"]["is_default"] is False
    invalid_at(
        admin.patch(f"/contract-templates/{second['id']}", json={"body": "{% for x in y %}{% endfor %}"}), "body"
    )
    assert admin.get(f"/contract-templates/{second['id']}").get_json()["data"]["body"] == TEMPLATE
    fields = admin.get("/contract-merge-fields").get_json()["data"]
    assert [field["name"] for field in fields][:3] == ["client_names", "client_address", "gig_date"]
    assert len(fields) == 15 and all(field["description"] for field in fields)


def test_a_contract_is_rendered_from_a_template_and_the_gigs_accepted_quote(admin, build, gig):
    template = build("contract-templates", name="Short", body="{{ client_names }}: {{ balance_amount }}")
    refused = admin.post("/contracts", {"gig_id": gig["id"], "template_id": template["id"]})
    invalid_at(refused, "quote_id")
    quote = sent_quote(admin, gig)
    post(admin, f"/quotes/{quote['id']}/accept")
    contract = post(admin, "/contracts", {"gig_id": gig["id"], "template_id": template["id"]}, status=201)
    assert (contract["body"], contract["quote_id"]) == ("Anna Berger and Ben Huber: €1,260.00", quote["id"])
    edited = admin.patch(f"/contracts/{contract['id']}", json={"body": "Our own words {{ not a field }}"})
    assert edited.get_json()["data"]["body"] == "Our own words {{ not a field }}"  # rendered text: plain
    post(admin, f"/contracts/{contract['id']}/send")
    refusal(admin.patch(f"/contracts/{contract['id']}", json={"body": "changed"}), "not_editable")


def test_contract_operations_refuse_what_their_status_forbids(admin, build, gig):
    empty = build("contracts", gig_id=gig["id"])
    refusal(admin.post(f"/contracts/{empty['id']}/send"), "no_text")
    refusal(admin.post(f"/contracts/{empty['id']}/sign-on-behalf", {"signed_name": "Anna"}), "not_sent")
    invalid_at(admin.post(f"/contracts/{empty['id']}/void", {}), "reason")
    invalid_at(admin.post(f"/contracts/{empty['id']}/void"), "_body")
    contract = post(admin, "/contracts", {"gig_id": gig["id"], "body": "We play."}, status=201)
    post(admin, f"/contracts/{contract['id']}/send")
    refusal(admin.post(f"/contracts/{contract['id']}/send"), "not_editable")
    invalid_at(admin.post(f"/contracts/{contract['id']}/sign-on-behalf", {"note": "no name"}), "signed_name")
    invalid_at(admin.post(f"/contracts/{contract['id']}/sign-on-behalf", {"signed_name": "x" * 201}), "signed_name")
    assert admin.get(f"/contracts/{contract['id']}").get_json()["data"]["status"] == "sent"
    post(admin, f"/contracts/{contract['id']}/sign-on-behalf", {"signed_name": "Anna"})
    refusal(admin.post(f"/contracts/{contract['id']}/sign-on-behalf", {"signed_name": "Anna"}), "not_sent")
    void = post(admin, f"/contracts/{contract['id']}/void", {"reason": "The couple called it off"})
    assert (void["status"], void["void_reason"]) == ("void", "The couple called it off")
    assert next(e["type"] for e in events_of(admin, gig) if e["subject"]["id"] == contract["id"]) == "contract.voided"
    refusal(admin.post(f"/contracts/{contract['id']}/void", {"reason": "again"}), "contract_void")


def test_a_viewer_reads_money_in_but_acts_on_nothing_and_staff_see_nothing(admin, signed_in, gig):
    quote = sent_quote(admin, gig)
    draft = post(admin, f"/gigs/{gig['id']}/quotes", status=201)
    contract = post(admin, "/contracts", {"gig_id": gig["id"], "body": "We play."}, status=201)
    viewer, staff = signed_in("viewer"), signed_in("staff")
    assert viewer.get(f"/quotes/{quote['id']}").status_code == 200
    assert viewer.get("/contract-merge-fields").status_code == 200
    acts = [
        (f"/gigs/{gig['id']}/quotes", None),
        (f"/quotes/{draft['id']}/send", None),
        (f"/quotes/{quote['id']}/accept", None),
        (f"/quotes/{quote['id']}/decline", None),
        (f"/contracts/{contract['id']}/send", None),
        (f"/contracts/{contract['id']}/sign-on-behalf", {"signed_name": "Anna"}),
        (f"/contracts/{contract['id']}/void", {"reason": "no"}),
    ]
    for caller in (viewer, staff):
        for path, body in acts:
            error_of(caller.post(path, body), 403, "forbidden")
    error_of(staff.get(f"/quotes/{quote['id']}"), 403, "forbidden")
    error_of(staff.get("/contract-merge-fields"), 403, "forbidden")
    assert admin.get(f"/quotes/{draft['id']}").get_json()["data"]["status"] == "draft"
    assert admin.get(f"/contracts/{contract['id']}").get_json()["data"]["status"] == "draft"


def test_the_worker_marks_a_sent_quote_past_its_validity_expired(tmp_path):
    office = ServedOffice(tmp_path).start()
    try:
        office.call("PATCH", "/office", {"time_zone": EARLY})
        gig = office.call("POST", "/gigs", {"gig_date": "2027-06-12", "title": "Soon"})
        contact = office.call("POST", "/contacts", {"first_name": "Anna"})
        office.call("POST", "/gig-contacts", {"gig_id": gig["id"], "contact_id": contact["id"], "is_primary": True})
        quote = office.call("POST", "/quotes", {"gig_id": gig["id"], "valid_until": today(EARLY)})
        office.call("POST", "/quote-lines", {"quote_id": quote["id"], "description": "Band", "unit_price_cents": 100})
        office.call("POST", f"/quotes/{quote['id']}/send")
        office.call("PATCH", "/office", {"time_zone": LATE})
        expired = "/events?filter[type]=quote.expired"
        assert wait_for(lambda: office.call("GET", expired), timeout=30)
        [event] = office.call("GET", expired)
        assert event["subject"]["id"] == quote["id"] and event["actor"] is None and event["gig_id"] == gig["id"]
        assert office.call("GET", f"/quotes/{quote['id']}")["status"] == "expired"
    finally:
        assert office.service.stop() == 0


def test_a_product_and_ensemble_of_long_names_make_a_line_cut_to_its_length(admin, build):
    gig = build("gigs", gig_date="2027-06-12", title="Long names")
    product, ensemble = build("products", name="R" * 200), build("ensembles", name="E" * 200)
    build("product-ensembles", product_id=product["id"], ensemble_id=ensemble["id"])
    times = {"start_time": "18:00", "end_time": "19:30"}
    build("gig-products", gig_id=gig["id"], product_id=product["id"], ensemble_id=ensemble["id"], **times)
    quote = post(admin, f"/gigs/{gig['id']}/quotes", status=201)
    [line] = admin.get(f"/quote-lines?filter[quote_id]={quote['id']}").get_json()["data"]
    assert len(line["description"]) == 300 and line["description"].startswith("R" * 200 + " (E")
    assert line["description"].endswith("…")
