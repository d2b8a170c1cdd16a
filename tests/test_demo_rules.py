"""The band a demo writes (`python app.py demo PATH`, SPEC §6) as if the office had entered it through the API: it
obeys the rules of §4 and §5 (no musician on two gigs at once, roles held by active free members, equipment on one
live gig a day, one default each), its counts and copies agree with its rows, its invitations tell one story, its
values are stored in the API's form; the band's season and a booking agency's alike."""

import datetime as dt
import itertools
import json
import re
import types
from collections import Counter, defaultdict

import pytest

from demo.data import STAFF
from dialects import dialect
from domain import rules
from models import MODELS
from tests.support import demos
from tests.support.demos import AGENCY_GIGS, USERS, count, read_only, rows

demo_db, agency_db, demo = demos.demo_db, demos.agency_db, demos.demo
LIVE = "(s.kind IS NULL OR s.kind NOT IN ('completed', 'cancelled'))"
FORMS = {
    "_at": re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z"),
    "_date": re.compile(r"\d{4}-\d{2}-\d{2}"),
    "valid_from": re.compile(r"\d{4}-\d{2}-\d{2}"),
    "valid_to": re.compile(r"\d{4}-\d{2}-\d{2}"),
    "purchased_on": re.compile(r"\d{4}-\d{2}-\d{2}"),
    "time": re.compile(r"([01]\d|2[0-3]):[0-5]\d"),
    "id": re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}"),
}  # column name suffix: the stored form (SPEC §2)
NOW = dialect.NOW.sql  # the time now in the stored form


@pytest.fixture
def season(demo_db):
    connection = read_only(demo_db)
    yield connection
    connection.close()


def test_no_staff_member_is_on_two_live_gigs_at_once(demo):
    gigs = defaultdict(dict)
    for member, gig, *when in rows(
        demo,
        f"""SELECT r.staff_member_id, g.id, g.gig_date, g.start_time, g.end_time FROM gig_roles r
        JOIN gigs g ON g.id = r.gig_id LEFT JOIN gig_statuses s ON s.id = g.gig_status_id
        WHERE r.staff_member_id IS NOT NULL AND {LIVE}""",
    ):
        gigs[member][gig] = types.SimpleNamespace(gig_date=when[0], start_time=when[1], end_time=when[2])
    assert len(gigs) > 20
    for member, played in gigs.items():
        dates = [gig.gig_date for gig in played.values()]
        assert len(dates) == len(set(dates)), member
        windows = sorted(rules.window(gig) for gig in played.values())
        assert not any(rules.overlap(a, b) for a, b in itertools.pairwise(windows)), member


def test_filled_roles_are_held_by_active_free_members(demo):
    assert count(demo, "SELECT * FROM gig_roles WHERE status != 'filled'") > 0
    assert count(demo, "SELECT * FROM gig_roles WHERE status = 'filled'") > count(
        demo, "SELECT * FROM gig_roles WHERE status = 'open'"
    )
    assert count(demo, "SELECT * FROM gig_roles WHERE (staff_member_id IS NULL) != (status = 'open')") == 0, (
        "status is filled exactly when a staff member is set"
    )
    unheld = """SELECT * FROM gig_roles r WHERE r.staff_member_id IS NOT NULL AND NOT EXISTS (
        SELECT 1 FROM staff_member_roles h WHERE h.staff_member_id = r.staff_member_id AND h.role_id = r.role_id)"""
    assert count(demo, unheld) == 0
    inactive = "SELECT * FROM gig_roles r JOIN staff_members m ON m.id = r.staff_member_id WHERE NOT m.active"
    assert count(demo, inactive) == 0
    blocked = """SELECT * FROM gig_roles r JOIN gigs g ON g.id = r.gig_id JOIN staff_member_blockouts b
        ON b.staff_member_id = r.staff_member_id AND g.gig_date BETWEEN b.start_date AND b.end_date"""
    assert count(demo, blocked) == 0


def test_gig_roles_come_from_their_products_ensembles(demo):
    generated = """SELECT r.gig_product_id, r.role_id, COUNT(*) AS n FROM gig_roles r GROUP BY 1, 2"""
    called_for = """SELECT p.id, e.role_id, e.quantity FROM gig_products p
        JOIN ensemble_roles e ON e.ensemble_id = p.ensemble_id"""
    assert sorted(rows(demo, generated)) == sorted(rows(demo, called_for))


