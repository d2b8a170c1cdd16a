"""A PostgreSQL server of the tests' own (`Cluster`): initdb'd into a temporary folder and run as the `postgres` user
when the tests run as root (PostgreSQL refuses root), spoken to through a Unix socket in that folder (no port to
collide with another), with its durability switched off (a test's data never outlives the run); and the statements
the tests run on a server: databases made and dropped, a pg_dump archive's rows read back."""

import contextlib
import os
import pwd
import shutil
import subprocess
import tempfile
from pathlib import Path
from urllib.parse import urlsplit

# Settings for speed and for many databases side by side: nothing written survives a crash, and none needs to.
SETTINGS = {
    "listen_addresses": "''",
    "max_connections": "400",
    "fsync": "off",
    "synchronous_commit": "off",
    "full_page_writes": "off",
    "shared_buffers": "64MB",
    "max_locks_per_transaction": "256",
}
SUPERUSER = "postgres"


def server_program(name):
    """A server program (initdb, pg_ctl): on PATH, else the newest of Debian's /usr/lib/postgresql/*/bin. As the
    product's `dialects.postgresql.backups.client_program` finds its clients, written again here: this module is read
    before the project may be imported (conftest.py chooses the dialect first)."""
    found = shutil.which(name)
    if found:
        return found
    installed = sorted(Path("/usr/lib/postgresql").glob(f"*/bin/{name}"), key=lambda p: int(p.parts[-3]))
    if not installed:
        raise FileNotFoundError(f"{name} not found: install PostgreSQL (Debian: apt-get install postgresql)")
    return str(installed[-1])


class Cluster:
    """A PostgreSQL server of the tests' own: `start()`, `url(database)`, `stop()`."""

    def __init__(self, folder=None):
        self.folder = Path(folder or tempfile.mkdtemp(prefix="band-pg-"))
        self.data, self.socket = self.folder / "data", self.folder
        self.as_user = SUPERUSER if os.geteuid() == 0 else None

    def start(self):
        if self.as_user:
            account = pwd.getpwnam(self.as_user)
            os.chown(self.folder, account.pw_uid, account.pw_gid)
        self._run(
            server_program("initdb"),
            "--auth=trust",
            f"--username={SUPERUSER}",
            "--encoding=UTF8",
            "--locale=C.UTF-8",
            "--no-sync",
            "-D",
            str(self.data),
        )
        options = " ".join(f"-c {name}={value}" for name, value in SETTINGS.items())
        self._run(
            server_program("pg_ctl"),
            "start",
            "--wait",
            "--timeout=60",
            "-D",
            str(self.data),
            f"--log={self.folder / 'server.log'}",
            "-o",
            f"{options} -k {self.socket}",
        )
        return self

    def stop(self):
        if not self.data.exists():
            return
        with contextlib.suppress(subprocess.CalledProcessError):
            self._run(server_program("pg_ctl"), "stop", "--wait", "-m", "immediate", "-D", str(self.data))
        shutil.rmtree(self.folder, ignore_errors=True)

    def url(self, database):
        return f"postgresql://{SUPERUSER}@/{database}?host={self.socket}"

    def _run(self, *command):
        subprocess.run(command, check=True, capture_output=True, text=True, user=self.as_user)


def execute(url, *statements):
    """Run statements outside a transaction (CREATE DATABASE cannot run in one) on a connection of their own."""
    import psycopg  # here: a run on SQLite never loads it (see dialects._spare_the_driver)

    with psycopg.connect(url, autocommit=True) as connection:
        for statement in statements:
            connection.execute(statement)


def create_database(server_url, name, template=None):
    """A new database `name` on the server of `server_url` (any of its databases), copied from `template`."""
    copied = f' TEMPLATE "{template}" STRATEGY FILE_COPY' if template else ""  # FILE_COPY: faster for small ones
    execute(server_url, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)', f'CREATE DATABASE "{name}"{copied}')


def drop_database(server_url, name):
    execute(server_url, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def database_url(server_url, name):
    """The URL of database `name` on the server of `server_url`."""
    return urlsplit(server_url)._replace(path=f"/{name}").geturl()


def archive_rows(path, table):
    """The rows of `table` in the pg_dump archive `path`, as lines of COPY's text form (fields split by tabs)."""
    restore = [server_program("pg_restore"), "--data-only", f"--table={table}", "--file=-", str(path)]
    script = subprocess.run(restore, check=True, capture_output=True, text=True).stdout
    copied = script.split(" FROM stdin;\n", 1)[1].split("\n\\.\n", 1)[0]
    return copied.splitlines()
