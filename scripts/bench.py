"""The benchmark: the real service under waitress against the ceiling of its stack (Flask + waitress answering a
constant), on demo databases of 1 k and 100 k gigs, measured with wrk at 16 connections.

    .venv/bin/python scripts/bench.py [--sizes 1000,100000] [--seconds 10] [--connections 16] [--no-webhooks]

`--sizes ''` skips the runs per database size (the ceiling and the webhook part alone take about 85 s).

It needs wrk (Debian: `apt-get install wrk`). Databases are built once with `app.py demo PATH --gigs N` into
bench/cache/ and copied for each run. It prints requests/s and p50/p99 latency per endpoint, the ratios to the
ceiling, the 100 k / 1 k latency ratio, the cost of a deep page (offset 50 000), the p99 of 16 concurrent writers
(POST /v1/teams), the server's peak memory, and whether each target is met. On a machine shared with other work the
ratios to the ceiling can swing by half from run to run: compare runs made under the same conditions.

The webhook part (SPEC §8, on by default) measures POST /v1/teams with events against the code of the last commit
before events (served from `git archive`, each on a fresh database), the deliveries per second of a queue of 2 000
to a local receiver (a process of its own), and the delay from commit to delivery while wrk runs the list load.
"""

import argparse
import concurrent.futures
import datetime as dt
import http.client
import http.server
import io
import json
import multiprocessing
import os
import re
import shutil
import signal
import socket
import sqlite3
import statistics
import subprocess
import sys
import tarfile
import tempfile
import threading
import time
import urllib.request
import uuid
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent
CACHE = PROJECT / "bench" / "cache"
TARGETS = {"list": 0.15, "single": 0.40}
LIST_P99_MS, WRITE_P99_MS, SIZE_RATIO, OFFSET_RATIO, PEAK_MB = 100, 150, 1.5, 3, 80
# What each measured name requests, for the target lines (the ids are picked by `sample_ids`).
REQUESTS = {"list": "GET /v1/gigs?filter", "single": "GET /v1/gigs/{id}", "create team": "POST /v1/teams"}
BEFORE_EVENTS = "0f2ac9e"  # the last commit before issue 12's events
WRITE_RATIO, DELIVERIES_PER_S, DELAY_P99_MS = 0.85, 200, 1000
CHANGES, LOAD_SECONDS, PACE_SECONDS = 2000, 15, 0.05  # queued deliveries; the list load; one change per pace

