"""The pay group: what each role earns (by default, per product, per staff member) and the pay sheets."""

from flask import Blueprint, request

import listing
from domain import office, payroll
from domain.errors import ApiError
from formats.operation_schemas import OwnPayLineSchema, PayLineSchema, StaffPaySchema
from models import Rate, StaffMemberProductRate
from openapi import operation
from routes.catalog import Priced
from routes.gigs import GIGS
from routes.people import STAFF_MEMBERS
from schemas import RateSchema, StaffMemberProductRateSchema
from web.lifecycle import page_answer, page_of

blueprint = Blueprint("pay", __name__)

RESOURCES = [
    Priced(Rate, RateSchema, "pay"),
    Priced(StaffMemberProductRate, StaffMemberProductRateSchema, "pay"),
]


@blueprint.get("/gigs/<id>/pay-sheet")
@operation(
    capability="pay.view",
    response=PayLineSchema,
    listing="paged",
    errors=(400, 404),
)
def gig_pay_sheet(id):
    """What each gig role of the gig pays, and where the amount comes from; meta.total_cents sums them, in
    meta.currency."""
    page = listing.parse_paging(request.args)
    return sheet_answer(payroll.gig_pay_sheet(GIGS.get(id).id), page)


def sheet_answer(lines, page):
    """A page of pay lines, `meta.total_cents` summing every line (not only the page's), in `meta.currency`."""
    body = page_of(lines, page)
    body["meta"]["total_cents"] = sum(line["amount_cents"] or 0 for line in lines)
    return with_currency(body)


def with_currency(body):
    """A pay sheet's answer saying the currency of its amounts (the office's) in `meta.currency`."""
    body["meta"]["currency"] = office.current().currency
    return body


# A period's first and last dates, both required and inclusive.
PERIOD = [("from", {"type": "string", "format": "date"}), ("to", {"type": "string", "format": "date"})]


def period_of(args):
    """(page, first date, last date) of a list over a period: `from` and `to`, with `limit` and `offset`."""
    page = listing.parse_paging(args, extra=("from", "to"))
    dates = {}
    for name in ("from", "to"):
        try:
            dates[name] = listing.parse_value(listing.Column(name, None, "date"), page.extra.get(name, ""))
        except ValueError as e:
            raise ApiError(400, "invalid_query", "Invalid query parameters.", {name: str(e)}) from None
    return page, dates["from"], dates["to"]


@blueprint.get("/pay-sheet")
@operation(capability="pay.view", response=StaffPaySchema, listing="paged", errors=(400,), params=PERIOD)
def period_pay_sheet():
    """Per staff member, the pay of their filled roles on gigs not cancelled from `from` to `to` (inclusive)."""
    page, first, last = period_of(request.args)
    return with_currency(page_answer(*payroll.period_pay_sheet(first, last, page.limit, page.offset), page))


@blueprint.get("/staff-members/<id>/pay-sheet")
@operation(capability="pay.view", response=OwnPayLineSchema, listing="paged", errors=(400, 404), params=PERIOD)
def staff_member_pay_sheet(id):
    """The staff member's lines of the period pay sheet: one per gig role they filled on a gig not cancelled from
    `from` to `to` (inclusive), by date; meta.total_cents sums them (what /pay-sheet shows as their total)."""
    page, first, last = period_of(request.args)
    return sheet_answer(payroll.member_pay_sheet(STAFF_MEMBERS.get(id).id, first, last), page)
