"""The service run as a user runs it: `python app.py serve` in a process of its own (forked by `zygote`), spoken to
over HTTP."""

import contextlib
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import urllib.error
import urllib.request

from tests.support import PROJECT, postgresql, zygote
from tests.support.waiting import SLOW_MACHINE_SECONDS, wait_for

OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # 127.0.0.1 whatever the proxy settings
# How long a test waits for the server's answer: a deadline (a sent quote renders its PDF, which on a busy CI
# machine took more than 10 s), not a wait.
ANSWER_SECONDS = 30

SERVING = re.compile(r"serving \S+ on http://\S+:(\d+)/v1 \(public URL (\S+?)[,)]")


def answer_of(url, method="GET", body=None, headers=None):
    """(status, headers, body) of one request to a server the test runs, whatever its status."""
    request = urllib.request.Request(url, data=body, method=method, headers=headers or {})
    try:
        with OPENER.open(request, timeout=ANSWER_SECONDS) as r:
            return r.status, dict(r.headers), r.read()
    except urllib.error.HTTPError as e:
        return e.code, dict(e.headers), e.read()


class Service:
    """`python app.py serve --port 0` on a database of its own: the server takes a free port, and its start line
    says which (a port picked by the test could be taken by another before the server binds it)."""

    def __init__(self, tmp_path, **env):
        self.port = self.base = self.public_url = None
        self.env = {k: v for k, v in os.environ.items() if not k.startswith("BAND_")}
        # The budget of a read is CPU time, and a virtual machine's host that takes the CPU away mid-statement charges
        # that time to the thread: on a busy CI machine a cheap read was refused. The budget's own tests set theirs.
        defaults = {"BAND_QUERY_BUDGET_MS": "5000", "PYTHONUNBUFFERED": "1"}
        if "BAND_DB" not in env:
            defaults["BAND_DB"] = postgresql.served_location(tmp_path)
        self.env.update({**defaults, **env})
        self.log_path = tmp_path / "server.log"

    def run(self, *args):
        """Run a command of app.py to its end."""
        return zygote.run(["app.py", *args], self.env, PROJECT, timeout=60)

    def run_all(self, *commands):
        """Run commands of app.py (each a list of its arguments) to their end in one process: their outputs, or an
        AssertionError saying what the first that failed said."""
        done = zygote.run(["-m", "tests.support.commands", json.dumps(commands)], self.env, PROJECT, timeout=60)
        assert done.returncode == 0, done.stdout + done.stderr
        results = json.loads(done.stdout.splitlines()[-1])
        assert all(result["exit_code"] == 0 for result in results), results
        return [result["output"] for result in results]

    def start(self, *options):
        self.log_path.write_text("")
        command = ["app.py", "serve", "--port", "0", "--threads", "4", *options]
        self.proc = zygote.start(command, self.env, PROJECT, self.log_path)

        def serving():
            assert self.proc.poll() is None, f"the server stopped:\n{self.output()}"
            return SERVING.search(self.output())

        try:
            match = wait_for(serving, timeout=30)
        except AssertionError as e:
            raise AssertionError(f"{e}\n{self.output()}") from None
        self.port, self.public_url = int(match[1]), match[2]
        self.base = f"http://127.0.0.1:{self.port}/v1"
        return self

    def request(self, method, path, body=None, headers=None):
        """(status, headers, body) of one request to the API."""
        return answer_of(self.base + path, method, body, headers)

    def connect(self, source="127.0.0.1", timeout=5):
        """A raw socket to the server, from `source` (another address of 127.0.0.0/8 is another client)."""
        s = socket.socket()
        s.settimeout(timeout)
        s.bind((source, 0))
        s.connect(("127.0.0.1", self.port))
        return s

    def output(self):
        return self.log_path.read_text()

    def stop(self):
        """SIGTERM, as a service manager stops it: the exit status. It ends once its requests in flight are answered
        and its worker has stopped (5 s at most), in seconds alone; on a machine at load 10 a server of a module's
        pages took over 10, so it is waited for as long as a slow machine may take (a test of how soon it stops
        measures that itself)."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(SLOW_MACHINE_SECONDS)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                raise
        return self.proc.returncode


@contextlib.contextmanager
def running(*services):
    """The servers started, and stopped at the end however the test went (their exit statuses are the test's to
    check)."""
    for service in services:
        service.start()
    try:
        yield
    finally:
        for service in services:
            service.stop()


FAST = {"BAND_WORKER_INTERVAL": "0.2"}
# For an office whose tests wait on no timed work: the worker's rounds every 0.2 s cost an idle server ~3 % of a core
UNHURRIED = {"BAND_WORKER_INTERVAL": "15"}
LOOPBACK_PUSH = {"BAND_PUSH_PRIVATE_HOSTS": "127.0.0.1"}  # the tests' push endpoints listen there (SPEC §2.3)


def admin_key(service):
    """The admin ops@example.com made in the database of `service`, and a new API key of theirs (one process)."""
    _, key = service.run_all(
        ["create-user", "ops@example.com", "--name", "Ops", "--role", "admin"],
        ["create-api-key", "ops@example.com", "--label", "tests"],
    )
    return key.strip()


def once_a_process(make):
    """`make(folder)` made by the first call in a process, in `folder` (made if need be); every later call, whatever
    its folder, gets what that one made: a template the tests of the process copy."""
    made = []

    def first(folder):
        if not made:
            folder.mkdir(exist_ok=True)
            made.append(make(folder))
        return made[0]

    return first


@once_a_process
def office_with_admin(folder):
    """A database with the admin ops@example.com and an API key of theirs: (its BAND_DB, the key). A ServedOffice on
    a folder with no database yet starts on a copy of it (a file copied, a CREATE DATABASE … TEMPLATE), where the
    commands that make them cost a process (~0.5 CPU-s) an office."""
    maker = Service(folder, BAND_DB=postgresql.served_location(folder, kept=True))
    return maker.env["BAND_DB"], admin_key(maker)


class ServedOffice:
    """A served office with an admin API key, spoken to as JSON: on the database BAND_DB names, or its folder's, the
    admin made in it; else on a copy of `office_with_admin`."""

    def __init__(self, tmp_path, **env):
        settings = {**FAST, **LOOPBACK_PUSH, **env}
        if "BAND_DB" in env or postgresql.has_database(tmp_path):
            self.service = Service(tmp_path, **settings)
            self.key = admin_key(self.service)
        else:
            template, self.key = office_with_admin(tmp_path.parent / "office-with-admin")
            self.service = Service(tmp_path, **settings, BAND_DB=postgresql.location(tmp_path, template=template))
        self.db = self.service.env["BAND_DB"]  # its location: a SQLite file or a postgresql:// URL

    def start(self):
        self.service.start()
        return self

    def call(self, method, path, body=None):
        headers = {"Authorization": f"Bearer {self.key}", "Content-Type": "application/json"}
        status, _, answer = self.service.request(method, path, json.dumps(body).encode() if body else None, headers)
        assert status < 300, answer
        return json.loads(answer)["data"] if answer else None


@contextlib.contextmanager
def served_offices(tmp_path, **defaults):
    """start(**env) -> a served office of its own with `defaults`, `env` overriding; all stopped at the end."""
    started = []

    def start(**env):
        started.append(ServedOffice(tmp_path, **{**defaults, **env}).start())
        return started[-1]

    try:
        yield start
    finally:
        for office in started:
            office.service.stop()


def example_office(tmp_path):
    """Put the example office (band.db.example, the demo) in the database of `tmp_path`: the file copied on SQLite,
    moved by `app.py copy-to` into the test's database on PostgreSQL (as an office moves)."""
    example = PROJECT / "band.db.example"
    if not postgresql.on_postgresql():
        shutil.copy(example, tmp_path / "band.db")
        return
    empty = postgresql.location(tmp_path)  # before the Service, whose office would start on the template's copy
    copied = Service(tmp_path).run("copy-to", empty, str(example))
    assert copied.returncode == 0, copied.stdout + copied.stderr
