"""SPEC §16, new couples, through the public API: `POST /v1/inquiries` makes the couple's contact, an inquiry gig,
its primary contact and the products asked for, mails the sender an acknowledgement and tells the users holding
`sales.edit`; a robot's inquiry (the honeypot, the form's token too young, too old, missing or not ours) is
answered alike and kept nowhere; past `BAND_INQUIRY_RATE` 429; a person's typo is a 422 naming the field. `GET
/v1/public/products` and `GET /v1/availability`. The form page itself: tests/test_inquire_page.py."""

import time

import pytest
from itsdangerous import URLSafeSerializer

from app import configure
from domain import signed_links
from service import settings
from tests.support.api import error_of
from tests.support.days import today
from tests.support.inquiries import form_token, inquiry, stored
from tests.support.mail import mails, text_of
from tests.support.notified import send_what_is_due
from tests.support.users import make_token, make_user

RECEIVED = {"data": {"received": True}}


def test_an_inquiry_makes_the_couples_gig_and_tells_them_and_the_office(app, admin, anon, build, documented):
    band = build("products", name="Band, four sets", position=1)
    dj = build("products", name="DJ after midnight", position=2)
    retired = build("products", name="Brass trio", active=False)
    office = make_user(roles=("office",), email="office@band.example")  # holds sales.edit
    viewer = make_user(roles=("viewer",), email="viewer@band.example")
    first_inquiry = build("gig-statuses", name="From the website", kind="inquiry", position=0)  # not the default
    before = stored(admin)
    asked = [dj["id"], retired["id"], band["id"], dj["id"]]

    r = anon.post("/inquiries", json=inquiry(app, product_ids=asked))
    assert r.status_code == 202 and r.get_json() == RECEIVED
    documented.check("POST", "/inquiries", r)

    [gig_id] = stored(admin)["gigs"] - before["gigs"]
    gig = admin.get(f"/gigs/{gig_id}").get_json()["data"]
    assert gig["title"] == "Anna & Ben" and gig["gig_date"] == today(200) and gig["guest_count"] == 120
    assert gig["gig_status_id"] == first_inquiry["id"]
    for words in ("Schloss Elmau", "Krün", "We dance all night.\nSwing, please!"):
        assert words in gig["notes"]
    [contact_id] = stored(admin)["contacts"] - before["contacts"]
    contact = admin.get(f"/contacts/{contact_id}").get_json()["data"]
    assert (contact["first_name"], contact["email"], contact["phone"]) == (
        "Anna & Ben",
        "anna@couple.example",
        "+49 170 1234567",
    )
    [gig_contact] = admin.get(f"/gig-contacts?filter[gig_id]={gig_id}").get_json()["data"]
    assert gig_contact["contact_id"] == contact_id and gig_contact["is_primary"] is True
    products = admin.get(f"/gig-products?filter[gig_id]={gig_id}").get_json()["data"]
    assert sorted(row["product_id"] for row in products) == sorted([band["id"], dj["id"]])  # active ones, once
    history = admin.get(f"/gigs/{gig_id}/history?limit=100").get_json()["data"]
    assert sorted(event["type"] for event in history) == sorted(
        ["gig.created", "gig_contact.created", "gig_product.created", "gig_product.created"]
    )

    def titles(user):
        listed = anon.with_token(make_token(user)).get("/me/notifications").get_json()["data"]
        return [row["title"] for row in listed]

    [news] = titles(office)
    assert news.startswith("New inquiry: Anna & Ben, ") and titles(viewer) == []
    send_what_is_due(app)
    [acknowledgement] = mails(app, "anna@couple.example")
    assert acknowledgement["Subject"].startswith("Your inquiry to ")
    assert "Schloss Elmau" in text_of(acknowledgement) and "Thank you" in text_of(acknowledgement)
    [told] = mails(app, "office@band.example")
    text = text_of(told)
    for words in ("anna@couple.example", "+49 170 1234567", "Band, four sets", "DJ after midnight", "Swing, please!"):
        assert words in text, text
    assert "Brass trio" not in text and mails(app, "viewer@band.example") == []


