"""SPEC §2: answers are compact JSON, written by the database as SQLite writes them: no space outside a value (not
`"id" : "…"`, as PostgreSQL's json_build_object writes, nor `}, {` between records), whichever database serves."""

import json
import re

import pytest

# A JSON string value, escapes included: what is left when they are taken out is the answer's structure.
STRING = re.compile(r'"(?:[^"\\]|\\.)*"')


def structure(body):
    """The answer's bytes with every string emptied (`""`): its punctuation, numbers and literals (the line's end
    that ends every answer aside)."""
    return STRING.sub('""', body.decode().removesuffix("\n"))


@pytest.fixture
def gig(build):
    """A gig whose text holds what a careless check would take for JSON's punctuation, with a venue."""
    venue = build("venues", name='Hall "A" : B, {C}', city="Graz , Linz")
    return build("gigs", gig_date="2027-05-01", title='Ball : "Gala" , { } [ ]', venue_id=venue["id"], guest_count=80)


@pytest.mark.parametrize(
    "path",
    [
        "/gigs",
        "/gigs?expand=venue,gig_status&fields=title,venue,guest_count",
        "/gigs/{id}",
        "/gigs/{id}?expand=venue",
        "/venues?sort=-name",
        "/access-roles",
    ],
)
def test_lists_and_reads_are_compact_json_outside_their_values(admin, gig, path):
    response = admin.get(path.format(id=gig["id"]))
    assert response.status_code == 200, response.get_json()
    body = response.get_data()
    assert not re.search(r"\s", structure(body)), body[:400]
    assert json.loads(body)["data"], "something to read"


def test_the_values_keep_their_own_spaces(admin, gig):
    body = admin.get(f"/gigs/{gig['id']}?expand=venue").get_data()
    assert b'"title":"Ball : \\"Gala\\" , { } [ ]"' in body, body
    assert b'"city":"Graz , Linz"' in body, body
