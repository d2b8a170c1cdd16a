"""The command line of SPEC §6: serve, init-db, create-user, create-api-key, demo, backup, check; copy-to (§14)."""

import logging
import os
import shlex
import signal
import socket
import subprocess
import sys
from email.utils import parseaddr
from pathlib import Path

import click
from flask import current_app

import demo as demo_data
import dialects
import server as hardened
from auth import digest, expiry, new_secret
from delivery import push
from delivery.worker import Worker, refresh_statistics
from dialects import dialect
from domain import first_run, signed_links
from domain.errors import ConfigError
from models import AccessRole, Token, User, db, now
from service import settings
from storage import migrations, writer

log = logging.getLogger("band")


def register(app):
    for command in COMMANDS:
        app.cli.add_command(command)


def fail(message):
    click.echo(f"error: {message}", err=True)
    sys.exit(1)


def prepare_database():
    """Create or migrate the database; a database newer than the code stops the command."""
    try:
        dialect.keep_private(db.database)
    except OSError as e:
        fail(f"cannot open {db.database}: {e.strerror}")
    try:
        before, after = migrations.upgrade()
    except ConfigError as e:
        fail(str(e))
    signed_links.make_secret_key()  # this installation's own (never the demo's: band.db.example holds none)
    refresh_statistics()
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
@click.option("--port", default=8080, show_default=True, type=click.IntRange(0, 65535), help="0: any free port.")
@click.option("--threads", default=8, show_default=True, type=click.IntRange(1, 64))
def serve(host, port, threads):
    """Create or migrate the database, then serve the API with waitress."""
    app = current_app._get_current_object()
    prepare_database()
    try:
        push.check(app.config)
        server, port = hardened.create(app, host, port, threads)
    except OSError as e:
        fail(f"cannot listen on {host}:{port} ({e.strerror}): is another server there? Choose one with --port.")
    except ConfigError as e:
        fail(str(e))
    origin = follow_address(app.config, host, port)
    warn_of_the_first_day(app.config)
    signal.signal(signal.SIGTERM, _stop)
    log.info(
        "Band Office serving %s on http://%s:%d/v1 (public URL %s%s, mail %s)",
        db.database,
        f"[{host}]" if ":" in host else host,
        port,
        app.config["PUBLIC_URL"],
        origin,
        app.config["MAIL_URL"].split("@")[-1],
    )
    background = Worker(app).start() if app.config["WORKER"] == "on" else None
    try:
        server.run()  # returns after SIGTERM or Ctrl-C, once the requests in flight are done
    finally:
        if background is not None:
            background.stop()
    log.info("Band Office stopped")


def follow_address(config, host, port):
    """Without BAND_PUBLIC_URL, links point at the address served; on every interface, at this machine's LAN
    address (SPEC §6: a link to 127.0.0.1 does not open on a phone). Returns a note for the start line."""
    if os.environ.get("BAND_PUBLIC_URL") or config["PUBLIC_URL"] != settings.SETTINGS["PUBLIC_URL"][0]:
        return ""
    note = ""
    if host in ("0.0.0.0", "::", ""):
        host = lan_address(socket.AF_INET6 if host == "::" else socket.AF_INET)
        note = ", this machine's LAN address: set BAND_PUBLIC_URL to change it"
    config["PUBLIC_URL"] = f"http://{f'[{host}]' if ':' in host else host}:{port}"
    if not os.environ.get("BAND_SIGNIN_URL"):
        config["SIGNIN_URL"] = config["PUBLIC_URL"] + "/signin#token={token}"
    return note


def lan_address(family):
    """The address this machine reaches its LAN from: the source of its default route, found by connecting a UDP
    socket (which sends nothing). Loopback when there is no route."""
    probe, loopback = ("2001:db8::1", "::1") if family == socket.AF_INET6 else ("10.254.254.254", "127.0.0.1")
    with socket.socket(family, socket.SOCK_DGRAM) as s:
        try:
            s.connect((probe, 9))
            return s.getsockname()[0]
        except OSError:
            return loopback


def warn_of_the_first_day(config):
    """What a new office needs or gets wrong on its first day: no admin yet (a setup link for naming the first, SPEC
    §12), mail sent from localhost."""
    if not first_run.admin_exists():
        python = os.path.relpath(sys.executable) if sys.executable.startswith(os.getcwd()) else sys.executable
        database = "" if config["DB"] == settings.SETTINGS["DB"][0] else f"BAND_DB={shlex.quote(config['DB'])} "
        log.warning(
            "no admin yet: to name the first, open this one-time setup link within %d minutes:  %s  "
            "(from a script instead: %s%s app.py create-user YOU@EXAMPLE.COM --name 'Your Name' --role admin)",
            first_run.SETUP_MINUTES,
            first_run.new_setup_link(config),
            database,
            shlex.quote(python),
        )
    sender = parseaddr(config["MAIL_FROM"])[1]
    if config["MAIL_URL"].startswith(("smtp://", "smtps://")) and sender.lower().endswith("@localhost"):
        log.warning(
            "BAND_MAIL_FROM is %s: mail servers and recipients refuse or hide mail from localhost; set it to an "
            "address of the office, e.g. BAND_MAIL_FROM='Band Office <office@example.com>'",
            sender,
        )


