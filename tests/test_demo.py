"""The demo band office of `python app.py demo PATH` (SPEC §6) and the committed `band.db.example`: the example
keeps the current schema and holds no secret, the command writes the same band for the same day and leaves the
app's own database alone, and the app serves a demo (its search, the musician's view, the money's story).
What the band a demo writes must obey is test_demo_rules.py's. On PostgreSQL a demo is a new database of the test
server (the example, a SQLite file, is SQLite's alone)."""

import datetime as dt
import json
import random
import re
import shutil
import sqlite3
import types
import urllib.parse

import pytest

from domain import availability, invitations, rules
from models import (
    MODELS,
    Equipment,
    Gig,
    GigEquipment,
    GigProduct,
    GigRole,
    GigRoleInvitation,
    GigSong,
    StaffMember,
    User,
    db,
)
from storage import migrations
from tests.support import console, demos, postgresql
from tests.support.api import Api
from tests.support.database import release_database, structure
from tests.support.demos import EXAMPLE, USERS, app_on, count, read_only, rows, write_demo
from tests.support.users import make_token

demo_db, agency_db, demo, served = demos.demo_db, demos.agency_db, demos.demo, demos.served
KEPT = {"settings": "key <> 'office'"}  # no secret: the office's own settings (SPEC §12.1)


def content(location):
    """Every row of the models' tables but the access roles (which migrations seed), without the timestamps that
    follow the clock."""
    connection, found = read_only(location), {}
    for model in MODELS:
        table = model._meta.table_name
        columns = [f'"{f.column_name}"' for f in model._meta.sorted_fields if not f.column_name.endswith("_at")]
        if table != "access_roles":
            found[table] = sorted(rows(connection, f'SELECT {", ".join(columns)} FROM "{table}"'), key=repr)
    connection.close()
    return found


# --- band.db.example -------------------------------------------------------------------------------------


@pytest.mark.sqlite_only  # the example is a SQLite file
def test_the_example_has_the_current_schema(template_db):
    example, fresh = read_only(EXAMPLE), read_only(template_db)
    try:
        assert structure(example) == structure(fresh)
        assert example.execute("PRAGMA user_version").fetchone()[0] == len(migrations.steps())
    finally:
        example.close()
        fresh.close()


@pytest.mark.sqlite_only  # the example is a SQLite file
def test_the_examples_search_indexes_agree_with_their_rows(tmp_path):
    """The example is written compactly (VACUUM): each search index still finds each row by its rowid."""
    copy = tmp_path / "example.db"
    shutil.copy(EXAMPLE, copy)
    connection = sqlite3.connect(copy)
    try:
        indexes = [name for (name,) in rows(connection, "SELECT name FROM sqlite_master WHERE sql LIKE '%fts5%'")]
        assert "gigs_search" in indexes
        for index in indexes:
            connection.execute(f'INSERT INTO "{index}" ("{index}", rank) VALUES (\'integrity-check\', 1)')
        title = rows(connection, "SELECT title FROM gigs ORDER BY rowid DESC LIMIT 1")[0][0]
        word = re.findall(r"\w+", title)[0]
        found = "SELECT COUNT(*) FROM gigs WHERE rowid IN (SELECT rowid FROM gigs_search WHERE gigs_search MATCH ?)"
        assert connection.execute(found, (f'"{word}"',)).fetchone()[0] >= 1
    finally:
        connection.close()


@pytest.mark.sqlite_only  # the example is a SQLite file
def test_the_example_holds_a_band_and_no_secrets():
    example = read_only(EXAMPLE)
    try:
        assert count(example, "SELECT * FROM gigs") >= 60
        users = {email: json.loads(roles) for email, roles in rows(example, "SELECT email, roles FROM users")}
        assert {email: roles for email, roles in users.items() if email in USERS} == USERS
        for table in ("tokens", "sign_in_links", "devices", "settings"):
            assert count(example, f"SELECT * FROM {table} WHERE {KEPT.get(table, 'TRUE')}") == 0, table
    finally:
        example.close()


