"""An invoice's Factur-X / ZUGFeRD XML, profile EN 16931 (SPEC §15: for a company client, or when asked), made and
checked against the standard's schema by the `factur-x` library from its dictionary of EN 16931's business terms
(BT-n, BG-n), and embedded in the PDF/A-3b as `factur-x.xml`, with the XMP metadata that declares it.
The schematron's business rules need a Saxon server, which the library calls over HTTP: they are not run here."""

from decimal import Decimal

import facturx
from facturx.generate_xml import LEVEL2BT_24, generate_cii_xml

LEVEL = "en16931"
TYPE_CODES = {"credit_note": "381"}  # UNTDID 1001; anything else is a commercial invoice
INVOICE = "380"
SEPA_CREDIT_TRANSFER = "58"  # UNTDID 4461
PIECE = "C62"  # UN/ECE recommendation 20: one unit


def amount(cents, sign=1):
    return str(Decimal(sign * cents).scaleb(-2))


def rate_percent(basis_points):
    return str(Decimal(basis_points).scaleb(-2))


def category(basis_points):
    """The VAT category code (UNTDID 5305): standard rated, or exempt when the rate is 0 (a small business)."""
    return "S" if basis_points else "E"


def party(who, name, vat_id, country):
    address = {"country_code": who.country or country, "city": who.city, "postcode": who.postal_code}
    lines = dict(zip(("addr_l1", "addr_l2", "addr_l3"), who.address_lines))
    return {"name": name, **({"vat_identifier": vat_id} if vat_id else {}), **address, **lines}


def seller(office):
    legal = {"legal_identifier": office.company_register} if office.company_register else {}
    return {**party(office, office.name, office.vat_id, office.country_code), **legal}


def buyer(invoice):
    """The client; one without a country lives in the office's (a couple at home, most often)."""
    client = invoice.client
    return party(client, client.legal_name, client.vat_id, invoice.office.country_code)


def breakdown(invoice, sign):
    """BG-23, one entry per rate: its net, its tax, its category (an exemption's reason: the office's tax note)."""
    exempt = {"BT-120": invoice.office.tax_note or "Exempt"}
    return [
        {
            "BT-116": amount(rate.net_cents, sign),
            "BT-117": amount(rate.tax_cents, sign),
            "BT-118": category(rate.tax_rate_bp),
            "BT-119": rate_percent(rate.tax_rate_bp),
            **({} if rate.tax_rate_bp else exempt),
        }
        for rate in invoice.rates
    ]


def lines(invoice, sign):
    """BG-25, one entry per line. A discount (a negative price) is written as a negative quantity at a positive price:
    EN 16931 has no negative prices (BR-27)."""
    return [
        {
            "BT-126": str(index),
            "BT-129": str(line.quantity if sign * line.unit_price_cents >= 0 else -line.quantity),
            "BT-130": PIECE,
            "BT-131": amount(line.net_cents, sign),
            "BT-146": amount(abs(line.unit_price_cents)),
            "BT-151": category(line.tax_rate_bp),
            "BT-152": rate_percent(line.tax_rate_bp),
            "BT-153": line.description[:300],
        }
        for index, line in enumerate(invoice.lines, start=1)
    ]


def payment(invoice):
    """BT-81..86: a SEPA transfer to the office's account, the number as the remittance information."""
    if not invoice.office.iban:
        return {}
    bic = {"BT-86": invoice.office.bic} if invoice.office.bic else {}
    return {"BT-81": SEPA_CREDIT_TRANSFER, "BT-83": invoice.number, "BT-84": invoice.office.iban, **bic}


def preceding(invoice):
    if not invoice.credits_number:
        return {}
    issued = {"BT-26": invoice.credits_issued_on} if invoice.credits_issued_on else {}
    return {"BG-3": [{"BT-25": invoice.credits_number, **issued}]}


def terms(invoice):
    """EN 16931's business terms of the invoice. A credit note's amounts are written positive, whichever sign the
    record gives them: its type code says which way the money goes."""
    sign = -1 if invoice.gross_cents < 0 else 1
    dates = {"BT-9": invoice.due_date} if invoice.due_date else {}
    delivered = {"BT-72": invoice.service_date} if invoice.service_date else {}
    notes = {"BG-1": [{"BT-22": invoice.notes}]} if invoice.notes else {}
    return {
        "BT-1": invoice.number,
        "BT-2": invoice.issued_on,
        "BT-3": TYPE_CODES.get(invoice.kind, INVOICE),
        "BT-5": invoice.currency,
        "BT-24": LEVEL2BT_24[LEVEL],
        **dates,
        **delivered,
        **notes,
        **preceding(invoice),
        **payment(invoice),
        "BG-4": seller(invoice.office),
        "BG-7": buyer(invoice),
        "BG-23": breakdown(invoice, sign),
        "BG-25": lines(invoice, sign),
        "BT-106": amount(invoice.net_cents, sign),
        "BT-109": amount(invoice.net_cents, sign),
        "BT-110": amount(invoice.tax_cents, sign),
        "BT-112": amount(invoice.gross_cents, sign),
        "BT-113": amount(invoice.paid_cents, sign),
        "BT-115": amount(invoice.open_cents, sign),
    }


def xml_of(invoice):
    """The invoice's Factur-X XML (UTF-8 bytes), checked against the EN 16931 schema (raises if it fails, and
    ValueError if the office lacks what `Invoice.e_invoice_gaps` names)."""
    if missing := invoice.e_invoice_gaps:
        raise ValueError(f"an e-invoice needs the office's {' and '.join(missing)}")
    return generate_cii_xml(terms(invoice), level=LEVEL, check_xsd=True, check_schematron=False)


def embedded(pdf, xml, invoice, title, language):
    """`pdf` (PDF/A-3b bytes) with `xml` (the invoice's, from `xml_of`) inside as `factur-x.xml` and the XMP metadata
    declaring it."""
    metadata = {"author": invoice.office.name, "title": title, "subject": title, "keywords": "Factur-X, Invoice"}
    return facturx.generate_from_binary(
        pdf, xml, flavor="factur-x", level=LEVEL, check_xsd=False, pdf_metadata=metadata, lang=language
    )
