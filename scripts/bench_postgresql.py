"""The PostgreSQL side of scripts/bench_databases.py: the cached office copied into a PostgreSQL database once (by
`app.py copy-to`), a fresh copy of that per run, and PostgreSQL's processes pinned to the servers' CPU meanwhile."""

import contextlib
import os
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from bench_support import PINNED, PROJECT, SERVER_CPU, catch_up, clean_env


def at_database(url, name):
    """`url` with its database replaced by `name`."""
    return urlunsplit(urlsplit(url)._replace(path=f"/{name}"))


@contextlib.contextmanager
def database_copy(url, source, size):
    """(the URL of a fresh copy of the office of `size` gigs on the server of `url`, a function answering PostgreSQL's
    process ids on this machine, [] when it runs elsewhere); the copy is dropped at the end. The office is copied
    from the SQLite file `source` into `band_bench_<size>` on first use and kept there."""
    import psycopg

    cache, copy = f"band_bench_{size}", f"band_bench_{size}_run"
    with psycopg.connect(url, autocommit=True) as c:
        if not c.execute("SELECT 1 FROM pg_database WHERE datname = %s", (cache,)).fetchone():
            build(c, url, cache, source)
        postmaster = parent_of(c.execute("SELECT pg_backend_pid()").fetchone()[0])
    catch_up(at_database(url, cache))
    with psycopg.connect(url, autocommit=True) as c:
        c.execute(f'DROP DATABASE IF EXISTS "{copy}"')
        from_template(c, copy, cache)
    try:
        yield at_database(url, copy), lambda: processes_of(postmaster)
    finally:
        with psycopg.connect(url, autocommit=True) as c:
            c.execute(f'DROP DATABASE IF EXISTS "{copy}" WITH (FORCE)')


def build(connection, url, cache, source):
    """The office in `source` copied into the new database `cache`, under another name until the copy is whole."""
    building = f"{cache}_building"
    print(f"copying {source.name} into PostgreSQL's {cache} (once; about 5 minutes at 100 000 gigs) ...", flush=True)
    started = time.monotonic()
    connection.execute(f'DROP DATABASE IF EXISTS "{building}"')
    connection.execute(f'CREATE DATABASE "{building}"')
    command = [sys.executable, "app.py", "copy-to", at_database(url, building), str(source)]
    subprocess.run(command, cwd=PROJECT, env=clean_env(), check=True, stdout=subprocess.DEVNULL)
    connection.execute(f'ALTER DATABASE "{building}" RENAME TO "{cache}"')
    print(f"  copied in {time.monotonic() - started:.0f} s", flush=True)


def from_template(connection, name, template):
    """CREATE DATABASE `name` from `template`, once the sessions of the last command on it have ended."""
    import psycopg

    deadline = time.monotonic() + 30
    while True:
        try:
            connection.execute(f'CREATE DATABASE "{name}" TEMPLATE "{template}"')
            return
        except psycopg.errors.ObjectInUse:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)


def parent_of(pid):
    """The parent of process `pid` (PostgreSQL's postmaster, for a backend), None when it is not on this machine."""
    try:
        return int(Path(f"/proc/{pid}/status").read_text().split("PPid:")[1].split()[0])
    except (OSError, IndexError):
        return None


def processes_of(postmaster):
    """The ids of the postmaster and its children (backends, checkpointer, WAL writer, …)."""
    if postmaster is None:
        return []
    children = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and parent_of(entry.name) == postmaster:
            children.append(int(entry.name))
    return [postmaster, *children]


@contextlib.contextmanager
def pinned_postgresql(pids):
    """PostgreSQL's processes (`pids()`) on the servers' CPU until the end, their CPUs given back after (a backend
    started meanwhile inherits the postmaster's CPU)."""
    processes = pids()
    if not PINNED or not processes:
        print("PostgreSQL is not pinned: it runs elsewhere, or this machine cannot pin", flush=True)
        yield
        return
    before = os.sched_getaffinity(processes[0])
    for pid in processes:
        with contextlib.suppress(OSError):
            os.sched_setaffinity(pid, {int(SERVER_CPU)})
    try:
        yield
    finally:
        for pid in pids():
            with contextlib.suppress(OSError):
                os.sched_setaffinity(pid, before)
