"""SPEC §14: `app.py copy-to postgresql://…` moves an office's SQLite database into an empty PostgreSQL database: the
API answers the same on both, keys and signed links made before the move keep working; a database not empty is
refused and left as it was. Run with `pytest --database=postgresql` (it needs a PostgreSQL to copy into)."""

import os
import re
import sqlite3
import subprocess
import sys
from urllib.parse import urlsplit

import pytest

from scripts.compare_offices import Office, compare, sample
from storage import migrations
from tests.support import PROJECT, postgresql, postgresql_server
from tests.support.moves import copy_to, empty_database, served_copy
from tests.support.served import ServedOffice, Service

pytestmark = pytest.mark.postgresql_only

# A sample of lists and reads (ids filled in from the source's answers), searches among them.
LISTS = [
    "/gigs?sort=gig_date&limit=50",
    "/gigs?expand=venue,gig_status&sort=-gig_date&limit=20",
    "/gigs?filter[open_role_count][gt]=0&sort=gig_date",
    "/gigs?sort=-pending_invitation_count,id&fields=title,role_count,open_role_count,pending_invitation_count",
    "/staff-members?sort=last_name,id&limit=100",
    "/venues?sort=name,id",
    "/contacts?limit=50&sort=id",
    "/attachments?sort=id",
    "/access-roles?sort=name",
]
SEARCHES = ["/gigs?q=wedd&sort=id", "/venues?q=kitzbuhel&sort=id", "/staff-members?q=ber&sort=id", "/songs?q=thousand"]


def connected(url):
    import psycopg  # here: on SQLite the module is kept from loading it (see dialects._spare_the_driver)

    return psycopg.connect(url)


def answers(office, paths):
    return {path: office.call("GET", path) for path in paths}


def reads_of(office):
    """Single records' reads: a gig, a staff member, a venue, an attachment's details."""
    gig = office.call("GET", "/gigs?sort=gig_date&limit=1")[0]["id"]
    member = office.call("GET", "/staff-members?sort=id&limit=1")[0]["id"]
    venue = office.call("GET", "/venues?sort=id&limit=1")[0]["id"]
    return [
        f"/gigs/{gig}",
        f"/gig-roles?filter[gig_id]={gig}&sort=id",
        "/gig-role-invitations?sort=id&limit=100",
        f"/staff-members/{member}",
        f"/venues/{venue}",
    ]


@pytest.fixture
def demo_office(tmp_path):
    """`app.py demo`'s office in a SQLite file, with an admin's API key made there."""
    source = tmp_path / "source" / "band.db"
    source.parent.mkdir()
    made = Service(source.parent, BAND_DB=str(source)).run("demo", str(source))
    assert made.returncode == 0, made.stderr
    return ServedOffice(source.parent, BAND_DB=str(source))


def test_a_copied_office_answers_as_the_one_it_was_copied_from(tmp_path, demo_office):
    source = demo_office.start()  # serving makes the office's signing key, which the copy must keep
    try:
        reads = reads_of(source)
        before = answers(source, LISTS + SEARCHES + reads)
        member = before[LISTS[4]][0]["id"]
        feed = urlsplit(source.call("GET", f"/staff-members/{member}/calendar-url")["url"]).path
    finally:
        source.service.stop()
    assert all(before[path] for path in SEARCHES), "each search finds something in the demo"

    target = empty_database(tmp_path)
    copied = copy_to(target, demo_office.db)
    assert copied.returncode == 0, copied.stdout + copied.stderr
    assert "every count agrees" in copied.stdout and "gigs: 64 in the source, 64 in" in copied.stdout
    assert "DIFFERENT" not in copied.stdout

    moved = served_copy(tmp_path, demo_office.key)
    try:
        assert moved.service.env["BAND_DB"] == target
        assert answers(moved, LISTS + SEARCHES + reads) == before
        status, _, body = moved.service.request("GET", feed.removeprefix("/v1"))  # a feed link given before
        assert status == 200 and b"BEGIN:VCALENDAR" in body, body[:300]
    finally:
        moved.service.stop()


