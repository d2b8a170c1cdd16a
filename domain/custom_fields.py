"""Custom fields (SPEC §4.7): values checked against their definitions, filter columns, and the uses of a
definition that keep it from being deleted or narrowed."""

import datetime as dt
import math

from dialects import dialect
from domain.errors import invalid
from formats.field_types import DATE_RE, TEXT_CHARS
from listing import Column
from models import CustomField

KINDS = {"text": "str", "number": "number", "boolean": "bool", "date": "date", "select": "enum"}


def definitions(resource):
    """{key: CustomField} for the table name `resource` (gigs, venues, ...)."""
    return {d.key: d for d in CustomField.select().where(CustomField.resource == resource)}


def merged(resource, current, changes, creating):
    """The record's custom fields after `changes`: checked against the definitions, or 422 naming each key.

    On create every required key must be present; on patch the object merges into the stored one and a
    null value removes its key.
    """
    defined = definitions(resource)
    values = dict(current or {})
    errors = {}
    for key, value in changes.items():
        problem = _problem(defined.get(key), value)
        if problem:
            errors[f"custom_fields.{key}"] = [problem]
        elif value is None:
            values.pop(key, None)
        else:
            values[key] = value
    for key, definition in defined.items():
        if definition.required and key not in values and (creating or key in changes):
            errors[f"custom_fields.{key}"] = ["Missing data for required field."]
    if errors:
        raise invalid(errors)
    return values


def _problem(definition, value):
    if definition is None:
        return "Unknown custom field."
    if value is None:
        return None
    kind = definition.field_type
    if kind == "text" and not isinstance(value, str):
        return "Not a valid string."
    if kind == "text" and len(value) > TEXT_CHARS:
        return f"Longer than {TEXT_CHARS} characters."
    if kind == "number" and (
        isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value)
    ):
        return "Not a valid number."
    if kind == "boolean" and not isinstance(value, bool):
        return "Not a valid boolean."
    if kind == "date" and not _is_date(value):
        return "Not a valid date (YYYY-MM-DD)."
    if kind == "select" and value not in (definition.options or []):
        return f"Must be one of: {', '.join(definition.options or [])}."
    return None


def _is_date(value):
    if not isinstance(value, str) or not DATE_RE.fullmatch(value):
        return False
    try:
        dt.date.fromisoformat(value)
    except ValueError:
        return False
    return True


def column(model, name):
    """The list column for `custom_fields.KEY` on `model`, or None when no such definition exists."""
    prefix, _, key = name.partition(".")
    if prefix != "custom_fields" or not key:
        return None
    definition = CustomField.get_or_none(resource=model._meta.table_name, key=key)
    if definition is None:
        return None
    expr = dialect.json_field(model.custom_fields, key)
    return Column(name, expr, KINDS[definition.field_type], tuple(definition.options or ()))


def records_with_value(model, key):
    """How many records of `model` hold a value for `key`."""
    return model.select().where(dialect.json_has(model.custom_fields, key)).count()


def values_outside(model, key, options):
    """The values of `key` in use on `model` that are not among `options`."""
    value = dialect.json_field(model.custom_fields, key)
    query = model.select(value.alias("value")).where(value.is_null(False) & value.not_in(options)).distinct()
    return sorted(row[0] for row in query.tuples())
