"""SPEC §4.1 and §5.1: the rules on the children of gigs: products and their catalog price, the ensemble
offered, moments, songs, contacts (the catalog's joins: test_catalog_joins.py)."""

import pytest

from tests.support.api import error_of, keys_of, read, without_stamps

GIG_DATE = "2027-06-12"


# --- §5.1: a new gig product takes the catalog price ------------------------------------------------------

# Each scenario: the prices of a product (ensemble "E" is the gig product's, "other" another one), the gig
# product's ensemble, and the price it should get on a gig dated GIG_DATE.
PRICE_SCENARIOS = {
    "no price at all": ([], None, None),
    "open at both ends": ([dict(amount=100)], None, 100),
    "valid from the gig's date": ([dict(amount=100, valid_from=GIG_DATE)], None, 100),
    "valid to the gig's date": ([dict(amount=100, valid_to=GIG_DATE)], None, 100),
    "valid on the gig's date only": ([dict(amount=100, valid_from=GIG_DATE, valid_to=GIG_DATE)], None, 100),
    "starts the day after": ([dict(amount=100, valid_from="2027-06-13")], None, None),
    "ended the day before": ([dict(amount=100, valid_to="2027-06-11")], None, None),
    "range holding the date": ([dict(amount=100, valid_from="2027-01-01", valid_to="2027-12-31")], None, 100),
    "ranges missing the date": (
        [dict(amount=100, valid_from="2026-01-01", valid_to="2026-12-31"), dict(amount=200, valid_from="2028-01-01")],
        None,
        None,
    ),
    "the newest valid_from wins": (
        [
            dict(amount=100, valid_from="2027-01-01"),
            dict(amount=200, valid_from="2027-06-01"),
            dict(amount=300, valid_from="2026-01-01"),
        ],
        None,
        200,
    ),
    "a dated price beats an open start": (
        [dict(amount=200, valid_from="2027-03-01"), dict(amount=100)],
        None,
        200,
    ),
    "a price not valid yet is ignored": (
        [dict(amount=100, valid_from="2027-01-01"), dict(amount=200, valid_from="2027-07-01")],
        None,
        100,
    ),
    "the ensemble's price beats a newer one for any ensemble": (
        [dict(amount=200, ensemble="E", valid_from="2026-01-01"), dict(amount=100, valid_from="2027-06-01")],
        "E",
        200,
    ),
    "the ensemble's price beats an open one for any ensemble": (
        [dict(amount=100), dict(amount=200, ensemble="E")],
        "E",
        200,
    ),
    "any ensemble's price when the ensemble has none": (
        [dict(amount=100), dict(amount=300, ensemble="other")],
        "E",
        100,
    ),
    "another ensemble's price is never taken": ([dict(amount=300, ensemble="other")], "E", None),
    "no ensemble on the gig product: ensemble prices do not match": ([dict(amount=300, ensemble="E")], None, None),
    "no ensemble on the gig product: the price for any ensemble": (
        [dict(amount=300, ensemble="E"), dict(amount=100)],
        None,
        100,
    ),
    "the ensemble's price out of range falls back": (
        [dict(amount=300, ensemble="E", valid_to="2027-01-01"), dict(amount=100)],
        "E",
        100,
    ),
    "the newest of the ensemble's prices": (
        [
            dict(amount=300, ensemble="E", valid_from="2027-01-01"),
            dict(amount=350, ensemble="E", valid_from="2027-05-01"),
            dict(amount=100, valid_from="2027-06-10"),
            dict(amount=400, ensemble="E", valid_from="2027-06-13"),
        ],
        "E",
        350,
    ),
}


@pytest.mark.parametrize("prices, ensemble, expected", list(PRICE_SCENARIOS.values()), ids=list(PRICE_SCENARIOS))
def test_a_new_gig_product_takes_the_catalog_price(admin, build, prices, ensemble, expected):
    ensembles = {"E": build.id("ensembles"), "other": build.id("ensembles"), None: None}
    product_id = build.id("products")
    build("prices", amount_cents=999)  # another product's price is never taken
    for price in prices:
        fields = {k: v for k, v in price.items() if k in ("valid_from", "valid_to")}
        build(
            "prices",
            product_id=product_id,
            amount_cents=price["amount"],
            ensemble_id=ensembles[price.get("ensemble")],
            **fields,
        )
    gig_id = build.id("gigs", gig_date=GIG_DATE)
    created = admin.create(
        "gig-products", {"gig_id": gig_id, "product_id": product_id, "ensemble_id": ensembles[ensemble]}
    )
    assert without_stamps(created) == {
        "gig_id": gig_id,
        "product_id": product_id,
        "ensemble_id": ensembles[ensemble],
        "start_time": None,
        "end_time": None,
        "price_cents": expected,
        "notes": None,
        "position": None,
    }
    assert read(admin, "gig-products", created["id"]) == created


