"""A gig's money-in counts (SPEC §15 extends §11's): `quote_status` (its latest quote's), `contract_status` (its
latest contract's), `open_invoice_cents` (what its issued and partly paid invoices still await) and `deposit_overdue`
(its deposit invoice awaits money past its due date, by the office's today: the agenda's badge). Each is a computed
column of the gig's record: a subquery on the gig's own row, along the documents' (gig_id, id) indexes, so a page of
gigs costs the one query it did. Private to the sales group: a caller without `sales.view` never reads them."""

from peewee import SQL, NodeList

from dialects import dialect
from domain.sales.records import PAYABLE
from listing import Column
from models import CONTRACT_STATUSES, QUOTE_STATUSES, Gig

SALES = "sales"
PAYABLE_SQL = ", ".join(f"'{status}'" for status in PAYABLE)


def _on_gig(sql_before, sql_after):
    """on(gig): the SQL `sql_before <gig's id> sql_after`, for `gig` (Gig or the alias a page joins)."""
    return lambda gig: NodeList((SQL(sql_before), gig.id, SQL(sql_after)))


def _latest_status(table):
    """The status of the gig's latest document of `table`: the one no other of the gig's is newer than (a gig has a
    few; both lookups along the (gig_id, …) index, and no sorting, which an ORDER BY here took for each gig)."""
    return _on_gig(
        f'(SELECT "latest"."status" FROM "{table}" AS "latest" WHERE "latest"."gig_id" =',
        f' AND NOT EXISTS (SELECT 1 FROM "{table}" AS "newer" WHERE "newer"."gig_id" = "latest"."gig_id"'
        ' AND ("newer"."created_at" > "latest"."created_at" OR ("newer"."created_at" = "latest"."created_at"'
        ' AND "newer"."id" > "latest"."id"))))',
    )


_open_cents = _on_gig(
    'COALESCE((SELECT SUM("open"."open_cents") FROM "invoices" AS "open" WHERE "open"."gig_id" =',
    f' AND "open"."status" IN ({PAYABLE_SQL}) AND "open"."kind" <> \'credit_note\'), 0)',
)


_deposit_overdue = _on_gig(
    'EXISTS (SELECT 1 FROM "invoices" AS "late" WHERE "late"."gig_id" =',
    f' AND "late"."kind" = \'deposit\' AND "late"."status" IN ({PAYABLE_SQL}) AND "late"."due_date" <',
)


def _overdue(gig):
    return NodeList((_deposit_overdue(gig), dialect.OFFICE_TODAY, SQL(")")))


def _column(name, on, kind, choices=()):
    """A count of the gig's own list: not followed through a reference (a filter or sort of the gig's roles, say),
    which no index would serve; an expanded gig reads it (its table named as the expansion names it)."""
    return Column(name, on(Gig), kind, choices, group=SALES, shape=("sales count",), unsorted=True)


COLUMNS = {
    column.name: column
    for column in (
        _column("quote_status", _latest_status("quotes"), "enum", QUOTE_STATUSES),
        _column("contract_status", _latest_status("contracts"), "enum", CONTRACT_STATUSES),
        _column("open_invoice_cents", _open_cents, "int"),
        _column("deposit_overdue", _overdue, "bool"),
    )
}


def without_hidden(columns, can):
    """`columns` {name: Column} of a gig as a caller holding `can` reads its own record: the counts absent
    (not null) without `sales.view`."""
    if f"{SALES}.view" in can:
        return columns
    return {name: column for name, column in columns.items() if name not in COLUMNS}
