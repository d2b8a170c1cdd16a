"""The three documents as PDF/A-3b bytes: HTML from the Jinja2 templates of `templates/` (autoescaped: a client's
name is text whatever it holds), laid out by WeasyPrint with `templates/document.css`. Nothing outside the
document is fetched: the logo and the QR code are `data:` URIs, and any other address is refused."""

import base64
import functools
import threading
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined
from weasyprint import CSS, HTML, URLFetcher
from weasyprint.text.fonts import FontConfiguration

from . import e_invoice, giro_code
from .words import DRAFT, HEADINGS, Words

TEMPLATES = Path(__file__).resolve().parent / "templates"
ENVIRONMENT = Environment(
    loader=FileSystemLoader(TEMPLATES), autoescape=True, undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True
)
PDF_VARIANT = "pdf/a-3b"
# The fonts' configuration (Pango's font map) is made once and shared: made for each document (WeasyPrint's default),
# loading the system's fonts took a third of a render's time and left 0.3 MB behind each time. One render at a time:
# WeasyPrint does not say that a shared font map may serve two at once, and two would need twice the memory.
TURN = threading.Lock()


@functools.cache
def style():
    return CSS(filename=str(TEMPLATES / "document.css"), font_config=fonts())


@functools.cache
def fonts():
    return FontConfiguration()


def data_uri(image):
    kind = "image/png" if image.startswith(b"\x89PNG") else "image/svg+xml"
    return f"data:{kind};base64,{base64.b64encode(image).decode('ascii')}"


def grouped(iban):
    return " ".join(iban[start : start + 4] for start in range(0, len(iban), 4))


def render(template, document, heading, words, **context):
    """The PDF of `document` through `template`; `heading` is its title ("Invoice", "Quote", …)."""
    office = document.office
    title = f"{heading} {document.number}" if document.number else f"{heading} ({words(DRAFT)})"
    html = ENVIRONMENT.get_template(template).render(
        w=words,
        _=words,
        document=document,
        office=office,
        client=document.client,
        draft=document.draft,
        heading=heading,
        title=title,
        logo=data_uri(office.logo) if office.logo else None,
        **context,
    )
    fetcher = URLFetcher(allowed_protocols={"data"})
    with TURN:
        laid_out = HTML(string=html, url_fetcher=fetcher)
        return laid_out.write_pdf(stylesheets=[style()], font_config=fonts(), pdf_variant=PDF_VARIANT), title


def quote_pdf(quote):
    """A quote (`documents.Quote`) as PDF bytes."""
    words = Words(quote.language)
    return render("quote.html", quote, words(HEADINGS["quote"]), words, footer_text="")[0]


def contract_pdf(contract):
    """A contract (`documents.Contract`) as PDF bytes; once signed, its last page is the signature record."""
    words = Words(contract.language)
    drawn = contract.signature and contract.signature.drawing
    drawing = data_uri(drawn.encode()) if drawn else None
    return render("contract.html", contract, words(HEADINGS["contract"]), words, footer_text="", drawing=drawing)[0]


def invoice_pdf(invoice):
    """An invoice or credit note (`documents.Invoice`) as PDF bytes: the bank details and the EPC QR code while an
    amount is open, and, for an issued one to a company or with `e_invoice`, its Factur-X XML inside."""
    words = Words(invoice.language)
    xml = e_invoice.xml_of(invoice) if invoice.carries_xml else None
    code = giro_code.png_data_uri(invoice) if giro_code.payable(invoice) else None
    pdf, title = render(
        "invoice.html",
        invoice,
        words(HEADINGS[invoice.kind]),
        words,
        footer_text=invoice.office.invoice_footer,
        giro_code=code,
        iban=grouped(invoice.office.iban),
    )
    return e_invoice.embedded(pdf, xml, invoice, title, words.tag) if xml else pdf
