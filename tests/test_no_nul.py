"""SPEC §2.3: no text holds U+0000. Every text a body may carry, at every operation the OpenAPI document describes
(custom fields, lists and nested objects among them), is 422 at its field; every query parameter of every list, a
filter value of each text field by each operator among them, is 400 naming it; on either database, never a 500,
and nothing is stored."""

import datetime as dt
import io
import re
import uuid

import pytest

from tests.support.api import error_of
from tests.support.client_links import make_link, token_of
from tests.support.users import make_token, make_user

NUL_TEXT = "a\x00b"
ANONYMOUS = ("/auth/", "/invitations/")
FILTER_NAME_RE = re.compile(r"filter\\\[\(([^)]*)\)\\\]\\\[\(([^)]*)\)\\\]")


@pytest.fixture
def document(anon):
    return anon.get("/openapi.json").get_json()


@pytest.fixture
def musician(admin, anon):
    """A signed-in musician (access role `staff`) who is a staff member, with a blockout of their own."""
    user = make_user(roles=["staff"])
    member = admin.create("staff-members", {"first_name": "Sam", "last_name": "Adams", "user_id": user.id})
    me = anon.with_token(make_token(user))
    me.blockout = me.post("/me/blockouts", {"start_date": "2027-06-12", "end_date": "2027-06-13"}).get_json()["data"]
    me.member = member
    return me


def resolved(document, node):
    while "$ref" in node:
        node = document["components"]["schemas"][node["$ref"].rsplit("/", 1)[1]]
    return node


def text_places(document, schema, place=()):
    """Each place in a request body's schema that holds text: a tuple of keys (`("custom_fields", "k")`)."""
    schema = resolved(document, schema)
    for alternative in schema.get("anyOf", []) + schema.get("oneOf", []) + schema.get("allOf", []):
        yield from text_places(document, alternative, place)
    if schema.get("readOnly"):
        return
    kinds = schema.get("type", [])
    kinds = kinds if isinstance(kinds, list) else [kinds]
    if "string" in kinds and schema.get("format") != "binary":
        yield place
    if "array" in kinds and "items" in schema:
        yield from text_places(document, schema["items"], (*place, 0))
    for name, inner in schema.get("properties", {}).items():
        yield from text_places(document, inner, (*place, name))
    if isinstance(schema.get("additionalProperties"), dict) or schema.get("additionalProperties") is True:
        yield (*place, "k")  # any value of an open object (custom fields): a text among them
    if "object" in kinds and not schema.get("properties") and schema.get("additionalProperties", True):
        yield (*place, "k\x00ey")  # ...and a key of one


def body_with(place, text=NUL_TEXT):
    """A body holding `text` at `place` and nothing else."""
    value = text
    for key in reversed(place):
        value = [value] if key == 0 else {key: value}
    return value


def body_operations(document):
    for path, item in document["paths"].items():
        for method, operation in item.items():
            if isinstance(operation, dict) and "requestBody" in operation:
                media, content = next(iter(operation["requestBody"]["content"].items()))
                yield method.upper(), path, media, content["schema"]


def caller_for(path, anon, admin, musician, couple):
    if path.startswith(ANONYMOUS):
        return anon
    if path.startswith("/client/"):
        return couple
    return musician if path.startswith("/me/") else admin


def filled(path, build, musician, couple):
    """`path` with its record's id: one of the musician's blockouts, the couple's moment or song wish (their
    documents' bodies are read before the id is looked up: any id), or a record built of its collection."""
    if "{id}" not in path:
        return path
    if path.startswith("/me/blockouts/"):
        return path.replace("{id}", musician.blockout["id"])
    if path.startswith("/client/"):
        return path.replace("{id}", couple.own.get(path.split("/")[2], str(uuid.uuid4())))
    return path.replace("{id}", build(path.split("/")[1])["id"])


