"""The benchmark: the real service under waitress against the ceiling of its stack (Flask + waitress answering a
constant), on demo databases of 1 k and 100 k gigs, measured with wrk at 16 connections.

    .venv/bin/python scripts/bench.py [--sizes 1000,100000] [--seconds 10] [--connections 16] [--no-webhooks]
                                      [--memory] [--datasette PATH]

`--sizes ''` skips the runs per database size (the ceiling and the webhook part alone take about 85 s).

It needs wrk (Debian: `apt-get install wrk`). Databases are built once with `app.py demo PATH --gigs N` into
bench/cache/ and copied for each run. It prints requests/s and p50/p99 latency per endpoint, the ratios to the
ceiling, the 100 k / 1 k latency ratio, the cost of a deep page (offset 50 000), the p99 of 16 concurrent writers
(POST /v1/teams), the server's peak memory, and whether each target is met. On a machine shared with other work the
ratios to the ceiling can swing by half from run to run: compare runs made under the same conditions.

`--memory` prints the server's memory at start and after each endpoint's load (VmRSS, VmHWM, threads), to find
what holds it. `--datasette PATH` (a `datasette` executable installed apart from the project, e.g. in a venv under
/tmp) adds "open gigs" answered by Datasette running the equivalent hand-written SQL on the same database, pinned
as the service is, measured right after the service's own, with the target that the service answers more.

The webhook part (SPEC §8, on by default) is in bench_webhooks.py; the helpers both use in bench_support.py.
SQLite and PostgreSQL side by side (list, one gig, write p99 with 16 writers over two servers; SPEC §14), and SQLite
against an older commit, are bench_databases.py's.
"""

import argparse
import datetime as dt
import json
import os
import re
import shutil
import sys
import tempfile
from pathlib import Path

from bench_support import (
    Server,
    clean_env,
    daily_questions,
    database,
    datasette_query,
    datasette_server,
    list_path,
    musician,
    office,
    open_gigs_sql,
    post_teams_script,
    sample_ids,
    serve,
    wrk,
)
from bench_webhooks import measure_webhooks, report_webhooks, webhook_targets

TARGETS = {
    "list": 0.15,
    "single": 0.40,
    "my gigs": 0.15,
    "open gigs": 0.15,
    "open roles": 0.15,
    "q staff": 0.15,
    "q gigs": 0.15,
}
LIST_P99_MS, WRITE_P99_MS, SIZE_RATIO, OFFSET_RATIO, PEAK_MB, SEARCH_P50_MS = 100, 150, 1.5, 3, 80, 50
# What each measured name requests, for the target lines (the ids are picked by `sample_ids`).
REQUESTS = {
    "list": "GET /v1/gigs?filter",
    "single": "GET /v1/gigs/{id}",
    "create team": "POST /v1/teams",
    "my gigs": "GET /v1/me/gigs",
    "open gigs": "GET /v1/gigs next month, open_role_count > 0, expand=venue",
    "open roles": "GET /v1/gig-roles open, next month by gig.gig_date, expand=gig,role",
    "q staff": "GET /v1/staff-members?q=<surname>",
    "q gigs": "GET /v1/gigs?q=<couple>",
}
LISTS = ("list", "my gigs", "open gigs", "open roles", "q staff", "q gigs")  # held to the list targets
SEARCHES = ("q staff", "q gigs")  # and to the p50 of a search


def measure_size(size, options, workdir):
    """The service on a copy of the demo database of `size` gigs: {name: (requests/s, p50, p99)}, peak MB, and
    [(moment, memory)] (see Server.memory) when `--memory` asks."""
    path = Path(workdir) / f"band-{size}.db"
    shutil.copy(database(size), path)
    env, key = office(path, workdir)
    status, gig, role = sample_ids(path)
    phone, gigs = musician(path, env)
    print(f"  {size}: the musician's member has {gigs} gigs", flush=True)
    server = Server(serve, env, "/v1/health")
    script = post_teams_script(workdir)
    endpoints = {
        "list": (list_path(status), key),
        "single": (f"/v1/gigs/{gig}", key),
        "candidates": (f"/v1/gig-roles/{role}/candidates", key),
        "page at 0": ("/v1/gigs?limit=50&sort=-gig_date", key),
        "my gigs": ("/v1/me/gigs", phone),
        **{name: (path_, key) for name, path_ in daily_questions(path, dt.date.today()).items()},
    }
    if size >= 60_000:
        endpoints["page at 50000"] = ("/v1/gigs?limit=50&sort=-gig_date&offset=50000", key)
    results, memory = {}, [("at start", server.memory())]
    try:
        for name, (path_, bearer) in endpoints.items():
            results[name] = measure(server, path_, bearer, options)
            memory.append((f"after {name}", server.memory()))
        results["create team"] = wrk(server.base + "/v1/teams", options.seconds, options.connections, key, script)
        memory.append(("after create team", server.memory()))
        peak = server.peak_mb()
    finally:
        server.stop()
    if options.datasette:
        results["Datasette open gigs"] = measure_datasette(options, path)
    # What a page of a musician's own costs when it is worked out afresh (after any change), not remembered.
    afresh = Server(serve, {**env, "BAND_PAGE_MEMORY_KB": "0"}, "/v1/health")
    try:
        results["my gigs afresh"] = measure(afresh, "/v1/me/gigs", phone, options)
    finally:
        afresh.stop()
    return results, peak, memory if options.memory else None


