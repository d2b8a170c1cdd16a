"""The benchmark side by side (SPEC §14): the same office served on SQLite and on PostgreSQL, or on SQLite by this
code and by an older commit of it, measured in turns with the same requests, and a table of both.

    .venv/bin/python scripts/bench_databases.py postgresql://USER@HOST:PORT/DB [--size 100000] [--rounds 3]
    .venv/bin/python scripts/bench_databases.py --against COMMIT [--size 100000] [--rounds 3]

Each side serves a copy of the cached demo agency of `--size` gigs (scripts/bench.py builds it into bench/cache/)
with `app.py serve --threads 8` pinned to CPU 0, wrk pinned to CPU 1, and measures at 16 connections: the filtered
list and one gig (as bench.py does), POST /v1/teams with 16 writers on one server, and on PostgreSQL with 16 writers
spread over two servers on the one database (two wrk of 8 connections at once, their latencies merged for the p99;
see MEASURES for SQLite). The sides take turns (A B, B A, …), `--rounds` times; the table gives each figure's median
and, in brackets, its range, and the requests that failed (not 2xx, or none in wrk's 2 s), counted, not fatal.
Beside requests/s and latency it gives the CPU time per request of the servers (and of PostgreSQL's processes),
read from /proc around each wrk run: steadier than requests/s on a machine shared with other work.

With a URL, the other side is PostgreSQL: the URL names a server on this machine (its processes are pinned to CPU 0
with the servers while measuring) and a user that may create databases. The office is copied into a database
`band_bench_<size>` there by `app.py copy-to` on first use (at 100 000 gigs 5 minutes on a quiet machine, 26 on a
loaded one), kept as the cache; each run serves a copy of it (`CREATE DATABASE … TEMPLATE`), dropped at the end.
With `--against COMMIT`, the other side is the code of COMMIT (taken with `git archive`) on SQLite: the check that a
change left SQLite as fast.
"""

import argparse
import contextlib
import json
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

from bench_postgresql import database_copy, pinned_postgresql
from bench_support import PROJECT, database, list_path, office, sample_ids
from bench_two_servers import measure_side
from bench_webhooks import extract

MEASURES = ("list", "single", "write, 1 server", "write, 2 servers")
# SQLite is served by one process: two `serve` on one file are no set-up docs/ offers (their writers wait on the
# file's lock by polling and starve: about 1 POST /v1/teams a second with 16 writers), so SQLite has no "2 servers".


def sides(source, options, workdir, stack):
    """[(name, env, key, code, database_pids)] of the two sides, each on a copy of the SQLite file `source`;
    database_pids None for SQLite, which is served by one process (see MEASURES)."""
    path = Path(workdir) / "sqlite.db"
    shutil.copy(source, path)
    env, key = office(path, workdir)
    found = [("SQLite" if options.url else "SQLite, this code", env, key, PROJECT, None)]
    if options.url:
        url, pids = stack.enter_context(database_copy(options.url, source, options.size))
        env, key = office(url, workdir)
        found.append(("PostgreSQL", env, key, PROJECT, pids))
        stack.enter_context(pinned_postgresql(pids))
    else:
        code = Path(workdir) / options.against
        if not extract(options.against, code):
            raise SystemExit(f"git or commit {options.against} not at hand")
        old = Path(workdir) / "old.db"
        shutil.copy(source, old)
        env, key = office(old, workdir, code=code)
        found.insert(0, (f"SQLite, {options.against}", env, key, code, None))
    return found


def run(options):
    source = database(options.size)
    status, gig, _ = sample_ids(source)
    paths = {"list": list_path(status), "single": f"/v1/gigs/{gig}"}
    with tempfile.TemporaryDirectory(prefix="band-bench-") as workdir, contextlib.ExitStack() as stack:
        found = sides(source, options, workdir, stack)
        results = {name: [] for name, *_ in found}
        for round_ in range(options.rounds):
            for name, env, key, code, pids in found if round_ % 2 == 0 else reversed(found):
                print(f"round {round_ + 1}: {name}", flush=True)
                results[name].append(measure_side(env, key, code, pids, paths, options, workdir))
                print(json.dumps({"round": round_ + 1, "side": name, **results[name][-1]}), flush=True)
    return results


def report(results, options):
    names = list(results)
    print(f"\n{options.size} gigs, {options.connections} connections, {options.rounds} round(s) of {options.seconds} s")
    print("median [lowest–highest] of the rounds; CPU: ms of the servers' (and PostgreSQL's) CPU per request;")
    print("failed: answers not 2xx or none after wrk's 2 s, all rounds (the latter left out of the latencies)")
    header = f"{'':<18}{'':<8}" + "".join(f"{name:>30}" for name in names)
    print(header)
    for measure in [m for m in MEASURES if any(m in r for name in names for r in results[name])]:
        for figure, unit in (("rate", "req/s"), ("p50", "p50 ms"), ("p99", "p99 ms"), ("cpu", "CPU ms")):
            cells = [spread([r[measure][figure] for r in results[name] if measure in r]) for name in names]
            print(f"{measure:<18}{unit:<8}" + "".join(f"{cell:>30}" for cell in cells))
        failed = [sum(r[measure]["failed"] for r in results[name] if measure in r) for name in names]
        if any(failed):
            print(f"{measure:<18}{'failed':<8}" + "".join(f"{n:>21} requests" for n in failed))
    if len(names) == 2:
        print("\nratios (second / first, medians):")
        for measure in [m for m in MEASURES if all(m in results[name][0] for name in names)]:
            first, second = (statistics.median(r[measure]["rate"] for r in results[name]) for name in names)
            p99s = [statistics.median(r[measure]["p99"] for r in results[name]) for name in names]
            cpus = [statistics.median(r[measure]["cpu"] for r in results[name]) for name in names]
            print(
                f"  {measure:<18} req/s {second / first:5.2f}  p99 {p99s[1] / p99s[0]:5.2f}  "
                f"CPU per request {cpus[1] / cpus[0]:5.2f}"
            )


def spread(values):
    if not values:
        return "—"
    low, high, median = min(values), max(values), statistics.median(values)
    digits = 0 if median >= 100 else 1 if median >= 1 else 2
    return f"{median:.{digits}f} [{low:.{digits}f}–{high:.{digits}f}]"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("url", nargs="?", help="postgresql://USER@HOST:PORT/DB: PostgreSQL beside SQLite")
    parser.add_argument("--against", metavar="COMMIT", help="SQLite served by COMMIT's code beside this code's")
    parser.add_argument("--size", type=int, default=100_000, help="gigs in the demo agency (default 100 000)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=int, default=10, help="per measure and round")
    parser.add_argument("--connections", type=int, default=16)
    options = parser.parse_args()
    if bool(options.url) == bool(options.against):
        parser.error("give a postgresql:// URL or --against COMMIT")
    if shutil.which("wrk") is None:
        raise SystemExit("the benchmark needs wrk: apt-get install wrk")
    results = run(options)
    report(results, options)


if __name__ == "__main__":
    sys.exit(main())
