"""SPEC §11: the office's daily questions in one call: `expand`, filters and sorts through a reference, `q`."""

import re

import pytest

from dialects import dialect
from routes import RESOURCES
from tests.support.api import error_of
from tests.support.users import make_token, make_user


@pytest.fixture
def season(admin, build):
    """Two venues, three gigs (one without a venue), singer roles: open on two gigs, filled on one."""
    hof = build("venues", name="Schloss Hof", city="Engelhartstetten", email="events@schlosshof.at")
    keller = build("venues", name="Zum Keller", city="Wien")
    build.status("Confirmed", "confirmed", is_default=True)
    singer = build("roles", name="Singer")
    anna = build("staff-members", first_name="Anna", last_name="Müller", email="anna@band.example", notes="drums")
    build("staff-member-roles", staff_member_id=anna["id"], role_id=singer["id"])
    gigs = {
        "june": build("gigs", gig_date="2027-06-12", title="Huber–Maier Hochzeit", venue_id=hof["id"]),
        "july": build("gigs", gig_date="2027-07-03", title="Firmenfeier Kapsch", venue_id=keller["id"]),
        "may": build("gigs", gig_date="2027-05-20", title="Garden party"),
    }
    roles = {
        name: build("gig-roles", gig_id=gigs[name]["id"], role_id=singer["id"], pay_cents=25000)
        for name in ("june", "july", "may")
    }
    admin.patch(f"/gig-roles/{roles['july']['id']}", json={"staff_member_id": anna["id"]})
    return {"hof": hof, "keller": keller, "singer": singer, "anna": anna, "gigs": gigs, "roles": roles}


def data(response):
    assert response.status_code == 200, response.get_json()
    return response.get_json()["data"]


def test_the_three_daily_questions_are_one_call_each(admin, season):
    gigs = data(
        admin.get(
            "/gigs?filter[gig_date][gte]=2027-06-01&filter[gig_date][lt]=2027-07-01"
            "&filter[open_role_count][gt]=0&expand=venue"
        )
    )
    assert [(g["title"], g["venue"]["name"], g["open_role_count"]) for g in gigs] == [
        ("Huber–Maier Hochzeit", "Schloss Hof", 1)
    ]
    roles = data(
        admin.get(
            "/gig-roles?filter[status]=open&filter[gig.gig_date][gte]=2027-05-01&filter[gig.gig_date][lt]=2027-08-01"
            "&sort=gig.gig_date&expand=gig,role"
        )
    )
    assert [(r["gig"]["gig_date"], r["role"]["name"]) for r in roles] == [
        ("2027-05-20", "Singer"),
        ("2027-06-12", "Singer"),
    ]
    assert [m["last_name"] for m in data(admin.get("/staff-members?q=ann MÜLL"))] == ["Müller"]


def test_expand_embeds_each_reference_beside_its_id_or_null(admin, season):
    gigs = data(admin.get("/gigs?expand=venue,gig_status&sort=gig_date"))
    assert [g["venue"] and g["venue"]["city"] for g in gigs] == [None, "Engelhartstetten", "Wien"]
    assert all(g["gig_status"]["name"] == "Confirmed" for g in gigs)
    keys = list(gigs[1])
    assert keys[keys.index("venue_id") + 1] == "venue"
    # the embedded record is the record as its own read shows it
    assert gigs[1]["venue"] == data(admin.get(f"/venues/{season['hof']['id']}"))
    # with fields: the fields asked for and the embedded records
    narrow = data(admin.get("/gigs?fields=title&expand=venue&sort=gig_date&limit=1"))
    assert narrow == [{"id": season["gigs"]["may"]["id"], "title": "Garden party", "venue": None}]
    one = data(admin.get(f"/gigs/{season['gigs']['june']['id']}?expand=venue&fields=title"))
    assert one["venue"]["name"] == "Schloss Hof" and set(one) == {"id", "title", "venue"}
    role = data(admin.get(f"/gig-roles/{season['roles']['july']['id']}?expand=staff_member,gig"))
    assert (role["staff_member"]["last_name"], role["gig"]["title"]) == ("Müller", "Firmenfeier Kapsch")


