"""The OpenAPI document is complete, valid 3.1, and true to the code; the reference page works offline."""

import ast
import gzip
import json
import re

import flask
import pytest
from openapi_spec_validator import validate

from domain.errors import CODES
from listing import OPERATORS
from listing.filters import MATCHING
from routes import RESOURCES
from tests.support import PROJECT
from tests.support.documented import Documented
from tests.support.served import Service


@pytest.fixture
def document(anon):
    r = anon.get("/openapi.json")
    assert r.status_code == 200 and r.mimetype == "application/json"
    return r.get_json()


def walk(node):
    """Every dict inside a JSON value."""
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from walk(value)
    elif isinstance(node, list):
        for value in node:
            yield from walk(value)


def test_the_document_is_valid_openapi_3_1(document):
    assert document["openapi"] == "3.1.0" and document["info"]["version"] == "1.0.0"
    validate(document)


def test_every_route_and_method_is_documented(app, document):
    served = set()
    for rule in app.url_map.iter_rules():
        if rule.rule.startswith("/v1/"):
            path = re.sub(r"<(?:[a-z]+:)?([a-z_]+)>", r"{\1}", rule.rule.removeprefix("/v1"))
            served |= {(path, method.lower()) for method in rule.methods - {"HEAD", "OPTIONS"}}
    documented = {
        (path, method) for path, item in document["paths"].items() for method in item if method != "parameters"
    }
    assert served == documented
    assert len(documented) > 190


def test_no_openapi_3_0_isms(document):
    for node in walk(document):
        assert "nullable" not in node and "x-nullable" not in node


def app_modules():
    """The service's Python files: the top-level modules and those of its packages (routes/ and any other)."""
    packages = [init.parent for init in PROJECT.glob("*/__init__.py") if init.parent.name != "tests"]
    return [*PROJECT.glob("*.py"), *(path for package in packages for path in package.rglob("*.py"))]


def raised_errors(path):
    """(status, code) of every ApiError(...) or error_response(...) in a file whose code is written out."""
    for call in (n for n in ast.walk(ast.parse(path.read_text())) if isinstance(n, ast.Call)):
        name = getattr(call.func, "id", getattr(call.func, "attr", ""))
        if name in ("ApiError", "error_response") and len(call.args) >= 2 and isinstance(call.args[1], ast.Constant):
            status = call.args[0].value if isinstance(call.args[0], ast.Constant) else None
            yield status, call.args[1].value


def test_every_error_code_the_code_can_raise_is_documented(document):
    modules = app_modules()
    assert (
        PROJECT / "domain" / "errors.py" in modules
        and PROJECT / "web" / "envelope.py" in modules
        and any(path.parent.name == "routes" for path in modules)
    )
    raised = {error for path in modules for error in raised_errors(path)}
    codes = {code for _, code in raised}
    assert codes <= set(CODES), codes - set(CODES)
    mismatched = {(status, code) for status, code in raised if status is not None and CODES[code] != status}
    assert not mismatched, mismatched
    enum = document["components"]["schemas"]["Error"]["properties"]["error"]["properties"]["code"]["enum"]
    assert set(enum) == set(CODES)
    documented = Documented(document)
    answered = {status for _, _, op in operations(document) for status in documented.error_statuses(op)}
    assert set(CODES.values()) - {500, 405} <= answered


def operations(document):
    """(path, method, operation) of every operation of the document."""
    for path, item in document["paths"].items():
        for method, op in item.items():
            if method != "parameters":
                yield path, method, op


def test_every_operation_documents_its_errors_and_security(document):
    public = {
        ("/", "get"),
        ("/health", "get"),
        ("/openapi.json", "get"),
        ("/docs", "get"),
        ("/docs/{asset}", "get"),
        ("/auth/link", "post"),
        ("/auth/confirm", "post"),
        ("/auth/setup", "post"),
        ("/calendar/{token}.ics", "get"),
        ("/invitations/preview", "post"),
        ("/invitations/answer", "post"),
        ("/push/web-key", "get"),
        ("/inquiries", "post"),  # new couples (SPEC §16)
        ("/public/products", "get"),
        ("/availability", "get"),
    }
    assert document["security"] == [{"bearer": []}]
    assert document["components"]["securitySchemes"]["bearer"] == {"type": "http", "scheme": "bearer"}
    documented = Documented(document)
    for path, method, op in operations(document):
        assert op["summary"] and op["tags"]
        errors = documented.error_statuses(op)  # one `default` answer for the errors, naming their statuses
        assert all(code == "default" or code.startswith("2") for code in op["responses"]), (path, method)
        if path == "/client" or path.startswith("/client/"):  # their bearer is a client's link, no user's
            assert op["security"] == [{"clientLink": []}] and 403 not in errors
        elif (path, method) in public:
            assert op["security"] == [] and 403 not in errors
        else:
            assert "security" not in op and {401, 403} <= errors, (path, method)
        assert 503 in errors  # a busy database, a stopping service
        assert any(code.startswith("2") for code in op["responses"])
    patch = document["paths"]["/gigs/{id}"]["patch"]
    assert documented.error_statuses(patch) == {400, 401, 403, 404, 409, 413, 415, 422, 429, 503}


