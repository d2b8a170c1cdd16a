"""The documents a notification's mail carries (SPEC §16: a contract's signed copy, mailed to the client and the
office), named by the notification's topic and read when the mail goes out, as kept (domain/sales/frozen.py)."""

from domain.sales import frozen
from models import Contract

SIGNED_COPY = "signed-copy:"


def signed_copy(contract_id):
    """The topic of a mail that carries the contract's signed copy."""
    return SIGNED_COPY + contract_id


def of(row):
    """((file name, PDF bytes), …) that the mail of the notification `row` carries."""
    if not (row.topic or "").startswith(SIGNED_COPY):
        return ()
    contract = Contract.get_or_none(Contract.id == row.topic.removeprefix(SIGNED_COPY))
    if contract is None:
        return ()
    return ((f"{contract.number or 'contract'}.pdf", frozen.pdf_of("contract", contract).data),)
