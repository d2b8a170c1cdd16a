"""SPEC §12.1, the first day of a real office: a new database ships the gig statuses and types every office needs
(a migration adds them to an office that has none), and the office's own settings live in the database, read by
anyone signed in and changed by an admin under /office; the BAND_* settings are the defaults of a new database only."""

import pytest

from app import configure
from domain import signed_links
from models import db
from storage import migrations
from tests.support import postgresql
from tests.support.api import Api, error_of
from tests.support.database import release_database
from tests.support.mail import mails, text_of
from tests.support.notified import Office, send_what_is_due
from tests.support.records import NO_LETTERHEAD
from tests.support.users import make_token, make_user

STATUSES = [
    ("Inquiry", "inquiry", 1, "#F2C94C", True),
    ("Hold", "tentative", 2, "#F2994A", False),
    ("Confirmed", "confirmed", 3, "#27AE60", False),
    ("Completed", "completed", 4, "#2D9CDB", False),
    ("Cancelled", "cancelled", 5, "#9E9E9E", False),
]
TYPES = {"Wedding", "Corporate", "Private party"}
NOTHING_DONE = {"office": False, "product": False, "ensemble": False, "musicians": False, "gig": False}


def statuses(api):
    found = api.get("/gig-statuses?limit=100").get_json()["data"]
    return sorted((s["name"], s["kind"], s["position"], s["color"], s["is_default"]) for s in found)


def type_names(api):
    return {t["name"] for t in api.get("/gig-types?limit=100").get_json()["data"]}


def test_a_new_office_has_the_gig_statuses_and_types_and_a_new_gig_is_an_inquiry(admin, build):
    assert statuses(admin) == sorted(STATUSES)
    assert type_names(admin) == TYPES
    gig = build("gigs")
    inquiry = next(s for s in admin.get("/gig-statuses").get_json()["data"] if s["name"] == "Inquiry")
    assert gig["gig_status_id"] == inquiry["id"]


def test_anyone_signed_in_reads_the_office_and_its_first_day(signed_in, documented):
    for role in ("admin", "office", "staff", "viewer"):
        r = signed_in(role).get("/office")
        assert r.status_code == 200, r.get_json()
        documented.check("GET", "/office", r)
        assert r.get_json() == {
            "data": {
                "name": "Band Office",
                "time_zone": "UTC",
                "currency": "EUR",
                "language": "en",
                "date_style": "dd.mm.yyyy",
                "clock": "24h",
                **NO_LETTERHEAD,
                "logo": None,
                "first_day": NOTHING_DONE,
                "updated_at": None,
            }
        }


def test_an_admin_changes_the_settings_and_the_office_step_is_ticked(admin, signed_in, documented):
    change = {
        "name": "Die Hochzeitsband",
        "time_zone": "Europe/Vienna",
        "currency": "CHF",
        "language": "de-AT",
        "date_style": "dd/mm/yyyy",
        "clock": "12h",
    }
    r = admin.patch("/office", json=change)
    assert r.status_code == 200, r.get_json()
    documented.check("PATCH", "/office", r)
    saved = r.get_json()["data"]
    assert {key: saved[key] for key in change} == change
    assert saved["first_day"] == {**NOTHING_DONE, "office": True} and saved["updated_at"]
    assert signed_in("staff").get("/office").get_json() == {"data": saved}
    r = admin.patch("/office", json={"clock": "24h"})
    assert r.get_json()["data"] == {**saved, "clock": "24h", "updated_at": r.get_json()["data"]["updated_at"]}


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("time_zone", "Europe/Atlantis"),
        ("time_zone", None),
        ("currency", "XYZ"),
        ("currency", "eur"),
        ("date_style", "d.m.yy"),
        ("clock", "25h"),
        ("language", "not a language"),
        ("name", ""),
        ("name", 7),
        ("first_day", {"office": True}),
        ("updated_at", "2027-01-01T00:00:00Z"),
        ("colour", "red"),
    ],
)
def test_a_bad_value_is_refused_at_its_field_and_changes_nothing(admin, documented, field, value):
    before = admin.get("/office").get_json()
    r = admin.patch("/office", json={"name": "Kept out", field: value})
    documented.check("PATCH", "/office", r)
    assert list(error_of(r, 422, "validation_failed")["details"]) == [field]
    assert admin.get("/office").get_json() == before


def test_only_an_admin_changes_the_office(signed_in, anon):
    for role in ("office", "staff", "viewer"):
        r = signed_in(role).patch("/office", json={"name": "Mine now"})
        assert error_of(r, 403, "forbidden")["details"] == {"required": "admin.edit"}
    error_of(anon.get("/office"), 401, "unauthenticated")
    assert signed_in("viewer").get("/office").get_json()["data"]["name"] == "Band Office"


def test_the_first_day_ticks_each_step_once_it_is_done(admin, build):
    def first_day():
        return admin.get("/office").get_json()["data"]["first_day"]

    build("products")
    build("ensemble-roles")
    assert first_day() == NOTHING_DONE
    build("prices")
    assert first_day() == {**NOTHING_DONE, "product": True}
    ensemble_role = build("ensemble-roles")
    build("rates", role_id=ensemble_role["role_id"])
    assert first_day() == {**NOTHING_DONE, "product": True, "ensemble": True}
    build("staff-members")
    build("gigs")
    assert first_day() == {**NOTHING_DONE, "product": True, "ensemble": True, "musicians": True, "gig": True}