def documented_filter(operation, key):
    """The value schema the document gives the filter `key` (`filter[gig_date][gte]`) of a list, or None: the list's
    `filter` object names each filter by the pattern its key matches (one, and only one)."""
    (param,) = [p for p in operation["parameters"] if p["name"] == "filter"]
    schema = param["schema"]
    assert schema["additionalProperties"] is False  # a key no pattern matches is no filter of the list
    found = [value for pattern, value in schema["patternProperties"].items() if re.fullmatch(pattern, key)]
    assert len(found) <= 1, key
    return found[0] if found else None


def test_every_list_documents_its_parameters_and_typed_filters(document):
    for resource in RESOURCES:
        op = document["paths"][f"/{resource.name}"]["get"]
        params = {p["name"]: p for p in op["parameters"]}
        assert params["limit"]["schema"] == {"type": "integer", "minimum": 1, "maximum": 200, "default": 50}
        assert params["offset"]["schema"]["minimum"] == 0 and {"sort", "fields"} <= set(params)
        # every filter is a key of one object parameter, sent as a parameter of its own (form style, exploded),
        # of the one type a generated client knows them by
        assert params["filter"]["style"] == "form" and params["filter"]["explode"] is True
        assert params["filter"]["schema"]["$ref"] == "#/components/schemas/Filters"
        for column in resource.columns.values():
            for operator in OPERATORS[column.kind]:
                assert documented_filter(op, f"filter[{column.name}][{operator}]"), (resource.name, column.name)
            assert documented_filter(op, f"filter[{column.name}][nope]") is None
        for reference in resource.documented_references().values():  # and through each reference, one hop
            for name in reference.followable():
                for operator in OPERATORS[reference.columns[name].kind]:
                    documented = documented_filter(op, f"filter[{reference.name}.{name}][{operator}]")
                    # text matched inside another record is not offered (SPEC §2.3: no index serves it)
                    assert bool(documented) == (operator not in MATCHING), (reference, name, operator)
        # the repeated form, which generated clients send: filter[id][in]=A&filter[id][in]=B
        uuid = {"type": "string", "format": "uuid"}
        listed = {"type": "array", "items": uuid, "minItems": 1, "maxItems": 100}
        assert documented_filter(op, "filter[id][in]") == {"anyOf": [uuid, listed]}
    # values as the query string carries them: text in the form the field's kind reads
    gigs = document["paths"]["/gigs"]["get"]
    assert documented_filter(gigs, "filter[gig_date][gte]") == {"type": "string", "format": "date"}
    assert documented_filter(gigs, "filter[guest_count][lt]") == {"type": "string", "pattern": "^-?[0-9]{1,15}$"}
    assert documented_filter(gigs, "filter[venue_id][is_null]") == {"type": "string", "enum": ["true", "false"]}
    assert documented_filter(gigs, "filter[venue_id][gt]") is None  # a reference only compares for equality
    assert documented_filter(gigs, "filter[nope][eq]") is None


def test_schemas_mark_types_formats_nullables_enums_and_read_only(document):
    schemas = document["components"]["schemas"]
    gig = schemas["Gig"]["properties"]
    assert gig["id"] == {"type": "string", "format": "uuid", "readOnly": True}
    assert gig["gig_date"]["format"] == "date" and gig["created_at"]["format"] == "date-time"
    assert gig["venue_id"]["type"] == ["string", "null"] and gig["venue_id"]["format"] == "uuid"
    assert gig["start_time"]["pattern"] == r"^([01][0-9]|2[0-3]):[0-5][0-9]$"
    assert set(schemas["Candidate"]["required"]) == set(schemas["Candidate"]["properties"])
    assert (
        set(schemas["GigCreate"]["required"]) == {"gig_date", "title"}
        and "id" not in schemas["GigCreate"]["properties"]
    )
    assert "required" not in schemas["GigPatch"]
    assert "gig_id" not in schemas["GigProductPatch"]["properties"]
    assert schemas["Venue"]["properties"]["email"]["format"] == "email"
    assert schemas["Venue"]["properties"]["website"]["format"] == "uri"
    assert schemas["GigSong"]["properties"]["kind"]["$ref"] == "#/components/schemas/GigSongKind"
    assert schemas["GigSongKind"] == {"type": "string", "enum": ["request", "do_not_play", "setlist"]}
    assert schemas["GigRole"]["properties"]["status"]["readOnly"] is True
    assert "expired" in schemas["GigRoleInvitationStatus"]["enum"]