@pytest.fixture
def couple(admin, anon, build):
    """A couple with their link (SPEC §16), their gig's wishes open, a moment of it and a song wish of their own."""
    gig = build("gigs", gig_date=(dt.date.today() + dt.timedelta(days=200)).isoformat())
    moment = build("gig-moments", gig_id=gig["id"], name="First dance")
    contact = build("contacts", first_name="Anna")
    gig_contact = build("gig-contacts", gig_id=gig["id"], contact_id=contact["id"], is_primary=True)
    couple = anon.with_token(token_of(make_link(admin, gig_contact["id"])))
    song = couple.post("/client/songs", json={"kind": "request", "title": "Perfect"}).get_json()["data"]
    couple.own = {"moments": moment["id"], "songs": song["id"]}
    return couple


def test_every_text_of_every_body_refuses_nul_at_its_field(anon, admin, build, musician, couple, document):
    """Each operation's each text in turn, alone in the body (the other fields' own errors may join it)."""
    sent, missed = 0, []
    for method, path, media, schema in body_operations(document):
        caller = caller_for(path, anon, admin, musician, couple)
        url = filled(path, build, musician, couple)
        for place in sorted(set(text_places(document, schema)), key=str):
            name = ".".join(str(key) for key in place)
            if media == "multipart/form-data":
                form = {name: NUL_TEXT, "file": (io.BytesIO(b"x"), "x.txt")}
                r = caller.request(method, url, data=form, content_type=media)
            else:
                r = caller.request(method, url, json=body_with(place))
            sent += 1
            details = (r.get_json().get("error") or {}).get("details") or {} if r.status_code == 422 else {}
            if "U+0000" not in " ".join(details.get(name, [])):
                missed.append((method, path, name, r.status_code, r.get_json()))
    assert not missed, f"{len(missed)} of {sent} texts were not refused at their field: {missed[:5]}"
    assert sent > 200


def test_a_blockout_whose_reason_holds_nul_is_refused_and_not_stored(musician):
    r = musician.post("/me/blockouts", {"start_date": "2027-07-01", "end_date": "2027-07-01", "reason": NUL_TEXT})
    assert list(error_of(r, 422, "validation_failed")["details"]) == ["reason"]
    assert "U+0000" in error_of(r, 422, "validation_failed")["details"]["reason"][0]
    assert musician.get("/me/blockouts").get_json()["meta"]["total"] == 1


def test_a_sign_in_link_for_an_address_holding_nul_is_refused(anon):
    r = anon.post("/auth/link", {"email": "a\x00@b.c"})
    assert "U+0000" in error_of(r, 422, "validation_failed")["details"]["email"][0]


@pytest.mark.parametrize("query", ["filter[title][in]=x,a%00b", "filter[title][nin]=x&filter[title][nin]=a%00b"])
def test_a_set_filter_with_nul_in_one_value_is_refused(musician, query):
    parameter = query.split("=")[0]
    assert "U+0000" in error_of(musician.get(f"/me/gigs?{query}"), 400, "invalid_query")["details"][parameter]


def list_operations(document):
    for path, item in document["paths"].items():
        operation = item.get("get")
        if operation and "{" not in path and any(p["name"] == "filter" for p in operation.get("parameters", [])):
            yield path, operation


def text_filters(document, operation):
    """Every `filter[field][op]` of the list whose value is text."""
    schema = next(p for p in operation["parameters"] if p["name"] == "filter")["schema"]
    for pattern, value in schema.get("patternProperties", {}).items():
        value = value.get("anyOf", [value])[0]
        if value.get("type") == "string" and "format" not in value and "enum" not in value:
            for fields, operators in FILTER_NAME_RE.findall(pattern):
                for field in fields.split("|"):
                    yield from (f"filter[{field}][{op}]" for op in operators.split("|"))


def test_every_query_parameter_of_every_list_refuses_nul(admin, musician, document):
    sent, missed = 0, []
    for path, operation in list_operations(document):
        caller = musician if path.startswith("/me/") else admin
        names = [p["name"] for p in operation["parameters"] if p["name"] != "filter"]
        for name in [*names, *text_filters(document, operation), "filter[id][eq]"]:
            r = caller.get(path, query_string={name: NUL_TEXT})
            sent += 1
            details = r.get_json()["error"].get("details", {}) if r.status_code == 400 else {}
            if r.status_code != 400 or "U+0000" not in str(details.get(name)):
                missed.append((path, name, r.status_code, r.get_json()))
    assert not missed, f"{len(missed)} of {sent} parameters were not refused by name: {missed[:5]}"
    assert sent > 500
