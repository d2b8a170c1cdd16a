"""Contract fuzzing: schemathesis against the real service (waitress, a temporary database, an admin API key).

    .venv/bin/python scripts/fuzz.py [--max-examples N] [--seed N] [schemathesis options...]

Every check runs. The exit status is schemathesis's: 0 when no server error, no answer outside the
document and no schema violation was found. Two operations are left out because they would end the run's
own authentication: POST /auth/signout and DELETE /api-keys/{key_id} revoke the bearer they are called with.
"""

import argparse
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def app_command(env, *args):
    result = subprocess.run(
        [sys.executable, "app.py", *args], cwd=PROJECT, env=env, capture_output=True, text=True, check=True
    )
    return result.stdout.strip()


def wait_until_up(url, server):
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit("the service stopped before answering")
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except OSError:
            time.sleep(0.2)
    raise SystemExit("the service did not answer within 30 s")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-examples", type=int, default=5)
    parser.add_argument("--seed", type=int, default=20261123, help="the same cases on every run (CI)")
    options, extra = parser.parse_known_args()
    workdir = tempfile.mkdtemp(prefix="band-fuzz-")
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("BAND_")}
    env.update(
        BAND_DB=f"{workdir}/band.db",
        BAND_MAIL_URL=f"file:{workdir}/mail",
        BAND_AUTH_RATE_LIMIT="100000/minute",
        BAND_PUBLIC_URL=f"http://127.0.0.1:{port}",
    )
    app_command(env, "create-user", "fuzz@example.com", "--name", "Fuzz", "--role", "admin")
    key = app_command(env, "create-api-key", "fuzz@example.com", "--label", "schemathesis")
    log = open(f"{workdir}/server.log", "w")  # noqa: SIM115 (the server writes to it until the end)
    server = subprocess.Popen(
        [sys.executable, "app.py", "serve", "--port", str(port), "--threads", "8"],
        cwd=PROJECT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        wait_until_up(f"http://127.0.0.1:{port}/v1/health", server)
        command = [
            str(Path(sys.executable).with_name("schemathesis")),
            "--config-file",
            str(PROJECT / "scripts" / "schemathesis.toml"),
            "run",
            f"http://127.0.0.1:{port}/v1/openapi.json",
            "--header",
            f"Authorization: Bearer {key}",
            "--checks",
            "all",
            "--max-examples",
            str(options.max_examples),
            "--seed",
            str(options.seed),
            "--workers",
            "1",  # threads trip CPython 3.11.7's ast recursion check inside hypothesis
            "--request-timeout",
            "10",
            "--exclude-path",
            "/auth/signout",
            "--exclude-path",
            "/api-keys/{key_id}",
            *extra,
        ]
        status = subprocess.run(command, cwd=PROJECT, env=env).returncode
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(15)
        log.close()
    errors = [line for line in Path(f"{workdir}/server.log").read_text().splitlines() if " ERROR " in line]
    if errors:
        print("the server logged errors:", *errors[:20], sep="\n")
        status = status or 1
    sys.exit(status)


if __name__ == "__main__":
    main()
