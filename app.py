"""Band Office: the app factory, its connection and error hooks, and the command-line entry point.

python app.py serve            (or: flask --app app serve)
"""

import dialects  # isort: skip (first: on SQLite, before peewee looks for PostgreSQL's driver; see dialects)
import logging
import logging.handlers
import threading
import time

from flask import Flask
from flask.cli import FlaskGroup

import auth
import routes
from delivery import invoicing, notifications
from delivery.mail import Outbox, mailer
from feeds.copies import FeedCopies
from models import db
from service import commands, settings
from storage import writer
from storage.remembered import Remembered
from web import envelope, lifecycle
from web.rate_limits import RateLimiter


class Office(Flask):
    """Flask, with each view run once its caller may (auth.authorise), a write request's inside its transaction
    (lifecycle.in_write_transaction)."""

    def dispatch_request(self):
        return lifecycle.in_write_transaction(self.answer)

    def answer(self):
        """The view's response; an error it raises answered as the error handlers say, but a write's lost race,
        which is run again (lifecycle.raise_if_lost)."""
        try:
            auth.authorise()
            return self.make_response(super().dispatch_request())
        except Exception as error:
            lifecycle.raise_if_lost(error)
            return self.make_response(self.handle_user_exception(error))


def create_app(config=None):
    """The WSGI app. `config` holds settings of SPEC §6 by name without `BAND_` (tests pass a dict);
    anything not given comes from the environment, then the defaults."""
    app = Office(__name__, static_folder=None)
    app.url_map.merge_slashes = False  # `//gigs` is no route (404), not a redirect with an HTML body
    app.json.sort_keys = False
    app.json.ensure_ascii = False  # UTF-8 as SQLite writes lists and records
    for hook in (lifecycle.start, auth.authenticate, auth.limit_member_writes, lifecycle.read_write_body):
        app.before_request(hook)
    app.after_request(lifecycle.finish)
    app.teardown_request(lifecycle.end_transaction)
    app.teardown_request(lifecycle.lift_budget)
    envelope.register(app)
    routes.register(app)
    commands.register(app)
    notifications.register()
    invoicing.register()
    configure(app, config)
    return app


def configure(app, config=None):
    """Apply the settings to `app`: its database, mailer, rate limits, remembered pages and calendar feeds. Cheap,
    unlike building the routes, so a test suite builds one app and configures it afresh for each test."""
    app.config.update(settings.load(config))
    app.config["MAX_CONTENT_LENGTH"] = app.config["UPLOAD_BODY_BYTES"]
    db.initialize(dialects.open_database(app.config["DB"], writer.BUSY_TIMEOUT_SECONDS))
    app.extensions["mailer"] = mailer(app.config["MAIL_URL"])
    app.extensions["outbox"] = Outbox(retry_seconds=app.config["MAIL_RETRIES"])
    app.extensions["auth_rate"] = RateLimiter(*app.config["AUTH_RATE"])
    app.extensions["client_rate"] = RateLimiter(*app.config["CLIENT_REQUESTS"])
    app.extensions["member_writes"] = RateLimiter(*app.config["MEMBER_WRITES"])
    app.extensions["inquiry_rate"] = RateLimiter(*app.config["INQUIRIES"])
    app.extensions["availability_rate"] = RateLimiter(*app.config["AUTH_RATE"])  # sign-in's rate, its own count
    app.extensions["own_pages"] = Remembered(max_bytes=app.config["PAGE_MEMORY_KB"] * 1024)
    if "feeds" in app.extensions:
        app.extensions["feeds"].stop()  # the copies of the database and settings it had
    app.extensions["feeds"] = FeedCopies()
    return app


def main():
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    # waitress warns of every request that waits for a thread: normal under load, and a flood in the log
    logging.getLogger("waitress.queue").setLevel(logging.ERROR)
    buffer_access_log(logging.getLogger().handlers[0])
    FlaskGroup(create_app=create_app, add_default_commands=False, load_dotenv=False, set_debug_flag=False)()


ACCESS_LOG_FLUSH_SECONDS = 0.2


def buffer_access_log(target):
    """The access log's lines written a batch at a time (at most 0.2 s late): one write per request, each letting
    go of the GIL, cost several percent of what a busy server can answer."""
    buffered = logging.handlers.MemoryHandler(1000, flushLevel=logging.WARNING, target=target, flushOnClose=True)
    access = logging.getLogger("band.access")
    access.addHandler(buffered)
    access.propagate = False

    def flush_now_and_then():
        while True:
            time.sleep(ACCESS_LOG_FLUSH_SECONDS)
            buffered.flush()

    threading.Thread(target=flush_now_and_then, name="access-log", daemon=True).start()


if __name__ == "__main__":
    main()
