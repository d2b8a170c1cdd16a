"""The service's PDFs read back as a person reads them: their text, and the QR codes printed on them."""

import io

import zxingcpp
from pypdf import PdfReader


def pdf_text(data):
    """The text of every page of the PDF `data`, a page a block."""
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)


def qr_codes(data):
    """What the QR codes drawn on the PDF `data`'s pages say."""
    return [
        code.text
        for page in PdfReader(io.BytesIO(data)).pages
        for image in page.images
        for code in zxingcpp.read_barcodes(image.image, formats=zxingcpp.BarcodeFormat.QRCode)
    ]