def test_fields_may_name_an_expanded_reference_on_a_list_and_a_single_read(admin, season):
    june = season["gigs"]["june"]["id"]
    gigs = data(admin.get("/gigs?expand=venue&fields=title,venue&filter[venue.city]=Engelhartstetten"))
    assert gigs == [
        {"id": june, "title": "Huber–Maier Hochzeit", "venue": data(admin.get(f"/venues/{season['hof']['id']}"))}
    ]
    one = data(admin.get(f"/gigs/{june}?fields=venue,title&expand=venue"))
    assert (set(one), one["venue"]["city"]) == ({"id", "title", "venue"}, "Engelhartstetten")
    role = data(admin.get(f"/gig-roles/{season['roles']['july']['id']}?expand=gig,role&fields=gig,role,status"))
    assert (role["gig"]["title"], role["role"]["name"], role["status"]) == ("Firmenfeier Kapsch", "Singer", "filled")


@pytest.mark.parametrize(
    "path", ["/gigs?fields=title,venue", "/gigs?fields=venue&expand=gig_status", "/gigs/{june}?fields=venue"]
)
def test_fields_naming_a_reference_not_expanded_is_400_saying_to_expand_it(admin, season, path):
    response = admin.get(path.format(june=season["gigs"]["june"]["id"]))
    error = error_of(response, 400, "invalid_query")
    assert error["details"] == {"fields": "'venue' is a reference: embed it with expand=venue to answer with it."}


def test_expand_names_only_references_and_needs_their_view(app, admin, season, role):
    error = error_of(admin.get("/gigs?expand=venue,notes"), 400, "invalid_query")
    assert error["details"] == {
        "expand": "Unknown reference 'notes': this collection expands gig_status, gig_type, venue."
    }
    error = error_of(admin.get("/gigs/" + season["gigs"]["june"]["id"] + "?expand=gig"), 400, "invalid_query")
    assert "expand" in error["details"]
    role("rostering", "staffing.view")
    caller = admin.with_token(make_token(make_user(roles=["rostering"])))
    error = error_of(caller.get("/gig-roles?expand=staff_member"), 403, "forbidden")
    assert error["details"] == {"required": "people.view"}
    assert error_of(caller.get("/gig-roles?filter[staff_member.last_name]=Müller"), 403, "forbidden")
    # the pay of an embedded role reads as null to a caller who may not view pay, and cannot be filtered on
    role("booker", "staffing.view", "gigs.view")
    booker = admin.with_token(make_token(make_user(roles=["booker"])))
    invitation = admin.post(
        "/gig-role-invitations",
        json={"gig_role_id": season["roles"]["june"]["id"], "staff_member_id": season["anna"]["id"]},
    ).get_json()["data"]
    embedded = data(booker.get(f"/gig-role-invitations/{invitation['id']}?expand=gig_role"))["gig_role"]
    assert embedded["pay_cents"] is None and embedded["gig_id"] == season["gigs"]["june"]["id"]
    assert (
        data(admin.get(f"/gig-role-invitations/{invitation['id']}?expand=gig_role"))["gig_role"]["pay_cents"] == 25000
    )
    error = error_of(booker.get("/gig-role-invitations?filter[gig_role.pay_cents][gt]=0"), 403, "forbidden")
    assert error["details"] == {"required": "pay.view"}


def test_filters_and_sorts_go_one_hop_through_a_reference(admin, season):
    def titles(query):
        return [g["title"] for g in data(admin.get(f"/gigs?{query}"))]

    assert titles("filter[venue.city]=Wien") == ["Firmenfeier Kapsch"]
    assert titles("filter[venue.city][gte]=E&filter[venue.city][lt]=F") == ["Huber–Maier Hochzeit"]
    # a gig without a venue reads its venue's fields as null, as in a sort: ne, nin and is_null take it
    assert titles("filter[venue.city][ne]=Wien&sort=gig_date") == ["Garden party", "Huber–Maier Hochzeit"]
    assert titles("filter[venue.name][is_null]=true") == ["Garden party"]
    assert titles("sort=-venue.name") == ["Firmenfeier Kapsch", "Huber–Maier Hochzeit", "Garden party"]
    assert titles("sort=venue.name,-gig_date&fields=title") == [
        "Garden party",
        "Huber–Maier Hochzeit",
        "Firmenfeier Kapsch",
    ]
    july = data(
        admin.get("/gig-roles?filter[gig.title]=Firmenfeier Kapsch&filter[staff_member.email][eq]=anna@band.example")
    )
    assert [r["id"] for r in july] == [season["roles"]["july"]["id"]]
    # the total counts through the reference too, also when the page is full
    page = admin.get("/gig-roles?filter[gig.gig_date][gte]=2027-06-01&limit=1").get_json()
    assert page["meta"]["total"] == 2 and len(page["data"]) == 1
    page = admin.get("/gigs?sort=venue.name&limit=1").get_json()  # a join that only sorts counts every record
    assert page["meta"]["total"] == 3 and page["data"][0]["title"] == "Garden party"


