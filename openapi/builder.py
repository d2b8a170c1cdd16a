"""The OpenAPI 3.1 document, generated with apispec from the same schemas and resource registry that serve
the requests: `document(app)` describes every rule of the URL map under /v1, a resource's views from its
declaration, every other view from the `@operation` beside it (`openapi.views`)."""

import re

from apispec import APISpec
from apispec.ext.marshmallow import MarshmallowPlugin

from domain import pay_policy
from formats.field_types import CustomFields
from formats.operation_schemas import WebhookPayloadSchema
from openapi.error_answers import READ, WRITE, ErrorSchema, error_answer, name_reasons
from openapi.params import (
    FILTERS,
    fields_param,
    flag_params,
    list_params,
    paging_params,
    path_param,
    query_param,
    record_params,
)
from openapi.shapes import (
    CUSTOM_FIELDS,
    CUSTOM_FIELDS_MARK,
    ENVELOPES,
    META,
    download_content,
    json_content,
    list_of,
    many_of,
    null_apart,
    one,
    ref,
    require_all,
    share_custom_fields,
    share_enums,
    upload_content,
    walk,
)
from resources import resource_of
from web.lifecycle import WRITE_METHODS

VERSION = "1.0.0"
PRIVATE_MARK = "x-capability"  # on a property: the capability a caller needs to read it (or, in a body, set it)
DESCRIPTION = """The JSON API of Band Office, the office of a wedding band: gigs, the products sold on them,
the ensembles and staff that play them, their equipment and their pay.

Every path is relative to `/v1`. Send `Authorization: Bearer <token>` (a session token from
`POST /auth/confirm` or an API key from `POST /api-keys`) everywhere but the operations marked as needing
none. Reading needs the `<group>.view` capability of the resource's group (the tag), writing and operations
`<group>.edit`; `GET /me` shows what the caller holds. Each operation that needs a capability names it as
`x-capability` (`catalog.view`); one without it is open to any signed-in user (or decides by the record, as
answering one's own invitation does). A property private to another group is marked the same way: a gig
role's `pay_cents` reads null without `x-capability` `pay.view` and is set only with `pay.edit` (its mark in
request bodies). Money in (the `sales` group: quotes, contracts, invoices, payments) is read with `sales.view` alone,
in lists, reads and events. A user linked to a staff member finds their own work under
`/me` (the tag `me`: their gigs, invitations, pay, blockouts and calendar feed) whatever their capabilities.

Lists take `limit` (1..200, default 50), `offset`, `sort` (comma list, `-field` descending; `id` is always
the last key), `fields` (comma list; `id` always comes) and `filter[field][op]=value`; `filter[field]=value`
means `eq`, `ne` and `nin` also match null, `in`/`nin` take 1..100 values, comma-separated or with the
parameter repeated (`filter[id][in]=A&filter[id][in]=B`). Custom fields filter as
`filter[custom_fields.KEY][op]`. This document names a list's filters as the keys of its one `filter`
parameter, an object sent form-style and exploded: each key is a query parameter of its own. A reference
`<name>_id` is followed one hop: `expand=<name>` embeds the referenced record as `<name>` (or null) on lists and
reads, `filter[<name>.field][op]` and `sort=<name>.field` filter and sort through it (not by free text such as
notes, nor with `contains` or `starts_with`: no index serves them); following one needs the view
capability of its collection. `q` searches the words of a collection's names, titles, e-mail and the like (each
word begins a word; case and accents aside).
Gigs count their roles, open roles and pending invitations. Anything else is 400 `invalid_query`. A read whose
statements spend more than `BAND_QUERY_BUDGET_MS` (250) of the server's CPU together is stopped: 400 `query_too_costly`
(narrow the filters, or drop the sort through a reference). Through a reference, a list sorts by the field, then
the referenced record, then id.

Errors are `{"error": {"code", "message", "status", "details"}}`; when several apply: unknown route
404/405, then 401, 403, the body (415, 400, 413), the record's 404, 422, 409."""


