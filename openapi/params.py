"""The parameters of the OpenAPI document: path ids, and a list's paging, sort, fields and typed filters from
its columns (SPEC §2.1), as the `listing` package reads them."""

import json
import re

from formats.field_types import MAX_INT, TIME_PATTERN
from listing import (
    MAX_FILTER_CHARS,
    MAX_IN_VALUES,
    MAX_LIMIT,
    MAX_UNINDEXED_SORT,
    MAX_WALK,
    MAX_WORDS,
    MIN_WORD,
    operators_of,
)


def path_param(name):
    """An id in a path is a UUID; any other part (a feed's token, a device's push token) a string."""
    is_id = name == "id" or name.endswith("_id")
    schema = {"type": "string", "format": "uuid"} if is_id else {"type": "string", "minLength": 1}
    return {"name": name, "in": "path", "required": True, "schema": schema}


def query_param(name, schema, description="", required=False):
    param = {"name": name, "in": "query", "required": required, "schema": schema}
    if description:
        param["description"] = description
    if schema.get("type") == "array":
        param.update(style="form", explode=True)  # the parameter repeated, once for each value
    return param


def flag_params(flags):
    """The boolean query parameters `flags` (a resource's write or list flags)."""
    return [query_param(flag.name, {"type": "boolean"}, flag.description) for flag in flags]


def paging_params(offset_description=None):
    return [
        query_param("limit", {"type": "integer", "minimum": 1, "maximum": MAX_LIMIT, "default": 50}),
        query_param(
            "offset", {"type": "integer", "minimum": 0, "maximum": MAX_INT, "default": 0}, offset_description or ""
        ),
    ]


OFFSET_BOUND = (  # the lists' rules at length: the document's description (openapi/builder.py)
    f"Rows to skip. Ordered through a reference, a page lies at most {MAX_WALK} rows from an end (farther: 400 "
    "`invalid_query`; narrow the list or sort it the other way)."
)


def fields_param(columns, references=None):
    names = "|".join(re.escape(name) for name in columns)
    pattern = f"^({names})(,({names}))*$"
    description = "Comma list of the fields to return (`id` always comes)."
    if references:
        # the pattern cannot say that a reference is named only beside `expand`: the description does
        description += " It may name a reference `expand` embeds (`expand=venue&fields=title,venue`)."
    return query_param("fields", {"type": "string", "pattern": pattern}, description)


def sort_param(columns):
    names = "|".join(re.escape(name) for name, column in columns.items() if column.sortable)
    pattern = f"^-?({names})(,-?({names}))*$"
    description = "Comma list of fields; `-` before a field sorts descending."
    unindexed = [name for name, column in columns.items() if column.sortable and column.unindexed]
    if unindexed:
        description += (
            f" Through a reference, no index serves {', '.join(unindexed)}: a sort whose first key is one of them "
            f"orders a list of at most {MAX_UNINDEXED_SORT} rows (400 `invalid_query` at `sort` beyond; narrow the "
            "list with a filter)."
        )
    return query_param("sort", {"type": "string", "pattern": pattern}, description)


NO_NUL = "^[^\\u0000]+$"  # no text holds U+0000 (SPEC §2.3): a filter value with it is 400

# A filter's value as the query string carries it: text, whose pattern or format says what the field's kind
# reads (SPEC §2.1: ASCII digits, `true`/`false`). Text, not an integer or a boolean: inside the `filter` object
# nothing would tell a fuzzer that the text `"5"` reaches the service as the same `5`.
KIND_SCHEMAS = {
    "id": {"type": "string", "format": "uuid"},
    "ref": {"type": "string", "format": "uuid"},
    "str": {"type": "string", "minLength": 1, "maxLength": MAX_FILTER_CHARS, "pattern": NO_NUL},
    "enum": {"type": "string"},
    "int": {"type": "string", "pattern": "^-?[0-9]{1,15}$"},  # within the service's ±(2**53 - 1)
    "number": {"type": "string", "pattern": "^-?[0-9]{1,16}([.][0-9]{1,16})?$"},
    "date": {"type": "string", "format": "date"},
    "time": {"type": "string", "pattern": TIME_PATTERN},
    "timestamp": {"type": "string", "format": "date-time"},
    "bool": {"type": "string", "enum": ["true", "false"]},
}