@pytest.mark.timeout(600)  # some 3 000 requests to each office, on a machine that may be busy
def test_every_collection_answers_the_copy_as_the_source_lists_and_reads_it(tmp_path, demo_office):
    """scripts/compare_offices.py's sample, asked of both served side by side as the same user: for every collection
    in the OpenAPI document its default list, page 2, each sort both ways, filters, `q`, `expand` and `fields`, and
    single reads. Neither runs its worker, so that neither changes while they are compared."""
    demo_office.start().service.stop()  # serving makes the office's signing key: the copy keeps that one
    copied = copy_to(empty_database(tmp_path), demo_office.db)
    assert copied.returncode == 0, copied.stdout + copied.stderr
    demo_office.service.env["BAND_WORKER"] = "off"
    source, moved = demo_office.start(), served_copy(tmp_path, demo_office.key, BAND_WORKER="off")
    try:
        first, second = Office(source.service.base, source.key), Office(moved.service.base, moved.key)
        paths = sample(first, limit=10, records=1)
        differences, _ = compare(first, second, paths)
    finally:
        source.service.stop(), moved.service.stop()
    assert not differences, f"{len(differences)} of {len(paths)} answers differ:\n\n" + "\n\n".join(differences[:5])
    asked = set(paths)
    assert len(asked) > 2500 and {"/gigs?sort=venue.name&limit=10", "/gigs?sort=-venue.name&limit=10"} <= asked
    assert any(p.startswith("/staff-members?q=") for p in paths) and "/gigs?limit=10&offset=10" in asked


def test_copied_events_keep_their_numbers_queue_nothing_again_and_new_ones_follow(tmp_path, demo_office):
    source = demo_office.start()
    try:
        source.call("POST", "/webhook-endpoints", {"url": "http://127.0.0.1:9/hook"})  # its deliveries: copied once
        venue = source.call("POST", "/venues", {"name": "Copied Hall", "city": "Graz"})
        source.call("PATCH", f"/venues/{venue['id']}", {"city": "Linz"})
        events = source.call("GET", "/events?sort=seq")
    finally:
        source.service.stop()
    copied = copy_to(empty_database(tmp_path), demo_office.db)
    assert copied.returncode == 0, copied.stdout + copied.stderr
    assert re.search(r"^webhook_deliveries: ([1-9]\d*) in the source, \1 in ", copied.stdout, re.M), copied.stdout

    moved = served_copy(tmp_path, demo_office.key)
    try:
        assert moved.call("GET", "/events?sort=seq") == events
        moved.call("PATCH", f"/venues/{venue['id']}", {"city": "Wels"})
        after = moved.call("GET", "/events?sort=seq")
        assert after[-1]["seq"] > max(e["seq"] for e in events)
    finally:
        moved.service.stop()


def test_a_database_that_is_not_empty_is_refused_and_left_as_it_was(tmp_path, demo_office):
    target = empty_database(tmp_path)
    postgresql_server.execute(target, "CREATE TABLE notes (body TEXT)", "INSERT INTO notes VALUES ('keep me')")
    refused = copy_to(target, demo_office.db)
    assert refused.returncode != 0
    assert "is not empty" in refused.stderr and "public.notes" in refused.stderr, refused.stderr

    with connected(target) as connection:
        tables = connection.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'"
        ).fetchall()
        assert tables == [("notes",)]
        assert connection.execute("SELECT body FROM notes").fetchall() == [("keep me",)]


def test_an_office_already_there_is_refused(tmp_path, demo_office):
    target = empty_database(tmp_path)
    first = copy_to(target, demo_office.db)
    assert first.returncode == 0, first.stderr
    again = copy_to(target, demo_office.db)
    assert again.returncode != 0 and "is not empty" in again.stderr, again.stdout + again.stderr


OLDER_OFFICE = """
import sys
import dialects
from models import db
from storage import migrations, writer
db.initialize(dialects.open_database(sys.argv[1], writer.BUSY_TIMEOUT_SECONDS))
migrations.upgrade(migrations.steps()[: int(sys.argv[2])])
"""


def test_an_office_at_an_older_schema_version_is_copied_at_it_and_migrated_as_served(tmp_path):
    source = tmp_path / "old.db"
    env = {**{k: v for k, v in os.environ.items() if not k.startswith("BAND_")}, "BAND_DB": str(source)}
    made = subprocess.run(
        [sys.executable, "-c", OLDER_OFFICE, str(source), "11"], cwd=PROJECT, env=env, capture_output=True, text=True
    )
    assert made.returncode == 0, made.stderr
    copied = copy_to(empty_database(tmp_path), source)
    assert copied.returncode == 0, copied.stdout + copied.stderr
    assert "access_roles: 5 in the source, 5 in" in copied.stdout

    env["BAND_DB"] = postgresql.location(tmp_path / "target")
    env["BAND_BACKUP_DIR"] = str(tmp_path / "backups")  # where the copy taken before the steps goes
    command = [sys.executable, str(PROJECT / "app.py"), "init-db"]
    migrated = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    latest = migrations.steps()[-1].version
    assert migrated.stdout.strip().endswith(f"is at schema version {latest}."), migrated.stdout + migrated.stderr
    assert len(list((tmp_path / "backups").glob("*.v11-*.bak"))) == 1


