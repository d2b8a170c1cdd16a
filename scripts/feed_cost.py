"""What a calendar feed's poll costs the server after a gig changed (SPEC §2.3: no request builds something big while
others wait): the server's CPU (utime + stime from /proc) and the wall time of the poll just after the change, of the
poll after it, and how long the change takes to show in the feed.

.venv/bin/python scripts/feed_cost.py DB [--changes 3]

DB is a demo office (`app.py demo DB --gigs 20000`), copied first; the server runs pinned to CPU 0 with its worker
off, this script on CPU 1.
"""

import argparse
import json
import os
import shutil
import sqlite3
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scripts.bench_support import LOAD_CPU, PINNED, Server, office, serve

TICKS = os.sysconf("SC_CLK_TCK")


def cpu_ms(pid):
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * 1000 / TICKS  # utime, stime


def call(base, path, key=None, method="GET", body=None):
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    data = json.dumps(body).encode() if body is not None else None
    if data:
        headers["Content-Type"] = "application/json"
    request = urllib.request.Request(base + path, data=data, headers=headers, method=method)
    try:
        with urllib.request.urlopen(request, timeout=120) as answer:
            return answer.status, answer.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def measured(server, path):
    """(status, body, CPU ms, wall ms) of one GET."""
    cpu, wall = cpu_ms(server.process.pid), time.monotonic()
    status, body = call(server.base, path)
    return status, body, cpu_ms(server.process.pid) - cpu, (time.monotonic() - wall) * 1000


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("db")
    parser.add_argument("--changes", type=int, default=3)
    args = parser.parse_args()
    if PINNED:
        os.sched_setaffinity(0, {int(LOAD_CPU)})
    with tempfile.TemporaryDirectory() as workdir:
        path = Path(workdir) / "band.db"
        shutil.copy(args.db, path)
        with sqlite3.connect(path) as connection:
            gig_id = connection.execute("SELECT id FROM gigs WHERE gig_date >= date('now') LIMIT 1").fetchone()[0]
        env, key = office(path, workdir, BAND_WORKER="off")
        server = Server(serve, env, "/v1/health")
        try:
            url = json.loads(call(server.base, "/v1/calendar-url", key)[1])["data"]["url"]
            feed = "/v1/" + url.split("/v1/", 1)[1]
            first = time.monotonic()
            while (answer := measured(server, feed))[0] != 200:
                pass
            print(f"first copy: {(time.monotonic() - first) * 1000:.0f} ms wall, {len(answer[1]) // 1024} KiB")
            for n in range(args.changes):
                title = f"Changed {n} {time.time()}"
                changed = time.monotonic()
                call(server.base, f"/v1/gigs/{gig_id}", key, "PATCH", {"title": title})
                after = measured(server, feed)
                following = measured(server, feed)
                meanwhile = []  # (CPU ms, wall ms) of the polls until the change shows
                while title.encode() not in (poll := measured(server, feed))[1]:
                    meanwhile.append(poll[2:])
                    if time.monotonic() - changed > 120:
                        raise SystemExit("the change was not in the feed after 120 s")
                    time.sleep(0.05)
                shown = time.monotonic() - changed
                cpu = sum(c for c, _ in meanwhile) / max(len(meanwhile), 1)
                print(
                    f"change {n}: poll after it {after[2]:.0f} ms CPU, {after[3]:.0f} ms wall (status {after[0]});"
                    f" the next {following[2]:.0f} ms CPU, {following[3]:.0f} ms wall; in the feed after {shown:.1f} s;"
                    f" the {len(meanwhile)} polls meanwhile {cpu:.1f} ms CPU each on average (the server's, the"
                    f" rebuild's included), wall at most {max((w for _, w in meanwhile), default=0):.0f} ms"
                )
        finally:
            server.stop()


if __name__ == "__main__":
    main()
