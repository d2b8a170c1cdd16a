"""The service as the scripts use it: `app.py serve --port 0` on a temporary database with an admin API key,
stopped with SIGTERM at the end. The port is the one the server picked, read from its start line."""

import contextlib
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent
SERVING = re.compile(r"serving \S+ on http://\S+:(\d+)/v1 ")


def app_command(env, *args):
    result = subprocess.run(
        [sys.executable, "app.py", *args], cwd=PROJECT, env=env, capture_output=True, text=True, check=True
    )
    return result.stdout.strip()


@contextlib.contextmanager
def served(workdir, threads=8, **settings):
    """(base URL, admin API key) of a server on `workdir`/band.db; `settings` are BAND_* variables."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("BAND_")}
    env.update(BAND_DB=f"{workdir}/band.db", BAND_MAIL_URL=f"file:{workdir}/mail", **settings)
    app_command(env, "create-user", "script@example.com", "--name", "Script", "--role", "admin")
    key = app_command(env, "create-api-key", "script@example.com", "--label", "script")
    log_path = Path(workdir) / "server.log"
    with open(log_path, "w") as log:
        command = [sys.executable, "app.py", "serve", "--port", "0", "--threads", str(threads)]
        server = subprocess.Popen(command, cwd=PROJECT, env=env, stdout=log, stderr=subprocess.STDOUT)
        try:
            yield f"http://127.0.0.1:{started(server, log_path)}/v1", key
        finally:
            server.send_signal(signal.SIGTERM)
            server.wait(15)


def started(server, log_path):
    """The port the server listens on, once its start line says so."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit(f"the service stopped before answering:\n{log_path.read_text()}")
        if match := SERVING.search(log_path.read_text()):
            return int(match[1])
        time.sleep(0.1)
    raise SystemExit("the service did not start within 30 s")


def logged_errors(workdir):
    """The ERROR lines the server wrote."""
    return [line for line in (Path(workdir) / "server.log").read_text().splitlines() if " ERROR " in line]
