"""The OpenAPI 3.1 document, generated with apispec from the same schemas and resource registry that serve
the requests: every rule of the URL map is described from its resource or from its `@operation`."""

import re

from apispec import APISpec
from apispec.ext.marshmallow import MarshmallowPlugin
from marshmallow import Schema, fields

from errors import CODES
from listing import MAX_IN_VALUES, MAX_LIMIT, OPERATORS

VERSION = "1.0.0"
DESCRIPTION = """The JSON API of Band Office, the office of a wedding band: gigs, the products sold on them,
the ensembles and staff that play them, their equipment and their pay.

Every path is relative to `/v1`. Send `Authorization: Bearer <token>` (a session token from
`/auth/confirm` or an API key from `/api-keys`) everywhere but `/health`, `/openapi.json`, `/docs`,
`POST /auth/link` and `POST /auth/confirm`. Lists take `limit` (1..200, default 50), `offset`, `sort`
(`-field` descending; `id` is always the last key), `fields` and `filter[field][op]=value`
(`filter[field]=value` means `eq`; `ne` and `nin` also match null). Errors are
`{"error": {"code", "message", "status", "details"}}`."""

STATUS_TEXT = {
    400: "Bad request: invalid JSON or query parameters",
    401: "No valid bearer token",
    403: "The token's roles lack the capability",
    404: "No such record or route",
    409: "Refused: a unique rule, a reference or a domain rule",
    413: "The body is over the limit",
    415: "The body is not JSON",
    422: "Invalid fields",
    429: "Too many requests: see Retry-After",
}
READ_ERRORS = (400, 401, 403)
WRITE_ERRORS = (400, 401, 403, 409, 413, 415, 422)


class ErrorDetailSchema(Schema):
    code = fields.String(required=True, metadata={"enum": sorted(CODES)})
    message = fields.String(required=True)
    status = fields.Integer(required=True)
    details = fields.Dict(metadata={"description": "field or parameter -> messages; or reason, fields, ..."})


class ErrorSchema(Schema):
    error = fields.Nested(ErrorDetailSchema, required=True)


class MetaSchema(Schema):
    total = fields.Integer(required=True, metadata={"minimum": 0})
    limit = fields.Integer(required=True, metadata={"minimum": 1, "maximum": MAX_LIMIT})
    offset = fields.Integer(required=True, metadata={"minimum": 0})


def operation(summary, *, body=None, response=None, status=200, errors=(), many=False, params=()):
    """Describe a view that is not a generic resource view: request and response schemas, errors."""

    def decorate(view):
        view.openapi = {
            "summary": summary,
            "body": body,
            "response": response,
            "status": status,
            "errors": errors,
            "many": many,
            "params": params,
        }
        return view

    return decorate


def component_name(schema):
    name = schema if isinstance(schema, str) else (schema if isinstance(schema, type) else type(schema)).__name__
    return name.removesuffix("Schema")


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
        view = app.view_functions[rule.endpoint]
        if rule.rule.startswith("/v1/"):
            builder.add(rule, view)
    return spec.to_dict()


