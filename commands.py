"""The command line of SPEC §6: serve, init-db, create-user, create-api-key, demo, backup."""

import logging
import os
import signal
import sys

import click
from flask import current_app
from waitress import create_server

import demo as demo_data
import migrations
import settings
from auth import digest, expiry, new_secret
from errors import ConfigError
from models import AccessRole, Token, User, db, now
from server import JsonErrorChannel

log = logging.getLogger("band")

OUTBUF_BYTES = 1024 * 1024


def register(app):
    for command in COMMANDS:
        app.cli.add_command(command)


def fail(message):
    click.echo(f"error: {message}", err=True)
    sys.exit(1)


def prepare_database():
    """Create or migrate the database; a database newer than the code stops the command."""
    try:
        before, after = migrations.upgrade()
    except ConfigError as e:
        fail(str(e))
    if before == 0:
        log.info("created %s (schema version %d) with the default access roles", db.database, after)
    return after


@click.command("init-db")
def init_db():
    """Create or migrate the database."""
    version = prepare_database()
    click.echo(f"{db.database} is at schema version {version}.")


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=8080, show_default=True, type=click.IntRange(1, 65535))
@click.option("--threads", default=8, show_default=True, type=click.IntRange(1, 64))
def serve(host, port, threads):
    """Create or migrate the database, then serve the API with waitress."""
    app = current_app._get_current_object()
    prepare_database()
    follow_address(app.config, host, port)
    if not User.select().exists():
        python = os.path.relpath(sys.executable) if sys.executable.startswith(os.getcwd()) else sys.executable
        log.warning(
            "no users yet: create the first with  %s app.py create-user YOU@EXAMPLE.COM --name 'Your Name' "
            "--role admin  then sign in with POST /v1/auth/link",
            python,
        )
    upload_limit = app.config["MAX_UPLOAD_MB"] * 1024 * 1024
    try:
        server = create_server(
            app,
            host=host,
            port=port,
            threads=threads,
            ident="band-office",
            max_request_body_size=upload_limit + 1024 * 1024,
            # waitress keeps up to this much of an answer per connection, in memory while its client keeps
            # up: at the default (16 MB) each large download in flight costs that much (SPEC §2.3)
            outbuf_high_watermark=OUTBUF_BYTES,
            asyncore_use_poll=True,
        )
    except OSError as e:
        fail(f"cannot listen on {host}:{port} ({e.strerror}): is another server there? Choose one with --port.")
    server.channel_class = JsonErrorChannel
    signal.signal(signal.SIGTERM, _stop)
    log.info(
        "Band Office serving %s on http://%s:%d/v1 (public URL %s, mail %s)",
        db.database,
        host,
        port,
        app.config["PUBLIC_URL"],
        app.config["MAIL_URL"].split("@")[-1],
    )
    server.run()  # returns after SIGTERM or Ctrl-C, once the requests in flight are done
    log.info("Band Office stopped")


def follow_address(config, host, port):
    """Without BAND_PUBLIC_URL, links point at the address served (a LAN needs BAND_PUBLIC_URL set)."""
    if os.environ.get("BAND_PUBLIC_URL") or config["PUBLIC_URL"] != settings.SETTINGS["PUBLIC_URL"][0]:
        return
    shown = "127.0.0.1" if host in ("0.0.0.0", "::", "") else host
    config["PUBLIC_URL"] = f"http://{shown}:{port}"
    if not os.environ.get("BAND_SIGNIN_URL"):
        config["SIGNIN_URL"] = config["PUBLIC_URL"] + "/signin#token={token}"


def _stop(signum, frame):
    raise SystemExit(0)


@click.command("create-user")
@click.argument("email")
@click.option("--name", required=True, help="The user's name.")
@click.option("--role", "roles", multiple=True, help="An access role; repeat for several. Replaces the roles.")
def create_user(email, name, roles):
    """Add a user, or update the one with this address (name; roles when given; reactivated)."""
    prepare_database()
    email = email.strip().lower()
    with db.atomic("IMMEDIATE"):
        known = {r.name for r in AccessRole.select(AccessRole.name)}
        unknown = [role for role in roles if role not in known]
        if unknown:
            fail(f"no access role named {', '.join(unknown)} (there are: {', '.join(sorted(known))})")
        user = User.get_or_none(User.email == email)
        creating = user is None
        user = user or User(email=email, roles=[])
        user.name, user.active, user.updated_at = name, True, now()
        if roles:
            user.roles = list(dict.fromkeys(roles))
        user.save(force_insert=creating)
    click.echo(f"{user.email}: {user.name}, roles {', '.join(user.roles) or '(none)'}")


@click.command("create-api-key")
@click.argument("email")
@click.option("--label", required=True, help="What the key is for.")
@click.option("--days", default=365, show_default=True, type=click.IntRange(1, 3650))
def create_api_key(email, label, days):
    """Print a new API key for the user; it is shown only this once."""
    prepare_database()
    user = User.get_or_none(User.email == email.strip().lower())
    if user is None:
        fail(f"no user with the address {email}")
    key = new_secret("bok_")
    with db.atomic("IMMEDIATE"):
        Token.create(
            user=user.id,
            kind="api_key",
            token_hash=digest(key),
            prefix=key[:12],
            label=label,
            expires_at=expiry(days=days),
        )
    click.echo(key)


@click.command("demo")
@click.argument("path")
@click.option("--gigs", type=click.IntRange(min=1), help="A booking agency's office with this many gigs.")
def demo(path, gigs):
    """Write a database with a realistic demo band office to PATH."""
    try:
        demo_data.write(path, gigs)
    except ConfigError as e:
        fail(str(e))
    click.echo(f"wrote the demo band office to {path}")


@click.command("backup")
@click.argument("path")
def backup(path):
    """Write an online, consistent copy of the live database to PATH."""
    try:
        migrations.backup(path)
    except ConfigError as e:
        fail(str(e))
    click.echo(f"backed up {db.database} to {path}")


COMMANDS = (serve, init_db, create_user, create_api_key, demo, backup)
