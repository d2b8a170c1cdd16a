"""What the benchmark scripts share: the project's commands, servers on free ports, wrk, the demo databases."""

import datetime as dt
import os
import re
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from urllib.parse import quote

PROJECT = Path(__file__).resolve().parent.parent
# Servers on one CPU, the load on the other: on these VMs threads woken across CPUs cost milliseconds and hide every
# real difference (SPEC: measure pinned). Without taskset or a second CPU, nothing is pinned.
PINNED = shutil.which("taskset") is not None and (os.cpu_count() or 1) >= 2
SERVER_CPU, LOAD_CPU = "0", "1"


def pinned(command, cpu):
    """`command` run on CPU `cpu` alone, where pinning is possible."""
    return ["taskset", "-c", cpu, *command] if PINNED else list(command)


CACHE = PROJECT / "bench" / "cache"

POST_TEAMS = """
local counter = 0
function setup(thread)
  thread:set("id", tostring(thread))
end
function init(args)
  local tag = os.getenv("BENCH_TAG")  -- one per wrk process when several run at once (bench_two_servers.py)
  prefix = "bench-" .. (tag and (tag .. "-") or "") .. os.time() .. "-" .. id .. "-"
end
request = function()
  counter = counter + 1
  local headers = {["Content-Type"] = "application/json"}
  for name, value in pairs(wrk.headers) do headers[name] = value end  -- keeps -H Authorization
  local body = '{"name": "' .. prefix .. counter .. '"}'
  return wrk.format("POST", "/v1/teams", headers, body)
end
"""


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run_app(env, *args, code=PROJECT):
    """`app.py` of the code in `code` (this project, or an older commit of it) with `args`: its output."""
    command = [sys.executable, "app.py", *args]
    return subprocess.run(command, cwd=code, env=env, check=True, capture_output=True, text=True).stdout.strip()


def serve(port):
    return [sys.executable, "app.py", "serve", "--threads", "8", "--port", str(port)]


def office(path, workdir, code=PROJECT, **settings):
    """The environment serving the database at `path` (created if new) and an admin's API key in it."""
    env = {
        **clean_env(),
        "BAND_DB": str(path),
        "BAND_MAIL_URL": f"file:{workdir}/mail",
        **settings,
    }
    run_app(env, "create-user", "bench@example.com", "--name", "Bench", "--role", "admin", code=code)
    return env, run_app(env, "create-api-key", "bench@example.com", "--label", "bench", code=code)


def database(size):
    """The cached demo database of `size` gigs, built on first use."""
    path = CACHE / f"band-{size}.db"
    if not path.exists():
        CACHE.mkdir(parents=True, exist_ok=True)
        print(f"building a demo database of {size} gigs (once) ...", flush=True)
        started = time.monotonic()
        env = {**clean_env(), "BAND_DB": str(CACHE / "scratch.db")}
        run_app(env, "demo", str(path), "--gigs", str(size))
        print(f"  built in {time.monotonic() - started:.0f} s", flush=True)
    catch_up(path)
    return path


# The worker's timed work on a database, until it has nothing left to do (run as a script of the project's code).
CATCH_UP = """
import sys
import app
from delivery import notifications, worker
from dialects import dialect
from models import BUSY_TABLES, Notification, db
from storage import migrations
application = app.create_app({"DB": sys.argv[1]})
with application.app_context():
    migrations.upgrade()
    with db.atomic():
        dialect.refresh_statistics(BUSY_TABLES)
    while worker.expire_invitations() == worker.EXPIRE_AT_ONCE:
        pass
    made = -1
    while made != Notification.select().count():
        made = Notification.select().count()
        notifications.run_timed(application.config)
    # what that queued is a backlog of days: set aside, or the run would measure the mail of thousands
    pending = (Notification.email_state == "pending") | (Notification.push_state == "pending")
    Notification.update(email_state="skipped", push_state="skipped").where(pending).execute()
"""


