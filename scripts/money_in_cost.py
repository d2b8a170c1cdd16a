"""Money in at 100 000 invoices (SPEC §15): the server CPU of the Money screen's lists (median of 5, as
scripts/request_cost.py measures) and of a quote line's write (its quote's totals again, two events), on a copy of
band.db.example with 100 000 invoices and their payments added by SQL.

    .venv/bin/python scripts/money_in_cost.py
"""

import datetime as dt
import random
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT))

from app import create_app  # noqa: E402
from scripts.request_cost import cost, demo_tokens  # noqa: E402

INVOICES = 100_000
STAMP = "2026-11-29T00:00:00.000000Z"
LISTS = [
    "/invoices?limit=200",
    "/invoices?overdue=true&limit=200",
    "/invoices?overdue=true&limit=200&offset=20000",
    "/invoices?filter[status]=partly_paid&sort=-due_date&limit=200&offset=10000",
    "/invoices?sort=-gross_cents&offset=50000&limit=200",
    "/invoices?filter[kind]=balance&filter[due_date][lt]=2026-01-01&limit=200",
    "/invoices?expand=gig,contact&sort=gig.gig_date&limit=200&offset=10000",
    "/invoices?filter[contact_id]={contact}&limit=200",
    "/payments?sort=-received_on&limit=200&expand=invoice",
    "/payments?sort=received_on&limit=200&offset=50000",
    "/payments?filter[invoice.status]=paid&limit=200&offset=20000",
]


# The columns filled, by name: a later column (e_invoice) keeps its default.
INVOICE_COLUMNS = (
    "id, created_at, updated_at, gig_id, contact_id, kind, currency, service_date, due_date, notes, number, status,"
    " issued_at, net_cents, tax_cents, gross_cents, paid_cents, open_cents, credits_invoice_id"
)


def uid(rng):
    return str(uuid.UUID(int=rng.getrandbits(128), version=4))


def fill(path):
    """INVOICES invoices of the example's gigs and contacts, every status but void, and a payment of each paid one."""
    rng, first = random.Random(7), dt.date(2025, 1, 1)
    with sqlite3.connect(path) as connection:
        gigs = [row[0] for row in connection.execute("SELECT id FROM gigs")]
        contacts = [row[0] for row in connection.execute("SELECT id FROM contacts")]
        invoices, payments = [], []
        for n in range(INVOICES):
            invoice, status = uid(rng), rng.choice(["draft", "issued", "partly_paid", "paid", "paid", "paid"])
            gross, due = rng.randrange(10_000, 900_000), (first + dt.timedelta(days=rng.randrange(1000))).isoformat()
            paid = {"draft": 0, "issued": 0, "partly_paid": gross // 3, "paid": gross}[status]
            issued = status != "draft"
            kind = rng.choice(["deposit", "balance", "final"])
            number, issued_at = (f"{due[:4]}-{n:06d}", STAMP) if issued else (None, None)
            net = gross * 5 // 6
            gig, contact = rng.choice(gigs), rng.choice(contacts)
            amounts = (net, gross - net, gross, paid, gross - paid)
            invoices.append(
                (invoice, STAMP, STAMP, gig, contact, kind, "EUR", due, due, None, number, status, issued_at)
            )
            invoices[-1] += (*amounts, None)
            if paid:
                payments.append((uid(rng), STAMP, STAMP, invoice, paid, due, "bank_transfer", None, None))
        connection.executemany(f"INSERT INTO invoices ({INVOICE_COLUMNS}) VALUES ({', '.join('?' * 19)})", invoices)
        connection.executemany(f"INSERT INTO payments VALUES ({', '.join('?' * 9)})", payments)
        connection.execute("ANALYZE")
    return gigs[0], contacts[0], len(payments)


def main():
    with tempfile.TemporaryDirectory() as scratch:
        path = Path(scratch) / "band.db"
        shutil.copy(PROJECT / "band.db.example", path)
        gig, contact, paid = fill(path)
        print(f"{INVOICES} invoices, {paid} payments")
        app = create_app({"DB": str(path), "WORKER": "off"})
        with app.app_context():
            office = {"Authorization": f"Bearer {demo_tokens()['office']}"}
        client = app.test_client()
        for list_path in LISTS:
            list_path = list_path.format(contact=contact)
            ms, status = cost(client, "/v1" + list_path, office, 5)
            print(f"{ms:7.1f} ms  {status}  {list_path}")
        quote = client.post("/v1/quotes", json={"gig_id": gig}, headers=office).get_json()["data"]["id"]
        body, spent = {"quote_id": quote, "description": "Reception", "unit_price_cents": 250000}, []
        for _ in range(20):
            started = time.process_time()
            assert client.post("/v1/quote-lines", json=body, headers=office).status_code == 201
            spent.append((time.process_time() - started) * 1000)
        print(f"{statistics.median(spent):7.1f} ms  201  POST /quote-lines (the quote's totals again, two events)")


if __name__ == "__main__":
    main()
