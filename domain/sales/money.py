"""The money of a quote or an invoice (SPEC §15): integer cents; tax per rate on the document's net total at that
rate, rounded half up to the cent; a line shows net. The one reckoning both kinds of document use."""

from typing import NamedTuple

BASIS_POINTS = 10_000  # a tax_rate_bp of 2000 is 20 %


class Line(NamedTuple):
    quantity: int
    unit_price_cents: int
    tax_rate_bp: int


class RateTotal(NamedTuple):
    """The lines of one tax rate: their net total and its tax."""

    tax_rate_bp: int
    net_cents: int
    tax_cents: int


class Totals(NamedTuple):
    net_cents: int
    tax_cents: int
    gross_cents: int
    rates: tuple  # RateTotal per rate, lowest rate first (an invoice shows net and tax per rate)


def half_up(numerator, denominator):
    """numerator / denominator (a positive int) rounded to a whole number, halves away from zero: 0.5 cent is 1,
    -0.5 cent (a discount's or a credit note's) is -1."""
    whole = (abs(numerator) * 2 + denominator) // (2 * denominator)
    return whole if numerator >= 0 else -whole


def totals(lines):
    """The Totals of a document's `lines` (Line, or anything with their three fields)."""
    nets = {}
    for line in lines:
        nets[line.tax_rate_bp] = nets.get(line.tax_rate_bp, 0) + line.quantity * line.unit_price_cents
    rates = tuple(RateTotal(rate, net, half_up(net * rate, BASIS_POINTS)) for rate, net in sorted(nets.items()))
    net, tax = sum(rate.net_cents for rate in rates), sum(rate.tax_cents for rate in rates)
    return Totals(net, tax, net + tax, rates)


def share(amount_cents, percent):
    """`percent` of `amount_cents` (a deposit of a quote's gross), rounded half up to the cent."""
    return half_up(amount_cents * percent, 100)