def test_equipment_is_available_and_on_one_live_gig_a_day(demo):
    live_equipment = f"""SELECT e.equipment_id, g.gig_date FROM gig_equipment e JOIN gigs g ON g.id = e.gig_id
        LEFT JOIN gig_statuses s ON s.id = g.gig_status_id WHERE {LIVE}"""
    assert count(demo, live_equipment) > 0
    assert count(demo, f"{live_equipment} GROUP BY 1, 2 HAVING COUNT(*) > 1") == 0
    broken = "SELECT * FROM gig_equipment ge JOIN equipment e ON e.id = ge.equipment_id WHERE e.status != 'available'"
    assert count(demo, broken) == 0
    assert {s for (s,) in rows(demo, "SELECT DISTINCT status FROM equipment")} == {"available", "in_repair", "retired"}


def test_the_catalogue_has_one_default_each(demo):
    assert rows(demo, "SELECT kind FROM gig_statuses WHERE is_default") == [("confirmed",)]
    assert {kind for (kind,) in rows(demo, "SELECT kind FROM gig_statuses")} == {
        "inquiry",
        "tentative",
        "confirmed",
        "completed",
        "cancelled",
    }
    assert count(demo, "SELECT product_id FROM product_ensembles WHERE is_default GROUP BY 1") == count(
        demo, "SELECT * FROM products"
    )
    assert count(demo, "SELECT product_id FROM product_ensembles WHERE is_default GROUP BY 1 HAVING COUNT(*) > 1") == 0


def test_gig_children_belong_to_their_gig(demo):
    moments = "SELECT * FROM gig_moments m JOIN gig_products p ON p.id = m.gig_product_id WHERE p.gig_id != m.gig_id"
    songs = "SELECT * FROM gig_songs s JOIN gig_moments m ON m.id = s.gig_moment_id WHERE m.gig_id != s.gig_id"
    assert count(demo, moments) == count(demo, songs) == 0
    assert count(demo, "SELECT * FROM gig_songs WHERE kind = 'do_not_play'") > 0
    primaries = "SELECT g.id FROM gigs g LEFT JOIN gig_contacts c ON c.gig_id = g.id AND c.is_primary GROUP BY g.id"
    assert count(demo, f"{primaries} HAVING COUNT(c.id) != 1") == 0


def test_the_gig_counts_and_the_roles_copies_agree_with_the_rows(demo):
    """What the triggers keep is what the rows say, whichever way the demo wrote them (its search indexes rebuilt after
    its rows went in, on SQLite)."""
    counted = """SELECT * FROM gigs g WHERE g.role_count != (SELECT COUNT(*) FROM gig_roles r WHERE r.gig_id = g.id)
        OR g.open_role_count != (SELECT COUNT(*) FROM gig_roles r WHERE r.gig_id = g.id AND r.status = 'open')
        OR g.pending_invitation_count != (SELECT COUNT(*) FROM gig_role_invitations i
            JOIN gig_roles r ON r.id = i.gig_role_id WHERE r.gig_id = g.id AND i.status = 'pending')"""
    assert count(demo, counted) == 0
    assert count(demo, "SELECT * FROM gigs WHERE role_count > 0 AND open_role_count > 0") > 0
    assert count(demo, "SELECT * FROM gigs WHERE pending_invitation_count > 0") > 0
    copied = """SELECT * FROM gig_roles r JOIN gigs g ON g.id = r.gig_id
        LEFT JOIN gig_products p ON p.id = r.gig_product_id
        WHERE r.gig_date IS DISTINCT FROM g.gig_date OR r.product_id IS DISTINCT FROM p.product_id
            OR r.gig_status_id IS DISTINCT FROM g.gig_status_id"""
    assert count(demo, copied) == 0
    assert count(demo, "SELECT * FROM gig_roles WHERE product_id IS NOT NULL AND gig_status_id IS NOT NULL") > 0


