"""The benchmark: the real service under waitress against the ceiling of its stack (Flask + waitress answering a
constant), on demo databases of 1 k and 100 k gigs, measured with wrk at 16 connections.

    .venv/bin/python scripts/bench.py [--sizes 1000,100000] [--seconds 10] [--connections 16]

It needs wrk (Debian: `apt-get install wrk`). Databases are built once with `app.py demo PATH --gigs N` into
bench/cache/ and copied for each run. It prints requests/s and p50/p99 latency per endpoint, the ratios to the
ceiling, the 100 k / 1 k latency ratio, the cost of a deep page (offset 50 000), the p99 of 16 concurrent writers
(POST /v1/teams), the server's peak memory, and whether each target is met. On a machine shared with other work the
ratios to the ceiling can swing by half from run to run: compare runs made under the same conditions.
"""

import argparse
import json
import os
import re
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent
CACHE = PROJECT / "bench" / "cache"
TARGETS = {"list": 0.15, "single": 0.40}
LIST_P99_MS, WRITE_P99_MS, SIZE_RATIO, OFFSET_RATIO, PEAK_MB = 100, 150, 1.5, 3, 80
# What each measured name requests, for the target lines (the ids are picked by `sample_ids`).
REQUESTS = {"list": "GET /v1/gigs?filter", "single": "GET /v1/gigs/{id}", "create team": "POST /v1/teams"}

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


def run_app(env, *args):
    command = [sys.executable, "app.py", *args]
    return subprocess.run(command, cwd=PROJECT, env=env, check=True, capture_output=True, text=True).stdout.strip()


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

    def __init__(self, command, env, health):
        """`command(port)` is the command line that serves on `port`; `health` a path that answers 200."""
        self.port = free_port()
        self.process = subprocess.Popen(
            command(self.port), cwd=PROJECT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
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
    # wrk opens its connections while the last run's may still be closing: room above the per-client cap of 20
    env = {
        **clean_env(),
        "BAND_DB": str(path),
        "BAND_MAIL_URL": f"file:{workdir}/mail",
        "BAND_MAX_CONNECTIONS_PER_CLIENT": "64",
    }
    run_app(env, "create-user", "bench@example.com", "--name", "Bench", "--role", "admin")
    key = run_app(env, "create-api-key", "bench@example.com", "--label", "bench")
    status, gig, role = sample_ids(path)
    serve = lambda port: [sys.executable, "app.py", "serve", "--threads", "8", "--port", str(port)]
    server = Server(serve, env, "/v1/health")
    script = Path(workdir) / "post_teams.lua"
    script.write_text(POST_TEAMS)
    endpoints = {
        "list": f"/v1/gigs?limit=50&sort=-gig_date&filter[gig_status_id]={status}",
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


def measure_ceiling(options):
    server = Server(lambda port: [sys.executable, "scripts/ceiling.py", str(port)], clean_env(), "/v1/constant")
    try:
        wrk(server.base + "/v1/constant", 2, options.connections)
        return wrk(server.base + "/v1/constant", options.seconds, options.connections)
    finally:
        server.stop()


def report(ceiling, by_size, peaks, connections):
    print(
        f"\nceiling (Flask + waitress, constant JSON): {ceiling[0]:.0f} req/s, p50 {ceiling[1]:.1f} ms, "
        f"p99 {ceiling[2]:.1f} ms"
    )
    for size, results in by_size.items():
        print(f"\n{size} gigs (server peak {peaks[size]:.0f} MB)")
        print(f"  {'endpoint':<16}{'req/s':>9}{'p50 ms':>9}{'p99 ms':>9}{'x ceiling':>11}")
        for name, (rate, p50, p99) in results.items():
            print(f"  {name:<16}{rate:>9.0f}{p50:>9.1f}{p99:>9.1f}{rate / ceiling[0]:>11.2f}")
    checks = targets(ceiling, by_size, peaks, connections)
    print("\ntargets")
    for text, met in checks:
        print(f"  [{'x' if met else ' '}] {text}")
    return all(met for _, met in checks)


def targets(ceiling, by_size, peaks, connections):
    checks = []
    largest, smallest = max(by_size), min(by_size)
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
    options = parser.parse_args()
    if shutil.which("wrk") is None:
        raise SystemExit("the benchmark needs wrk: apt-get install wrk")
    sizes = [int(s) for s in options.sizes.split(",")]
    for size in sizes:
        database(size)
    print(f"machine: {os.cpu_count()} cores, {platform()}", flush=True)
    ceiling = measure_ceiling(options)
    by_size, peaks = {}, {}
    with tempfile.TemporaryDirectory(prefix="band-bench-") as workdir:
        for size in sizes:
            by_size[size], peaks[size] = measure_size(size, options, workdir)
    met = report(ceiling, by_size, peaks, options.connections)
    print(json.dumps({"ceiling": ceiling, "sizes": by_size, "peak_mb": peaks}))
    sys.exit(0 if met else 1)


def platform():
    model = re.search(r"model name\s*:\s*(.+)", Path("/proc/cpuinfo").read_text())
    return f"{model[1] if model else 'unknown CPU'}, Python {sys.version.split()[0]}"


if __name__ == "__main__":
    main()
