"""SPEC §4.1: the gigs group's own rules."""

from tests.support.api import error_of


def test_a_new_gig_takes_the_default_status(admin, build):
    [shipped] = admin.get("/gig-statuses?filter[is_default]=true").get_json()["data"]  # Inquiry, of a new database
    assert build("gigs")["gig_status_id"] == shipped["id"]
    status = build("gig-statuses", name="Request", kind="tentative", is_default=True)
    assert build("gigs")["gig_status_id"] == status["id"]
    other = build("gig-statuses", name="Booked", kind="confirmed")
    assert build("gigs", gig_status_id=other["id"])["gig_status_id"] == other["id"]
    assert build("gigs", gig_status_id=None)["gig_status_id"] is None


def test_a_gig_may_run_past_midnight(build):
    gig = build("gigs", start_time="20:00", end_time="02:00")
    assert (gig["start_time"], gig["end_time"]) == ("20:00", "02:00")


def test_venue_fields_are_validated(admin):
    r = admin.post(
        "/venues",
        json={
            "name": "Hall",
            "country": "XX",
            "timezone": "Mars/Olympus",
            "email": "not-an-address",
            "website": "ftp://example.com",
        },
    )
    assert set(error_of(r, 422, "validation_failed")["details"]) == {"country", "timezone", "email", "website"}
    body = {"name": " Hall ", "country": "at", "timezone": "Europe/Vienna", "website": "https://hall.example.com/"}
    venue = admin.create("venues", body)
    assert (venue["name"], venue["country"]) == ("Hall", "AT")