def test_uploads_and_downloads_are_described(document):
    upload = document["paths"]["/attachments"]["post"]["requestBody"]["content"]
    assert upload["multipart/form-data"]["schema"]["properties"]["file"]["format"] == "binary"
    # bytes of any type, application/octet-stream first: what generated clients read as a file
    download = document["paths"]["/attachments/{id}/content"]["get"]["responses"]["200"]["content"]
    binary = {"schema": {"type": "string", "format": "binary"}}
    assert list(download.items()) == [("application/octet-stream", binary), ("*/*", binary)]
    assert "text/calendar" in document["paths"]["/calendar/{token}.ics"]["get"]["responses"]["200"]["content"]


def test_the_reference_page_works_offline(anon):
    page = anon.get("/docs")
    assert page.status_code == 200 and page.mimetype == "text/html"
    html = page.get_data(as_text=True)
    assert re.findall(r"https?://", html) == []
    assets = re.findall(r'(?:src|href)="([^"]+)"', html)
    assert "/v1/openapi.json" in html and len(assets) == 3
    for asset in assets:
        r = anon.get(asset)
        assert r.status_code == 200 and len(r.data) > 100, asset
        r.close()
    bundle = anon.get("/docs/swagger-ui-bundle.js")
    assert bundle.mimetype == "text/javascript"
    bundle.close()
    error = anon.get("/docs/nothing-here.js")
    assert error.status_code == 404 and json.loads(error.data)["error"]["code"] == "not_found"


def test_operations_have_unique_ids_and_creates_link_to_their_record(document):
    ids = [op["operationId"] for item in document["paths"].values() for m, op in item.items() if m != "parameters"]
    assert len(ids) == len(set(ids))
    links = document["paths"]["/gigs"]["post"]["responses"]["201"]["links"]
    assert {link["operationId"] for link in links.values()} == {"read-gigs", "update-gigs", "delete-gigs"}
    assert all(link["parameters"] == {"id": "$response.body#/data/id"} for link in links.values())
    assert set(ids) >= {link["operationId"] for link in links.values()}


def test_answers_mark_every_field_they_always_carry_as_required(document):
    schemas, gigs = document["components"]["schemas"], document["paths"]["/gigs"]
    gig = {"$ref": "#/components/schemas/Gig"}
    # `fields` narrows lists and reads: a record's fields are sure to come but for its id, as its description says
    assert schemas["Gig"]["required"] == ["id"] and "unless `fields` narrowed" in schemas["Gig"]["description"]
    assert {"title", "gig_date", "venue_id", "custom_fields", "venue"} <= set(schemas["Gig"]["properties"])
    assert set(schemas["Candidate"]["required"]) == set(schemas["Candidate"]["properties"])  # no `fields` there
    me = schemas["Me"]["properties"]["token"]  # objects nested in an answer too
    assert me["required"] == list(me["properties"])
    # one envelope of each shape per record, shared by the operations that answer with it
    answer = {"$ref": "#/components/schemas/GigAnswer"}
    single = document["paths"]["/gigs/{id}"]
    for answered in (
        gigs["post"]["responses"]["201"],
        single["get"]["responses"]["200"],
        single["patch"]["responses"]["200"],
    ):
        assert answered["content"]["application/json"]["schema"] == answer
    assert schemas["GigAnswer"]["properties"]["data"] == gig
    page = {"$ref": "#/components/schemas/GigPage"}
    assert gigs["get"]["responses"]["200"]["content"]["application/json"]["schema"] == page
    assert schemas["GigPage"]["properties"] == {
        "data": {"type": "array", "items": gig},
        "meta": {"$ref": "#/components/schemas/Meta"},
    }
    assert schemas["Meta"]["required"] == ["total", "limit", "offset"]
    custom_fields = {"$ref": "#/components/schemas/CustomFields"}
    assert schemas["Gig"]["properties"]["custom_fields"] == custom_fields
    assert schemas["VenueCreate"]["properties"]["custom_fields"] == custom_fields