def list_params(columns, references=None, searched=()):
    """A list's parameters; with the collection's `references` {name: listing.Reference} also `expand` and the
    filters and sorts through them, with the fields `q` searches (`searched`) also `q`."""
    followed = {
        f"{reference.name}.{name}": reference.through(name)
        for reference in (references or {}).values()
        for name in reference.followable()
    }
    params = [*paging_params(OFFSET_BOUND), sort_param({**columns, **followed}), fields_param(columns, references)]
    if references:
        params.append(expand_param(references))
    if searched:
        params.append(search_param(searched))
    params.append(filter_param([*columns.values(), *followed.values()]))
    return params


FILTER_DESCRIPTION = (
    "Each key, `filter[<field>][<op>]` or `filter[<reference>.<field>][<op>]`, is a query parameter of its own (form "
    "style, exploded); its pattern gives the value; `in`/`nin` take one value or a list."
)


def filter_param(columns):
    """Every filter of a list as one object parameter: a key is `filter[<field>][<op>]`, and the value schema
    of each (field, operator) pair comes from the pattern of its group (the fields whose operators share a value
    schema). One parameter instead of one per filter keeps a generated client's functions small (SPEC §1)."""
    groups = {}  # value schema as JSON -> {field: [operators]}
    for column in columns:
        for operator in operators_of(column):
            schema = json.dumps(filter_schema(column, operator), sort_keys=True)
            groups.setdefault(schema, {}).setdefault(column.name, []).append(operator)
    properties = {}
    for schema, operators_by_field in groups.items():
        fields_of = {}  # the operators -> the fields that take them with this value schema
        for name, operators in operators_by_field.items():
            fields_of.setdefault(tuple(operators), []).append(name)
        for operators, names in fields_of.items():
            properties[filter_pattern(names, operators)] = json.loads(schema)
    # The list's own keys beside a reference to the one `Filters` object (OpenAPI 3.1 applies both): a generator
    # that reads only the reference, as openapi-python-client does, makes one filter type for every list rather
    # than one each, and the keys a pattern allows are not properties it could type anyway. A key no pattern
    # matches is no filter of this list (`additionalProperties`: the patterns are written once).
    schema = {"$ref": "#/components/schemas/Filters", "patternProperties": properties, "additionalProperties": False}
    param = query_param("filter", schema, FILTER_DESCRIPTION)
    param.update(style="form", explode=True)  # each key its own parameter
    return param


FILTERS = {
    "type": "object",
    "description": "A list's filters by the query parameter each is sent as, `filter[<field>][<op>]`; "
    "the list's `filter` parameter gives the keys it takes and the value of each.",
}


def filter_pattern(names, operators):
    fields = "|".join(re.escape(name) for name in names)
    return rf"^filter\[({fields})\]\[({'|'.join(operators)})\]$"


def record_params(columns, references):
    """A single read's parameters: `fields`, and `expand` where the record references others."""
    return [fields_param(columns, references), *([expand_param(references)] if references else [])]


def expand_param(references):
    names = "|".join(re.escape(name) for name in references)
    description = "References to embed as `<name>` beside `<name>_id`, one level; each needs its collection's view."
    return query_param("expand", {"type": "string", "pattern": f"^({names})(,({names}))*$"}, description)


def search_param(searched):
    description = (
        f"Words separated by spaces (each at least {MIN_WORD} characters, at most {MAX_WORDS} words), all of which "
        f"must begin a word of {', '.join(searched)}; case and accents aside."
    )
    word = f"[^ \\u0000]{{{MIN_WORD},}}"
    pattern = f"^ *{word}( +{word}){{0,{MAX_WORDS - 1}}} *$"
    return query_param("q", {"type": "string", "maxLength": MAX_FILTER_CHARS, "pattern": pattern}, description)


def filter_schema(column, operator):
    """The value of `filter[column][operator]`; for `in` and `nin` one value or the list of them (the parameter
    repeated, which generated clients send)."""
    if operator == "is_null":
        return dict(KIND_SCHEMAS["bool"])
    value = dict(KIND_SCHEMAS[column.kind])
    if column.choices:
        value["enum"] = list(column.choices)
    if operator in ("in", "nin"):
        if value.get("pattern", NO_NUL) == NO_NUL and "format" not in value and "enum" not in value:
            value["pattern"] = "^[^,\\u0000]+$"  # the service reads a comma as between two values
        listed = {"type": "array", "items": value, "minItems": 1, "maxItems": MAX_IN_VALUES}
        return {"anyOf": [value, listed]}
    return value