# --- the command -----------------------------------------------------------------------------------------


@pytest.mark.sqlite_only  # SQLite's own checks: PostgreSQL checks its rules as it writes
def test_a_demo_is_a_sound_database_at_the_current_version(demo):
    assert rows(demo, "PRAGMA integrity_check") == [("ok",)]
    assert rows(demo, "PRAGMA foreign_key_check") == []
    assert demo.execute("PRAGMA user_version").fetchone()[0] == len(migrations.steps())


def test_the_command_refuses_an_existing_file(app, tmp_path):
    path = tmp_path / "taken.db"
    path.write_bytes(b"keep me")
    result = app.test_cli_runner().invoke(args=["demo", str(path)])
    assert result.exit_code != 0
    assert "exists already" in result.output + str(result.exception)
    assert path.read_bytes() == b"keep me"


def test_the_command_leaves_the_apps_database_alone(app, admin, tmp_path, demo_db):
    users = admin.get("/users").get_json()["meta"]["total"]
    target = postgresql.new_location(tmp_path, "demo")
    result = app.test_cli_runner().invoke(args=["demo", target])
    assert result.exit_code == 0, result.output
    assert db.database in (app.config["DB"], urllib.parse.urlsplit(app.config["DB"]).path.lstrip("/"))
    assert admin.get("/users").get_json()["meta"]["total"] == users
    assert admin.get("/gigs").get_json()["meta"]["total"] == 0
    assert admin.create("teams", {"name": "Brass"})["name"] == "Brass"
    assert content(target) == content(demo_db), "the same day gives the same band"


def clock_on(day):
    """The `datetime` module as the demo reads it, on `day` at 10:00 UTC."""

    class Date(dt.date):
        @classmethod
        def today(cls):
            return day

    class DateTime(dt.datetime):
        @classmethod
        def now(cls, tz=None):
            return dt.datetime.combine(day, dt.time(10), tz)

    return types.SimpleNamespace(**{**vars(dt), "date": Date, "datetime": DateTime})


def band_of(location, today):
    """The gigs (days from `today`, title, status), roles and invitations of a demo database."""
    connection = read_only(location)
    statuses = "gigs g JOIN gig_statuses s ON s.id = g.gig_status_id"
    gigs = rows(connection, f"SELECT g.id, g.gig_date, g.title, s.name FROM {statuses}")
    band = {
        "gigs": sorted((id, (dt.date.fromisoformat(day) - today).days, *rest) for id, day, *rest in gigs),
        "roles": sorted(rows(connection, "SELECT id, gig_id, role_id, staff_member_id FROM gig_roles")),
        "invitations": sorted(rows(connection, "SELECT id, gig_role_id, status FROM gig_role_invitations")),
    }
    connection.close()
    return band


@pytest.mark.parametrize("season_of", [[], ["--season-of", "2026-11-28"]], ids=["today", "season-of"])
def test_a_demo_of_one_season_is_the_same_band_whatever_the_day_placed_around_it(
    template_db, tmp_path, monkeypatch, season_of
):
    bands = []
    for today in (dt.date(2027, 2, 3), dt.date(2027, 6, 19)):  # another weekday and season
        monkeypatch.setattr("demo.dt", clock_on(today))
        monkeypatch.setattr("demo.office.dt", clock_on(today))
        (tmp_path / str(today)).mkdir()
        bands.append(band_of(write_demo(template_db, tmp_path / str(today), *season_of), today))
    assert (bands[0] == bands[1]) == bool(season_of)
    assert any(days < 0 for _, days, *_ in bands[0]["gigs"]) and any(days > 0 for _, days, *_ in bands[0]["gigs"])


# --- the app on the demo ---------------------------------------------------------------------------------


