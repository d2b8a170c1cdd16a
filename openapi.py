"""The OpenAPI 3.1 document, generated with apispec from the same schemas and resource registry that serve
the requests. Every rule of the URL map under /v1 is described: a resource's views from its declaration,
every other view from the `@operation` beside it."""

import re

from apispec import APISpec
from apispec.ext.marshmallow import MarshmallowPlugin
from marshmallow import Schema, fields

from errors import CODES
from fields import MAX_INT, TIME_PATTERN
from listing import MAX_IN_VALUES, MAX_LIMIT, OPERATORS

VERSION = "1.0.0"
DESCRIPTION = """The JSON API of Band Office, the office of a wedding band: gigs, the products sold on them,
the ensembles and staff that play them, their equipment and their pay.

Every path is relative to `/v1`. Send `Authorization: Bearer <token>` (a session token from
`POST /auth/confirm` or an API key from `POST /api-keys`) everywhere but the operations marked as needing
none. Reading needs the `<group>.view` capability of the resource's group (the tag), writing and operations
`<group>.edit`; `GET /me` shows what the caller holds.

Lists take `limit` (1..200, default 50), `offset`, `sort` (comma list, `-field` descending; `id` is always
the last key), `fields` (comma list; `id` always comes) and `filter[field][op]=value`; `filter[field]=value`
means `eq`, `ne` and `nin` also match null, `in`/`nin` take 1..100 comma-separated values. Custom fields
filter as `filter[custom_fields.KEY][op]`. Anything else is 400 `invalid_query`.

Errors are `{"error": {"code", "message", "status", "details"}}`; when several apply: unknown route
404/405, then 401, 403, the body (415, 400, 413), the record's 404, 422, 409."""

ERROR_STATUSES = {
    400: "Invalid JSON or query parameters (invalid_json, invalid_query)",
    401: "No valid bearer token (unauthenticated)",
    403: "The token's roles lack the capability (forbidden; details.required)",
    404: "No such record (not_found)",
    409: "A unique rule (already_exists), a reference (resource_in_use) or a domain rule (conflict)",
    413: "The body is over the limit (payload_too_large)",
    415: "The body is not of the expected media type (unsupported_media_type)",
    422: "Invalid fields (validation_failed; details: field -> messages)",
    429: "Too many sign-in requests (rate_limited; see Retry-After)",
}
READ = (400, 401, 403)
WRITE = (400, 401, 403, 413, 415, 422)


class ErrorDetailSchema(Schema):
    code = fields.String(required=True, metadata={"enum": sorted(CODES)})
    message = fields.String(required=True)
    status = fields.Integer(required=True)
    details = fields.Dict(metadata={"description": "what went wrong, by field or parameter, or a reason"})


class ErrorSchema(Schema):
    error = fields.Nested(ErrorDetailSchema, required=True)


def operation(
    *,
    body=None,
    response=None,
    status=200,
    errors=(),
    listing=None,
    many=False,
    media_type="application/json",
    params=(),
):
    """Describe a view that is not a generic resource view; its docstring is the summary.

    `body`/`response` are schemas; `listing` is "paged" (limit and offset) or a columns dict (the full list
    parameters) and makes the answer a list with `meta`; `many` answers `{data: [...]}` without it; `status`
    may be a tuple; `errors` are the statuses besides 401 and 403 (which views marked `public` never give).
    """

    def decorate(view):
        view.openapi = {
            "summary": " ".join((view.__doc__ or "").split()),
            "body": body,
            "response": response,
            "status": status,
            "errors": errors,
            "listing": listing,
            "many": many,
            "media_type": media_type,
            "params": params,
        }
        return view

    return decorate


def document(app):
    spec = APISpec(
        title="Band Office",
        version=VERSION,
        openapi_version="3.1.0",
        plugins=[MarshmallowPlugin(schema_name_resolver=lambda schema: None)],
        info={"description": DESCRIPTION},
        servers=[{"url": "/v1"}],
    )
    spec.components.security_scheme("bearer", {"type": "http", "scheme": "bearer"})
    spec.options["security"] = [{"bearer": []}]
    builder = Builder(spec)
    for rule in sorted(app.url_map.iter_rules(), key=lambda r: r.rule):
        if rule.rule.startswith("/v1/"):
            builder.add(rule, app.view_functions[rule.endpoint])
    return builder.finish()