def elsewhere(tmp_path, name):
    """A new folder of the test's, for a database of its own."""
    (tmp_path / name).mkdir()
    return postgresql.location(tmp_path / name)


def fresh_office(app, tmp_path, **settings):
    """The app on a new database of the test's own, migrated with `settings`, and an admin's client of it."""
    release_database()
    configure(app, {"DB": elsewhere(tmp_path, "fresh"), "BACKUP_DIR": str(tmp_path), **settings})
    with app.app_context():
        migrations.upgrade()
        signed_links.make_secret_key()
    return Api(app.test_client(), make_token(make_user(roles=("admin",))))


def test_a_new_database_takes_its_settings_from_the_environment_once(app, tmp_path):
    first = {"OFFICE_NAME": "Swing Kings", "TIMEZONE": "Europe/Vienna", "CURRENCY": "GBP"}
    more = {"LANGUAGE": "en-GB", "DATE_STYLE": "dd/mm/yyyy", "CLOCK": "12h"}
    admin = fresh_office(app, tmp_path, **first, **more)
    expected = {
        "name": "Swing Kings",
        "time_zone": "Europe/Vienna",
        "currency": "GBP",
        "language": "en-GB",
        "date_style": "dd/mm/yyyy",
        "clock": "12h",
    }
    office = admin.get("/office").get_json()["data"]
    assert {key: office[key] for key in expected} == expected
    release_database()
    location = app.config["DB"]
    configure(app, {"DB": location, "OFFICE_NAME": "Other", "TIMEZONE": "Asia/Tokyo", "CURRENCY": "JPY"})
    with app.app_context():
        migrations.upgrade()
    office = admin.get("/office").get_json()["data"]
    assert {key: office[key] for key in expected} == expected


def office_at_step_13(app, tmp_path, *rows):
    """A database as step 13 left it, holding `rows` (SQL written with `?`), then migrated to the last step."""
    release_database()
    configure(app, {"DB": elsewhere(tmp_path, "old"), "BACKUP_DIR": str(tmp_path), "CURRENCY": "USD"})
    with app.app_context():
        migrations.upgrade(migrations.steps()[:13])
        for sql in rows:
            db.execute_sql(sql)
        migrations.upgrade()
        signed_links.make_secret_key()
    return Api(app.test_client(), make_token(make_user(roles=("admin",))))


def test_the_migration_gives_an_office_without_statuses_and_types_the_first_days(app, tmp_path):
    admin = office_at_step_13(app, tmp_path)
    assert statuses(admin) == sorted(STATUSES)
    assert type_names(admin) == TYPES
    assert admin.get("/office").get_json()["data"]["currency"] == "USD"


OWN_STATUS = """INSERT INTO gig_statuses (id, created_at, updated_at, name, kind, position, color, is_default)
  VALUES ('00000000-0000-4000-8000-000000000001', '2026-01-01T00:00:00.000000Z', '2026-01-01T00:00:00.000000Z',
  'Booked', 'confirmed', 1, NULL, {true})"""


def test_the_migration_leaves_an_office_its_own_statuses_and_adds_only_the_types_it_lacks(app, tmp_path):
    true = "TRUE" if postgresql.on_postgresql() else "1"
    admin = office_at_step_13(app, tmp_path, OWN_STATUS.format(true=true))
    assert statuses(admin) == [("Booked", "confirmed", 1, None, True)]
    assert type_names(admin) == TYPES


def test_an_invitation_mail_and_its_answer_page_speak_the_offices_zone_style_clock_and_money(app, anon, admin, build):
    office_settings = {"time_zone": "America/New_York", "date_style": "mm/dd/yyyy", "clock": "12h", "currency": "USD"}
    assert admin.patch("/office", json=office_settings).status_code == 200
    office = Office(app, admin, build, gig_date="2029-12-22")
    office.change_gig(venue_id=office.other_venue["id"])  # a venue without a zone of its own
    app.config["NOTIFY_DELAY_SECONDS"] = 0  # due at once (0.01 s: after a fast sender looked)
    invitation = office.invite(office.alex, expires_at="2030-01-15T01:49:00Z")
    send_what_is_due(app)
    [mail] = mails(app, "alex@example.com")
    text = text_of(mail)
    answer_by = "Mon 01/14/2030, 8:49 PM EST"  # New York's evening before
    assert mail["Subject"] == "Invitation: Bass at Müller wedding, Sat 12/22/2029"
    for fact in (f"Please answer by {answer_by}.", "Sat 12/22/2029, 6:00 PM–11:00 PM", "5:00 PM", "350.00 USD"):
        assert fact in text, (fact, text)
    token = signed_links.answer_link(app.config, invitation["id"]).split("#token=")[1]
    preview = anon.post("/invitations/preview", json={"token": token}).get_json()["data"]
    assert (preview["answer_by"], preview["pay"]["currency"]) == (answer_by, "USD")