def test_enums_hold_no_null_and_are_one_type_per_field(document):
    schemas = document["components"]["schemas"]
    for node in walk(document):
        assert None not in node.get("enum", ()), node
        if "anyOf" in node:
            assert all(member.get("type") != ["string", "null"] for member in node["anyOf"]), node
    # nullability apart from the values, which the record and its create and patch forms share
    status = schemas["GigRole"]["properties"]["status"]
    shared = {"$ref": "#/components/schemas/GigRoleStatus"}
    assert status.get("anyOf", [shared])[0] == shared or status == {**shared, "readOnly": True}
    assert schemas["GigRoleStatus"] == {"type": "string", "enum": ["open", "filled"]}
    for name in ("GigSongCreate", "GigSongPatch"):
        assert schemas[name]["properties"]["kind"]["$ref"] == "#/components/schemas/GigSongKind"


def test_error_examples_carry_the_code_of_their_status(document):
    shown = set()
    for name, response in document["components"]["responses"].items():
        statuses = response["content"]["application/json"]["schema"]["properties"]["error"]["properties"]["status"]
        examples = response["content"]["application/json"]["examples"]
        codes = [code for status in statuses["enum"] for code, code_status in CODES.items() if code_status == status]
        assert list(examples) == codes and all(f"`{code}`" in response["description"] for code in codes), name
        assert all(f"{status} " in response["description"] for status in statuses["enum"]), name
        for code, example in examples.items():
            assert example["value"]["error"]["code"] == code and example["value"]["error"]["status"] == CODES[code]
            assert example["value"]["error"]["message"]
            shown.add(code)
    read = Documented(document).resolved(document["paths"]["/gigs/{id}"]["get"]["responses"]["default"])
    assert read["content"]["application/json"]["examples"]["not_found"]
    assert set(CODES) - shown <= {"method_not_allowed", "internal_error"}


def test_an_error_of_a_status_the_operation_does_not_name_breaks_the_document(document):
    """One `default` answer carries every error of an operation, and its schema still names their statuses: an
    answer of any other status fails the check the walks and the fuzzing make."""

    def error(status, code):
        body = json.dumps({"error": {"code": code, "message": "Something.", "status": status}})
        return flask.Response(body, status=status, mimetype="application/json")

    documented = Documented(document)
    documented.check("GET", "/gigs/{id}", error(404, "not_found"))
    with pytest.raises(AssertionError, match=r"error\.status"):
        documented.check("GET", "/gigs/{id}", error(409, "conflict"))
    with pytest.raises(AssertionError, match="does not document"):  # `default` is for errors only
        documented.check("GET", "/gigs/{id}", flask.Response("{}", status=202, mimetype="application/json"))


def test_summaries_read_as_english(document):
    summaries = {
        (path, method): op["summary"]
        for path, item in document["paths"].items()
        for method, op in item.items()
        if method != "parameters"
    }
    assert summaries["/access-roles", "post"] == "Create an access role"
    assert summaries["/gig-types", "get"] == "List gig types"
    assert summaries["/users/{id}", "get"] == "Read a user"
    assert summaries["/equipment/{id}", "delete"] == "Delete an equipment record that nothing references"
    assert summaries["/gig-equipment", "post"] == "Create a gig equipment record"
    for summary in summaries.values():
        assert not re.search(r"\ba [aeio]", summary, re.IGNORECASE), summary
        assert not re.search(r"\ban [^aeiou]", summary, re.IGNORECASE), summary
        assert not any(resource.name in summary for resource in RESOURCES if "-" in resource.name), summary


def test_the_document_is_served_gzip_compressed_to_clients_that_accept_it(tmp_path):
    service = Service(tmp_path).start()
    try:
        status, headers, plain = service.request("GET", "/openapi.json")
        assert status == 200 and "Content-Encoding" not in headers and "Accept-Encoding" in headers["Vary"]
        status, headers, packed = service.request("GET", "/openapi.json", headers={"Accept-Encoding": "br, gzip"})
        assert status == 200 and headers["Content-Encoding"] == "gzip" and "Accept-Encoding" in headers["Vary"]
        assert headers["Content-Type"] == "application/json" and int(headers["Content-Length"]) == len(packed)
        assert gzip.decompress(packed) == plain and len(packed) < len(plain) / 5
        assert json.loads(plain)["openapi"] == "3.1.0" and plain.endswith(b"}\n")
        status, headers, _ = service.request("GET", "/openapi.json", headers={"Accept-Encoding": "gzip;q=0"})
        assert "Content-Encoding" not in headers
    finally:
        service.stop()