def test_a_copy_that_fails_half_way_leaves_the_database_empty(tmp_path, demo_office):
    broken = sqlite3.connect(demo_office.db)  # a gig gone, its roles left: a reference PostgreSQL refuses
    broken.execute("DELETE FROM gigs WHERE id = (SELECT gig_id FROM gig_roles ORDER BY id LIMIT 1)")
    broken.commit()
    broken.close()
    target = empty_database(tmp_path)
    failed = copy_to(target, demo_office.db)
    assert failed.returncode != 0 and "the copy failed, nothing was kept" in failed.stderr, failed.stderr
    assert "foreign key" in failed.stderr
    with connected(target) as connection:
        assert (
            connection.execute(
                "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'"
            ).fetchall()
            == []
        )


def test_an_office_whose_text_holds_nul_is_copied_without_it_and_the_rows_counted(tmp_path, demo_office):
    """An office written before SPEC §2.3 refused U+0000 on SQLite: two venues' names and a gig's custom
    field (its key and its value, which JSON writes `\\u0000`) hold it."""
    older = sqlite3.connect(demo_office.db)
    venues = [id for (id,) in older.execute("SELECT id FROM venues ORDER BY id LIMIT 2")]
    older.execute(f"UPDATE venues SET name = 'Hall' || char(0) || 'e' WHERE id IN ('{venues[0]}', '{venues[1]}')")
    gig = older.execute("SELECT id FROM gigs ORDER BY id LIMIT 1").fetchone()[0]
    older.execute("UPDATE gigs SET custom_fields = ? WHERE id = ?", ('{"dress\\u0000":"black\\u0000 tie"}', gig))
    older.commit()
    older.close()

    copied = copy_to(empty_database(tmp_path), demo_office.db)
    assert copied.returncode == 0, copied.stdout + copied.stderr
    assert "venues: 2 row(s) held U+0000" in copied.stdout and "gigs: 1 row(s) held U+0000" in copied.stdout
    assert "every count agrees" in copied.stdout and "DIFFERENT" not in copied.stdout

    moved = served_copy(tmp_path, demo_office.key)
    try:
        assert {moved.call("GET", f"/venues/{id}")["name"] for id in venues} == {"Halle"}
        assert moved.call("GET", f"/gigs/{gig}")["custom_fields"] == {"dress": "black tie"}
    finally:
        moved.service.stop()


MONEY_IN = ["/quotes", "/quote-lines", "/contract-templates", "/contracts", "/invoices", "/invoice-lines", "/payments"]


def test_money_in_is_copied_as_the_source_reads_it(tmp_path, demo_office):
    source = demo_office.start()
    try:
        gig = source.call("GET", "/gigs?sort=gig_date&limit=1")[0]["id"]
        quote = source.call("POST", "/quotes", {"gig_id": gig, "intro": "Dear Anna and Ben"})
        lines = {"description": "Reception", "unit_price_cents": 250000, "tax_rate_bp": 2000}
        source.call("POST", "/quote-lines", {"quote_id": quote["id"], **lines})
        template = source.call(
            "POST", "/contract-templates", {"name": "Wedding", "body": "We play.", "is_default": True}
        )
        source.call("POST", "/contracts", {"gig_id": gig, "quote_id": quote["id"], "template_id": template["id"]})
        invoice = source.call("POST", "/invoices", {"gig_id": gig, "kind": "deposit", "due_date": "2027-01-15"})
        source.call("POST", "/invoice-lines", {"invoice_id": invoice["id"], **lines})
        with sqlite3.connect(demo_office.db) as issued:  # as `POST /invoices/{id}/issue` will leave it
            issued.execute("UPDATE invoices SET status = 'issued', number = '2027-0001' WHERE id = ?", (invoice["id"],))
        source.call(
            "POST", "/payments", {"invoice_id": invoice["id"], "amount_cents": 1000, "received_on": "2027-01-02"}
        )
        before = answers(source, [*MONEY_IN, f"/invoices/{invoice['id']}", f"/quotes/{quote['id']}"])
    finally:
        source.service.stop()
    assert all(before[path] for path in MONEY_IN)
    assert before[f"/invoices/{invoice['id']}"]["status"] == "partly_paid"

    target = empty_database(tmp_path)
    copied = copy_to(target, demo_office.db)
    assert copied.returncode == 0, copied.stdout + copied.stderr
    assert re.search(r"^payments: (\d+) in the source, \1 in ", copied.stdout, re.M), copied.stdout  # the demo's too
    assert "DIFFERENT" not in copied.stdout
    moved = served_copy(tmp_path, demo_office.key)
    try:
        assert answers(moved, list(before)) == before
    finally:
        moved.service.stop()