def test_invitations_tell_a_consistent_story(demo):
    states = f"""SELECT CASE WHEN status = 'pending' AND expires_at <= {NOW} THEN 'expired' ELSE status END
        FROM gig_role_invitations"""
    assert {state for (state,) in rows(demo, states)} == {"pending", "expired", "accepted", "declined", "withdrawn"}
    accepted = """SELECT * FROM gig_role_invitations i JOIN gig_roles r ON r.id = i.gig_role_id
        WHERE i.status = 'accepted' AND r.staff_member_id IS DISTINCT FROM i.staff_member_id"""
    assert count(demo, accepted) == 0
    pending_on_filled = """SELECT * FROM gig_role_invitations i JOIN gig_roles r ON r.id = i.gig_role_id
        WHERE i.status = 'pending' AND r.staff_member_id IS NOT NULL"""
    assert count(demo, pending_on_filled) == 0
    pending_on_closed = """SELECT * FROM gig_role_invitations i JOIN gig_roles r ON r.id = i.gig_role_id
        JOIN gigs g ON g.id = r.gig_id JOIN gig_statuses s ON s.id = g.gig_status_id
        WHERE i.status = 'pending' AND s.kind IN ('completed', 'cancelled')"""
    assert count(demo, pending_on_closed) == 0
    unheld = """SELECT * FROM gig_role_invitations i JOIN gig_roles r ON r.id = i.gig_role_id WHERE NOT EXISTS (
        SELECT 1 FROM staff_member_roles h WHERE h.staff_member_id = i.staff_member_id AND h.role_id = r.role_id)"""
    assert count(demo, unheld) == 0
    answered = (
        "SELECT * FROM gig_role_invitations WHERE (responded_at IS NOT NULL) != (status IN ('accepted', 'declined'))"
    )
    assert count(demo, answered) == 0


def test_a_season_of_gigs(season):
    days = [dt.date.fromisoformat(day) for (day,) in rows(season, "SELECT gig_date FROM gigs")]
    total, today = len(days), dt.date.today()
    assert 60 <= total <= 120
    assert sum(day.weekday() == 5 for day in days) > total / 2  # Saturdays
    assert any(day < today for day in days)
    assert any(day > today + dt.timedelta(days=184) for day in days)
    assert count(season, "SELECT * FROM gigs WHERE end_time < start_time") > 0
    assert count(season, "SELECT * FROM gigs WHERE start_time IS NULL") > 0
    assert count(season, "SELECT * FROM gig_products WHERE price_cents IS NULL") == 0


def test_an_agency_has_the_gigs_asked_for_and_the_staff_for_them(agency_db):
    agency = read_only(agency_db)
    try:
        assert count(agency, "SELECT * FROM gigs") == AGENCY_GIGS
        days = rows(agency, "SELECT gig_date, COUNT(*) FROM gigs GROUP BY 1")
        assert max(n for _, n in days) >= 3 and len(days) >= AGENCY_GIGS / 5
        weekdays = Counter()
        for day, gigs in days:
            weekdays[dt.date.fromisoformat(day).weekday()] += gigs
        assert max(weekdays, key=weekdays.get) == 5, "Saturdays are the busiest"
        assert count(agency, "SELECT * FROM staff_members") > len(STAFF), "more staff than the band has"
        assert count(agency, "SELECT * FROM gig_products WHERE price_cents IS NULL") == 0
    finally:
        agency.close()


def test_values_are_stored_in_the_api_form(demo):
    for model in MODELS:
        table = model._meta.table_name
        for column in [field.column_name for field in model._meta.sorted_fields]:
            form = next((f for suffix, f in FORMS.items() if column.endswith(suffix)), None)
            values = rows(demo, f'SELECT "{column}" FROM "{table}" WHERE "{column}" IS NOT NULL') if form else []
            assert all(form.fullmatch(value) for (value,) in values), (table, column)
    for (day,) in rows(demo, "SELECT gig_date FROM gigs UNION SELECT start_date FROM staff_member_blockouts"):
        dt.date.fromisoformat(day)


def test_every_access_role_has_a_user(demo):
    users = {email: json.loads(roles) for email, roles in rows(demo, "SELECT email, roles FROM users WHERE active")}
    assert {email: roles for email, roles in users.items() if email in USERS} == USERS
    linked = "SELECT * FROM staff_members m JOIN users u ON u.id = m.user_id WHERE u.active"
    assert count(demo, linked) >= 3