def test_the_gig_date_decides_which_price(admin, build):
    product_id = build.id("products")
    build("prices", product_id=product_id, amount_cents=100, valid_to="2026-12-31")
    build("prices", product_id=product_id, amount_cents=200, valid_from="2027-01-01")
    for gig_date, expected in (("2026-12-31", 100), ("2027-01-01", 200), ("2025-05-05", 100), ("2030-01-01", 200)):
        gig_id = build.id("gigs", gig_date=gig_date)
        assert admin.create("gig-products", {"gig_id": gig_id, "product_id": product_id})["price_cents"] == expected


def test_an_explicit_price_is_kept_even_null(admin, build):
    product_id = build.id("products")
    build("prices", product_id=product_id, amount_cents=150000)
    gig_id = build.id("gigs")
    body = {"gig_id": gig_id, "product_id": product_id}
    assert admin.create("gig-products", body)["price_cents"] == 150000
    assert admin.create("gig-products", {**body, "price_cents": 99})["price_cents"] == 99
    assert admin.create("gig-products", {**body, "price_cents": 0})["price_cents"] == 0
    assert admin.create("gig-products", {**body, "price_cents": None})["price_cents"] is None


def test_only_a_new_gig_product_is_priced(admin, build):
    product_id, ensemble_id = build.id("products"), build.id("ensembles")
    build("prices", product_id=product_id, amount_cents=100)
    created = build("gig-products", product_id=product_id)
    build("prices", product_id=product_id, ensemble_id=ensemble_id, amount_cents=200)
    r = admin.patch(f"/gig-products/{created['id']}", json={"ensemble_id": ensemble_id, "notes": "Bigger band"})
    assert r.status_code == 200 and r.get_json()["data"]["price_cents"] == 100
    r = admin.patch(f"/gig-products/{created['id']}", json={"price_cents": None})
    assert r.status_code == 200 and r.get_json()["data"]["price_cents"] is None


# --- gig products: the ensemble offered for the product -------------------------------------------------


def test_the_ensemble_must_be_offered_when_the_product_has_product_ensembles(admin, build):
    offered, other, third = build.id("ensembles"), build.id("ensembles"), build.id("ensembles")
    product_id = build.id("products")
    build("product-ensembles", product_id=product_id, ensemble_id=offered)
    gig_id = build.id("gigs")
    body = {"gig_id": gig_id, "product_id": product_id}

    r = admin.post("/gig-products", json={**body, "ensemble_id": other})
    assert keys_of(r) == {"ensemble_id"}
    assert admin.get(f"/gig-products?filter[gig_id]={gig_id}").get_json()["meta"]["total"] == 0
    assert admin.create("gig-products", {**body, "ensemble_id": offered})["ensemble_id"] == offered
    created = admin.create("gig-products", body)  # no ensemble at all is fine
    assert created["ensemble_id"] is None

    r = admin.patch(f"/gig-products/{created['id']}", json={"ensemble_id": other})
    assert keys_of(r) == {"ensemble_id"}
    assert read(admin, "gig-products", created["id"]) == created

    build("product-ensembles", product_id=product_id, ensemble_id=other)  # now it is offered too
    r = admin.patch(f"/gig-products/{created['id']}", json={"ensemble_id": other})
    assert r.status_code == 200 and r.get_json()["data"]["ensemble_id"] == other
    assert keys_of(admin.post("/gig-products", json={**body, "ensemble_id": third})) == {"ensemble_id"}


def test_any_ensemble_goes_when_the_product_has_no_product_ensembles(admin, build):
    product_id = build.id("products")
    build("product-ensembles", ensemble_id=build.id("ensembles"))  # another product's offer does not bind it
    for _ in range(2):
        ensemble_id = build.id("ensembles")
        assert build("gig-products", product_id=product_id, ensemble_id=ensemble_id)["ensemble_id"] == ensemble_id