def test_gig_products_take_offered_ensembles_at_the_catalogue_price(served):
    products = list(GigProduct.select(GigProduct, Gig).join(Gig))
    assert products
    for product in products:
        rules.ensemble_offered(product.product_id, product.ensemble_id)
        assert product.price_cents == rules.catalog_price(product.product_id, product.ensemble_id, product.gig.gig_date)


def test_every_placement_passes_the_checks_of_the_api(served):
    """What §5.2-§5.4 check when the office fills a role, sends an invitation or assigns equipment."""
    for gig_role in GigRole.select(GigRole, Gig).join(Gig).where(GigRole.staff_member.is_null(False)):
        availability.put_on_role(gig_role, gig_role.gig)
    for invitation in GigRoleInvitation.select().where(GigRoleInvitation.status == "pending"):
        if invitations.status_now(invitation) == "pending":
            gig_role = GigRole.get_by_id(invitation.gig_role_id)
            assert gig_role.staff_member_id is None
            availability.holds_role(invitation.staff_member_id, gig_role.role_id)
            rules.require_live(gig_role.gig)
            availability.require_available(invitation.staff_member_id, gig_role.gig)
    for placed in GigEquipment.select(GigEquipment, Gig, Equipment).join(Gig).switch(GigEquipment).join(Equipment):
        if rules.is_live(placed.gig):
            rules.equipment_free(placed.equipment, placed.gig, exclude=placed.id)


def test_the_app_serves_the_demo(served):
    admin = Api(served.test_client(), make_token(User.get(User.email == "admin@band.example")))
    for collection in ("gigs", "staff-members", "gig-roles", "gig-role-invitations", "venues", "songs", "equipment"):
        response = admin.get(f"/{collection}")
        assert response.status_code == 200, (collection, response.get_json())
        assert response.get_json()["data"], collection
    expired = admin.get("/gig-role-invitations?filter[status]=expired").get_json()
    assert expired["meta"]["total"] > 0
    today = dt.date.today().isoformat()
    [gig] = admin.get(f"/gigs?filter[gig_date][lt]={today}&sort=-gig_date&limit=1").get_json()["data"]
    pay_sheet = admin.get(f"/gigs/{gig['id']}/pay-sheet")
    assert pay_sheet.status_code == 200 and pay_sheet.get_json()["meta"]["total_cents"] > 0


def test_the_gigs_stand_where_their_accepted_quotes_and_signed_contracts_moved_them(template_db, tmp_path):
    """SPEC §15: accepting a quote moves an inquiry on to a tentative status, signing the contract an inquiry or a
    tentative gig on to a confirmed one. The console's band (tests/support/console.py's season) had a signed
    contract on a gig still an Inquiry."""
    (tmp_path / "season").mkdir()
    demo = write_demo(template_db, tmp_path / "season", "--season-of", console.SEASON_OF)
    app = app_on(postgresql.location(tmp_path, template=demo))
    try:
        admin = Api(app.test_client(), make_token(User.get(User.email == "admin@band.example")))
        kinds = {status["id"]: status["kind"] for status in admin.get("/gig-statuses").get_json()["data"]}
        signed = admin.get("/contracts?filter[status]=signed&expand=gig").get_json()["data"]
        accepted = admin.get("/quotes?filter[status]=accepted&expand=gig").get_json()["data"]
        assert signed and len(accepted) > len(signed)  # an accepted quote's contract waits to be signed
        assert [kinds.get(contract["gig"]["gig_status_id"]) for contract in signed] == ["confirmed"] * len(signed)
        assert "inquiry" not in [kinds.get(quote["gig"]["gig_status_id"]) for quote in accepted]
    finally:
        release_database()


