"""The payment schedule of a signed contract (SPEC §15): a deposit of `deposit_percent` of the accepted quote's gross
(`money.share`, as the contract's text wrote it), due `deposit_due_days` after signing, and the balance, the rest,
due `balance_due_days` before the gig. Plain values: each invoice's lines as (net cents, tax rate) per rate of the
quote, so that each invoice's tax is reckoned on its own net as any invoice's is, and its gross is the share asked
(to the cent where a net gives it, the nearest else)."""

import datetime as dt
from typing import NamedTuple

from domain.sales.money import BASIS_POINTS, half_up, share, totals


class Part(NamedTuple):
    net_cents: int
    tax_rate_bp: int


class Schedule(NamedTuple):
    deposit: tuple  # Parts; empty at 0 %
    balance: tuple  # Parts; empty when the deposit is all of it
    deposit_due: dt.date
    balance_due: dt.date


def schedule(quote_lines, deposit_percent, deposit_due_days, balance_due_days, signed_on, gig_date):
    """The Schedule of a quote's `quote_lines` (anything with quantity, unit_price_cents, tax_rate_bp) signed on
    `signed_on` for a gig on `gig_date`."""
    found = totals(quote_lines)
    deposit = parts(found.rates, share(found.gross_cents, deposit_percent)) if deposit_percent else ()
    taken = {part.tax_rate_bp: part.net_cents for part in deposit}
    balance = tuple(
        Part(rate.net_cents - taken.get(rate.tax_rate_bp, 0), rate.tax_rate_bp)
        for rate in found.rates
        if rate.net_cents != taken.get(rate.tax_rate_bp, 0)
    )
    balance = parts(found.rates, found.gross_cents - gross_of(deposit)) if balance else ()
    return Schedule(
        deposit,
        balance,
        signed_on + dt.timedelta(days=deposit_due_days),
        gig_date - dt.timedelta(days=balance_due_days),
    )


def parts(rates, gross_cents):
    """Nets per rate whose gross is `gross_cents`, shared between the rates as their gross is."""
    whole = sum(rate.net_cents + rate.tax_cents for rate in rates)
    found, left = [], gross_cents
    for index, rate in enumerate(rates):
        last = index == len(rates) - 1
        target = left if last else half_up(gross_cents * (rate.net_cents + rate.tax_cents), whole or 1)
        net = net_for(target, rate.tax_rate_bp)
        found.append(Part(net, rate.tax_rate_bp))
        left -= net + half_up(net * rate.tax_rate_bp, BASIS_POINTS)
    return tuple(part for part in found if part.net_cents)


def net_for(gross_cents, rate_bp):
    """The net whose gross at `rate_bp` is `gross_cents`, or the nearest there is."""
    guess = half_up(gross_cents * BASIS_POINTS, BASIS_POINTS + rate_bp)
    candidates = range(guess - 2, guess + 3)
    return min(candidates, key=lambda net: (abs(net + half_up(net * rate_bp, BASIS_POINTS) - gross_cents), net))


def gross_of(found):
    return sum(part.net_cents + half_up(part.net_cents * part.tax_rate_bp, BASIS_POINTS) for part in found)