def document(app):
    plugin = MarshmallowPlugin(schema_name_resolver=lambda schema: None)
    spec = APISpec(
        title="Band Office",
        version=VERSION,
        openapi_version="3.1.0",
        plugins=[plugin],
        info={"description": DESCRIPTION},
        servers=[{"url": "/v1"}],
    )
    spec.components.security_scheme("bearer", {"type": "http", "scheme": "bearer"})
    spec.options["security"] = [{"bearer": []}]
    link = "a client link's `bcl_` token (SPEC §16): `/client…` only; BAND_CLIENT_RATE per address, dead: sign-in's"
    spec.components.security_scheme("clientLink", {"type": "http", "scheme": "bearer", "description": link})
    plugin.converter.add_attribute_function(mark_custom_fields)
    plugin.converter.add_attribute_function(mark_private_fields)
    builder = Builder(spec)
    for rule in sorted(app.url_map.iter_rules(), key=lambda r: r.rule):
        if rule.rule.startswith("/v1/"):
            builder.add(rule, app.view_functions[rule.endpoint])
    builder.add_webhook()
    return builder.finish()


class Builder:
    def __init__(self, spec):
        self.spec = spec
        self.answers = set()  # components the service answers with: every property is always there
        self.partials = set()  # ...but for those a `fields` parameter narrows, sure only of their `id`
        self.records = {}  # component -> the record it shows (Gig for GigCreate): they share their enums
        self.expandable = {}  # component -> {name: listing.Reference} its reads may embed
        self.error_statuses = {}  # reference to an error answer -> the statuses it documents
        self.requests = set()  # components of request bodies: a private field's mark names the editing capability
        self.spec.components.schema("Error", schema=ErrorSchema)
        for name, schema in (("Meta", META), ("Filters", FILTERS), ("CustomFields", CUSTOM_FIELDS)):
            self.spec.components.schema(name, schema)

    def component(self, name, schema, record):
        if name not in self.spec.components.schemas:
            self.spec.components.schema(name, schema=schema)
            self.records[name] = record
        return ref(name)

    def answer(self, schema_class, narrowable=False):
        """The name of the component of a schema as the service answers with it (no load-only fields). Where a
        `fields` parameter can narrow the answer only its `id` is sure to come (`finish`): one record type for
        the whole and the narrowed answer, rather than a partial twin of each record in a generated client."""
        name = schema_class.__name__.removesuffix("Schema")
        self.answers.add(name)
        self.component(name, schema_class(exclude=load_only(schema_class())), name)
        if narrowable:
            self.partials.add(name)
        return name

    def envelope(self, shape, name):
        """The JSON content of an answer of the component `name` in `shape` (`one`, `many_of`, `list_of`), the
        envelope a component of its own (`GigAnswer`, `GigList`, `GigPage`) shared by every operation answering
        so: inline, each operation would make a generated client write one more model of it."""
        component = name + ENVELOPES[shape]
        if component not in self.spec.components.schemas:
            self.spec.components.schema(component, shape(ref(name)))
        return json_content(ref(component))

    def request(self, schema_class, suffix, **modifiers):
        """The component of a request body: no read-only fields."""
        record = schema_class.__name__.removesuffix("Schema")
        exclude = (*read_only(schema_class()), *modifiers.pop("exclude", ()))
        self.requests.add(record + suffix)
        return self.component(record + suffix, schema_class(exclude=exclude, **modifiers), record)

    def add_webhook(self):
        """What the service POSTs to a webhook endpoint (SPEC §8), as OpenAPI 3.1 describes outgoing requests."""
        headers = {
            "webhook-id": "the event's id: the same on every attempt, so a repeat can be dropped",
            "webhook-timestamp": "Unix seconds of the attempt",
            "webhook-signature": "`v1,` + base64 HMAC-SHA256 of `id.timestamp.body`; two, space-separated, for "
            "24 hours after a rotation",
        }
        self.webhooks = {
            "event": {
                "post": {
                    "summary": "An event, signed as the Standard Webhooks specification says",
                    "parameters": [
                        {
                            "name": name,
                            "in": "header",
                            "required": True,
                            "schema": {"type": "string"},
                            "description": text,
                        }
                        for name, text in headers.items()
                    ],
                    "requestBody": {"required": True, "content": json_content(ref(self.answer(WebhookPayloadSchema)))},
                    "responses": {"2XX": {"description": "Received; anything else is retried (a 410 switches off)"}},
                }
            }
        }

    def finish(self):
        document = self.spec.to_dict()
        document["webhooks"] = self.webhooks
        schemas = document["components"]["schemas"]
        for name in self.answers:
            require_all(schemas[name])
        for name in self.partials:
            schemas[name]["required"] = ["id"]
            said = schemas[name].get("description", "")
            schemas[name]["description"] = f"{said}\n\n{NARROWED}".strip()
        for name, references in self.expandable.items():
            schemas[name]["properties"].update(embedded_properties(references))
        for name, record in self.records.items():
            share_enums(schemas, name, record)
        for name in self.requests:
            mark_private_edits(schemas[name])
        for node in walk(document):
            if None in node.get("enum", ()):
                null_apart(node)
        share_custom_fields(document)
        return document

    def errors(self, statuses):
        """The `default` answer of an operation whose errors have `statuses`, one component for each set."""
        name, response = error_answer(statuses)
        reference = f"#/components/responses/{name}"
        if reference not in self.error_statuses:
            self.error_statuses[reference] = tuple(statuses)
            self.spec.components.response(name, response)
        return {"$ref": reference}

    def add_write_rate(self, operation):
        """A caller without any `.edit` capability may meet the write rate on any write (SPEC §2.3)."""
        documented = self.error_statuses[operation["responses"]["default"]["$ref"]]
        operation["responses"]["default"] = self.errors((*documented, 429))

    def add(self, rule, view):
        path = re.sub(r"<(?:[a-z]+:)?([a-z_]+)>", r"{\1}", rule.rule.removeprefix("/v1"))
        operations = {}
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            resource = getattr(view, "resource", None)
            if resource is not None:
                single = path.endswith("{id}")
                operation = self.resource_operation(resource, method, single)
                operation["operationId"] = f"{VERBS[method, single]}-{resource.name}"
                operation["x-capability"] = f"{resource.group}.{'view' if method == 'GET' else 'edit'}"
            else:
                operation = self.custom_operation(view)
                operation["operationId"] = rule.endpoint.removeprefix("api.")
            if method in WRITE_METHODS and not getattr(view, "public", False):
                self.add_write_rate(operation)
            name_reasons(operation, method, path)
            operations[method.lower()] = operation
        params = [path_param(name) for name in re.findall(r"{([a-z_]+)}", path)]
        self.spec.path(path=path, operations=operations, parameters=params)

    # --- the generic resources ----------------------------------------------------------------------------

    def resource_operation(self, resource, method, single):
        schema_class = type(resource.schema)
        record = self.answer(schema_class, narrowable=True)
        a_record = a_noun(resource)
        references = resource.documented_references()
        self.expandable[schema_class.__name__.removesuffix("Schema")] = references
        if method == "GET" and not single:
            collection = resource.name.replace("-", " ")
            params = list_params(resource.columns, references, resource.searched) + flag_params(resource.list_flags)
            return self.op(f"List {collection}", resource, params, 200, self.envelope(list_of, record), READ)
        if method == "GET":
            params = record_params(resource.columns, references)
            return self.op(f"Read {a_record}", resource, params, 200, self.envelope(one, record), (*READ, 404))
        if method == "DELETE":
            return self.op(
                f"Delete {a_record} that nothing references", resource, [], 204, None, (400, 401, 403, 404, 409)
            )
        if method == "POST":
            created = self.envelope(one, self.answer(resource.created) if resource.created else record)
            writes = flag_params(resource.write_flags)
            result = self.op(f"Create {a_record}", resource, writes, 201, created, (*WRITE, 409))
            result["responses"]["201"]["headers"] = {
                "Location": {"schema": {"type": "string"}, "description": "the new record's path"}
            }
            result["responses"]["201"]["links"] = record_links(resource)
            result["requestBody"] = self.create_body(resource)
            return result
        patch = self.request(schema_class, "Patch", partial=True, exclude=resource.schema.create_only)
        changed = self.envelope(one, record)
        writes = flag_params(resource.write_flags)
        result = self.op(f"Change {a_record}", resource, writes, 200, changed, (*WRITE, 404, 409))
        result["requestBody"] = {"required": True, "content": json_content(patch)}
        return result

    def create_body(self, resource):
        if resource.upload is not None:
            return {"required": True, "content": upload_content(resource.upload)}
        return {"required": True, "content": json_content(self.request(type(resource.schema), "Create"))}

    def op(self, summary, resource, params, status, content, errors):
        return self.operation(summary, resource.group, params, status, content, errors)

    # --- everything else ----------------------------------------------------------------------------------

    def custom_operation(self, view):
        info = view.openapi
        content = None
        collection = info["listing"] if hasattr(info["listing"], "documented_references") else None
        if info["response"] is not None:
            narrowable = isinstance(info["listing"], dict) or collection is not None or info["fields"] is not None
            schema = self.answer(info["response"], narrowable=narrowable)
            if collection is not None:  # a collection's own list, within a scope: it expands as the collection does
                name = info["response"].__name__.removesuffix("Schema")
                self.expandable[name] = collection.documented_references()
            content = self.envelope(list_of if info["listing"] else many_of if info["many"] else one, schema)
        elif info["media_type"] != "application/json":
            media_types = info["media_type"] if isinstance(info["media_type"], tuple) else (info["media_type"],)
            content = download_content(media_types)
        params = [query_param(name, schema, required=True) for name, schema in info["params"]]
        if info["fields"] is not None:
            params.append(fields_param(info["fields"]))
        if info["listing"] == "paged":
            params += paging_params()
        elif collection is not None:
            params += list_params(collection.columns, collection.documented_references(), collection.searched)
        elif info["listing"]:
            params += list_params(info["listing"])
        public = getattr(view, "public", False)
        errors = info["errors"] if public else (401, 403, *info["errors"])
        result = self.operation(info["summary"], tag_of(view), params, info["status"], content, sorted(set(errors)))
        if info["capability"] is not None:
            result["x-capability"] = info["capability"]
        if hasattr(info["body"], "files"):  # a multipart upload (resources.parameters.Multipart)
            result["requestBody"] = {"required": True, "content": upload_content(info["body"])}
        elif info["body"] is not None:
            body = self.request(info["body"], "Patch" if info["partial"] else "Request", partial=info["partial"])
            result["requestBody"] = {"required": True, "content": json_content(body)}
        if public:
            result["security"] = [{view.security: []}] if hasattr(view, "security") else []
        return result

    def operation(self, summary, tag, params, status, content, errors):
        responses = {}
        for code in status if isinstance(status, tuple) else (status,):
            responses[str(code)] = {"description": summary}
            if content is not None:
                responses[str(code)]["content"] = content
        responses["default"] = self.errors((*errors, 503))  # any request may meet a busy database or a stopping service
        return {"summary": summary, "tags": [tag], "parameters": params, "responses": responses}