class Builder:
    def __init__(self, spec):
        self.spec = spec
        self.named = {}
        self.responses = set()
        self.component("Error", ErrorSchema)

    def component(self, name, schema, required=None):
        """A $ref to the schema registered under `name`; `required` overrides the properties always present."""
        if name not in self.named:
            self.spec.components.schema(name, schema=schema)
        if required is not None:
            self.named[name] = required if name not in self.named else self.named[name] & required
        else:
            self.named.setdefault(name, None)
        return {"$ref": f"#/components/schemas/{name}"}

    def answer(self, schema_class, narrowable=False):
        """The component of a schema as the service answers with it (no load-only fields): every property is
        present, or only `id` where a `fields` parameter can narrow the answer."""
        name = schema_class.__name__.removesuffix("Schema")
        schema = schema_class(exclude=load_only(schema_class()))
        present = {"id"} & set(schema.fields) if narrowable else set(schema.fields)
        return self.component(name, schema, required=present)

    def request(self, schema_class, suffix, **modifiers):
        """The component of a request body: no read-only fields."""
        name = schema_class.__name__.removesuffix("Schema") + suffix
        exclude = (*read_only(schema_class()), *modifiers.pop("exclude", ()))
        return self.component(name, schema_class(exclude=exclude, **modifiers))

    def finish(self):
        document = self.spec.to_dict()
        for name, required in self.named.items():
            schema = document["components"]["schemas"][name]
            if required is not None:
                schema["required"] = [p for p in schema.get("properties", {}) if p in required]
                if not schema["required"]:
                    del schema["required"]
        return document

    def error(self, status):
        if status not in self.responses:
            self.responses.add(status)
            content = {"application/json": {"schema": self.component("Error", ErrorSchema)}}
            self.spec.components.response(str(status), {"description": ERROR_STATUSES[status], "content": content})
        return {"$ref": f"#/components/responses/{status}"}

    def add(self, rule, view):
        path = re.sub(r"<(?:[a-z]+:)?([a-z_]+)>", r"{\1}", rule.rule.removeprefix("/v1"))
        operations = {}
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            resource = getattr(view, "resource", None)
            if resource is not None:
                single = path.endswith("{id}")
                operation = self.resource_operation(resource, method, single)
                operation["operationId"] = f"{VERBS[method, single]}-{resource.name}"
            else:
                operation = self.custom_operation(view)
                operation["operationId"] = rule.endpoint.removeprefix("api.")
            operations[method.lower()] = operation
        params = [path_param(name) for name in re.findall(r"{([a-z_]+)}", path)]
        self.spec.path(path=path, operations=operations, parameters=params)

    # --- the generic resources ----------------------------------------------------------------------------

    def resource_operation(self, resource, method, single):
        schema_class = type(resource.schema)
        record = self.answer(schema_class, narrowable=True)
        noun = resource.noun
        if method == "GET" and not single:
            return self.op(f"List {resource.name}", resource, list_params(resource.columns), 200, list_of(record), READ)
        if method == "GET":
            return self.op(f"Read a {noun}", resource, [fields_param(resource.columns)], 200, one(record), (*READ, 404))
        if method == "DELETE":
            return self.op(f"Delete a {noun} that nothing references", resource, [], 204, None, (401, 403, 404, 409))
        if method == "POST":
            result = self.op(f"Create a {noun}", resource, write_params(resource), 201, one(record), (*WRITE, 409))
            result["responses"]["201"]["headers"] = {
                "Location": {"schema": {"type": "string"}, "description": "the new record's path"}
            }
            result["responses"]["201"]["links"] = record_links(resource)
            result["requestBody"] = self.create_body(resource)
            return result
        patch = self.request(schema_class, "Patch", partial=True, exclude=resource.schema.create_only)
        result = self.op(f"Change a {noun}", resource, write_params(resource), 200, one(record), (*WRITE, 404, 409))
        result["requestBody"] = {"required": True, "content": json_content(patch)}
        return result

    def create_body(self, resource):
        multipart = getattr(resource, "upload_schema", None)
        if multipart is not None:
            return {"required": True, "content": {"multipart/form-data": {"schema": multipart}}}
        return {"required": True, "content": json_content(self.request(type(resource.schema), "Create"))}

    def op(self, summary, resource, params, status, content, errors):
        return self.operation(summary, resource.group, params, status, content, errors)

    # --- everything else ----------------------------------------------------------------------------------

    def custom_operation(self, view):
        info = view.openapi
        content = None
        if info["response"] is not None:
            schema = self.answer(info["response"], narrowable=isinstance(info["listing"], dict))
            content = list_of(schema) if info["listing"] else many_of(schema) if info["many"] else one(schema)
        elif info["media_type"] != "application/json":
            media_types = info["media_type"] if isinstance(info["media_type"], tuple) else (info["media_type"],)
            content = {media_type: {"schema": {"type": "string"}} for media_type in media_types}
        params = [query_param(name, schema, required=True) for name, schema in info["params"]]
        if info["listing"] == "paged":
            params += paging_params()
        elif info["listing"]:
            params += list_params(info["listing"])
        public = getattr(view, "public", False)
        errors = info["errors"] if public else (401, 403, *info["errors"])
        result = self.operation(info["summary"], tag_of(view), params, info["status"], content, sorted(set(errors)))
        if info["body"] is not None:
            result["requestBody"] = {"required": True, "content": json_content(self.request(info["body"], "Request"))}
        if public:
            result["security"] = []
        return result

    def operation(self, summary, tag, params, status, content, errors):
        responses = {}
        for code in status if isinstance(status, tuple) else (status,):
            responses[str(code)] = {"description": summary}
            if content is not None:
                responses[str(code)]["content"] = content
        for code in errors:
            responses[str(code)] = self.error(code)
        return {"summary": summary, "tags": [tag], "parameters": params, "responses": responses}


