"""The webhook part of the benchmark (SPEC §8): POST /v1/teams with events against the code of the last commit
before events (served from `git archive`, each on a fresh database), the deliveries per second of a queue of 2 000
to a local receiver (a process of its own), the delay from commit to delivery while wrk runs the list load, and
what the worker (its webhook and notification senders, its timed rounds) costs the list load: on against off."""

import concurrent.futures
import datetime as dt
import http.client
import http.server
import io
import json
import multiprocessing
import shutil
import statistics
import subprocess
import tarfile
import threading
import time
import uuid
from pathlib import Path

from bench_support import PROJECT, Server, database, list_path, office, post_teams_script, sample_ids, serve, wrk

BEFORE_EVENTS = "0f2ac9e"  # the last commit before issue 12's events
WRITE_RATIO, DELIVERIES_PER_S, DELAY_P99_MS, WORKER_RATIO = 0.85, 200, 1000, 0.90
CHANGES, LOAD_SECONDS, PACE_SECONDS = 2000, 15, 0.05  # queued deliveries; the list load; one change per pace


def measure_webhooks(options, workdir):
    """The write path with events against before them, the deliveries per second, the delay from commit to delivery."""
    return {
        "write": measure_write_path(options, workdir),
        "deliveries": measure_deliveries(workdir),
        "delay": measure_delay(options, workdir),
        "worker": measure_worker_cost(options, workdir),
    }


def measure_worker_cost(options, workdir):
    """The list's requests/s on the 1 000 gig database with the worker on (its senders and timed rounds running)
    and off, measured in turns (on, off, off, on): {"on", "off"}."""
    servers, rates = {}, {}
    try:
        for setting in ("on", "off"):
            path = Path(workdir) / f"worker-{setting}.db"
            shutil.copy(database(1000), path)
            env, key = office(path, workdir, BAND_WORKER=setting)
            servers[setting] = Server(serve, env, "/v1/health"), key, sample_ids(path)[0]
            rates[setting] = []
        for setting in ("on", "off", "off", "on"):
            server, key, status = servers[setting]
            wrk(server.base + list_path(status), 1, options.connections, key)  # warm the caches
            half = max(options.seconds // 2, 1)
            rates[setting].append(wrk(server.base + list_path(status), half, options.connections, key)[0])
    finally:
        for server, _, _ in servers.values():
            server.stop()
    return {setting: statistics.mean(found) for setting, found in rates.items()}


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
    worker = webhooks["worker"]
    print(f"  the list (1000 gigs): {worker['on']:.0f} req/s with the worker on, {worker['off']:.0f} with it off")
    print(
        f"  commit to delivery: {delay['delivered']} of {delay['made']} changes (one per {PACE_SECONDS * 1000:.0f} "
        f"ms), p50 {delay['p50']:.0f} ms, p99 {delay['p99']:.0f} ms, the list meanwhile {delay['list_rate']:.0f} req/s"
    )


def webhook_targets(webhooks):
    write, deliveries, delay = webhooks["write"], webhooks["deliveries"], webhooks["delay"]
    worker = webhooks["worker"]
    ratio = worker["on"] / worker["off"]
    checks = [(f"the list with the worker on {ratio:.2f} x with it off (>= {WORKER_RATIO:.2f})", ratio >= WORKER_RATIO)]
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
