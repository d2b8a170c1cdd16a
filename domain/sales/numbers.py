"""Document numbers (SPEC §15 "Numbers"): quotes `Q-2027-0001`, contracts `C-2027-0001`, invoices and credit notes
one series `2027-0001`, consecutive per calendar year of issue in the office's zone, never reused, without gaps.

`next_number` takes the next one in the issuing write transaction, by one statement on the series' row of
`document_numbers`, which holds the row until the transaction ends: a concurrent issue of the same series waits for
it (on SQLite every writer waits for the write lock; on PostgreSQL for the row, and a SERIALIZABLE one is then run
again), and a rolled-back issue leaves its number to the next, so no number is skipped or given twice."""

import datetime as dt
import zoneinfo

from dialects import dialect
from domain import office
from models import DocumentNumber, db

# Each kind of document: its series (a row a year) and how its numbers are written.
SERIES = {
    "quote": ("quote", "Q-{year}-{number:04}"),
    "contract": ("contract", "C-{year}-{number:04}"),
    "invoice": ("invoice", "{year}-{number:04}"),
    "credit_note": ("invoice", "{year}-{number:04}"),
}


def next_number(kind, issued_on=None):
    """The number of a document of `kind` (a key of SERIES) issued on `issued_on` (a date; by default today in the
    office's zone), taken in the write transaction under way, which must be the issuing one."""
    if not db.in_transaction():
        raise RuntimeError("a document number is taken inside the transaction that issues the document")
    series, written = SERIES[kind]
    year = (issued_on or office_today()).year
    number = dialect.count_up(DocumentNumber, "last", series=series, year=year)
    return written.format(year=year, number=number)


def office_today():
    """Today's date in the office's zone."""
    return dt.datetime.now(zoneinfo.ZoneInfo(office.current().time_zone)).date()