def test_changing_the_product_rechecks_the_ensemble(admin, build):
    ensemble_id = build.id("ensembles")
    strict = build.id("products")
    build("product-ensembles", product_id=strict, ensemble_id=build.id("ensembles"))
    created = build("gig-products", ensemble_id=ensemble_id)  # its own product offers no ensembles
    r = admin.patch(f"/gig-products/{created['id']}", json={"product_id": strict})
    assert keys_of(r) == {"ensemble_id"}
    assert read(admin, "gig-products", created["id"]) == created


# --- gig moments ---------------------------------------------------------------------------------------


def test_a_gig_moment_needs_a_name_or_a_moment(admin, build):
    gig_id = build.id("gigs")
    for body in ({}, {"name": None}, {"name": "   "}, {"moment_id": None}, {"notes": "First dance"}):
        details = keys_of(admin.post("/gig-moments", json={"gig_id": gig_id, **body}))
        assert details and details <= {"name", "moment_id"}, body
    r = admin.post("/gig-moments", json={"gig_id": gig_id, "moment_id": "00000000-0000-4000-8000-000000000000"})
    assert keys_of(r) == {"moment_id"}
    assert admin.get(f"/gig-moments?filter[gig_id]={gig_id}").get_json()["meta"]["total"] == 0


def test_a_gig_moments_name_defaults_to_the_moments(admin, build):
    moment = build("moments", name="First dance")
    gig_id = build.id("gigs")
    created = admin.create("gig-moments", {"gig_id": gig_id, "moment_id": moment["id"], "time": "21:00"})
    assert without_stamps(created) == {
        "gig_id": gig_id,
        "moment_id": moment["id"],
        "name": "First dance",
        "time": "21:00",
        "gig_product_id": None,
        "notes": None,
        "position": None,
        "proposed_time": None,  # the couple's wish (SPEC §16)
        "proposed_note": None,
    }
    named = admin.create("gig-moments", {"gig_id": gig_id, "moment_id": moment["id"], "name": "Our song"})
    assert (named["name"], named["moment_id"]) == ("Our song", moment["id"])
    assert admin.create("gig-moments", {"gig_id": gig_id, "name": "Cake"})["moment_id"] is None


def test_a_gig_moments_gig_product_is_of_the_same_gig(admin, build):
    gig_id, other_gig_id = build.id("gigs"), build.id("gigs")
    mine = build.id("gig-products", gig_id=gig_id)
    theirs = build.id("gig-products", gig_id=other_gig_id)
    r = admin.post("/gig-moments", json={"gig_id": gig_id, "name": "Ceremony", "gig_product_id": theirs})
    assert keys_of(r) == {"gig_product_id"}
    created = admin.create("gig-moments", {"gig_id": gig_id, "name": "Ceremony", "gig_product_id": mine})
    assert created["gig_product_id"] == mine
    assert keys_of(admin.patch(f"/gig-moments/{created['id']}", json={"gig_product_id": theirs})) == {"gig_product_id"}
    assert read(admin, "gig-moments", created["id"]) == created
    r = admin.patch(f"/gig-moments/{created['id']}", json={"gig_product_id": None})
    assert r.status_code == 200 and r.get_json()["data"]["gig_product_id"] is None


# --- gig songs -----------------------------------------------------------------------------------------


def test_a_gig_song_needs_a_title_or_a_song(admin, build):
    gig_id = build.id("gigs")
    for body in ({}, {"title": None}, {"title": "  "}, {"artist": "ABBA"}, {"song_id": None}):
        details = keys_of(admin.post("/gig-songs", json={"gig_id": gig_id, **body}))
        assert details and details <= {"title", "song_id"}, body
    r = admin.post("/gig-songs", json={"gig_id": gig_id, "song_id": "00000000-0000-4000-8000-000000000000"})
    assert keys_of(r) == {"song_id"}
    assert admin.get(f"/gig-songs?filter[gig_id]={gig_id}").get_json()["meta"]["total"] == 0