@pytest.mark.parametrize(
    "query, message",
    [
        ("filter[venue.nope]=x", "Unknown field 'nope' of venue."),
        ("filter[venue.custom_fields]=x", "Unknown field 'custom_fields' of venue."),
        ("filter[gig_status.kind]=party", "Expected one of inquiry, tentative, confirmed, completed, cancelled."),
        ("filter[venue.city][gt]=" + "x" * 201, "A filter value is at most 200 characters."),
        ("sort=venue.gig_status.name", "Unknown field 'gig_status.name' of venue."),
        ("filter[place.city]=Wien", "Unknown field 'place.city'."),
    ],
)
def test_a_bad_hop_is_400_naming_the_parameter(admin, season, query, message):
    error = error_of(admin.get(f"/gigs?{query}"), 400, "invalid_query")
    assert list(error["details"].values()) == [message]


def test_q_finds_records_whose_words_begin_with_every_word_given(admin, season, build):
    def found(collection, q):
        return sorted(r["id"] for r in data(admin.get(f"/{collection}?q={q}")))

    june, july = season["gigs"]["june"]["id"], season["gigs"]["july"]["id"]
    assert found("gigs", "hoch") == [june]
    assert found("gigs", "MAIER huber") == [june]
    assert found("gigs", "maier kapsch") == []
    assert found("venues", "wien") == [season["keller"]["id"]]
    assert found("venues", "schlosshof") == [season["hof"]["id"]]  # the e-mail's words count
    assert found("staff-members", "drums") == []  # notes are not searched
    assert found("staff-members", "anna@band") == [season["anna"]["id"]]
    assert found("gigs", "huber–mai") == [june]  # a word of several runs is a phrase of them
    assert found("gigs", "hoch&filter[gig_date][gt]=2027-07-01") == []
    # the index follows every write
    admin.patch(f"/gigs/{july}", json={"title": "Hochzeit Kapsch"})
    assert found("gigs", "hoch") == sorted([june, july])
    admin.delete(f"/gig-roles/{season['roles']['june']['id']}")
    assert admin.delete(f"/gigs/{june}").status_code == 204
    assert found("gigs", "hoch") == [july]


@pytest.mark.parametrize(
    "collection, q, message",
    [
        ("gigs", "a", "Each word has at least 2 characters: 'a' is shorter."),
        ("gigs", "hoch%20m", "Each word has at least 2 characters: 'm' is shorter."),
        ("gigs", "%20%20", "Give at least one word."),
        ("gigs", "aa bb cc dd ee ff gg hh ii", "At most 8 words."),
        ("gigs", "x" * 201, "A filter value is at most 200 characters."),
        ("gig-roles", "singer", "This list has no text fields to search."),
    ],
)
def test_a_bad_q_is_400(admin, collection, q, message):
    assert error_of(admin.get(f"/{collection}?q={q}"), 400, "invalid_query")["details"] == {"q": message}


def test_q_takes_quotes_and_search_syntax_as_plain_words(admin, season):
    for q in ('"hoch', 'hoch"', "hoch*", "NEAR(hoch)", "hoch OR kapsch", "title:hoch", "-hoch", "^hoch"):
        assert admin.get(f"/gigs?q={q}").status_code == 200, q
    assert set(error_of(admin.get("/gigs?q=ho%00ch"), 400, "invalid_query")["details"]) == {"q"}  # no text holds U+0000
    assert [g["title"] for g in data(admin.get('/gigs?q="Huber"'))] == ["Huber–Maier Hochzeit"]
    # only spaces part words: a tab or a line break inside one is a word boundary of the phrase it makes
    assert [g["title"] for g in data(admin.get("/gigs?q=huber%09mai"))] == ["Huber–Maier Hochzeit"]
    # a last run of one letter asks for that word, not for every word that begins with it
    assert data(admin.get("/gigs?q=huber%20h.")) == []
    assert [g["title"] for g in data(admin.get("/gigs?q=hochzeit%20maier-h."))] == []


