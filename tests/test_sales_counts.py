"""SPEC §15 extends §11's counts: a gig reads `quote_status` (its latest quote's), `contract_status` and
`open_invoice_cents` (what its issued and partly paid invoices await), for a caller with `sales.view` only, and a page
of gigs costs the same number of queries whatever it holds."""

import datetime as dt
import zoneinfo

from models import Contract, Invoice, Quote
from tests import test_sales_records
from tests.support.database import count_queries
from tests.support.days import today
from tests.support.sales import issued, line, sent

gig = test_sales_records.gig  # the fixture: a gig with its couple
SALES_COUNTS = ("quote_status", "contract_status", "open_invoice_cents", "deposit_overdue")


def counts_of(client, gig_id):
    data = client.get(f"/gigs/{gig_id}").get_json()["data"]
    return {name: data.get(name, "absent") for name in SALES_COUNTS}


def invoice(admin, gig_id, cents, kind="deposit", due_in=10):
    made = admin.create("invoices", {"gig_id": gig_id, "kind": kind, "due_date": today(due_in)})
    line(admin, "invoice", made["id"], 1, cents, 0)
    issued(made["id"])
    return made["id"]


def test_a_gig_reads_its_latest_quote_and_contract_and_what_its_invoices_await(admin, gig):
    nothing = {"quote_status": None, "contract_status": None, "open_invoice_cents": 0, "deposit_overdue": False}
    assert counts_of(admin, gig["id"]) == nothing
    first = admin.create("quotes", {"gig_id": gig["id"]})
    sent(Quote, first["id"])
    admin.create("quotes", {"gig_id": gig["id"]})
    contract = admin.create("contracts", {"gig_id": gig["id"], "body": "We play."})
    sent(Contract, contract["id"])
    deposit = invoice(admin, gig["id"], 100_00)
    invoice(admin, gig["id"], 250_00, kind="balance")
    admin.create("invoices", {"gig_id": gig["id"], "kind": "final", "due_date": today(10)})  # a draft awaits nothing
    admin.create("payments", {"invoice_id": deposit, "amount_cents": 40_00, "received_on": today()})
    expected = {
        "quote_status": "draft",
        "contract_status": "sent",
        "open_invoice_cents": 310_00,
        "deposit_overdue": False,
    }
    assert counts_of(admin, gig["id"]) == expected
    listed = admin.get("/gigs?filter[quote_status]=draft&filter[open_invoice_cents][gt]=0&fields=id").get_json()
    assert [row["id"] for row in listed["data"]] == [gig["id"]]


def test_a_deposit_past_its_due_date_in_the_offices_zone_is_overdue_until_paid(admin, gig):
    late = invoice(admin, gig["id"], 100_00, due_in=-1)
    invoice(admin, gig["id"], 100_00, kind="balance", due_in=-1)
    assert counts_of(admin, gig["id"])["deposit_overdue"] is True
    listed = admin.get("/gigs?filter[deposit_overdue]=true&fields=id").get_json()["data"]
    assert [row["id"] for row in listed] == [gig["id"]]
    admin.create("payments", {"invoice_id": late, "amount_cents": 100_00, "received_on": today()})
    assert counts_of(admin, gig["id"])["deposit_overdue"] is False


def test_overdue_follows_the_offices_today_not_the_servers(admin, gig):
    # A zone whose today is not UTC's at this hour: Kiritimati's (UTC+14) is tomorrow from 10:00 UTC on, Pago Pago's
    # (UTC-11) yesterday until 11:00 UTC
    zone = "Pacific/Kiritimati" if dt.datetime.now(dt.UTC).hour >= 10 else "Pacific/Pago_Pago"
    assert admin.patch("/office", json={"time_zone": zone}).status_code == 200
    there = dt.datetime.now(zoneinfo.ZoneInfo(zone)).date()
    made = admin.create("invoices", {"gig_id": gig["id"], "kind": "deposit", "due_date": there.isoformat()})
    line(admin, "invoice", made["id"], 1, 100_00, 0)
    issued(made["id"])
    assert counts_of(admin, gig["id"])["deposit_overdue"] is False  # due today there
    yesterday = (there - dt.timedelta(days=1)).isoformat()
    Invoice.update(due_date=yesterday).where(Invoice.id == made["id"]).execute()
    assert counts_of(admin, gig["id"])["deposit_overdue"] is True


def test_an_expanded_gig_reads_the_counts_which_no_list_follows_through_the_reference(signed_in, admin, gig):
    admin.create("quotes", {"gig_id": gig["id"]})
    expanded = admin.get(f"/gig-contacts?filter[gig_id]={gig['id']}&expand=gig&limit=1").get_json()["data"][0]
    assert expanded["gig"]["quote_status"] == "draft"
    assert admin.get("/gig-contacts?filter[gig.quote_status]=draft").status_code == 400
    crew = signed_in("crew")
    hidden = crew.get(f"/gig-contacts?filter[gig_id]={gig['id']}&expand=gig&limit=1").get_json()["data"][0]["gig"]
    assert hidden["quote_status"] is None and hidden["open_invoice_cents"] is None


def test_without_sales_view_the_counts_are_absent(signed_in, admin, gig):
    admin.create("quotes", {"gig_id": gig["id"]})
    crew = signed_in("crew")
    assert counts_of(crew, gig["id"]) == dict.fromkeys(SALES_COUNTS, "absent")
    assert set(SALES_COUNTS).isdisjoint(crew.get("/gigs").get_json()["data"][0])
    assert crew.get("/gigs?filter[quote_status]=draft").status_code == 400
    assert counts_of(signed_in("viewer"), gig["id"])["quote_status"] == "draft"


def test_a_page_of_gigs_costs_the_same_queries_with_more_documents(admin, build, gig, monkeypatch):
    def page_cost():
        executed = count_queries(monkeypatch)
        assert admin.get("/gigs?limit=50").status_code == 200
        monkeypatch.undo()
        return len(executed)

    before = page_cost()
    for day in range(5):
        other = build("gigs", gig_date=today(day + 1), title=f"Gig {day}")
        sent(Quote, admin.create("quotes", {"gig_id": other["id"]})["id"])
        invoice(admin, other["id"], 50_00)
    assert page_cost() == before
