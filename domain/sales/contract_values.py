"""The merge fields' values of a contract (contract_text.py), written as the client's language writes dates,
times, money and lists (Babel, from the Unicode CLDR): `Saturday, June 12, 2027`, `6:00 PM` and `€4,500.00` in
`en`, `Samstag, 12. Juni 2027`, `18:00` and `€ 4.500,00` in `de-AT`. The caller gathers the facts (`ContractFacts`,
plain values in their stored forms) from the gig, its contacts, venue and products, the accepted quote and the
office; `values_for` writes them."""

import datetime as dt
from decimal import Decimal
from typing import NamedTuple

from babel.dates import format_date, format_time, format_timedelta
from babel.lists import format_list
from babel.numbers import format_currency

from domain.sales.money import share
from formats.client_words import locale_of


class Product(NamedTuple):
    """A product sold on the gig, as a contract lists it."""

    name: str
    start_time: str | None = None  # `HH:MM`
    end_time: str | None = None


class ContractFacts(NamedTuple):
    """What a contract's text says, in the stored forms: dates `YYYY-MM-DD`, times `HH:MM`, money in cents."""

    client_names: list[str]
    client_address: str | None
    gig_date: str
    start_time: str | None
    end_time: str | None
    venue_name: str | None
    venue_address: str | None
    products: list[Product]
    currency: str
    quote_total_cents: int  # the accepted quote's gross
    deposit_percent: int  # 0..100
    deposit_due_days: int  # after signing
    balance_due_days: int  # before the gig
    office_name: str
    office_address: str | None


def split_total(gross_cents, deposit_percent):
    """(deposit, balance) in cents: `deposit_percent` of the total (`money.share`, as the deposit invoice takes it),
    and the rest."""
    deposit = share(gross_cents, deposit_percent)
    return deposit, gross_cents - deposit


def values_for(facts, language):
    """{merge field: text} of `facts` in `language` (a BCP 47 tag); a fact not known is the empty text, so that
    `{% if field %}` leaves out what does not apply (no deposit at 0 %, no venue yet)."""
    locale = locale_of(language)
    deposit, balance = split_total(facts.quote_total_cents, facts.deposit_percent)
    gig_date = dt.date.fromisoformat(facts.gig_date)
    money = _money(facts.currency, locale)
    return {
        "client_names": format_list(facts.client_names, locale=locale) if facts.client_names else "",
        "client_address": facts.client_address or "",
        "gig_date": format_date(gig_date, "full", locale=locale),
        "start_time": _time(facts.start_time, locale),
        "end_time": _time(facts.end_time, locale),
        "venue_name": facts.venue_name or "",
        "venue_address": facts.venue_address or "",
        "products": "\n".join(_product(product, locale) for product in facts.products),
        "quote_total": money(facts.quote_total_cents),
        "deposit_amount": money(deposit) if deposit else "",
        "deposit_due_date": _days(facts.deposit_due_days, locale) if deposit else "",
        "balance_amount": money(balance),
        "balance_due_date": format_date(gig_date - dt.timedelta(days=facts.balance_due_days), "long", locale=locale),
        "office_name": facts.office_name,
        "office_address": facts.office_address or "",
    }


def _money(currency, locale):
    return lambda cents: format_currency(Decimal(cents).scaleb(-2), currency, locale=locale)


def _time(text, locale):
    return format_time(dt.time.fromisoformat(text), "short", locale=locale) if text else ""


def _days(days, locale):
    """`14 days`, `14 Tage`: a count of days, never rounded to weeks or months."""
    return format_timedelta(dt.timedelta(days=days), granularity="day", threshold=float("inf"), locale=locale)


def _product(product, locale):
    """`Reception, 6:00 PM–11:00 PM`; its name alone unless both its times are known."""
    start, end = _time(product.start_time, locale), _time(product.end_time, locale)
    return f"{product.name}, {start}–{end}" if start and end else product.name