def test_a_robots_inquiry_is_answered_alike_and_kept_nowhere_and_the_sixth_in_an_hour_is_refused(app, admin, anon):
    configure(app, {**app.config, "INQUIRY_RATE": settings.SETTINGS["INQUIRY_RATE"][0]})  # the default: 5/hour
    before = stored(admin)
    other_key = URLSafeSerializer("not our key", salt=signed_links.FORM_SALT).dumps(int(time.time() * 1000) - 60_000)
    too_young = form_token(app, seconds_ago=-30)  # younger than 3 s at its check however slow this machine is
    robots = [
        inquiry(app, website="https://cheap-pills.example"),  # the honeypot
        inquiry(app, form_token=too_young),  # sent within 3 s of the page
        inquiry(app, form_token=form_token(app, seconds_ago=25 * 3600)),  # a day-old page
        inquiry(app, form_token=other_key),  # a token that is not ours
        {key: value for key, value in inquiry(app).items() if key != "form_token"},
    ]
    for body in robots:
        r = anon.post("/inquiries", json=body)
        assert r.status_code == 202 and r.get_json() == RECEIVED, body
    refused = anon.post("/inquiries", json=inquiry(app))  # a person's, but the 6th from this address this hour
    error = error_of(refused, 429, "rate_limited")
    assert int(refused.headers["Retry-After"]) > 0 and "try again" in error["message"]
    assert stored(admin) == before
    send_what_is_due(app)
    assert mails(app) == []


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"email": "anna@"}, "email"),
        ({"gig_date": today(-1)}, "gig_date"),
        ({"gig_date": today(3 * 366 + 1)}, "gig_date"),
        ({"gig_date": "12.06.2027"}, "gig_date"),
        ({"consent": False}, "consent"),
        ({"consent": "yes"}, "consent"),
        ({"names": "A" * 101}, "names"),
        ({"message": "x" * 5001}, "message"),
        ({"guest_count": 0}, "guest_count"),
        ({"product_ids": ["not-an-id"]}, "product_ids.0"),
        ({"names": ""}, "names"),
        ({"colour": "blue"}, "colour"),
    ],
)
def test_a_typo_is_a_422_naming_the_field_and_keeps_nothing(app, admin, anon, changes, field):
    before = stored(admin)
    error = error_of(anon.post("/inquiries", json=inquiry(app, **changes)), 422, "validation_failed")
    assert list(error["details"]) == [field], error
    assert stored(admin) == before


def test_the_inquiry_rate_is_the_setting(app, anon):
    configure(app, {**app.config, "INQUIRY_RATE": "2/minute"})
    for _ in range(2):
        assert anon.post("/inquiries", json=inquiry(app, website="robot")).status_code == 202
    error_of(anon.post("/inquiries", json=inquiry(app)), 429, "rate_limited")


def test_the_public_products_are_the_active_ones_names_only(app, anon, build, documented):
    band = build("products", name="Band, four sets", description="Our secret set list", position=2)
    dj = build("products", name="DJ", position=1)
    build("products", name="Retired trio", active=False)
    r = anon.get("/public/products")
    assert r.status_code == 200
    documented.check("GET", "/public/products", r)
    listed = r.get_json()["data"]
    assert [row for row in listed if row["id"] in (band["id"], dj["id"])] == [
        {"id": dj["id"], "name": "DJ"},
        {"id": band["id"], "name": "Band, four sets"},
    ]
    assert "Retired trio" not in {row["name"] for row in listed}
    assert all(set(row) == {"id", "name"} for row in listed)


def availability(anon, date):
    return anon.get(f"/availability?date={date}")


def test_a_date_is_taken_once_its_tentative_and_confirmed_gigs_reach_the_gigs_per_day(app, anon, build, documented):
    date = today(90)
    documented.check("GET", "/availability", availability(anon, date))
    hold = build.status("Hold", "tentative")
    confirmed = build.status("Confirmed", "confirmed")
    inquiry_status = build.status("Inquiry", "inquiry")
    build("gigs", gig_date=date, title="Another inquiry", gig_status_id=inquiry_status["id"])
    assert availability(anon, date).get_json() == {"data": {"date": date, "available": True}}
    build("gigs", gig_date=date, title="Müller wedding", gig_status_id=hold["id"])
    assert availability(anon, date).get_json() == {"data": {"date": date, "available": False}}
    configure(app, {**app.config, "GIGS_PER_DAY": 2})
    assert availability(anon, date).get_json()["data"]["available"] is True
    build("gigs", gig_date=date, title="Schmidt wedding", gig_status_id=confirmed["id"])
    answer = availability(anon, date).get_json()
    assert answer == {"data": {"date": date, "available": False}}  # nothing else: no title, no count


def test_a_date_in_the_past_or_beyond_three_years_is_422_and_a_malformed_one_400(anon):
    for date in (today(-1), today(3 * 366 + 1)):
        error = error_of(availability(anon, date), 422, "validation_failed")
        assert list(error["details"]) == ["date"]
    for query in ("date=2027-13-01", "date=2027-W01-1", "", "date=2027-06-12&gig=1"):
        error_of(anon.get(f"/availability?{query}"), 400, "invalid_query")
    assert availability(anon, today(0)).status_code == 200


def test_availability_is_rate_limited_per_address(app, anon):
    configure(app, {**app.config, "AUTH_RATE_LIMIT": "3/minute"})
    for _ in range(3):
        assert availability(anon, today(30)).status_code == 200
    refused = availability(anon, today(30))
    error_of(refused, 429, "rate_limited")
    assert int(refused.headers["Retry-After"]) > 0
