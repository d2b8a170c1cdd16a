"""The contract every collection shares (SPEC §2), parametrised over the declared resources: round trip (each
answer checked against the OpenAPI document), validation of each field, 404s, 401/403 by capability group, and
refused deletes of referenced rows."""

import pytest
from marshmallow import fields as ma
from peewee import ForeignKeyField

from formats import field_types as api_fields
from models import MODELS
from routes import RESOURCES
from tests.support.api import error_of
from tests.support.records import MULTIPART, PATCHES, RECIPES, REQUIRED_UNLESS

UNKNOWN_ID = "00000000-0000-4000-8000-000000000000"
BY_NAME = {r.name: r for r in RESOURCES}
NAMES = sorted(BY_NAME)


def loadable(resource):
    return {name: f for name, f in resource.schema.fields.items() if not f.dump_only}


def wrong_values(field):
    """Values the field must refuse."""
    if isinstance(field, api_fields.Bool):
        return ["true", 1, None if not field.allow_none else "yes"]
    if isinstance(field, api_fields.Int):
        return ["12", 1.5, True, api_fields.MAX_INT + 1]
    if isinstance(field, api_fields.Date):
        return ["2026-02-30", "2027-1-1", 20270101]
    if isinstance(field, api_fields.Time):
        return ["24:00", "9:30", "12:30:00"]
    if isinstance(field, api_fields.Timestamp):
        return ["2027-01-01", "2027-01-01T10:00:00", "soon"]
    if isinstance(field, api_fields.Ref):
        return ["nope", UNKNOWN_ID, 7]
    if isinstance(field, ma.List):
        return ["x", {"a": 1}, [5]]
    if isinstance(field, ma.Dict):
        return ["x", [1]]
    if isinstance(field, ma.String):
        values = [12345, ["x"]]
        lengths = [v.max for v in field.validators if getattr(v, "max", None)]
        return values + (["x" * (lengths[0] + 1)] if lengths else [])
    raise AssertionError(f"no wrong values known for {field!r}")


@pytest.fixture(params=NAMES)
def resource(request):
    return BY_NAME[request.param]


@pytest.fixture(params=[n for n in NAMES if n not in MULTIPART])
def json_resource(request):
    """A collection created from a JSON body (the upload of attachments is tested on its own)."""
    return BY_NAME[request.param]


def test_every_collection_has_a_recipe_and_a_patch():
    assert sorted(RECIPES) == sorted(PATCHES) == NAMES


def test_round_trip(admin, build, resource, documented):
    collection, one = f"/{resource.name}", f"/{resource.name}/{{id}}"

    def checked(response, method, path):
        """The answer, after checking it against the document (what the fuzzing found, checked here too)."""
        documented.check(method, path, response)
        return response

    body = build.body(resource.name)
    r = checked(build.post(resource.name, body), "POST", collection)
    assert r.status_code == 201, r.get_json()
    created = r.get_json()["data"]
    assert r.headers["Location"] == f"/v1/{resource.name}/{created['id']}"
    shown_once = set(resource.created().fields) - set(resource.columns) if resource.created else set()
    assert set(created) == set(resource.columns) | shown_once
    created = {name: value for name, value in created.items() if name not in shown_once}
    assert {name: created[name] for name in body} == body
    assert created["created_at"] == created["updated_at"] and created["created_at"].endswith("Z")
    read = checked(admin.get(f"/{resource.name}/{created['id']}"), "GET", one)
    assert read.get_json() == {"data": created}
    listed = checked(admin.get(f"/{resource.name}?filter[id]={created['id']}"), "GET", collection).get_json()
    assert listed["data"] == [created] and listed["meta"]["total"] == 1

    change = PATCHES[resource.name]
    r = checked(admin.patch(f"/{resource.name}/{created['id']}", json=change), "PATCH", one)
    assert r.status_code == 200, r.get_json()
    patched = r.get_json()["data"]
    assert patched == {**created, **change, "updated_at": patched["updated_at"]}
    assert patched["updated_at"] > created["updated_at"]

    assert checked(admin.delete(f"/{resource.name}/{created['id']}"), "DELETE", one).status_code == 204
    error_of(checked(admin.get(f"/{resource.name}/{created['id']}"), "GET", one), 404, "not_found")
    error_of(checked(admin.delete(f"/{resource.name}/{created['id']}"), "DELETE", one), 404, "not_found")


def test_required_fields_are_named_when_missing(admin, json_resource):
    required = {name for name, f in loadable(json_resource).items() if f.required}
    details = error_of(admin.post(f"/{json_resource.name}", json={}), 422, "validation_failed")["details"]
    assert required <= set(details)
    assert all(details[name] == ["Missing data for required field."] for name in required)


def test_unknown_and_read_only_keys_are_refused(admin, build, json_resource):
    body = {**build.body(json_resource.name), "bogus": 1, "id": UNKNOWN_ID, "created_at": "2027-01-01T00:00:00Z"}
    before = admin.get(f"/{json_resource.name}").get_json()["meta"]["total"]
    details = error_of(admin.post(f"/{json_resource.name}", json=body), 422, "validation_failed")["details"]
    assert details == {"bogus": ["Unknown field."], "id": ["Read-only field."], "created_at": ["Read-only field."]}
    assert admin.get(f"/{json_resource.name}").get_json()["meta"]["total"] == before


