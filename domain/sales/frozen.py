"""A sent or issued document's PDF, made once and kept (SPEC §15): `freeze_pdf` makes it in the transaction that sends,
issues or signs the document (after its number, status and dates are set) and stores its bytes with their sha256;
`pdf_of` serves those bytes forever, whatever `/office` says later, and a draft's made on request (it says DRAFT).
A signed contract is frozen again at signing, with its audit page: the signed copy is the one kept."""

import dataclasses
import hashlib
from typing import NamedTuple

import documents
from domain.errors import conflict
from domain.sales import printing
from models import FrozenDocument, now

# Each kind: how its record is printed and made into PDF bytes.
KINDS = {
    "quote": (printing.quote, documents.quote_pdf),
    "contract": (printing.contract, documents.contract_pdf),
    "invoice": (printing.invoice, documents.invoice_pdf),
}


class Pdf(NamedTuple):
    data: bytes
    sha256: str
    frozen: bool  # kept (sent or issued), or a draft made for this request


def freeze_pdf(kind, record):
    """Make the PDF of `record` (a Quote, Contract or Invoice: "quote" | "contract" | "invoice") as it stands now and
    keep it, replacing what was kept (a contract signed after it was sent), in the transaction under way. An invoice
    whose Factur-X XML the office cannot make is refused (409 `e_invoice_incomplete`), which undoes the issue."""
    made = render(kind, record)
    FrozenDocument.delete().where(_of(kind, record.id)).execute()
    FrozenDocument.create(kind=kind, record_id=record.id, sha256=made.sha256, frozen_at=now(), data=made.data)
    return made._replace(frozen=True)


def pdf_of(kind, record):
    """The PDF served of `record`: the bytes kept when it was sent or issued, else (a draft) made now."""
    kept = FrozenDocument.get_or_none(_of(kind, record.id))
    if kept is not None:
        return Pdf(bytes(kept.data), kept.sha256, True)
    return render(kind, record)


def _of(kind, record_id):
    return (FrozenDocument.kind == kind) & (FrozenDocument.record_id == record_id)


def render(kind, record):
    read, make = KINDS[kind]
    printed = read(record)
    if kind == "invoice" and printed.carries_xml and printed.e_invoice_gaps:
        raise incomplete(printed.e_invoice_gaps)
    data = make(printed)
    return Pdf(data, hashlib.sha256(data).hexdigest(), False)


def e_invoice_gaps(invoice):
    """What `/office` lacks for the Factur-X XML the invoice `invoice` (an Invoice) would carry once issued: [] when
    nothing (or when it carries none)."""
    printed = dataclasses.replace(printing.invoice(invoice), number=invoice.number or "issued")
    return printed.e_invoice_gaps if printed.carries_xml else []


def issuable(invoice):
    """Refuse to issue `invoice` before it takes a number when `/office` lacks what its Factur-X XML needs."""
    if gaps := e_invoice_gaps(invoice):
        raise incomplete(gaps)


def incomplete(gaps):
    message = f"The office lacks what an e-invoice needs: set {' and '.join(gaps)} in /office first."
    return conflict("e_invoice_incomplete", message, lacking=gaps)
