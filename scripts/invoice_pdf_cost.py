"""One invoice's PDF through the API (SPEC §15: at most 300 ms): a served office (`app.py serve`, the worker off), an
invoice of two lines to a couple; the wall time of `GET /invoices/{id}/pdf` while a draft (made on each request), of
`POST /invoices/{id}/issue` (number and PDF made and kept), and of the issued one's `GET` (the kept bytes), each with
the server's CPU time (its process's, read from /proc: the figure a busy shared machine distorts least). The first
draft request is the cold one (the PDF libraries load); the medians and maxima of the next ROUNDS are the warm ones.

    .venv/bin/python scripts/invoice_pdf_cost.py [--rounds 20]
"""

import argparse
import datetime as dt
import json
import os
import statistics
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT))

from scripts.served import served  # noqa: E402

OFFICE = {"name": "The Swing Kings", "iban": "DE89370400440532013000", "bic": "COBADEFFXXX", "city": "München"}


def server_cpu_ms():
    """The CPU time the server (this process's one child) has spent, in ms."""
    [child] = Path(f"/proc/{os.getpid()}/task/{os.getpid()}/children").read_text().split()
    fields = Path(f"/proc/{child}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * 1000 / os.sysconf("SC_CLK_TCK")


def caller(base, key):
    def call(method, path, body=None):
        """(its data or bytes, (wall ms, server CPU ms))"""
        data = None if body is None else json.dumps(body).encode()
        headers = {"Authorization": f"Bearer {key}", "Content-Type": "application/json"}
        request = urllib.request.Request(base + path, data=data, method=method, headers=headers)
        started, cpu = time.perf_counter(), server_cpu_ms()
        with urllib.request.urlopen(request, timeout=60) as answer:
            body = answer.read()
        elapsed = ((time.perf_counter() - started) * 1000, server_cpu_ms() - cpu)
        return (json.loads(body)["data"] if answer.headers.get_content_type() == "application/json" else body), elapsed

    return call


def invoice(call):
    gig_date = (dt.date.today() + dt.timedelta(days=90)).isoformat()
    gig, _ = call("POST", "/gigs", {"gig_date": gig_date, "title": "Anna & Ben"})
    couple, _ = call("POST", "/contacts", {"first_name": "Anna", "last_name": "Berger"})
    call("POST", "/gig-contacts", {"gig_id": gig["id"], "contact_id": couple["id"], "is_primary": True})
    made, _ = call("POST", "/invoices", {"gig_id": gig["id"], "kind": "final", "due_date": gig_date})
    for price, rate in ((350000, 1900), (12000, 700)):
        line = {"invoice_id": made["id"], "description": "Reception", "unit_price_cents": price, "tax_rate_bp": rate}
        call("POST", "/invoice-lines", line)
    return made["id"]


def figures(times):
    wall, cpu = [t[0] for t in times], [t[1] for t in times]
    return (
        f"wall median {statistics.median(wall):.0f} ms (max {max(wall):.0f}), "
        f"server CPU median {statistics.median(cpu):.0f} ms (max {max(cpu):.0f})"
    )


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20)
    rounds = parser.parse_args().rounds
    with tempfile.TemporaryDirectory() as workdir, served(workdir, BAND_WORKER="off") as (base, key):
        call = caller(base, key)
        call("PATCH", "/office", OFFICE)
        drafts = [invoice(call) for _ in range(rounds + 1)]
        _, cold = call("GET", f"/invoices/{drafts[0]}/pdf")
        warm = [call("GET", f"/invoices/{invoice_id}/pdf")[1] for invoice_id in drafts[1:]]
        issues = [call("POST", f"/invoices/{invoice_id}/issue")[1] for invoice_id in drafts[1:]]
        kept = [call("GET", f"/invoices/{invoice_id}/pdf")[1] for invoice_id in drafts[1:]]
    print(f"draft PDF, cold: wall {cold[0]:.0f} ms, server CPU {cold[1]:.0f} ms")
    print(f"draft PDF, warm ({rounds}): {figures(warm)}")
    print(f"issue (number, PDF made and kept) ({rounds}): {figures(issues)}")
    print(f"issued PDF, the kept bytes ({rounds}): {figures(kept)}")


if __name__ == "__main__":
    main()
