"""The office's bank details on its invoices (SPEC §15): an IBAN checked as ISO 13616 says (its country, that
country's length and form, the mod-97 check digits) and a BIC's shape (ISO 9362), both stored compact and upper
case. The registry of the countries' IBAN forms is python-stdnum's."""

import re

from marshmallow import ValidationError
from stdnum import bic, iban, numdb
from stdnum.exceptions import InvalidChecksum, InvalidComponent, InvalidLength
from stdnum.exceptions import ValidationError as NumberError

from formats.field_types import Str

IBAN_FORMS = numdb.get("iban")  # a country's BBAN form, as '8!n10!n': 8 digits, then 10 digits
IBAN_SHAPE = re.compile(r"[A-Z]{2}[0-9]{2}[A-Z0-9]+")


def checked_iban(value):
    """`value` (spaces allowed, any case) as the compact IBAN it is, or a ValidationError saying what is wrong."""
    number = iban.compact(value)
    if not IBAN_SHAPE.fullmatch(number):
        raise ValidationError(
            "Not an IBAN: two letters of the country, two check digits, then the account in letters and digits."
        )
    country = IBAN_FORMS.info(number)[0][1]
    if not country:
        raise ValidationError(f"{number[:2]} is not the code of a country with IBANs.")
    length = 4 + sum(int(count) for count in re.findall(r"(\d+)!?[nac]", country["bban"]))
    if len(number) != length:
        raise ValidationError(f"An IBAN of {country['country']} has {length} characters; this one has {len(number)}.")
    try:
        iban.validate(number)
    except InvalidChecksum:
        raise ValidationError("The check digits do not match the rest: a character is mistyped.") from None
    except NumberError:
        raise ValidationError(f"Not an IBAN of {country['country']}: its account part has the wrong form.") from None
    return number


def checked_bic(value):
    """`value` as the compact BIC it is (8 or 11 characters), or a ValidationError."""
    code = bic.compact(value)
    try:
        return bic.validate(code)
    except InvalidLength:
        raise ValidationError(f"A BIC has 8 or 11 characters; this one has {len(code)}.") from None
    except InvalidComponent:
        raise ValidationError(f"Not a BIC: {code[4:6]} is not the code of a country.") from None
    except NumberError:
        raise ValidationError(
            "Not a BIC: 4 letters of the bank, 2 of its country, 2 letters or digits of its place, 3 of a branch."
        ) from None


class Iban(Str):
    """An IBAN, stored compact and upper case."""

    def __init__(self, **kwargs):
        super().__init__(
            50, metadata={"example": "DE89 3704 0044 0532 0130 00", **kwargs.pop("metadata", {})}, **kwargs
        )

    def _deserialize(self, value, attr, data, **kwargs):
        return checked_iban(super()._deserialize(value, attr, data, **kwargs))


class Bic(Str):
    """A BIC (SWIFT code), stored compact and upper case."""

    def __init__(self, **kwargs):
        super().__init__(20, metadata={"example": "DEUTDEFF", **kwargs.pop("metadata", {})}, **kwargs)

    def _deserialize(self, value, attr, data, **kwargs):
        return checked_bic(super()._deserialize(value, attr, data, **kwargs))