def test_each_field_refuses_wrong_values_and_stores_nothing(admin, build, json_resource):
    name = json_resource.name
    body = build.body(name)
    before = admin.get(f"/{name}").get_json()["meta"]["total"]
    missed = []
    for field_name, field in loadable(json_resource).items():
        for value in wrong_values(field):
            details = error_of(admin.post(f"/{name}", json={**body, field_name: value}), 422, "validation_failed")
            if not any(key == field_name or key.startswith(f"{field_name}.") for key in details["details"]):
                missed.append((field_name, value, details["details"]))
    assert missed == []
    assert admin.get(f"/{name}").get_json()["meta"]["total"] == before


def test_optional_fields_clear_with_null_and_defaulted_ones_refuse_it(admin, build, resource):
    record = build(resource.name)
    for name, field in loadable(resource).items():
        if name in resource.schema.create_only:
            continue
        r = admin.patch(f"/{resource.name}/{record['id']}", json={name: None})
        if name in REQUIRED_UNLESS.get(resource.name, {}):
            assert name in error_of(r, 422, "validation_failed")["details"]
        elif field.allow_none:
            assert r.status_code == 200 and r.get_json()["data"][name] is None, (name, r.get_json())
        else:
            assert name in error_of(r, 422, "validation_failed")["details"]


def test_parent_references_are_read_only_after_create(admin, build, resource):
    record = build(resource.name)
    for name in resource.schema.create_only:
        r = admin.patch(f"/{resource.name}/{record['id']}", json={name: record[name]})
        assert error_of(r, 422, "validation_failed")["details"] == {name: ["Set on create; read-only afterwards."]}


def test_empty_strings_are_null_when_optional_and_missing_when_required(admin, build, json_resource):
    strings = {n: f for n, f in loadable(json_resource).items() if isinstance(f, ma.String)}
    optional = [n for n, f in strings.items() if f.allow_none and n not in REQUIRED_UNLESS.get(json_resource.name, {})]
    required = [n for n, f in strings.items() if f.required]
    body = {**build.body(json_resource.name), **dict.fromkeys(optional, "   ")}
    if optional:
        created = admin.create(json_resource.name, body)
        assert all(created[n] is None for n in optional)
    if required:
        r = admin.post(f"/{json_resource.name}", json={**build.body(json_resource.name), required[0]: "  "})
        assert error_of(r, 422, "validation_failed")["details"][required[0]] == ["Missing data for required field."]


def test_unknown_and_malformed_ids_are_404(admin, resource):
    for record_id in (UNKNOWN_ID, "not-an-id", "123", UNKNOWN_ID.upper() + "0"):
        for method in ("GET", "PATCH", "DELETE"):
            r = admin.request(method, f"/{resource.name}/{record_id}", json={} if method == "PATCH" else None)
            error_of(r, 404, "not_found")


def test_capabilities_of_the_group_are_needed(anon, signed_in, role, build, resource):
    record = build(resource.name)
    group = resource.group
    role("reads", f"{group}.view")
    role("writes", f"{group}.edit")
    calls = [
        ("GET", f"/{resource.name}"),
        ("GET", f"/{resource.name}/{record['id']}"),
        ("POST", f"/{resource.name}"),
        ("PATCH", f"/{resource.name}/{record['id']}"),
        ("DELETE", f"/{resource.name}/{record['id']}"),
    ]
    reader, writer = signed_in("reads"), signed_in("writes")
    for method, path in calls:
        error_of(anon.request(method, path, json={}), 401, "unauthenticated")
        if method == "GET":
            assert reader.request(method, path).status_code == 200
            assert error_of(writer.request(method, path), 403, "forbidden")["details"] == {"required": f"{group}.view"}
        else:
            r = reader.request(method, path, json={})
            assert error_of(r, 403, "forbidden")["details"] == {"required": f"{group}.edit"}
            assert writer.request(method, path, json={}).status_code != 403


def references():
    """Every (referencing collection, reference field, referenced collection) among the declared resources."""
    tables = {r.model._meta.table_name: r.name for r in RESOURCES}
    for model in MODELS:
        for field in model._meta.sorted_fields:
            source, target = model._meta.table_name, getattr(field, "rel_model", None)
            declared = source in tables and target is not None and target._meta.table_name in tables
            if isinstance(field, ForeignKeyField) and declared and field.on_delete == "RESTRICT":
                name = f"{tables[source]}.{field.column_name}"
                yield pytest.param(tables[source], field.column_name, tables[target._meta.table_name], id=name)


@pytest.mark.parametrize("source, column, target", list(references()))
def test_a_referenced_row_cannot_be_deleted(admin, build, source, column, target):
    target_id = build.id(target)
    build(source, **{column: target_id})
    error = error_of(admin.delete(f"/{target}/{target_id}"), 409, "resource_in_use")
    assert set(error["details"]) == {"referenced_by"}
    assert error["details"]["referenced_by"][source.replace("-", "_")] == 1
    assert admin.get(f"/{target}/{target_id}").status_code == 200


def test_every_model_is_a_resource_or_declared_internal():
    from models import INTERNAL_MODELS

    served = {r.model for r in RESOURCES}
    assert served.isdisjoint(INTERNAL_MODELS)
    assert served | set(INTERNAL_MODELS) == set(MODELS)
    assert len(served) == len(RESOURCES)  # one model each