def test_a_gig_songs_title_and_artist_default_from_the_song(admin, build):
    song = build("songs", title="Dancing Queen", artist="ABBA")
    gig_id = build.id("gigs")
    created = admin.create("gig-songs", {"gig_id": gig_id, "song_id": song["id"]})
    assert without_stamps(created) == {
        "gig_id": gig_id,
        "song_id": song["id"],
        "title": "Dancing Queen",
        "artist": "ABBA",
        "kind": "request",
        "gig_moment_id": None,
        "notes": None,
        "position": None,
        "link": None,
        "from_client": False,  # the office's, not the couple's (SPEC §16)
    }
    covered = admin.create("gig-songs", {"gig_id": gig_id, "song_id": song["id"], "artist": "The Band"})
    assert (covered["title"], covered["artist"]) == ("Dancing Queen", "The Band")
    renamed = admin.create("gig-songs", {"gig_id": gig_id, "song_id": song["id"], "title": "DQ", "artist": "A"})
    assert (renamed["title"], renamed["artist"]) == ("DQ", "A")
    no_artist = build("songs", title="Traditional", artist=None)
    created = admin.create("gig-songs", {"gig_id": gig_id, "song_id": no_artist["id"]})
    assert (created["title"], created["artist"]) == ("Traditional", None)
    loose = admin.create("gig-songs", {"gig_id": gig_id, "title": "Not in the catalog"})
    assert (loose["song_id"], loose["artist"], loose["kind"]) == (None, None, "request")


def test_a_gig_songs_kind(admin, build):
    gig_id = build.id("gigs")
    for kind in ("request", "do_not_play", "setlist"):
        assert admin.create("gig-songs", {"gig_id": gig_id, "title": kind, "kind": kind})["kind"] == kind
    for kind in ("playlist", "", None, "Request"):
        assert keys_of(admin.post("/gig-songs", json={"gig_id": gig_id, "title": "x", "kind": kind})) == {"kind"}


def test_a_gig_songs_gig_moment_is_of_the_same_gig(admin, build):
    gig_id, other_gig_id = build.id("gigs"), build.id("gigs")
    mine = build.id("gig-moments", gig_id=gig_id)
    theirs = build.id("gig-moments", gig_id=other_gig_id)
    r = admin.post("/gig-songs", json={"gig_id": gig_id, "title": "Hallelujah", "gig_moment_id": theirs})
    assert keys_of(r) == {"gig_moment_id"}
    created = admin.create("gig-songs", {"gig_id": gig_id, "title": "Hallelujah", "gig_moment_id": mine})
    assert created["gig_moment_id"] == mine
    assert keys_of(admin.patch(f"/gig-songs/{created['id']}", json={"gig_moment_id": theirs})) == {"gig_moment_id"}
    assert read(admin, "gig-songs", created["id"]) == created


# --- gig contacts --------------------------------------------------------------------------------------


def test_a_contact_is_on_a_gig_once(admin, build):
    gig_id, contact_id = build.id("gigs"), build.id("contacts")
    build("gig-contacts", gig_id=gig_id, contact_id=contact_id)
    r = admin.post("/gig-contacts", json={"gig_id": gig_id, "contact_id": contact_id, "relationship": "Bride"})
    assert error_of(r, 409, "already_exists")["details"] == {"fields": ["gig_id", "contact_id"]}
    assert build("gig-contacts", contact_id=contact_id)["contact_id"] == contact_id  # on another gig
    other = build("gig-contacts", gig_id=gig_id)
    r = admin.patch(f"/gig-contacts/{other['id']}", json={"contact_id": contact_id})
    assert error_of(r, 409, "already_exists")["details"] == {"fields": ["gig_id", "contact_id"]}
    assert read(admin, "gig-contacts", other["id"]) == other


def test_setting_is_primary_clears_it_on_the_gigs_other_contacts_only(admin, build):
    gig_id, other_gig_id = build.id("gigs"), build.id("gigs")
    first = build("gig-contacts", gig_id=gig_id, is_primary=True)
    second = build("gig-contacts", gig_id=gig_id)
    elsewhere = build("gig-contacts", gig_id=other_gig_id, is_primary=True)
    assert second["is_primary"] is False

    def primaries():
        listed = admin.get("/gig-contacts?filter[is_primary]=true").get_json()["data"]
        return sorted(c["id"] for c in listed)

    third = build("gig-contacts", gig_id=gig_id, is_primary=True)
    assert primaries() == sorted([third["id"], elsewhere["id"]])
    assert read(admin, "gig-contacts", first["id"])["updated_at"] > first["updated_at"]
    assert read(admin, "gig-contacts", elsewhere["id"]) == elsewhere

    r = admin.patch(f"/gig-contacts/{second['id']}", json={"is_primary": True})
    assert r.status_code == 200 and r.get_json()["data"]["is_primary"] is True
    assert primaries() == sorted([second["id"], elsewhere["id"]])

    r = admin.patch(f"/gig-contacts/{second['id']}", json={"is_primary": False})  # clearing sets no other
    assert r.status_code == 200
    assert primaries() == [elsewhere["id"]]
