"""Copies of a PostgreSQL database: `pg_dump` archives (custom format) written online and consistent, and checked
with `pg_restore` without restoring them. The database's own files are PostgreSQL's to keep private."""

import os
import re
import shutil
import subprocess
from pathlib import Path

from dialects.postgresql.database import connection_params
from storage.private_files import private_file


def keep_private(location):
    """Nothing to do: the server's files are the PostgreSQL server's, private to its own user."""


def database_folder():
    """None: the database is no file of this machine's, so the copy taken before a migration goes to
    BAND_BACKUP_DIR (see storage/migrations.py)."""
    return None


def client_program(name):
    """The path of a PostgreSQL client program: on PATH, else the newest of Debian's /usr/lib/postgresql/*/bin."""
    found = shutil.which(name)
    if found:
        return found
    installed = sorted(Path("/usr/lib/postgresql").glob(f"*/bin/{name}"), key=lambda p: int(p.parts[-3]))
    if not installed:
        raise FileNotFoundError(f"{name} not found: install PostgreSQL's client programs (postgresql-client)")
    return str(installed[-1])


def libpq_environment():
    """The environment that points libpq's programs at `db`'s database (the password never on a command line)."""
    names = {"host": "PGHOST", "port": "PGPORT", "user": "PGUSER", "password": "PGPASSWORD", "sslmode": "PGSSLMODE"}
    params = connection_params()
    environment = {**os.environ, "PGDATABASE": params["dbname"]}
    environment.update({names[k]: str(v) for k, v in params.items() if k in names and v is not None})
    return environment


def copy_database(path):
    """An online, consistent copy of the open database at `path` (a pg_dump archive, one snapshot), while writes go
    on; 0600, as every file the service writes."""
    private_file(path)
    subprocess.run(
        [client_program("pg_dump"), "--format=custom", "--no-owner", "--no-privileges", f"--file={path}"],
        env=libpq_environment(),
        check=True,
        capture_output=True,
        text=True,
    )


class Unreadable(Exception):
    """The file is no pg_dump archive, or too damaged to read; the message says which."""


def inspect_file(path):
    """(schema version, integrity problems, {(table, referenced table): rows pointing at nothing}) of the pg_dump
    archive `path`, read and never written: every block of it is read (a damaged one is an integrity problem). An
    archive is one snapshot of a database whose references are enforced, so none points at nothing. Raises
    Unreadable."""
    listed = _restore(path, "--list")
    if listed.returncode != 0:
        damaged = f"is corrupt ({listed.stderr.strip()})"
        raise Unreadable("is not a pg_dump archive" if "input file" in listed.stderr else damaged)
    whole = _restore(path, f"--file={os.devnull}")  # the script a restore would run, every block decompressed
    problems = [] if whole.returncode == 0 else [f"it cannot be read whole ({_first_line(whole.stderr)})"]
    rows = _restore(path, "--data-only", "--table=schema_version", "--file=-")
    if rows.returncode != 0:
        return 0, [*problems, f"its schema version cannot be read ({_first_line(rows.stderr)})"], {}
    found = re.search(r"^COPY [^\n]*schema_version[^\n]*FROM stdin;\n(?:t|f)\t(\d+)$", rows.stdout, flags=re.M)
    return (int(found[1]) if found else 0), problems, {}


def _first_line(text):
    return (text.strip().splitlines() or ["no reason given"])[0]


def _restore(path, *options):
    return subprocess.run([client_program("pg_restore"), *options, str(path)], capture_output=True, text=True)