VERBS = {
    ("GET", False): "list",
    ("POST", False): "create",
    ("GET", True): "read",
    ("PATCH", True): "update",
    ("DELETE", True): "delete",
}


def record_links(resource):
    """From a created record to what can be done with it next."""
    parameters = {"id": "$response.body#/data/id"}
    return {
        verb: {"operationId": f"{verb}-{resource.name}", "parameters": parameters}
        for verb in ("read", "update", "delete")
    }


def tag_of(view):
    return view.__module__.rpartition(".")[2]


def read_only(schema):
    return tuple(name for name, field in schema.fields.items() if field.dump_only)


def load_only(schema):
    return tuple(name for name, field in schema.fields.items() if field.load_only)


def json_content(schema):
    return {"application/json": {"schema": schema}}


def one(schema):
    return json_content(
        {"type": "object", "required": ["data"], "properties": {"data": schema}, "additionalProperties": False}
    )


def many_of(schema):
    return json_content(
        {
            "type": "object",
            "required": ["data"],
            "additionalProperties": False,
            "properties": {"data": {"type": "array", "items": schema}},
        }
    )


META = {
    "type": "object",
    "required": ["total", "limit", "offset"],
    "properties": {
        "total": {"type": "integer", "minimum": 0, "description": "how many records match, on every page"},
        "limit": {"type": "integer", "minimum": 1, "maximum": MAX_LIMIT},
        "offset": {"type": "integer", "minimum": 0},
        "total_cents": {"type": "integer", "description": "pay sheets: the sum over every line"},
    },
}


def list_of(schema):
    body = {
        "type": "object",
        "required": ["data", "meta"],
        "additionalProperties": False,
        "properties": {"data": {"type": "array", "items": schema}, "meta": META},
    }
    return json_content(body)


def path_param(name):
    schema = {"type": "string", "minLength": 1} if name in ("token", "asset") else {"type": "string", "format": "uuid"}
    return {"name": name, "in": "path", "required": True, "schema": schema}


def query_param(name, schema, description="", required=False):
    param = {"name": name, "in": "query", "required": required, "schema": schema}
    if description:
        param["description"] = description
    if schema.get("type") == "array":
        param.update(style="form", explode=False)
    return param


def write_params(resource):
    if type(resource).write_options.__qualname__.startswith("Resource."):
        return []
    return [
        query_param(
            "allow_conflicts",
            {"type": "boolean"},
            "put a staff member on the role despite a blockout or another gig (never the role check)",
        )
    ]


def paging_params():
    return [
        query_param("limit", {"type": "integer", "minimum": 1, "maximum": MAX_LIMIT, "default": 50}),
        query_param("offset", {"type": "integer", "minimum": 0, "maximum": MAX_INT, "default": 0}),
    ]


def fields_param(columns):
    names = "|".join(re.escape(name) for name in columns)
    pattern = f"^({names})(,({names}))*$"
    return query_param("fields", {"type": "string", "pattern": pattern}, "Comma list of the fields to return.")


def sort_param(columns):
    names = "|".join(re.escape(name) for name, column in columns.items() if column.sortable)
    pattern = f"^-?({names})(,-?({names}))*$"
    description = "Comma list of fields; `-` before a field sorts descending."
    return query_param("sort", {"type": "string", "pattern": pattern}, description)


KIND_SCHEMAS = {
    "id": {"type": "string", "format": "uuid"},
    "ref": {"type": "string", "format": "uuid"},
    "str": {"type": "string", "minLength": 1},
    "enum": {"type": "string"},
    "int": {"type": "integer", "minimum": -MAX_INT, "maximum": MAX_INT},
    "number": {"type": "number"},
    "date": {"type": "string", "format": "date"},
    "time": {"type": "string", "pattern": TIME_PATTERN},
    "timestamp": {"type": "string", "format": "date-time"},
    "bool": {"type": "boolean"},
}


def list_params(columns):
    params = [*paging_params(), sort_param(columns), fields_param(columns)]
    for column in columns.values():
        for operator in OPERATORS[column.kind]:
            params.append(query_param(f"filter[{column.name}][{operator}]", filter_schema(column, operator)))
    return params


def filter_schema(column, operator):
    if operator == "is_null":
        return {"type": "boolean"}
    value = dict(KIND_SCHEMAS[column.kind])
    if column.choices:
        value["enum"] = list(column.choices)
    if operator in ("in", "nin"):
        if value["type"] == "string" and "pattern" not in value and "format" not in value:
            value["pattern"] = "^[^,]+$"  # the values are joined with commas
        return {"type": "array", "items": value, "minItems": 1, "maxItems": MAX_IN_VALUES}
    return value
