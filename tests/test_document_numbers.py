"""SPEC §15 "Numbers": quotes `Q-YYYY-NNNN`, contracts `C-YYYY-NNNN`, invoices and credit notes one series
`YYYY-NNNN`, consecutive per calendar year of issue, taken inside the issuing transaction, never reused and without
gaps: 20 issues at once from threads, and from two processes, each in its transaction and some rolled back, leave
exactly 1..N, on either database. The engine that sending and issuing call (domain/sales/numbers.py)."""

import datetime as dt
import json
import os
import subprocess
import sys
import threading
import zoneinfo
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

import dialects
from domain import office
from domain.sales.numbers import next_number
from models import Setting, db
from storage import writer
from tests.support.database import connected

ROOT = Path(__file__).resolve().parent.parent
ISSUES = 20
ISSUED_ON = dt.date(2027, 3, 1)
PREFIX = "issued "  # the stand-in of an issued document: a setting row keyed by its number, written with it


class Abandoned(Exception):
    """The issue fails after its number was taken: its transaction is rolled back."""


def issue(kind, abandon=False, issued_on=ISSUED_ON):
    """One document issued in a write transaction of its own (run again when it loses to a concurrent one, as a
    request's is): its number taken and the document written; None when it is abandoned (rolled back)."""

    def write():
        number = next_number(kind, issued_on)
        Setting.create(key=PREFIX + number, value=kind)
        if abandon:
            raise Abandoned(number)
        return number

    try:
        return writer.retried(write)
    except Abandoned:
        return None


def issue_at_once(kind, count, abandon_every=4):
    """`count` issues from as many threads, released together, every `abandon_every`th rolled back; the numbers of
    those committed."""
    barrier = threading.Barrier(count)

    def run(index):
        barrier.wait()
        try:
            return issue(kind, abandon=index % abandon_every == 0)
        finally:
            db.close()  # this thread's connection

    with ThreadPoolExecutor(count) as pool:
        return [number for number in pool.map(run, range(count)) if number is not None]


def issued(location):
    """The numbers of the documents stored, read by a connection of the test's own."""
    with connected(location) as connection:
        rows = connection.execute("SELECT key FROM settings WHERE key LIKE ?", (PREFIX + "%",)).fetchall()
    return sorted(key.removeprefix(PREFIX) for (key,) in rows)


def written(year, numbers):
    return sorted(f"{year}-{number:04}" for number in numbers)


def test_numbers_of_each_kind_are_written_as_the_spec_says(app):
    assert [issue(kind) for kind in ("quote", "contract", "invoice", "credit_note", "quote")] == [
        "Q-2027-0001",
        "C-2027-0001",
        "2027-0001",
        "2027-0002",  # a credit note's number is of the invoices' series
        "Q-2027-0002",
    ]


def test_each_calendar_year_counts_from_one(app):
    assert issue("invoice", issued_on=dt.date(2027, 12, 31)) == "2027-0001"
    assert issue("invoice", issued_on=dt.date(2028, 1, 1)) == "2028-0001"
    assert issue("invoice", issued_on=dt.date(2027, 12, 31)) == "2027-0002"
    assert issue("invoice", issued_on=dt.date(2028, 6, 1)) == "2028-0002"


def test_the_year_of_issue_is_the_offices_by_default(app):
    with writer.transaction():
        office.change({"time_zone": "Pacific/Kiritimati"})  # UTC+14: a new year there while it is not in UTC
    zone = zoneinfo.ZoneInfo("Pacific/Kiritimati")
    before = dt.datetime.now(zone).year
    number = issue("quote", issued_on=None)
    assert number in (f"Q-{year}-0001" for year in {before, dt.datetime.now(zone).year})


def test_a_number_is_taken_only_inside_the_issuing_transaction(app):
    with pytest.raises(RuntimeError, match="inside the transaction"):
        next_number("invoice", ISSUED_ON)
    assert issue("invoice") == "2027-0001"


def test_a_rolled_back_issue_leaves_its_number_to_the_next(app):
    assert issue("invoice", abandon=True) is None
    assert issue("invoice") == "2027-0001"
    assert issue("invoice", abandon=True) is None
    assert issue("invoice") == "2027-0002"
    assert issued(app.config["DB"]) == ["2027-0001", "2027-0002"]


def test_twenty_issues_at_once_from_threads_give_one_to_n_without_gap_or_repeat(app):
    numbers = issue_at_once("invoice", ISSUES)
    assert len(numbers) == ISSUES - len(range(0, ISSUES, 4))
    assert sorted(numbers) == issued(app.config["DB"]) == written(2027, range(1, len(numbers) + 1))
    assert issue("invoice") == f"2027-{len(numbers) + 1:04}"


def issue_from_process():
    """A process of its own issuing at once (`python -c`): argv is the database, the kind and the count; prints the
    committed numbers as JSON."""
    location, kind, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
    db.initialize(dialects.open_database(location, writer.BUSY_TIMEOUT_SECONDS))
    print(json.dumps(issue_at_once(kind, count)))


def test_two_processes_issuing_at_once_give_one_to_n_without_gap_or_repeat(app):
    """As two `serve` processes on one database would (on PostgreSQL, writing side by side)."""
    location = app.config["DB"]
    environment = {**os.environ, "BAND_DB": location}
    script = "from tests.test_document_numbers import issue_from_process; issue_from_process()"
    command = [sys.executable, "-c", script, location, "contract", str(ISSUES // 2)]
    processes = [
        subprocess.Popen(command, cwd=ROOT, env=environment, stdout=subprocess.PIPE, text=True) for _ in range(2)
    ]
    outputs = [process.communicate(timeout=120)[0] for process in processes]
    assert [process.returncode for process in processes] == [0, 0]
    numbers = [number for output in outputs for number in json.loads(output)]
    assert len(numbers) == ISSUES - 2 * len(range(0, ISSUES // 2, 4))
    assert sorted(numbers) == issued(location) == sorted(f"C-2027-{n:04}" for n in range(1, len(numbers) + 1))
