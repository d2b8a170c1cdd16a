"""The service as a user runs it: `python app.py serve` under waitress, in a process of its own."""

import json
import os
import socket
import subprocess
import sys
import time

from app import create_app
from dialects import dialect
from models import db
from storage import migrations, writer
from tests.support import PROJECT
from tests.support.served import Service
from tests.support.waiting import SLOW_MACHINE_SECONDS, wait_for


def test_serve_creates_the_database_answers_and_stops_on_sigterm(tmp_path):
    service = Service(tmp_path).start()
    _, headers, body = service.request("GET", "/health")
    assert json.loads(body) == {"data": {"status": "ok", "version": "1.0.0", "schema_version": len(migrations.steps())}}
    assert headers["X-Request-Id"]
    started = time.monotonic()
    assert service.stop() == 0
    assert time.monotonic() - started < 10
    log = service.output()
    assert "no admin yet: to name the first, open this one-time setup link" in log and "/setup#token=" in log
    assert "create-user" in log  # for scripts
    assert "GET /v1/health 200" in log  # the access log


def test_the_sign_in_link_appears_in_the_servers_output_with_the_console_mailer(tmp_path):
    service = Service(tmp_path)
    assert service.run("create-user", "ada@example.com", "--name", "Ada", "--role", "admin").returncode == 0
    service.start()
    try:
        status, _, _ = service.request(
            "POST",
            "/auth/link",
            json.dumps({"email": "ada@example.com"}).encode(),
            {"Content-Type": "application/json"},
        )
        assert status == 200
        wait_for(lambda: "signin#token=bol_" in service.output(), timeout=SLOW_MACHINE_SECONDS)
        # without BAND_PUBLIC_URL, links point at the address served
        assert f"http://127.0.0.1:{service.port}/signin#token=bol_" in service.output()
    finally:
        service.stop()


def test_a_body_over_waitress_own_limit_gets_the_json_envelope(tmp_path):
    service = Service(tmp_path, BAND_MAX_UPLOAD_MB="0").start()  # waitress then stops bodies past 1 MB
    try:
        with socket.create_connection(("127.0.0.1", service.port), timeout=10) as s:
            # waitress answers as soon as it reads the declared length, before the body is sent
            s.sendall(
                b"POST /v1/teams HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                b"Content-Length: 3000000\r\n\r\n"
            )
            answer = b""
            while chunk := s.recv(65536):
                answer += chunk
        head, _, body = answer.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 413")
        assert b"Content-Type: application/json" in head and b"X-Request-Id" in head
        assert json.loads(body)["error"]["code"] == "payload_too_large"
    finally:
        service.stop()


def test_the_commands_are_also_reachable_through_flask(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith("BAND_")}
    env["BAND_DB"] = str(tmp_path / "band.db")
    flask = [sys.executable, "-m", "flask", "--app", "app", "init-db"]
    result = subprocess.run(flask, cwd=PROJECT, env=env, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert f"schema version {len(migrations.steps())}" in result.stdout


def test_a_database_newer_than_the_code_stops_serve(tmp_path):
    service = Service(tmp_path)
    assert service.run("init-db").returncode == 0
    with create_app({"DB": service.env["BAND_DB"]}).app_context(), writer.transaction():
        dialect.set_schema_version(42)
    db.close()
    result = service.run("serve", "--port", "0")
    assert result.returncode == 1 and "newer than this code knows" in result.stderr


def test_a_busy_port_is_a_one_line_error(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        result = Service(tmp_path).run("serve", "--port", str(taken.getsockname()[1]))
    assert result.returncode == 1 and "Choose one with --port" in result.stderr and "Traceback" not in result.stderr
