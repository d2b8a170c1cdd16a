"""Money in (SPEC §15): quotes, contracts and invoices for the couple, and the payments that settle them. No Flask:
`money.py` reckons a document's totals from its lines; `records.py` holds the rules that span records (what changes
in which status, what a payment may be, what payments make of their invoice, which invoices are overdue);
`contract_text.py` checks and writes a contract template's text, `contract_values.py` its merge fields' values in the
client's language; `numbers.py` gives the documents their gapless numbers; `quoting.py` and `contracting.py` are a
quote's and a contract's way from draft to sent, answered, signed or void."""