def test_every_collection_with_text_to_search_has_a_search_index_of_exactly_those_fields(app):
    for resource in RESOURCES:
        assert dialect.search_columns(resource.model._meta.table_name) == list(resource.searched), resource.name
    assert {r.name for r in RESOURCES if r.searched} >= {"gigs", "staff-members", "contacts", "venues", "gig-songs"}


@pytest.mark.parametrize(
    "q",
    [
        "ab",
        "  ab  ",
        "ab  cd",
        "a b",
        "\tab",
        "ab\u00a0c",
        "\U0001f483\U0001f483",
        "\U0001f483",
        "\x1cab\x1c",
        " ".join(["ab"] * 8),
        " ".join(["ab"] * 9),
        "a" * 200,
        "a" * 201,
    ],
)
def test_the_documented_pattern_of_q_is_what_the_service_takes(admin, document_q, q):
    documented = re.fullmatch(document_q["pattern"], q) is not None and len(q) <= document_q["maxLength"]
    r = admin.get("/gigs", query_string={"q": q})
    assert (r.status_code == 200) == documented, (q, r.get_json())


@pytest.fixture
def document_q(anon):
    parameters = anon.get("/openapi.json").get_json()["paths"]["/gigs"]["get"]["parameters"]
    return next(p["schema"] for p in parameters if p["name"] == "q")


def test_a_sort_through_a_reference_that_may_be_null_pages_as_one_order(admin, build, season):
    """Roles without a member first (by id), then by the member's last name, the member and id; the same order
    backwards, and page after page, filtered or not (the two walks it is read from merge into one order)."""
    singer, gig = season["singer"], season["gigs"]["may"]
    members = [build("staff-members", first_name=f"M{n}", last_name=name) for n, name in enumerate("BAB")]
    roles = [build("gig-roles", gig_id=gig["id"], role_id=singer["id"], pay_cents=100 * n) for n in range(9)]
    for role, member in zip(roles, [*members, *members]):
        admin.patch(f"/gig-roles/{role['id']}", json={"staff_member_id": member["id"]})
    listed = data(admin.get("/gig-roles?limit=200&expand=staff_member"))

    def key(role):
        member = role["staff_member"]
        return (member is not None, member and member["last_name"], member and member["id"], role["id"])

    for query in ("", "&filter[pay_cents][gte]=300"):
        expected = [r["id"] for r in sorted(listed, key=key) if not query or r["pay_cents"] >= 300]
        for sort, order in (("staff_member.last_name", expected), ("-staff_member.last_name", expected[::-1])):
            pages = [data(admin.get(f"/gig-roles?sort={sort}&limit=2&offset={at}{query}")) for at in range(0, 14, 2)]
            assert [r["id"] for page in pages for r in page] == order, (sort, query)


@pytest.mark.parametrize("sort", ["moment.position", "-moment.position"])
def test_a_sort_through_a_reference_that_may_be_null_by_a_number_places_the_rows_without_it_as_nulls(
    admin, build, season, sort
):
    """A number (or a boolean) through the reference: on PostgreSQL the rows without the record were keyed by the
    reference's text, which cannot be merged with the numbers (a 500 before)."""
    gig = season["gigs"]["may"]
    moments = [build("moments", name=f"Moment {n}", position=n) for n in (2, 1)]
    made = [build("gig-moments", gig_id=gig["id"], name="Own words")]
    made += [build("gig-moments", gig_id=gig["id"], name=m["name"], moment_id=m["id"]) for m in moments]
    listed = data(admin.get(f"/gig-moments?sort={sort}&filter[gig_id][eq]={gig['id']}"))
    names = ["Own words", "Moment 1", "Moment 2"]  # nulls first ascending, last descending (SPEC §2.1)
    assert [m["name"] for m in listed] == (names if sort[0] != "-" else names[::-1])
    assert len(listed) == len(made)
