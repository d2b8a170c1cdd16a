"""Fixtures: a service on a temporary database (copied from one migrated template: a SQLite file, or a PostgreSQL
database when the tests run on PostgreSQL, see ../conftest.py), clients signed in
with the access role a test needs, and builders that create valid records of any collection."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app import configure, create_app
from domain import signed_links
from models import AccessRole
from storage import migrations
from tests.support import pages, postgresql
from tests.support.api import Api
from tests.support.database import release_database
from tests.support.documented import parsed
from tests.support.pages import browser, playwright_driver, whole_browser  # noqa: F401 (fixtures)
from tests.support.records import Builder
from tests.support.users import make_token, make_user


@pytest.hookimpl(wrapper=True)
def pytest_runtest_setup(item):
    with pages.loop_set_aside_for(item):
        return (yield)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    with pages.loop_set_aside_for(item):
        return (yield)


@pytest.fixture(scope="module", autouse=True)
def _browser_contexts_closed():
    """What a module's tests left open in the process's browsers is closed after it."""
    yield
    pages.close_contexts_left()


@pytest.fixture(scope="module", autouse=True)
def _drop_test_databases():
    """The databases a test module made on PostgreSQL are dropped after it (its served offices stopped by then: a
    module's own fixtures, a served office of them all, end before this one)."""
    yield
    if postgresql.on_postgresql():
        postgresql.drop_made_databases()


@pytest.fixture(scope="session")
def template_db(tmp_path_factory):
    """The location of a migrated database, copied for each test: a file, or a PostgreSQL database."""
    location = postgresql.location(tmp_path_factory.mktemp("template"), kept=True)
    app = create_app({"DB": location})
    with app.app_context():
        migrations.upgrade()
        signed_links.make_secret_key()  # as serve and init-db prepare a database
    release_database()
    postgresql.migrated_template(location)
    return location


@pytest.fixture(scope="session", autouse=True)
def _served_offices_copy_the_template(template_db):
    """On PostgreSQL an office a test serves starts on a copy of the template (`postgresql.served_location`)."""


@pytest.fixture(scope="session")
def shared_app(template_db):
    """Building the routes takes a moment: one app serves every test, configured afresh for each."""
    app = create_app({"DB": template_db})
    release_database()
    return app


@pytest.fixture
def app(shared_app, template_db, tmp_path):
    postgresql.copy_ahead(template_db)  # on PostgreSQL, the next tests' copies are made while this one runs
    location = postgresql.location(tmp_path, template=template_db, emptied=True)
    settings = {"DB": location, "MAIL_URL": f"file:{tmp_path / 'mail'}", "AUTH_RATE_LIMIT": "1000/minute"}
    settings["INQUIRY_RATE"] = "1000/minute"  # the rate's own tests set theirs (tests/test_inquiries.py)
    settings.update(postgresql.busy_machine_budget())
    configure(shared_app, settings)
    yield shared_app
    shared_app.extensions["outbox"].close()
    release_database(keep_pool=True)
    if not postgresql.give_back(tmp_path):  # emptied for the next test, whose connections to it are these
        release_database()


@pytest.fixture
def anon(app):
    return Api(app.test_client())


@pytest.fixture
def signed_in(anon):
    """signed_in(*roles) -> an Api client for a new user holding those access roles."""

    def sign_in(*roles, **user_fields):
        return anon.with_token(make_token(make_user(roles=roles, **user_fields)))

    return sign_in


@pytest.fixture
def admin(signed_in):
    return signed_in("admin")


@pytest.fixture
def role(app):
    """role(name, *grants): a new access role."""
    return lambda name, *grants: AccessRole.create(name=name, grants=list(grants))


@pytest.fixture
def build(admin):
    """A Builder that creates valid records of any collection through the API, as admin."""
    return Builder(admin)


@pytest.fixture
def documented(anon):
    """The service's OpenAPI document, to check answers against (`documented.check(method, path, response)`)."""
    return parsed(anon.get("/openapi.json").data)
