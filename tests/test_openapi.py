"""The OpenAPI document is complete, valid 3.1, and true to the code; the reference page works offline."""

import ast
import json
import re
from pathlib import Path

import pytest
from openapi_spec_validator import validate

from errors import CODES
from listing import OPERATORS
from routes import RESOURCES

PROJECT = Path(__file__).resolve().parent.parent


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


def test_every_error_code_the_code_can_raise_is_documented(document):
    raised = set()
    for path in PROJECT.glob("*.py"):
        tree = ast.parse(path.read_text())
        for call in (n for n in ast.walk(tree) if isinstance(n, ast.Call)):
            name = getattr(call.func, "id", getattr(call.func, "attr", ""))
            if (
                name in ("ApiError", "error_response")
                and len(call.args) >= 2
                and isinstance(call.args[1], ast.Constant)
            ):
                raised.add(call.args[1].value)
    assert raised <= set(CODES), raised - set(CODES)
    enum = document["components"]["schemas"]["Error"]["properties"]["error"]["properties"]["code"]["enum"]
    assert set(enum) == set(CODES)
    statuses = {str(s) for s in CODES.values()} - {"500", "405"}
    assert statuses <= set(document["components"]["responses"])


def test_every_operation_documents_its_errors_and_security(document):
    public = {
        ("/", "get"),
        ("/health", "get"),
        ("/openapi.json", "get"),
        ("/docs", "get"),
        ("/docs/{asset}", "get"),
        ("/auth/link", "post"),
        ("/auth/confirm", "post"),
        ("/calendar/{token}.ics", "get"),
    }
    assert document["security"] == [{"bearer": []}]
    assert document["components"]["securitySchemes"]["bearer"] == {"type": "http", "scheme": "bearer"}
    for path, item in document["paths"].items():
        for method, op in item.items():
            if method == "parameters":
                continue
            assert op["summary"] and op["tags"]
            if (path, method) in public:
                assert op["security"] == [] and "403" not in op["responses"]
            else:
                assert "security" not in op and {"401", "403"} <= set(op["responses"]), (path, method)
            assert any(code.startswith("2") for code in op["responses"])


def test_every_list_documents_its_parameters_and_typed_filters(document):
    for resource in RESOURCES:
        op = document["paths"][f"/{resource.name}"]["get"]
        params = {p["name"]: p for p in op["parameters"]}
        assert params["limit"]["schema"] == {"type": "integer", "minimum": 1, "maximum": 200, "default": 50}
        assert params["offset"]["schema"]["minimum"] == 0 and {"sort", "fields"} <= set(params)
        for column in resource.columns.values():
            for operator in OPERATORS[column.kind]:
                assert f"filter[{column.name}][{operator}]" in params
        assert params["filter[id][in]"]["schema"]["type"] == "array" and params["filter[id][in]"]["explode"] is False
    gigs = {p["name"]: p["schema"] for p in document["paths"]["/gigs"]["get"]["parameters"]}
    assert gigs["filter[gig_date][gte]"] == {"type": "string", "format": "date"}
    assert gigs["filter[guest_count][lt]"] == {"type": "integer", "minimum": -(2**53 - 1), "maximum": 2**53 - 1}
    assert gigs["filter[venue_id][is_null]"] == {"type": "boolean"}


def test_schemas_mark_types_formats_nullables_enums_and_read_only(document):
    schemas = document["components"]["schemas"]
    gig = schemas["Gig"]["properties"]
    assert gig["id"] == {"type": "string", "format": "uuid", "readOnly": True}
    assert gig["gig_date"]["format"] == "date" and gig["created_at"]["format"] == "date-time"
    assert gig["venue_id"]["type"] == ["string", "null"] and gig["venue_id"]["format"] == "uuid"
    assert gig["start_time"]["pattern"] == r"^([01][0-9]|2[0-3]):[0-5][0-9]$"
    assert schemas["Gig"]["required"] == ["id"]  # `fields` may narrow the answer to the id
    assert set(schemas["Candidate"]["required"]) == set(schemas["Candidate"]["properties"])
    assert (
        set(schemas["GigCreate"]["required"]) == {"gig_date", "title"}
        and "id" not in schemas["GigCreate"]["properties"]
    )
    assert "required" not in schemas["GigPatch"]
    assert "gig_id" not in schemas["GigProductPatch"]["properties"]
    assert schemas["Venue"]["properties"]["email"]["format"] == "email"
    assert schemas["Venue"]["properties"]["website"]["format"] == "uri"
    assert schemas["GigSong"]["properties"]["kind"]["enum"] == ["request", "do_not_play", "setlist"]
    assert schemas["GigRole"]["properties"]["status"]["readOnly"] is True
    assert "expired" in schemas["GigRoleInvitation"]["properties"]["status"]["enum"]


def test_uploads_and_downloads_are_described(document):
    upload = document["paths"]["/attachments"]["post"]["requestBody"]["content"]
    assert upload["multipart/form-data"]["schema"]["properties"]["file"]["format"] == "binary"
    assert "*/*" in document["paths"]["/attachments/{id}/content"]["get"]["responses"]["200"]["content"]
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
