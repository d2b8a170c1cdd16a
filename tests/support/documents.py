"""A band office's documents as plain data (SPEC §15), for the tests of `documents/` and its benchmark
(`scripts/document_cost.py`): an office with bank details, a couple and a company, lines at two rates."""

import dataclasses
import io
from datetime import UTC, date, datetime

from PIL import Image, ImageDraw

from documents import Contract, Invoice, Letterhead, Line, Party, Quote, RateTotal, Signature

OFFICE = Letterhead(
    name="The Swing Kings GbR",
    address_lines=("Hauptstraße 5",),
    postal_code="80331",
    city="München",
    country="DE",
    email="office@swingkings.example",
    vat_id="DE123456789",
    iban="DE89370400440532013000",
    bic="COBADEFFXXX",
    bank_name="Commerzbank",
    tax_note="No VAT is charged: small business under § 19 UStG.",
    invoice_footer="Thank you for booking us!",
)
COUPLE = Party(name="Anna Schmidt", address_lines=("Ring 1",), postal_code="10115", city="Berlin", country="DE")
COMPANY = dataclasses.replace(COUPLE, company="Acme Events GmbH", vat_id="DE987654321")
LINES = (
    Line("Ceremony: string trio, 14:00-15:00", 90000, 1, 1900),
    Line("Reception: six-piece band, 19:00-01:00", 350000, 1, 1900),
    Line("Travel, per km", 50, 120, 700),
)
RATES = (RateTotal(1900, 440000, 83600), RateTotal(700, 6000, 420))  # gross 530 020
INVOICE = Invoice(
    office=OFFICE,
    client=COUPLE,
    number="2026-0007",
    issued_on=date(2026, 5, 1),
    lines=LINES,
    rates=RATES,
    kind="deposit",
    service_date=date(2026, 6, 14),
    due_date=date(2026, 5, 15),
    paid_cents=20,
    subject="Wedding of Anna and Ben, 14 June 2026, Schloss Elmau",
)
QUOTE = Quote(
    office=OFFICE,
    client=COUPLE,
    number="Q-2026-0003",
    issued_on=date(2026, 3, 1),
    lines=LINES,
    rates=RATES,
    valid_until=date(2026, 3, 15),
    deposit_percent=30,
    terms="A deposit of 30 % is due on signing.",
)
SIGNED = Signature(
    name="Anna Schmidt",
    signed_at=datetime(2026, 3, 21, 9, 30, 5, tzinfo=UTC),
    zone="Europe/Berlin",
    ip="203.0.113.9",
    user_agent="Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X)",
)
CONTRACT = Contract(
    office=OFFICE,
    client=COUPLE,
    number="C-2026-0002",
    issued_on=date(2026, 3, 20),
    body="1. The band plays on 14 June 2026.\n2. The client pays the deposit.",
)
UNTAXED = dataclasses.replace(
    INVOICE,
    lines=(Line("Reception", 350000, 1, 0),),
    rates=(RateTotal(0, 350000, 0),),
    paid_cents=0,
)


def logo_png():
    """A logo as an office uploads one: a PNG of 400 × 160 pixels."""
    image = Image.new("RGB", (400, 160), "white")
    draw = ImageDraw.Draw(image)
    draw.ellipse((10, 10, 150, 150), fill=(150, 30, 60))
    draw.rectangle((170, 62, 390, 98), fill=(40, 40, 40))
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


E_INVOICE = dataclasses.replace(INVOICE, client=COMPANY, office=dataclasses.replace(OFFICE, logo=logo_png()))