def test_the_webhook_request_is_described_with_its_signature_headers(document):
    post = document["webhooks"]["event"]["post"]
    assert {p["name"] for p in post["parameters"] if p["in"] == "header"} == {
        "webhook-id",
        "webhook-timestamp",
        "webhook-signature",
    }
    payload = document["components"]["schemas"]["WebhookPayload"]
    assert post["requestBody"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/WebhookPayload"
    }
    assert payload["properties"]["data"]["$ref"] == "#/components/schemas/Event"
    assert set(payload["required"]) == {"type", "timestamp", "data"}


def test_a_generated_client_is_offered_expand_q_and_the_filters_through_references(document):
    def params(path):
        return {p["name"]: p for p in document["paths"][path]["get"]["parameters"]}

    roles = params("/gig-roles")
    assert "expand" in roles
    list_roles = document["paths"]["/gig-roles"]["get"]
    assert documented_filter(list_roles, "filter[gig.gig_date][gte]") == {"type": "string", "format": "date"}
    assert documented_filter(list_roles, "filter[staff_member.last_name][gte]")["type"] == "string"
    assert documented_filter(list_roles, "filter[staff_member.last_name][starts_with]") is None  # no index serves it
    assert documented_filter(list_roles, "filter[staff_member.custom_fields][eq]") is None  # only stored fields
    assert "q" not in roles  # gig roles hold no text to search
    assert re.fullmatch(roles["expand"]["schema"]["pattern"], "gig,role,staff_member")
    assert re.fullmatch(roles["sort"]["schema"]["pattern"], "gig.gig_date,-created_at")
    assert "q" in params("/staff-members") and "expand" in params("/gigs/{id}")
    for fields in (roles["fields"], params("/gigs/{id}")["fields"]):  # the pattern cannot say it: the text does
        assert "may name a reference `expand` embeds" in fields["description"]
    schemas = document["components"]["schemas"]
    assert schemas["Gig"]["properties"]["venue"]["anyOf"] == [{"$ref": "#/components/schemas/Venue"}, {"type": "null"}]
    assert "venue" not in schemas["Gig"]["required"]
    # the lists that serve a collection within a scope answer as it does: narrowed by fields, expanded
    deliveries = document["paths"]["/webhook-deliveries"]["get"]["responses"]["200"]["content"]["application/json"]
    page = Documented(document).resolved(deliveries["schema"])
    assert page["properties"]["data"]["items"] == {"$ref": "#/components/schemas/WebhookDelivery"}
    assert schemas["WebhookDelivery"]["required"] == ["id"] and "endpoint" in schemas["WebhookDelivery"]["properties"]


SAMPLES = {"uuid": "0b9e3c1e-7f3a-4d5e-9a2b-1c2d3e4f5a6b", "date": "2027-06-12", "date-time": "2027-06-12T14:00:00Z"}


def sample(schema):
    """A value of a documented filter schema, as a query string carries it (a list: the parameter repeated)."""
    if "anyOf" in schema:
        return [sample(schema["anyOf"][0])] * 2
    if "enum" in schema:
        return schema["enum"][-1]
    if "format" in schema:
        return SAMPLES[schema["format"]]
    pattern = schema.get("pattern", "")
    return "14:00" if ":" in pattern else "-42" if "[0-9]" in pattern else "Wien"


def test_the_service_reads_each_documented_filter_value_as_the_document_types_it(document, admin):
    """One key of each pattern of every list's `filter` object, with a value of its documented schema: read."""
    for resource in RESOURCES:
        (param,) = [p for p in document["paths"][f"/{resource.name}"]["get"]["parameters"] if p["name"] == "filter"]
        for pattern, schema in param["schema"]["patternProperties"].items():
            names, operators = re.findall(r"\(([^()]*)\)", pattern)  # the group's last field and operator
            field, operator = names.split("|")[-1].replace("\\", ""), operators.split("|")[-1]
            key = f"filter[{field}][{operator}]"
            answer = admin.get(f"/{resource.name}", query_string={key: sample(schema)})
            assert answer.status_code == 200, (resource.name, key, answer.get_json())