class Builder:
    def __init__(self, spec):
        self.spec = spec
        self.schemas = set()
        spec.components.schema("Error", schema=ErrorSchema)
        spec.components.schema("ListMeta", schema=MetaSchema)
        for status, text in STATUS_TEXT.items():
            spec.components.response(str(status), {"description": text, "content": json_of(ref("Error"))})

    def schema(self, schema, name=None):
        name = name or component_name(schema)
        if name not in self.schemas:
            self.schemas.add(name)
            self.spec.components.schema(name, schema=schema)
        return ref(name)

    def add(self, rule, view):
        path = re.sub(r"<(?:[a-z]+:)?([a-z_]+)>", r"{\1}", rule.rule.removeprefix("/v1"))
        operations = {}
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            resource = getattr(view, "resource", None)
            if resource is not None:
                operations[method.lower()] = self.resource_operation(resource, method, "{id}" in path)
            else:
                operations[method.lower()] = self.custom_operation(view, method)
        params = [path_param(name) for name in re.findall(r"{([a-z_]+)}", path)]
        self.spec.path(path=path, operations=operations, parameters=params)

    def resource_operation(self, resource, method, single):
        name = component_name(type(resource.schema)).removesuffix("Schema")
        record = self.schema(type(resource.schema), name)
        tag = resource.group
        if method == "GET" and not single:
            return op(f"List {resource.name}", tag, list_params(resource), 200, list_of(record), READ_ERRORS)
        if method == "GET":
            return op(
                f"Read one of {resource.name}",
                tag,
                [fields_param(resource)],
                200,
                json_of(data(record)),
                (400, 401, 403, 404),
            )
        if method == "DELETE":
            return op(f"Delete one of {resource.name}", tag, [], 204, None, (401, 403, 404, 409))
        if method == "POST":
            result = op(f"Create one of {resource.name}", tag, [], 201, json_of(data(record)), WRITE_ERRORS)
            result["requestBody"] = {"required": True, "content": json_of(record)}
            return result
        patch = type(resource.schema)(partial=True, exclude=resource.schema.create_only)
        result = op(f"Change one of {resource.name}", tag, [], 200, json_of(data(record)), (*WRITE_ERRORS, 404))
        result["requestBody"] = {"required": True, "content": json_of(self.schema(patch, f"{name}Patch"))}
        return result

    def custom_operation(self, view, method):
        info = getattr(view, "openapi", None) or {
            "summary": (view.__doc__ or "").strip(),
            "errors": (),
            "status": 200,
            "response": None,
            "body": None,
            "many": False,
            "params": (),
        }
        content = None
        if info["response"] is not None:
            schema = self.schema(info["response"])
            content = list_of(schema) if info["many"] else json_of(data(schema))
        params = [query_param(*p) for p in info["params"]]
        result = op(info["summary"], "auth", params, info["status"], content, info["errors"])
        if info["body"] is not None:
            result["requestBody"] = {"required": True, "content": json_of(self.schema(info["body"]))}
        if getattr(view, "public", False):
            result["security"] = []
        return result


def ref(name):
    return {"$ref": f"#/components/schemas/{name}"}


def json_of(schema):
    return {"application/json": {"schema": schema}}


def data(schema):
    return {"type": "object", "required": ["data"], "properties": {"data": schema}}


def list_of(schema):
    body = {
        "type": "object",
        "required": ["data", "meta"],
        "properties": {"data": {"type": "array", "items": schema}, "meta": ref("ListMeta")},
    }
    return json_of(body)


def op(summary, tag, params, status, content, errors):
    responses = {str(status): {"description": summary}}
    if content is not None:
        responses[str(status)]["content"] = content
    for code in errors:
        responses[str(code)] = {"$ref": f"#/components/responses/{code}"}
    return {"summary": summary, "tags": [tag], "parameters": params, "responses": responses}


def path_param(name):
    schema = {"type": "string"} if name == "token" else {"type": "string", "format": "uuid"}
    return {"name": name, "in": "path", "required": True, "schema": schema}


def query_param(name, schema, description=""):
    return {"name": name, "in": "query", "required": False, "schema": schema, "description": description}


KIND_SCHEMAS = {
    "id": {"type": "string", "format": "uuid"},
    "ref": {"type": "string", "format": "uuid"},
    "str": {"type": "string", "minLength": 1},
    "enum": {"type": "string"},
    "int": {"type": "integer"},
    "number": {"type": "number"},
    "date": {"type": "string", "format": "date"},
    "time": {"type": "string", "pattern": r"^([01]\d|2[0-3]):[0-5]\d$"},
    "timestamp": {"type": "string", "format": "date-time"},
    "bool": {"type": "boolean"},
}


def list_params(resource):
    params = [
        query_param("limit", {"type": "integer", "minimum": 1, "maximum": MAX_LIMIT, "default": 50}),
        query_param("offset", {"type": "integer", "minimum": 0, "default": 0}),
        query_param("sort", {"type": "string", "minLength": 1}, "Comma list of fields, `-` for descending."),
        fields_param(resource),
    ]
    for column in resource.columns.values():
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
        return {"type": "array", "items": value, "minItems": 1, "maxItems": MAX_IN_VALUES}
    return value


def fields_param(resource):
    return query_param("fields", {"type": "string", "minLength": 1}, "Comma list of the fields to return.")