def catch_up(location):
    """The cached database (a path, or the postgresql:// URL of a copy of one) brought up to now, once per run: the
    invitations that expired, the reminders due since it was built and their mail are the worker's catch-up after a
    long pause, not what a run should measure."""
    started = time.monotonic()
    env = {**clean_env(), "BAND_DB": str(location)}  # the dialect follows BAND_DB
    subprocess.run([sys.executable, "-c", CATCH_UP, str(location)], cwd=PROJECT, env=env, check=True)
    name = str(location).rsplit("/", 1)[-1]
    print(f"  {name} caught up with the worker's timed work in {time.monotonic() - started:.0f} s", flush=True)


def clean_env():
    return {k: v for k, v in os.environ.items() if not k.startswith("BAND_")}


class Server:
    """A process serving HTTP on a free port until stopped; its peak memory read from /proc."""

    def __init__(self, command, env, health, code=PROJECT):
        """`command(port)` is the command line that serves on `port` from `code`; `health` a path that answers 200."""
        self.port = free_port()
        self.process = subprocess.Popen(
            pinned(command(self.port), SERVER_CPU),
            cwd=code,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        self.base = f"http://127.0.0.1:{self.port}"
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(self.base + health, timeout=2):
                    return
            except OSError:
                time.sleep(0.2)
        raise SystemExit(f"{command} did not answer {health}")

    def peak_mb(self):
        return self.memory()["peak"]

    def memory(self):
        """{peak, now: MB (VmHWM, VmRSS), threads} of the server process, from /proc."""
        status = Path(f"/proc/{self.process.pid}/status").read_text()
        mb = {name: int(re.search(rf"{field}:\s+(\d+) kB", status)[1]) / 1024 for name, field in MEMORY_FIELDS}
        return {**mb, "threads": int(re.search(r"Threads:\s+(\d+)", status)[1])}

    def stop(self):
        self.process.send_signal(signal.SIGTERM)
        self.process.wait(15)


MEMORY_FIELDS = (("peak", "VmHWM"), ("now", "VmRSS"))


def datasette_server(datasette, path):
    """Datasette (the executable `datasette`, installed apart from the project) serving the database at `path`,
    pinned as the service is."""
    base = [datasette, "serve", str(path), "--setting", "sql_time_limit_ms", "5000"]
    return Server(lambda port: [*base, "--port", str(port)], clean_env(), "/-/versions.json")


def datasette_query(path, sql):
    """The URL path at which Datasette answers `sql` on the database at `path`: its rows, a JSON array of objects."""
    return f"/{Path(path).stem}.json?sql={quote(sql)}&_shape=array"


def open_gigs_sql(today):
    """The hand-written SQL of "the gigs of next month with open roles, their venue beside them" (SPEC §11): what
    `daily_questions`' "open gigs" asks the service, in its order, 50 rows, each gig's columns and its venue's."""
    first, after = next_month(today)
    venue = [
        "id", "created_at", "updated_at", "name", "address_line1", "address_line2", "city", "region", "postal_code",
        "country", "timezone", "phone", "email", "website", "notes", "load_in_notes", "custom_fields",
    ]  # fmt: skip
    return (
        "SELECT g.*, " + ", ".join(f"v.{c} AS venue__{c}" for c in venue) + " FROM gigs g "
        f"LEFT JOIN venues v ON v.id = g.venue_id WHERE g.gig_date >= '{first}' AND g.gig_date < '{after}' "
        "AND g.open_role_count > 0 ORDER BY g.gig_date, g.start_time, g.id LIMIT 50"
    )


def next_month(today):
    first = (today.replace(day=1) + dt.timedelta(days=32)).replace(day=1)
    return first, (first + dt.timedelta(days=32)).replace(day=1)


def wrk(url, seconds, connections, key=None, script=None):
    """(requests/s, p50 ms, p99 ms) of `url` under wrk; refuses a run with answers other than 2xx."""
    output = wrk_output(url, seconds, connections, key, script)
    if "Non-2xx" in output or "Socket errors" in output:
        raise SystemExit(f"wrk saw failures on {url}:\n{output}")
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", output)[1])
    return rate, latency(output, "50%"), latency(output, "99%")


def wrk_output(url, seconds, connections, key=None, script=None):
    """What wrk prints for `url` (with latencies)."""
    command = pinned(["wrk", "-t2", f"-c{connections}", f"-d{seconds}s", "--latency", url], LOAD_CPU)
    if key:
        command += ["-H", f"Authorization: Bearer {key}"]
    if script:
        command += ["-s", script]
    return subprocess.run(command, capture_output=True, text=True, check=True).stdout


def latency(output, percentile):
    value, unit = re.search(rf"{percentile}\s+([\d.]+)(us|ms|s)", output).groups()
    return float(value) * {"us": 0.001, "ms": 1, "s": 1000}[unit]


def sample_ids(path):
    """A confirmed status, a gig and a gig role to point the requests at."""
    with sqlite3.connect(path) as c:
        status = c.execute("SELECT id FROM gig_statuses WHERE is_default").fetchone()[0]
        gig = c.execute("SELECT id FROM gigs ORDER BY gig_date DESC LIMIT 1 OFFSET 10").fetchone()[0]
        role = c.execute("SELECT id FROM gig_roles WHERE staff_member_id IS NOT NULL LIMIT 1 OFFSET 5").fetchone()[0]
    return status, gig, role


def daily_questions(path, today):
    """The paths of the office's daily questions (SPEC §11) on the database at `path`: the gigs of next month with
    open roles (venue embedded), next month's open roles by gig date (gig and role embedded), and a `q` search of
    staff members (a surname) and of gigs (a couple's names, the second begun)."""
    first, after = next_month(today)
    month = f"filter[gig_date][gte]={first}&filter[gig_date][lt]={after}"
    through = f"filter[gig.gig_date][gte]={first}&filter[gig.gig_date][lt]={after}"
    with sqlite3.connect(path) as c:
        surname = c.execute("SELECT last_name FROM staff_members ORDER BY id LIMIT 1").fetchone()[0]
        title = c.execute("SELECT title FROM gigs WHERE title LIKE '% & %' ORDER BY id LIMIT 1").fetchone()[0]
    couple = re.findall(r"\w+", title)
    return {
        "open gigs": f"/v1/gigs?{month}&filter[open_role_count][gt]=0&expand=venue",
        "open roles": f"/v1/gig-roles?filter[status]=open&{through}&sort=gig.gig_date&expand=gig,role",
        "q staff": f"/v1/staff-members?q={quote(surname)}",
        "q gigs": f"/v1/gigs?q={quote(couple[0])}%20{quote(couple[1][:4])}",
    }


def musician(path, env):
    """An API key of a new user (access role staff) linked to a staff member with about 200 gigs, in the database at
    `path` (not served yet), and how many gigs the member has."""
    with sqlite3.connect(path) as c:
        member, gigs = c.execute(
            "SELECT staff_member_id, COUNT(DISTINCT gig_id) FROM gig_roles WHERE staff_member_id IS NOT NULL "
            "GROUP BY 1 ORDER BY abs(COUNT(DISTINCT gig_id) - 200), 1 LIMIT 1"
        ).fetchone()
    run_app(env, "create-user", "musician@example.com", "--name", "Musician", "--role", "staff")
    with sqlite3.connect(path) as c:
        user = "SELECT id FROM users WHERE email = 'musician@example.com'"
        c.execute(f"UPDATE staff_members SET user_id = ({user}) WHERE id = ?", (member,))
    return run_app(env, "create-api-key", "musician@example.com", "--label", "phone"), gigs


def list_path(status):
    return f"/v1/gigs?limit=50&sort=-gig_date&filter[gig_status_id]={status}"


def post_teams_script(workdir):
    script = Path(workdir) / "post_teams.lua"
    script.write_text(POST_TEAMS)
    return script
