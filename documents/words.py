"""What a document says, in its language: a client's words (formats/client_words.py, `Words(language)`), and the
heading of each kind of document."""

from formats.client_words import N_
from formats.client_words import ClientWords as Words

HEADINGS = {
    "quote": N_("Quote"),
    "contract": N_("Contract"),
    "deposit": N_("Deposit invoice"),
    "balance": N_("Balance invoice"),
    "final": N_("Invoice"),
    "credit_note": N_("Credit note"),
}
DRAFT = N_("DRAFT")

__all__ = ["DRAFT", "HEADINGS", "Words"]