VERBS = {
    ("GET", False): "list",
    ("POST", False): "create",
    ("GET", True): "read",
    ("PATCH", True): "update",
    ("DELETE", True): "delete",
}


NARROWED = "Every field comes, unless `fields` narrowed a list or a read to those it names (`id` always)."


def mark_custom_fields(converter, field, **kwargs):
    """apispec's attribute function: the custom fields object is marked, to be one component (`shapes`)."""
    return {CUSTOM_FIELDS_MARK: True} if isinstance(field, CustomFields) else {}


def mark_private_fields(converter, field, **kwargs):
    """apispec's attribute function: a field private to a group (a gig role's pay_cents: `pay_policy`) names the
    capability reading it needs, so that a client leaves it out for a caller without it (SPEC §12)."""
    group = field.metadata.get("group")
    return {PRIVATE_MARK: pay_policy.reading_needs(group)} if group else {}


def mark_private_edits(schema):
    """In a request body, a private field's mark names the capability setting it needs (pay.edit)."""
    for prop in schema.get("properties", {}).values():
        if PRIVATE_MARK in prop:
            prop[PRIVATE_MARK] = pay_policy.writing_needs(prop[PRIVATE_MARK].split(".")[0])


def embedded_properties(references):
    """The properties `expand` adds to a record: each referenced record (as its collection reads it), or null."""
    return {
        name: {
            "anyOf": [ref(type(resource_of(reference.model).schema).__name__.removesuffix("Schema")), {"type": "null"}],
            "readOnly": True,
            "description": f"The record `{name}_id` names, with `expand={name}`.",
        }
        for name, reference in references.items()
    }


def a_noun(resource):
    """The record with its article: "an access role", "a user" (no noun here starts with a vowel sound spelled
    u); a collection named like its noun is of a mass noun: "an equipment record"."""
    noun = resource.noun
    if resource.name.replace("-", " ") == noun:
        noun += " record"
    return f"{'an' if noun[0] in 'aeio' else 'a'} {noun}"


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
