"""SPEC §15's documents as A4 PDF/A-3b files, made from plain data (`documents.data`): a quote, a contract (with its
audit page once signed) and an invoice or credit note (with the EPC QR code and, when asked, its Factur-X XML).
No Flask and no models: the caller reads the records and the office, and stores the bytes it is given.
WeasyPrint and the rest are loaded on the first document, not on import: they cost a process 50 MB and a second or
two, which a server that makes no document that day need not pay.

    from documents import Invoice, Letterhead, Line, Party, RateTotal, invoice_pdf
    pdf = invoice_pdf(Invoice(office=Letterhead(name="The Band"), client=Party(name="Anna"), ...))
"""

from .data import Contract, Invoice, Letterhead, Line, Party, Quote, RateTotal, Signature, text_sha256

__all__ = [
    "Contract",
    "Invoice",
    "Letterhead",
    "Line",
    "Party",
    "Quote",
    "RateTotal",
    "Signature",
    "contract_pdf",
    "invoice_pdf",
    "load",
    "quote_pdf",
    "text_sha256",
]


def load():
    """WeasyPrint and the rest loaded, and the fonts and style made, now: for a caller about to make documents while
    it holds what others wait for (the worker, in a write transaction), which the first document would hold a second
    or two longer."""
    from . import pdfs

    pdfs.style()


def quote_pdf(quote):
    """A quote (`Quote`) as PDF bytes."""
    from . import pdfs

    return pdfs.quote_pdf(quote)


def contract_pdf(contract):
    """A contract (`Contract`) as PDF bytes; once signed, its last page is the signature record."""
    from . import pdfs

    return pdfs.contract_pdf(contract)


def invoice_pdf(invoice):
    """An invoice or credit note (`Invoice`) as PDF bytes: bank details and the EPC QR code while an amount is open;
    for an issued one to a company or with `e_invoice`, its Factur-X XML inside (ValueError when the office lacks what
    that needs: `invoice.e_invoice_gaps` names it first)."""
    from . import pdfs

    return pdfs.invoice_pdf(invoice)
