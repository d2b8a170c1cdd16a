"""The shapes of the OpenAPI document's schemas: envelopes (one record, many, a page with meta), downloads,
and the rewriting of apispec's output that generated clients need (every answered field required, enums and
custom fields as shared components, nullability beside an enum rather than inside it)."""

from listing import MAX_LIMIT


def ref(name):
    return {"$ref": f"#/components/schemas/{name}"}


def walk(node):
    """Every dict inside a JSON value."""
    if isinstance(node, dict):
        yield node
        for value in list(node.values()):
            yield from walk(value)
    elif isinstance(node, list):
        for value in node:
            yield from walk(value)


def require_all(schema):
    """Mark every property required, in the objects nested inline too: the service always answers with each."""
    if "properties" in schema:
        schema["required"] = list(schema["properties"])
    for value in schema.get("properties", {}).values():
        require_all(value.get("items", value))


def null_apart(node):
    """An enum with null in it, `{type: [string, null], enum: [a, b, null]}`, as `anyOf: [{type: string, enum:
    [a, b]}, {type: null}]`: generated clients then make one enum type of the values and allow None beside it."""
    node["anyOf"] = [enum_of(node), {"type": "null"}]
    del node["type"], node["enum"]


def enum_of(node):
    """The enum of a schema without null: `{type: string, enum: [a, b]}`."""
    types = [t for t in ([node["type"]] if isinstance(node["type"], str) else node["type"]) if t != "null"]
    return {"type": types[0] if len(types) == 1 else types, "enum": [v for v in node["enum"] if v is not None]}


def share_enums(schemas, name, record):
    """The enum properties of component `name` as components `<record><Property>` (GigSongKind), one for the
    record and its create, patch and partial forms: a generated client makes one enum type of each."""
    for key, node in schemas[name].get("properties", {}).items():
        if "enum" not in node:
            continue
        enum_name = record + key.title().replace("_", "")
        if schemas.setdefault(enum_name, enum_of(node)) != enum_of(node):
            continue  # the name is taken by another component, or the values differ: left inline
        nullable = None in node["enum"]
        del node["type"], node["enum"]
        node.update({"anyOf": [ref(enum_name), {"type": "null"}]} if nullable else ref(enum_name))


BINARY = {"type": "string", "format": "binary"}


def download_content(media_types):
    """Text as a string, anything else as bytes. Bytes of any other type (`*/*`: an attachment keeps the type it was
    uploaded with; `application/pdf`) come after application/octet-stream, the type generated clients know bytes by."""
    content = {}
    for media_type in media_types:
        if not media_type.startswith("text/") and media_type != "application/octet-stream":
            content["application/octet-stream"] = {"schema": BINARY}
        content[media_type] = {"schema": {"type": "string"} if media_type.startswith("text/") else BINARY}
    return content


def upload_content(upload):
    """A multipart/form-data body, its parts as `resources.parameters.Multipart` declares them."""
    return {"multipart/form-data": {"schema": upload.schema()}}


def json_content(schema):
    return {"application/json": {"schema": schema}}


# The envelopes of an answer, each a component of its own per record (`GigAnswer`, `GigList`, `GigPage`): written
# inline, every operation would make a generated client write one more model of the same envelope.
def one(schema):
    """`{data: record}`"""
    return {"type": "object", "required": ["data"], "properties": {"data": schema}, "additionalProperties": False}


def many_of(schema):
    """`{data: [record, ...]}`"""
    items = {"type": "array", "items": schema}
    return {"type": "object", "required": ["data"], "properties": {"data": items}, "additionalProperties": False}


def list_of(schema):
    """`{data: [record, ...], meta}`: a page of a list."""
    return {
        "type": "object",
        "required": ["data", "meta"],
        "additionalProperties": False,
        "properties": {"data": {"type": "array", "items": schema}, "meta": ref("Meta")},
    }


ENVELOPES = {one: "Answer", many_of: "List", list_of: "Page"}  # the suffix of each envelope's component name

META = {
    "type": "object",
    "required": ["total", "limit", "offset"],
    "properties": {
        "total": {"type": "integer", "minimum": 0, "description": "how many records match, on every page"},
        "limit": {"type": "integer", "minimum": 1, "maximum": MAX_LIMIT},
        "offset": {"type": "integer", "minimum": 0},
        "total_cents": {"type": "integer", "description": "pay sheets: the sum over every line"},
        "currency": {
            "type": "string",
            "description": "pay sheets and a gig role's candidates: their amounts' ISO 4217 currency (the office's)",
        },
    },
}

# The answers' custom fields (field_types.CustomFields) as one component, `CustomFields`, which the document's
# every custom_fields property refers to; the converter marks them (`CUSTOM_FIELDS_MARK`) and `share_custom_fields`
# puts the reference in their place.
CUSTOM_FIELDS_MARK = "x-custom-fields"
CUSTOM_FIELDS = {
    "type": "object",
    "additionalProperties": {},
    "description": "The values of the custom fields defined for the record's collection, by key.",
}


def share_custom_fields(document):
    for node in walk(document):
        for key, value in node.get("properties", {}).items():
            if isinstance(value, dict) and value.pop(CUSTOM_FIELDS_MARK, False):
                read_only = {"readOnly": True} if value.get("readOnly") else {}
                node["properties"][key] = {**ref("CustomFields"), **read_only}
