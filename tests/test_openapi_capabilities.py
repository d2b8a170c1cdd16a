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
