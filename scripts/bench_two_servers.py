"""One side of scripts/bench_databases.py: the list, one gig and POST /v1/teams on one server, then POST /v1/teams with
16 writers over two servers on the same database; each figure with the CPU time the servers (and the database's own
processes) spent per request."""

import os
import re
import subprocess
from pathlib import Path

from bench_support import LOAD_CPU, POST_TEAMS, Server, latency, pinned, post_teams_script, serve, wrk_output

# POST /v1/teams as bench_support's POST_TEAMS (a tag per wrk process in the names: $BENCH_TAG, two run at once),
# and at the end the latency at each percentile written to $BENCH_PERCENTILES (wrk's Lua gives percentiles, not the
# histogram), finely above 90 %, for the two processes' latencies to be merged.
TAGGED_POST_TEAMS = (
    POST_TEAMS
    + """
function done(summary, latency, requests)
  local out = assert(io.open(os.getenv("BENCH_PERCENTILES"), "w"))
  out:write(summary.requests, "\\n")
  for i = 1, 179 do out:write(i / 2, " ", latency:percentile(i / 2), "\\n") end
  for i = 9000, 9999 do out:write(i / 100, " ", latency:percentile(i / 100), "\\n") end
  out:write(100, " ", latency.max, "\\n")
  out:close()
end
"""
)
TICKS = os.sysconf("SC_CLK_TCK")


def measure_side(env, key, code, database_pids, paths, options, workdir):
    """{measure: {rate, p50, p99, cpu}} of the office `env` serves with the code in `code`: `paths` ({name: path}) and
    the write on one server, then, when `database_pids` is given (PostgreSQL), the write over two servers.
    `database_pids()` answers the ids of the database's processes on this machine."""
    results, pids = {}, database_pids or list
    server = Server(serve, env, "/v1/health", code=code)
    try:
        for name, path in paths.items():
            url = server.base + path
            counted_wrk(url, 2, options.connections, key)  # warm the caches
            results[name] = timed([server], pids, options, counted_wrk, url, key)
        script, url = post_teams_script(workdir), server.base + "/v1/teams"
        counted_wrk(url, 2, options.connections, key, script)
        results["write, 1 server"] = timed([server], pids, options, counted_wrk, url, key, script)
    finally:
        server.stop()
    if database_pids:
        results["write, 2 servers"] = measure_two_servers(env, key, code, pids, options, workdir)
    return results


def measure_two_servers(env, key, code, database_pids, options, workdir):
    """{rate, p50, p99, cpu} of POST /v1/teams from 16 writers over two servers on one database."""
    servers = []
    try:
        servers += [Server(serve, env, "/v1/health", code=code) for _ in range(2)]
        write_pair(servers, 2, options.connections, key, workdir)
        return timed(servers, database_pids, options, write_pair, servers, key, workdir)
    finally:
        for server in servers:
            server.stop()


def timed(servers, database_pids, options, load, url, key, *more):
    """{rate, p50, p99, failed, cpu}: what `load(url, seconds, connections, key, *more)` answers (requests/s, p50 ms,
    p99 ms, requests failed) and the CPU ms per request the servers and the database's processes spent meanwhile."""
    before = cpu_seconds([server.process.pid for server in servers] + database_pids())
    rate, p50, p99, failed = load(url, options.seconds, options.connections, key, *more)
    after = cpu_seconds([server.process.pid for server in servers] + database_pids())
    spent = sum(used - before.get(pid, 0) for pid, used in after.items())
    cpu = spent * 1000 / max(rate * options.seconds, 1)
    return {"rate": rate, "p50": p50, "p99": p99, "failed": failed, "cpu": cpu}


def counted_wrk(url, seconds, connections, key, script=None):
    """(requests/s, p50 ms, p99 ms, failed) of `url` under wrk (see `failed_in`)."""
    output = wrk_output(url, seconds, connections, key, script)
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", output)[1])
    return rate, latency(output, "50%"), latency(output, "99%"), failed_in(url, output)


def failed_in(url, output):
    """The requests of wrk's `output` answered other than 2xx or unanswered after wrk's 2 s: counted, not fatal (a
    server stalled for a moment on a busy machine, a write told the database is busy), unless most failed or a
    connection broke (a run set up wrong)."""
    errors = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", output)
    refused = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    requests = int(re.search(r"(\d+) requests in", output)[1])
    failed = (int(errors[4]) if errors else 0) + (int(refused[1]) if refused else 0)
    if (errors and any(int(n) for n in errors.groups()[:3])) or failed * 2 > requests:
        raise SystemExit(f"wrk saw failures on {url}:\n{output}")
    return failed


def cpu_seconds(pids):
    """{pid: user + system CPU seconds so far} of the processes in `pids` still running."""
    found = {}
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        found[pid] = (int(fields[11]) + int(fields[12])) / TICKS  # utime, stime (fields 14 and 15 of stat)
    return found


def write_pair(servers, seconds, connections, key, workdir):
    """POST /v1/teams from two wrk at once, half the connections each on a server of its own: (requests/s of both,
    p50 ms, p99 ms of their latencies together, failed)."""
    script = Path(workdir) / "tagged_post_teams.lua"
    script.write_text(TAGGED_POST_TEAMS)
    runs = []
    for tag, server in enumerate(servers):
        command = ["wrk", "-t1", f"-c{connections // len(servers)}", f"-d{seconds}s", "-s", str(script)]
        command += ["-H", f"Authorization: Bearer {key}", server.base + "/v1/teams"]
        percentiles = Path(workdir) / f"percentiles-{tag}"
        env = {**os.environ, "BENCH_TAG": str(tag), "BENCH_PERCENTILES": str(percentiles)}
        process = subprocess.Popen(pinned(command, LOAD_CPU), env=env, stdout=subprocess.PIPE, text=True)
        runs.append((process, percentiles))
    rate, latencies, failed = 0.0, [], 0
    for process, percentiles in runs:
        output = process.communicate()[0]
        if process.returncode:
            raise SystemExit(f"wrk failed on POST /v1/teams:\n{output}")
        failed += failed_in("POST /v1/teams", output)
        rate += float(re.search(r"Requests/sec:\s+([\d.]+)", output)[1])
        latencies.append(read_percentiles(percentiles))
    return rate, merged_percentile(latencies, 50), merged_percentile(latencies, 99), failed


def read_percentiles(path):
    """(requests, [(percent, ms)]) as TAGGED_POST_TEAMS wrote them."""
    requests, *lines = path.read_text().split("\n")
    points = [line.split() for line in lines if line.strip()]
    return int(requests), [(float(percent), int(us) / 1000) for percent, us in points]


def merged_percentile(runs, percent):
    """The latency (ms) under which `percent` % of the requests of all `runs` ([(requests, [(percent, ms)])]) fell."""
    total = sum(requests for requests, _ in runs)

    def share_within(ms):
        return sum(requests * max((p for p, v in points if v <= ms), default=0) for requests, points in runs) / total

    candidates = sorted({ms for _, points in runs for _, ms in points})
    return next(ms for ms in candidates if share_within(ms) >= percent)
