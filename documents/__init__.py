"""SPEC §15's documents as A4 PDF/A-3b files, made from plain data (`documents.data`): a quote, a contract (with its
audit page once signed) and an invoice or credit note (with the EPC QR code and, when asked, its Factur-X XML).
No Flask and no models: the caller reads the records and the office, and stores the bytes it is given.

    from documents import Invoice, Letterhead, Line, Party, RateTotal, invoice_pdf
    pdf = invoice_pdf(Invoice(office=Letterhead(name="The Band"), client=Party(name="Anna"), ...))
"""

from .data import Contract, Invoice, Letterhead, Line, Party, Quote, RateTotal, Signature, text_sha256
from .pdfs import contract_pdf, invoice_pdf, quote_pdf

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
    "quote_pdf",
    "text_sha256",
]