POST_TEAMS = """
local counter = 0
function setup(thread)
  thread:set("id", tostring(thread))
end
function init(args)
  prefix = "bench-" .. os.time() .. "-" .. id .. "-"
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
    # wrk opens its connections while the last run's may still be closing: room above the per-client cap of 20
    env = {
        **clean_env(),
        "BAND_DB": str(path),
        "BAND_MAIL_URL": f"file:{workdir}/mail",
        "BAND_MAX_CONNECTIONS_PER_CLIENT": "64",
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
    return path


def clean_env():
    return {k: v for k, v in os.environ.items() if not k.startswith("BAND_")}


class Server:
    """A process serving HTTP on a free port until stopped; its peak memory read from /proc."""

    def __init__(self, command, env, health, code=PROJECT):
        """`command(port)` is the command line that serves on `port` from `code`; `health` a path that answers 200."""
        self.port = free_port()
        self.process = subprocess.Popen(
            command(self.port), cwd=code, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
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
        status = Path(f"/proc/{self.process.pid}/status").read_text()
        return int(re.search(r"VmHWM:\s+(\d+) kB", status)[1]) / 1024

    def stop(self):
        self.process.send_signal(signal.SIGTERM)
        self.process.wait(15)


def wrk(url, seconds, connections, key=None, script=None):
    """(requests/s, p50 ms, p99 ms) of `url` under wrk; refuses a run with answers other than 2xx."""
    command = ["wrk", "-t2", f"-c{connections}", f"-d{seconds}s", "--latency", url]
    if key:
        command += ["-H", f"Authorization: Bearer {key}"]
    if script:
        command += ["-s", script]
    output = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    if "Non-2xx" in output or "Socket errors" in output:
        raise SystemExit(f"wrk saw failures on {url}:\n{output}")
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", output)[1])
    return rate, latency(output, "50%"), latency(output, "99%")


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


def measure_size(size, options, workdir):
    """The service on a copy of the demo database of `size` gigs: {name: (requests/s, p50, p99)}, peak MB."""
    path = Path(workdir) / f"band-{size}.db"
    shutil.copy(database(size), path)
    env, key = office(path, workdir)
    status, gig, role = sample_ids(path)
    server = Server(serve, env, "/v1/health")
    script = post_teams_script(workdir)
    endpoints = {
        "list": list_path(status),
        "single": f"/v1/gigs/{gig}",
        "candidates": f"/v1/gig-roles/{role}/candidates",
        "page at 0": "/v1/gigs?limit=50&sort=-gig_date",
    }
    if size >= 60_000:
        endpoints["page at 50000"] = "/v1/gigs?limit=50&sort=-gig_date&offset=50000"
    results = {}
    try:
        for name, path_ in endpoints.items():
            wrk(server.base + path_, 2, options.connections, key)  # warm the caches
            results[name] = wrk(server.base + path_, options.seconds, options.connections, key)
        results["create team"] = wrk(server.base + "/v1/teams", options.seconds, options.connections, key, script)
        peak = server.peak_mb()
    finally:
        server.stop()
    return results, peak


def list_path(status):
    return f"/v1/gigs?limit=50&sort=-gig_date&filter[gig_status_id]={status}"


def post_teams_script(workdir):
    script = Path(workdir) / "post_teams.lua"
    script.write_text(POST_TEAMS)
    return script


def measure_ceiling(options):
    server = Server(lambda port: [sys.executable, "scripts/ceiling.py", str(port)], clean_env(), "/v1/constant")
    try:
        wrk(server.base + "/v1/constant", 2, options.connections)
        return wrk(server.base + "/v1/constant", options.seconds, options.connections)
    finally:
        server.stop()


# --- webhooks (SPEC §8) ------------------------------------------------------------------------------------------


def measure_webhooks(options, workdir):
    """The write path with events against before them, the deliveries per second, the delay from commit to delivery."""
    return {
        "write": measure_write_path(options, workdir),
        "deliveries": measure_deliveries(workdir),
        "delay": measure_delay(options, workdir),
    }


def measure_write_path(options, workdir):
    """POST /v1/teams requests/s of this code and of the code before events ({"now", "before"}; "before" None when
    that code is not at hand), each served on a fresh database and measured in turns (now, before, before, now) so
    that a change in the machine's load falls on both."""
    codes = {"now": PROJECT}
    if extract(BEFORE_EVENTS, Path(workdir) / "before-events"):
        codes["before"] = Path(workdir) / "before-events"
    else:
        print(f"git or commit {BEFORE_EVENTS} not at hand: the write path is not compared with before events")
    script, servers, rates = post_teams_script(workdir), {}, {}
    try:
        for name, code in codes.items():
            env, key = office(Path(workdir) / f"teams-{name}.db", workdir, code=code)
            servers[name] = Server(serve, env, "/v1/health", code=code), key
            wrk(servers[name][0].base + "/v1/teams", 2, options.connections, key, script)  # warm the caches
            rates[name] = []
        for name in [*codes, *reversed(codes)]:
            server, key = servers[name]
            half = max(options.seconds // 2, 1)
            rates[name].append(wrk(server.base + "/v1/teams", half, options.connections, key, script)[0])
    finally:
        for server, _ in servers.values():
            server.stop()
    return {
        "now": statistics.mean(rates["now"]),
        "before": statistics.mean(rates["before"]) if "before" in rates else None,
    }


def extract(commit, target):
    """The project's files at `commit` into `target`; False when git or the commit is not at hand."""
    try:
        archive = subprocess.run(["git", "archive", commit], cwd=PROJECT, capture_output=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return False
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(target, filter="data")
    return True


def measure_deliveries(workdir):
    """CHANGES team changes queued while the worker is off, then delivered by a server with it on: how many arrived,
    in how many seconds from the server being ready (or the first arrival, if sooner) to the last."""
    env, key = office(Path(workdir) / "deliveries.db", workdir)
    with Receiver() as receiver:
        server = Server(serve, {**env, "BAND_WORKER": "off"}, "/v1/health")
        try:
            with Client(server, key) as client:
                client.call("POST", "/v1/webhook-endpoints", {"url": receiver.url, "event_types": ["team.*"]})
            with concurrent.futures.ThreadPoolExecutor(8) as pool:
                list(pool.map(lambda share: create_teams(server, key, share), [CHANGES // 8] * 8))
        finally:
            server.stop()
        server = Server(serve, env, "/v1/health")
        ready = time.time()
        try:
            arrivals = receiver.wait(CHANGES, timeout=60)
        finally:
            server.stop()
    seconds = arrivals[-1][0] - min(ready, arrivals[0][0]) if arrivals else float("inf")
    return {"delivered": len(arrivals), "seconds": seconds, "rate": len(arrivals) / seconds}


def measure_delay(options, workdir):
    """The delay from commit to delivery of one change every PACE_SECONDS while wrk runs the list load on the 1 000
    gig database: changes made, delivered, p50 and p99 ms, and the list's requests/s meanwhile."""
    path = Path(workdir) / "delay.db"
    shutil.copy(database(1000), path)
    env, key = office(path, workdir)
    status = sample_ids(path)[0]
    with Receiver() as receiver:
        server = Server(serve, env, "/v1/health")
        try:
            with Client(server, key) as client:
                client.call("POST", "/v1/webhook-endpoints", {"url": receiver.url, "event_types": ["team.*"]})
            wrk(server.base + list_path(status), 2, options.connections, key)  # warm the caches
            with concurrent.futures.ThreadPoolExecutor(1) as pool:
                load = pool.submit(wrk, server.base + list_path(status), LOAD_SECONDS, options.connections, key)
                time.sleep(1)  # the load under way before the first change
                made = paced_changes(server, key, LOAD_SECONDS - 2)
                list_rate = load.result()[0]
            arrivals = receiver.wait(made, timeout=10)
        finally:
            server.stop()
    delays = [(at - dt.datetime.fromisoformat(occurred).timestamp()) * 1000 for at, occurred in arrivals]
    p50, p99 = (statistics.quantiles(delays, n=100)[i] for i in (49, 98)) if len(delays) > 1 else (float("inf"),) * 2
    return {"made": made, "delivered": len(arrivals), "p50": p50, "p99": p99, "list_rate": list_rate}


def create_teams(server, key, count):
    with Client(server, key) as client:
        for _ in range(count):
            client.call("POST", "/v1/teams", {"name": f"hook-{uuid.uuid4().hex[:12]}"})


def paced_changes(server, key, seconds):
    """One team created every PACE_SECONDS (on time, whatever the last one took) for `seconds`: how many."""
    made, start = 0, time.monotonic()
    with Client(server, key) as client:
        while (due := start + made * PACE_SECONDS) < start + seconds:
            time.sleep(max(0.0, due - time.monotonic()))
            client.call("POST", "/v1/teams", {"name": f"paced-{uuid.uuid4().hex[:12]}"})
            made += 1
    return made


class Client:
    """One kept-alive connection to a server, as its admin: JSON in and out; any answer but 2xx stops the bench."""

    def __init__(self, server, key):
        self.connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
        self.headers = {"Authorization": f"Bearer {key}", "Content-Type": "application/json"}

    def call(self, method, path, body=None):
        self.connection.request(method, path, json.dumps(body) if body is not None else None, self.headers)
        response = self.connection.getresponse()
        answer = response.read()
        if not 200 <= response.status < 300:
            raise SystemExit(f"{method} {path} answered {response.status}: {answer[:300]!r}")
        return json.loads(answer)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.connection.close()


class Receiver:
    """A webhook receiver in a process of its own (so that it takes no GIL from the bench): asked through a pipe."""

    def __init__(self):
        spawn = multiprocessing.get_context("spawn")
        self.pipe, theirs = spawn.Pipe()
        self.process = spawn.Process(target=receive, args=(theirs,), daemon=True)
        self.process.start()
        self.url = f"http://127.0.0.1:{self.pipe.recv()}/hook"

    def ask(self, question):
        self.pipe.send(question)
        return self.pipe.recv()

    def wait(self, count, timeout):
        """Once `count` events arrived, or `timeout` seconds passed: [(arrival time, occurred_at)] by arrival."""
        deadline = time.monotonic() + timeout
        while self.ask("count") < count and time.monotonic() < deadline:
            time.sleep(0.05)
        return self.ask("arrivals")

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.pipe.send("stop")
        self.process.join(10)


def receive(pipe):
    """The receiver's process: 200 to every POST (HTTP/1.1, kept alive), the first arrival of each webhook-id kept
    with its time; answers the pipe's questions ("count", "arrivals") until "stop"."""
    arrived, lock = {}, threading.Lock()

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self):
            at = time.time()
            body = self.rfile.read(int(self.headers["content-length"]))
            with lock:
                arrived.setdefault(self.headers["webhook-id"], (at, body))
            self.send_response(200)
            self.send_header("Content-Length", "2")
            self.end_headers()
            self.wfile.write(b"ok")

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    pipe.send(server.server_address[1])
    while (question := pipe.recv()) != "stop":
        with lock:
            got = list(arrived.values())
        if question == "count":
            pipe.send(len(got))
        else:
            pipe.send(sorted((at, json.loads(body)["data"]["occurred_at"]) for at, body in got))
    server.shutdown()


def report(ceiling, by_size, peaks, webhooks, connections):
    print(
        f"\nceiling (Flask + waitress, constant JSON): {ceiling[0]:.0f} req/s, p50 {ceiling[1]:.1f} ms, "
        f"p99 {ceiling[2]:.1f} ms"
    )
    for size, results in by_size.items():
        print(f"\n{size} gigs (server peak {peaks[size]:.0f} MB)")
        print(f"  {'endpoint':<16}{'req/s':>9}{'p50 ms':>9}{'p99 ms':>9}{'x ceiling':>11}")
        for name, (rate, p50, p99) in results.items():
            print(f"  {name:<16}{rate:>9.0f}{p50:>9.1f}{p99:>9.1f}{rate / ceiling[0]:>11.2f}")
    if webhooks:
        report_webhooks(ceiling, webhooks, connections)
    checks = targets(ceiling, by_size, peaks, connections) + (webhook_targets(webhooks) if webhooks else [])
    print("\ntargets")
    for text, met in checks:
        print(f"  [{'x' if met else ' '}] {text}")
    return all(met for _, met in checks)


def report_webhooks(ceiling, webhooks, connections):
    write, deliveries, delay = webhooks["write"], webhooks["deliveries"], webhooks["delay"]
    print(f"\nwebhooks (fresh databases; the delay on 1000 gigs under the list load at {connections} connections)")
    print(f"  {'POST /v1/teams':<34}{'req/s':>9}{'x ceiling':>11}")
    for name, text in (("now", "with events"), ("before", f"before events ({BEFORE_EVENTS})")):
        if write[name] is not None:
            print(f"  {text:<34}{write[name]:>9.0f}{write[name] / ceiling[0]:>11.2f}")
    if write["before"] is not None:
        print(f"  with / before events: {write['now'] / write['before']:.2f}")
    print(
        f"  deliveries: {deliveries['delivered']} of {CHANGES} queued in {deliveries['seconds']:.1f} s, "
        f"{deliveries['rate']:.0f}/s"
    )
    print(
        f"  commit to delivery: {delay['delivered']} of {delay['made']} changes (one per {PACE_SECONDS * 1000:.0f} "
        f"ms), p50 {delay['p50']:.0f} ms, p99 {delay['p99']:.0f} ms, the list meanwhile {delay['list_rate']:.0f} req/s"
    )


def webhook_targets(webhooks):
    write, deliveries, delay = webhooks["write"], webhooks["deliveries"], webhooks["delay"]
    checks = []
    if write["before"] is not None:
        ratio = write["now"] / write["before"]
        text = f"POST /v1/teams with events {ratio:.2f} x before events ({BEFORE_EVENTS}) (>= {WRITE_RATIO:.2f})"
        checks.append((text, ratio >= WRITE_RATIO))
    text = f"webhook deliveries {deliveries['rate']:.0f}/s to a local receiver, all {CHANGES} (>= {DELIVERIES_PER_S}/s)"
    checks.append((text, deliveries["delivered"] == CHANGES and deliveries["rate"] >= DELIVERIES_PER_S))
    everything = delay["delivered"] == delay["made"]
    text = f"commit to delivery p99 {delay['p99']:.0f} ms under the list load, all delivered (<= {DELAY_P99_MS} ms)"
    checks.append((text, everything and delay["p99"] <= DELAY_P99_MS))
    return checks


def targets(ceiling, by_size, peaks, connections):
    checks = []
    largest, smallest = max(by_size, default=0), min(by_size, default=0)
    for size, results in by_size.items():
        for name, ratio in TARGETS.items():
            got = results[name][0] / ceiling[0]
            text = f"{size}: {name} ({REQUESTS[name]}) {got:.2f} x the ceiling's requests/s (>= {ratio:.2f})"
            checks.append((text, got >= ratio))
        for name, limit in (("list", LIST_P99_MS), ("create team", WRITE_P99_MS)):
            p99 = results[name][2]
            text = f"{size}: {name} ({REQUESTS[name]}) p99 {p99:.1f} ms at {connections} connections (<= {limit} ms)"
            checks.append((text, p99 <= limit))
        if "page at 50000" in results:
            deep = results["page at 50000"][1] / results["page at 0"][1]
            checks.append(
                (f"{size}: offset 50 000 p50 {deep:.2f} x offset 0 (<= {OFFSET_RATIO})", deep <= OFFSET_RATIO)
            )
    if largest != smallest:
        for name in ("list", "single", "candidates"):
            ratio = by_size[largest][name][1] / by_size[smallest][name][1]
            checks.append(
                (f"{name} p50 {largest} / {smallest} gigs: {ratio:.2f} (<= {SIZE_RATIO})", ratio <= SIZE_RATIO)
            )
    checks += [
        (f"{size}: server peak memory {peak:.0f} MB (<= {PEAK_MB})", peak <= PEAK_MB) for size, peak in peaks.items()
    ]
    return checks


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,100000", help="comma list of gig counts")
    parser.add_argument("--seconds", type=int, default=10, help="per endpoint")
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument(
        "--webhooks", action=argparse.BooleanOptionalAction, default=True, help="the webhook part (SPEC §8)"
    )
    options = parser.parse_args()
    if shutil.which("wrk") is None:
        raise SystemExit("the benchmark needs wrk: apt-get install wrk")
    sizes = [int(s) for s in options.sizes.split(",") if s.strip()]
    for size in sizes + [1000] * options.webhooks:
        database(size)
    print(f"machine: {os.cpu_count()} cores, {platform()}", flush=True)
    ceiling = measure_ceiling(options)
    by_size, peaks, webhooks = {}, {}, None
    with tempfile.TemporaryDirectory(prefix="band-bench-") as workdir:
        for size in sizes:
            by_size[size], peaks[size] = measure_size(size, options, workdir)
        if options.webhooks:
            webhooks = measure_webhooks(options, workdir)
    met = report(ceiling, by_size, peaks, webhooks, options.connections)
    print(json.dumps({"ceiling": ceiling, "sizes": by_size, "peak_mb": peaks, "webhooks": webhooks}))
    sys.exit(0 if met else 1)


def platform():
    model = re.search(r"model name\s*:\s*(.+)", Path("/proc/cpuinfo").read_text())
    return f"{model[1] if model else 'unknown CPU'}, Python {sys.version.split()[0]}"


if __name__ == "__main__":
    main()
