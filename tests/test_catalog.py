"""SPEC §4.2: the catalog group's own rules."""

from tests.support.api import error_of


def test_one_gig_status_is_the_default(admin, build):
    first = build("gig-statuses", is_default=True)
    second = build("gig-statuses", is_default=True)
    defaults = admin.get("/gig-statuses?filter[is_default]=true").get_json()["data"]
    assert [s["id"] for s in defaults] == [second["id"]]
    assert admin.get(f"/gig-statuses/{first['id']}").get_json()["data"]["updated_at"] > first["updated_at"]
    admin.patch(f"/gig-statuses/{first['id']}", json={"is_default": True})
    defaults = admin.get("/gig-statuses?filter[is_default]=true").get_json()["data"]
    assert [s["id"] for s in defaults] == [first["id"]]


def test_gig_status_colour_and_kind_are_checked(admin):
    r = admin.post("/gig-statuses", json={"name": "Odd", "kind": "maybe", "color": "red"})
    assert set(error_of(r, 422, "validation_failed")["details"]) == {"kind", "color"}


def test_names_are_unique(admin, build):
    team = build("teams")
    assert error_of(admin.post("/teams", json={"name": team["name"]}), 409, "already_exists")["details"] == {
        "fields": ["name"]
    }
    other = build("teams")
    r = admin.patch(f"/teams/{other['id']}", json={"name": team["name"]})
    error_of(r, 409, "already_exists")