def test_a_musician_reads_their_own_calendar(served):
    member = StaffMember.get(StaffMember.email == "staff@band.example")
    musician = Api(served.test_client(), make_token(User.get_by_id(member.user_id)))
    response = musician.get(f"/staff-members/{member.id}/calendar-url")
    assert response.status_code == 200, response.get_json()
    feed = musician.client.get(urllib.parse.urlsplit(response.get_json()["data"]["url"]).path)
    assert feed.status_code == 200 and feed.mimetype == "text/calendar"
    assert b"BEGIN:VEVENT" in feed.data


def test_the_staff_user_finds_their_own_work_under_me(served):
    """A newcomer signed in as staff@band.example sees the musician's view at once (SPEC §10)."""
    musician = Api(served.test_client(), make_token(User.get(User.email == "staff@band.example")))
    gigs = musician.get("/me/gigs").get_json()["data"]
    assert gigs and all(gig["roles"] for gig in gigs)
    assert any(role["amount_cents"] for gig in gigs for role in gig["roles"])
    assert any(gig["lineup"] and gig["moments"] and gig["songs"] for gig in gigs)
    pending = musician.get("/me/invitations?filter[status]=pending").get_json()
    assert pending["meta"]["total"] >= 2 and all(i["role"]["amount_cents"] for i in pending["data"])
    today = dt.date.today()
    assert musician.get("/me/blockouts?filter[start_date][gte]=" + today.isoformat()).get_json()["data"]
    period = f"from={today - dt.timedelta(days=400)}&to={today + dt.timedelta(days=400)}"
    assert musician.get(f"/me/pay-sheet?{period}").get_json()["meta"]["total_cents"] > 0
    assert musician.get("/me/calendar-url").status_code == 200
    assert musician.get("/staff-members").status_code == 403


SEARCHED = {"gigs": "title", "contacts": "last_name", "gig-songs": "artist", "gig-moments": "name"}


def test_the_search_finds_the_demos_rows(served):
    """`q` finds a demo's rows by their words, the first and the last written (a demo builds its search indexes in
    one go after its rows went in)."""
    admin = Api(served.test_client(), make_token(User.get(User.email == "admin@band.example")))
    for collection, field in SEARCHED.items():
        for order in ("created_at", "-created_at"):
            written = admin.get(f"/{collection}?filter[{field}][is_null]=false&sort={order},id&limit=1")
            [record] = written.get_json()["data"]
            word = re.findall(r"\w+", record[field])[-1]
            found = admin.get(f"/{collection}?q={urllib.parse.quote(word)}&filter[id]={record['id']}")
            assert found.get_json()["meta"]["total"] == 1, (collection, word)


# --- a booking agency of any size (issue 33) ----------------------------------------------------------------


def test_a_gig_whose_setlist_draws_more_jazz_than_the_band_knows_still_gets_its_songs():
    """`--gigs 100000` died after minutes: a wedding's music (a jazz song for the signing of the register, a setlist
    of up to 8 songs, a quarter of them jazz) drew more jazz than the 7 of the repertoire, about once in 40 000
    weddings. The draws of seed 5 do so on the 69th gig: each gig still gets its songs, none twice."""
    from demo.agency import Size
    from demo.catalog import write_repertoire
    from demo.music import Programme
    from demo.office import Office

    office = Office(random.Random(5), dt.date.today(), Size(), dt.date.today())
    write_repertoire(office)
    for _ in range(100):
        programme = Programme(office, Gig(id="a gig"), None)
        signing = programme.fresh_song("jazz")
        programme.setlist()
        songs = [signing.id, *(row.song_id for row in office.pending[GigSong])]
        assert 7 <= len(songs) == len(set(songs)) <= 9
        office.pending.clear()


@pytest.mark.parametrize("gigs", ["0", "100001", "1000000"])
def test_an_agency_too_big_to_build_is_refused_at_once(app, tmp_path, gigs):
    path = tmp_path / "agency.db"
    result = app.test_cli_runner().invoke(args=["demo", str(path), "--gigs", gigs])
    assert result.exit_code != 0 and "from 1 to 100,000 gigs" in result.output, result.output
    assert not path.exists()
