"""How long `POST /auth/link` takes for a known address and for an unknown one (SPEC §2.3: alike): a served office
on a temporary database with N users, the server on CPU 0 and this client on CPU 1 (`taskset`), the two kinds of
request interleaved, each known address asked once (a repeat within a minute is absorbed, sending nothing).

    .venv/bin/python scripts/signin_timing.py [N]      # N requests of each kind, default 600

Prints p50, p90 and the mean of each kind, and the request after each (a GET of /health), in milliseconds."""

import http.client
import json
import os
import re
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent


def users(path, count):
    """`count` active users, written straight into the new database (as create-user would, much faster)."""
    connection = sqlite3.connect(path)
    stamp = "2027-01-01T00:00:00.000000Z"
    rows = [
        (str(uuid.uuid4()), stamp, stamp, f"known{n}@example.com", f"Known {n}", '["staff"]', 1) for n in range(count)
    ]
    connection.executemany("INSERT INTO users VALUES (?, ?, ?, ?, ?, ?, ?)", rows)
    connection.commit()
    connection.close()


def serve(folder):
    """The office served on CPU 0, on a free port; its output (an access log line a request) goes to a file."""
    env = {**os.environ, "BAND_DB": str(folder / "band.db"), "BAND_AUTH_RATE_LIMIT": "100000/minute"}
    env |= {"BAND_WORKER": "off", "BAND_MAIL_URL": f"file:{folder / 'mail'}"}
    command = ["taskset", "-c", "0", sys.executable, str(PROJECT / "app.py"), "serve", "--port", "0"]
    log = open(folder / "serve.log", "w")  # noqa: SIM115 (the server's, closed as it ends)
    server = subprocess.Popen(command, cwd=folder, env=env, stdout=log, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and server.poll() is None:
        if found := re.search(r"http://127\.0\.0\.1:(\d+)", (folder / "serve.log").read_text()):
            return server, int(found[1])
        time.sleep(0.2)
    raise SystemExit("the server did not start")


def timed(connection, method, path, body=None):
    started = time.perf_counter()
    connection.request(method, path, body=body, headers={"Content-Type": "application/json"} if body else {})
    answer = connection.getresponse()
    answer.read()
    assert answer.status == 200, answer.status
    return (time.perf_counter() - started) * 1000


def figures(samples):
    ordered = sorted(samples)
    p50, p90 = ordered[len(ordered) // 2], ordered[int(len(ordered) * 0.9)]
    return f"p50 {p50:.2f}  p90 {p90:.2f}  mean {statistics.fmean(samples):.2f}"


def main(count):
    os.sched_setaffinity(0, {1})
    with tempfile.TemporaryDirectory() as folder:
        folder = Path(folder)
        subprocess.run(
            [sys.executable, str(PROJECT / "app.py"), "init-db"],
            cwd=folder,
            check=True,
            capture_output=True,
            env={**os.environ, "BAND_DB": str(folder / "band.db")},
        )
        users(folder / "band.db", count)
        server, port = serve(folder)
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port)
            times = {"known": [], "unknown": [], "after known": [], "after unknown": []}
            for n in range(count):
                for kind in ("known", "unknown") if n % 2 else ("unknown", "known"):
                    body = json.dumps({"email": f"{kind}{n}@example.com"})
                    times[kind].append(timed(connection, "POST", "/v1/auth/link", body))
                    times[f"after {kind}"].append(timed(connection, "GET", "/v1/health"))
        finally:
            server.terminate()
            server.wait()
    for kind, samples in times.items():
        print(f"{kind:14} {figures(samples)}  (n={len(samples)})")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 600)