def measure_datasette(options, path):
    """ "open gigs" as Datasette answers the hand-written SQL on the same database (see `open_gigs_sql`)."""
    server = datasette_server(options.datasette, path)
    try:
        return measure(server, datasette_query(path, open_gigs_sql(dt.date.today())), None, options)
    finally:
        server.stop()


def measure(server, path, key, options):
    wrk(server.base + path, 2, options.connections, key)  # warm the caches
    return wrk(server.base + path, options.seconds, options.connections, key)


def measure_ceiling(options):
    server = Server(lambda port: [sys.executable, "scripts/ceiling.py", str(port)], clean_env(), "/v1/constant")
    try:
        wrk(server.base + "/v1/constant", 2, options.connections)
        return wrk(server.base + "/v1/constant", options.seconds, options.connections)
    finally:
        server.stop()


def report(ceiling, by_size, peaks, webhooks, connections, memories):
    print(
        f"\nceiling (Flask + waitress, constant JSON): {ceiling[0]:.0f} req/s, p50 {ceiling[1]:.1f} ms, "
        f"p99 {ceiling[2]:.1f} ms"
    )
    for size, results in by_size.items():
        print(f"\n{size} gigs (server peak {peaks[size]:.0f} MB)")
        print(f"  {'endpoint':<16}{'req/s':>9}{'p50 ms':>9}{'p99 ms':>9}{'x ceiling':>11}")
        for name, (rate, p50, p99) in results.items():
            print(f"  {name:<16}{rate:>9.0f}{p50:>9.1f}{p99:>9.1f}{rate / ceiling[0]:>11.2f}")
        for moment, memory in memories.get(size) or ():
            now, peak, threads = memory["now"], memory["peak"], memory["threads"]
            print(f"  memory {moment:<24} now {now:5.1f} MB, peak {peak:5.1f} MB, {threads} threads")
    if webhooks:
        report_webhooks(ceiling, webhooks, connections)
    checks = targets(ceiling, by_size, peaks, connections) + (webhook_targets(webhooks) if webhooks else [])
    print("\ntargets")
    for text, met in checks:
        print(f"  [{'x' if met else ' '}] {text}")
    return all(met for _, met in checks)


def targets(ceiling, by_size, peaks, connections):
    checks = []
    largest, smallest = max(by_size, default=0), min(by_size, default=0)
    for size, results in by_size.items():
        for name, ratio in TARGETS.items():
            got = results[name][0] / ceiling[0]
            text = f"{size}: {name} ({REQUESTS[name]}) {got:.2f} x the ceiling's requests/s (>= {ratio:.2f})"
            checks.append((text, got >= ratio))
        for name, limit in [*((name, LIST_P99_MS) for name in LISTS), ("create team", WRITE_P99_MS)]:
            p99 = results[name][2]
            text = f"{size}: {name} ({REQUESTS[name]}) p99 {p99:.1f} ms at {connections} connections (<= {limit} ms)"
            checks.append((text, p99 <= limit))
        for name in SEARCHES:
            p50 = results[name][1]
            text = f"{size}: {name} ({REQUESTS[name]}) p50 {p50:.1f} ms (<= {SEARCH_P50_MS} ms)"
            checks.append((text, p50 <= SEARCH_P50_MS))
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
    for size, results in by_size.items():
        if "Datasette open gigs" in results:
            ours, theirs = results["open gigs"][0], results["Datasette open gigs"][0]
            text = f"{size}: open gigs {ours:.0f} req/s against Datasette's hand-written SQL {theirs:.0f} (more)"
            checks.append((text, ours > theirs))
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
    parser.add_argument("--memory", action="store_true", help="the server's memory after each endpoint")
    parser.add_argument("--datasette", metavar="PATH", help="a datasette executable: open gigs side by side")
    options = parser.parse_args()
    if shutil.which("wrk") is None:
        raise SystemExit("the benchmark needs wrk: apt-get install wrk")
    sizes = [int(s) for s in options.sizes.split(",") if s.strip()]
    for size in sizes + [1000] * options.webhooks:
        database(size)
    print(f"machine: {os.cpu_count()} cores, {platform()}", flush=True)
    ceiling = measure_ceiling(options)
    by_size, peaks, memories, webhooks = {}, {}, {}, None
    with tempfile.TemporaryDirectory(prefix="band-bench-") as workdir:
        for size in sizes:
            by_size[size], peaks[size], memories[size] = measure_size(size, options, workdir)
        if options.webhooks:
            webhooks = measure_webhooks(options, workdir)
    met = report(ceiling, by_size, peaks, webhooks, options.connections, memories)
    print(json.dumps({"ceiling": ceiling, "sizes": by_size, "peak_mb": peaks, "webhooks": webhooks}))
    sys.exit(0 if met else 1)


def platform():
    model = re.search(r"model name\s*:\s*(.+)", Path("/proc/cpuinfo").read_text())
    return f"{model[1] if model else 'unknown CPU'}, Python {sys.version.split()[0]}"


if __name__ == "__main__":
    main()