def _stop(signum, frame):
    raise SystemExit(0)


@click.command("create-user")
@click.argument("email")
@click.option("--name", required=True, help="The user's name.")
@click.option("--role", "roles", multiple=True, help="An access role; repeat for several. Replaces the roles.")
def create_user(email, name, roles):
    """Add a user, or update the one with this address (name; roles when given; reactivated)."""
    prepare_database()
    user = writer.retried(store_user, email.strip().lower(), name, roles)
    click.echo(f"{user.email}: {user.name}, roles {', '.join(user.roles) or '(none)'}")


def store_user(email, name, roles):
    """The user of `email` made or updated: read, then written, in a transaction that sees the database as if alone
    (a request may make the same user meanwhile: then it runs again and updates it)."""
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
    return user


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
    with writer.transaction():
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
@click.option("--gigs", type=int, help=f"A booking agency's office with this many gigs (1 to {demo_data.MAX_GIGS:,}).")
@click.option(
    "--season-of",
    type=click.DateTime(["%Y-%m-%d"]),
    help="The band drawn on this day (YYYY-MM-DD), placed around today: the same band whatever the day.",
)
def demo(path, gigs, season_of):
    """Write a database with a realistic demo band office to PATH."""
    try:
        demo_data.write(path, gigs, season_of.date() if season_of else None)
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


@click.command("check")
@click.argument("path")
def check(path):
    """Verify a database or a backup without changing it: integrity, foreign keys, schema version."""
    if not Path(path).is_file():
        fail(f"{path}: no such file")
    try:
        version, problems, broken = dialect.inspect_file(path)
    except dialect.Unreadable as e:
        fail(f"{path} {e}: it cannot be restored")
    findings = {
        "integrity": integrity_verdict(problems),
        "foreign keys": references_verdict(broken),
        "schema version": schema_verdict(version, len(migrations.steps())),
    }
    for name, (line, _) in findings.items():
        click.echo(f"{name}: {line}")
    reasons = [reason for _, reason in findings.values() if reason]
    if reasons:
        fail(f"{path} cannot be restored: {'; '.join(reasons)}")
    click.echo(f"ok: {path} can be restored or served")


@click.command("copy-to")
@click.argument("url")
@click.argument("source", required=False)
def copy_to(url, source):
    """Copy the office's SQLite database (SOURCE, else BAND_DB) into the empty PostgreSQL database of URL."""
    source = source or current_app.config["DB"]
    if dialects.dialect_name(url) != "postgresql":
        fail(f"{url} is no PostgreSQL database: give its URL, postgresql://user:password@host:port/db")
    if dialects.dialect_name(source) != "sqlite":
        fail("BAND_DB names no SQLite file: give the office's database as the second argument")
    if not Path(source).is_file():
        fail(f"{source}: no such file")
    # The target's dialect follows BAND_DB, chosen as a process starts: the copy runs in one of its own.
    environment = {**os.environ, "BAND_DB": url}
    project = Path(__file__).resolve().parent.parent
    copying = subprocess.run(
        [sys.executable, "-m", "dialects.postgresql.copy_in", source], cwd=project, env=environment
    )
    sys.exit(copying.returncode)


# Each verdict: (the line to print, the reason the file cannot be used or None).


def integrity_verdict(problems):
    if not problems:
        return "ok", None
    more = f" (and {len(problems) - 3} more)" if len(problems) > 3 else ""
    return f"{'; '.join(problems[:3])}{more}", "corrupt"


def references_verdict(broken):
    if not broken:
        return "ok", None
    rows = ", ".join(
        f"{n} row(s) of {table} point at nothing in {parent}" for (table, parent), n in sorted(broken.items())
    )
    return rows, f"broken references in {', '.join(sorted({table for table, _ in broken}))}"


def schema_verdict(version, latest):
    if version == 0:
        return "0, no Band Office schema", "no Band Office schema"
    if version > latest:
        return f"{version}, newer than this code knows ({latest})", f"schema version {version} is newer than the code"
    if version < latest:
        return f"{version}, older than this code's {latest}: restorable, it will be migrated on start", None
    return f"{version}, this code's", None


COMMANDS = (serve, init_db, create_user, create_api_key, demo, backup, check, copy_to)
