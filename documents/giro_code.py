"""An invoice's EPC QR code, the "GiroCode" of the European Payments Council (SPEC §15): a banking app scans it and
fills in the transfer (the office's name, IBAN and BIC, the amount due, the invoice's number as the remittance
text). Made by segno's EPC helper; drawn as a PNG, so that the page shows it at any zoom and a reader can take it
back out of the PDF."""

import base64
import io
from decimal import Decimal

import segno.helpers


def payable(invoice):
    """Whether the invoice gets a code: the EPC code carries euros only, to an IBAN, a positive amount, and a
    number to refer to."""
    return bool(invoice.office.iban) and invoice.currency == "EUR" and invoice.open_cents > 0 and not invoice.draft


def transfer(invoice):
    """What the code asks a banking app to transfer: to whom, how much, with which remittance text."""
    return {
        "name": invoice.office.name[:70],
        "iban": invoice.office.iban,
        "bic": invoice.office.bic or None,
        "amount": Decimal(invoice.open_cents).scaleb(-2),
        "text": invoice.number,
    }


def giro_code(invoice):
    """The invoice's EPC QR code (segno's `QRCode`)."""
    return segno.helpers.make_epc_qr(**transfer(invoice))


# EPC069-12's character sets, by their number on the code's third line
EPC_ENCODINGS = (
    "utf-8",
    "iso-8859-1",
    "iso-8859-2",
    "iso-8859-4",
    "iso-8859-5",
    "iso-8859-7",
    "iso-8859-10",
    "iso-8859-15",
)


def payload(invoice):
    """The code's text (EPC069-12: `BCD`, its version, character set, the BIC, name, IBAN, `EUR<amount>`, the
    remittance text), as segno's helper writes it into the code: its own function, which it keeps private (the
    version is pinned in requirements.txt)."""
    data = segno.helpers._make_epc_qr_data(**transfer(invoice))
    return data.decode(EPC_ENCODINGS[int(data.split(b"\n")[2]) - 1])


def png_data_uri(invoice):
    """The code as a `data:` URI of a PNG, black on white (no transparency, for PDF/A), 4 pixels a module."""
    out = io.BytesIO()
    giro_code(invoice).save(out, kind="png", scale=4, border=4, dark="black", light="white")
    return "data:image/png;base64," + base64.b64encode(out.getvalue()).decode("ascii")


def svg_text(invoice):
    """The code as SVG markup, black on white, sized by its viewBox alone, for a page to draw at the size it likes
    (the client's page, SPEC §16)."""
    out = io.BytesIO()
    giro_code(invoice).save(out, kind="svg", border=4, dark="black", light="white", xmldecl=False, omitsize=True)
    return out.getvalue().decode()
