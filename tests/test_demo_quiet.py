"""SPEC §12.1: serving a copy of the demo sends none of the demo's mail or push. The worker's timed rules and its
sender run over the weeks of the demo's season on a copy (the example, and a demo written now), and the mail folder
stays empty: the office's list of notifications shows the demo's reminders as never sent."""

import datetime as dt
import shutil

import pytest

from app import configure
from delivery.notifications import run_timed
from models import User
from tests.support.api import Api
from tests.support.database import release_database
from tests.support.demos import EXAMPLE, write_demo
from tests.support.mail import mails
from tests.support.notified import send_what_is_due
from tests.support.users import make_token


def serve_a_season(app, location, tmp_path):
    """The app on the demo at `location`, its timed rules run as each day of two months passes, its sender after
    them; the office's notifications as its admin reads them."""
    release_database()
    configure(app, {"DB": location, "MAIL_URL": f"file:{tmp_path / 'mail'}", "BACKUP_DIR": str(tmp_path)})
    with app.app_context():
        for days in range(60):
            run_timed(app.config, dt.datetime.now(dt.UTC) + dt.timedelta(days=days, hours=12))
    send_what_is_due(app)
    admin = Api(app.test_client(), make_token(User.get(User.email == "admin@band.example")))
    told, offset = [], 0
    while page := admin.get(f"/notifications?limit=200&offset={offset}").get_json()["data"]:
        told, offset = told + page, offset + len(page)
    return told


def assert_quiet(app, told):
    assert told, "the demo holds its reminders as told"
    assert {(n["email"]["state"], n["push"]["state"]) for n in told} == {("skipped", "skipped")}
    assert mails(app) == []


@pytest.mark.sqlite_only  # the committed example is a SQLite file
def test_serving_a_copy_of_the_example_sends_none_of_its_mail(app, tmp_path):
    copy = tmp_path / "demo" / "band.db"
    copy.parent.mkdir()
    shutil.copy(EXAMPLE, copy)
    assert_quiet(app, serve_a_season(app, str(copy), tmp_path))


def test_serving_a_demo_written_today_sends_none_of_its_mail(app, template_db, tmp_path):
    (tmp_path / "written").mkdir()
    location = write_demo(template_db, tmp_path / "written")
    assert_quiet(app, serve_a_season(app, location, tmp_path))
