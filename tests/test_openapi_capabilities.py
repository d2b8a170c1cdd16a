"""The OpenAPI document names the capability each operation needs (`x-capability`), and the service asks exactly
that: a caller without it is refused 403 with it as `details.required`, before anything else is looked at; an
operation the document leaves open is not refused for a capability. The console reads which collections a user
may open from these (SPEC §12, screen 6)."""

import re
import uuid

import pytest

from tests.support.api import error_of

METHODS = ("get", "post", "patch", "put", "delete")


@pytest.fixture
def document(anon):
    return anon.get("/openapi.json").get_json()


def operations(document):
    for path, item in document["paths"].items():
        for method in METHODS:
            if method in item:
                yield path, method, item[method]


def concrete(path):
    """A path of the document with each parameter filled: an id nobody has (403 comes before the record's 404)."""
    return re.sub(r"{[a-z_]+}", lambda _: str(uuid.uuid4()), path)


def test_every_generic_collection_names_the_capability_of_its_group(document):
    for path, method, operation in operations(document):
        if re.fullmatch(r"(list|read|create|update|delete)-[a-z-]+", operation["operationId"]):
            action = "view" if method == "get" else "edit"
            assert operation["x-capability"] == f"{operation['tags'][0]}.{action}", (path, method)


def test_a_caller_without_the_named_capability_is_refused_with_it(document, signed_in):
    named = [(p, m, o["x-capability"]) for p, m, o in operations(document) if "x-capability" in o]
    assert len(named) > 100
    for path, method, capability in named:
        nobody = signed_in()  # a user holding no access role (a new one each time: such a user's writes are rationed)
        answer = nobody.request(method.upper(), concrete(path), json={} if method in ("post", "patch") else None)
        assert error_of(answer, 403, "forbidden")["details"] == {"required": capability}, (method, path)


def test_a_list_left_open_is_not_refused_for_a_capability(document, signed_in):
    """(An operation on one record may still refuse by the record: a member's own calendar feed, not another's.)"""
    nobody = signed_in()
    for path, method, operation in operations(document):
        if method == "get" and "{" not in path and "x-capability" not in operation and operation.get("security") != []:
            answer = nobody.get(concrete(path))
            assert answer.status_code != 403, (path, answer.get_json())


def body_schema(document, operation):
    return operation["requestBody"]["content"]["application/json"]["schema"]


def component(document, schema):
    return document["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]]


def marks(schema):
    return {name: prop["x-capability"] for name, prop in schema["properties"].items() if "x-capability" in prop}


def test_a_property_private_to_pay_names_the_capability_and_the_service_asks_it(document, signed_in, role, build):
    """SPEC §12: the console leaves out a field a person cannot use, knowing it from this mark."""
    read = document["paths"]["/gig-roles/{id}"]["get"]["responses"]["200"]["content"]["application/json"]["schema"]
    record = component(document, component(document, read)["properties"]["data"])
    create = component(document, body_schema(document, document["paths"]["/gig-roles"]["post"]))
    patch = component(document, body_schema(document, document["paths"]["/gig-roles/{id}"]["patch"]))
    assert marks(record) == {"pay_cents": "pay.view"}
    assert marks(create) == marks(patch) == {"pay_cents": "pay.edit"}

    role("booker", "gigs.*", "staffing.*", "people.*", "catalog.view")
    booker = signed_in("booker")
    gig_role = build("gig-roles", pay_cents=45000)
    assert booker.get(f"/gig-roles/{gig_role['id']}").get_json()["data"]["pay_cents"] is None
    refused = error_of(booker.patch(f"/gig-roles/{gig_role['id']}", json={"pay_cents": 1}), 403, "forbidden")
    assert refused["details"]["required"] == "pay.edit"


def test_options_is_answered_without_the_view_so_without_its_capability(signed_in):
    answer = signed_in().request("OPTIONS", "/pay-sheet")
    assert answer.status_code == 200 and set(answer.headers["Allow"].split(", ")) == {"GET", "HEAD", "OPTIONS"}
