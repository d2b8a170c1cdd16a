"""Faults and operations (issue 6): the access log, a server killed in the middle of writes, and an online backup
taken while writes go on."""

import json
import logging
import signal
import threading
import urllib.error
import urllib.request

from tests.support.database import connected, rows_in_backup
from tests.support.served import OPENER, Service
from tests.support.waiting import wait_for


def test_one_access_log_line_per_request_without_secrets(admin, caplog):
    with caplog.at_level(logging.INFO, logger="band.access"):
        admin.get("/gigs", headers={"X-Request-Id": "req-1"})
        admin.get("/calendar/WyJzdGFmZiJd.c2lnbmF0dXJl.ics")
        admin.delete("/devices/https%3A%2F%2Fpush.example.com%2Fsecret")
    lines = [r.getMessage() for r in caplog.records if r.name == "band.access"]
    assert len(lines) == 3
    method, path, status, duration, request_id = lines[0].split()
    assert (method, path, status, request_id) == ("GET", "/v1/gigs", "200", "req-1") and duration.endswith("ms")
    assert lines[1].startswith("GET /v1/calendar/[token].ics 404")
    assert lines[2].startswith("DELETE /v1/devices/[token] 404")
    assert not any(admin.token in line or "secret" in line or "c2lnbmF0dXJl" in line for line in lines)


class Writer:
    """Threads creating teams as fast as the server answers, remembering each name that got a 201, and any other
    status the server answered."""

    def __init__(self, service, key, threads=4):
        self.service, self.key = service, key
        self.acknowledged, self.refused, self.running = [], [], True
        self.threads = [threading.Thread(target=self.run, args=(n,), daemon=True) for n in range(threads)]
        for thread in self.threads:
            thread.start()

    def run(self, n):
        count = 0
        while self.running:
            count += 1
            name = f"team-{n}-{count}"
            status = self.create(name)
            if status == 201:
                self.acknowledged.append(name)
            elif status is not None:
                self.refused.append(status)

    def create(self, name):
        body = json.dumps({"name": name}).encode()
        headers = {"Authorization": f"Bearer {self.key}", "Content-Type": "application/json"}
        request = urllib.request.Request(self.service.base + "/teams", data=body, headers=headers, method="POST")
        try:
            with OPENER.open(request, timeout=5) as r:
                return r.status
        except urllib.error.HTTPError as e:
            return e.code
        except OSError:
            return None  # the server went away mid-request: nothing was promised

    def stop(self):
        self.running = False
        for thread in self.threads:
            thread.join(10)


def started_with_a_key(tmp_path):
    service = Service(tmp_path)
    _, key = service.run_all(
        ["create-user", "ops@example.com", "--name", "Ops", "--role", "admin"],
        ["create-api-key", "ops@example.com", "--label", "load"],
    )
    return service.start(), key.strip()


def test_every_answered_write_survives_sigkill(tmp_path):
    service, key = started_with_a_key(tmp_path)
    writer = Writer(service, key)
    wait_for(lambda: len(writer.acknowledged) > 20, timeout=30)
    service.proc.send_signal(signal.SIGKILL)  # in the middle of writes: no chance to finish anything
    service.proc.wait(10)
    writer.stop()
    with connected(service.env["BAND_DB"]) as database:
        stored = {row[0] for row in database.execute("SELECT name FROM teams")}
    assert set(writer.acknowledged) <= stored
    copied = service.run("backup", str(tmp_path / "after-the-kill.db"))  # integrity and references: check's
    assert copied.returncode == 0, copied.stderr
    checked = service.run("check", str(tmp_path / "after-the-kill.db"))
    assert checked.returncode == 0, checked.stdout + checked.stderr
    again = service.start()  # and the service starts again on the same file
    try:
        status, _, body = again.request("GET", "/teams?limit=1", headers={"Authorization": f"Bearer {key}"})
        assert status == 200 and json.loads(body)["meta"]["total"] == len(stored)
    finally:
        again.stop()


def test_an_online_backup_is_consistent_while_writes_go_on(tmp_path):
    service, key = started_with_a_key(tmp_path)
    writer = Writer(service, key)
    try:
        wait_for(lambda: len(writer.acknowledged) > 20, timeout=30)
        before = len(writer.acknowledged)
        result = service.run("backup", str(tmp_path / "copy.db"))
        after = len(writer.acknowledged)
        wait_for(lambda: len(writer.acknowledged) > after, timeout=10)  # the backup left nothing held
    finally:
        writer.stop()
        service.stop()
    assert result.returncode == 0, result.stderr
    assert writer.refused == []  # every write answered while the backup ran was done
    checked = service.run("check", str(tmp_path / "copy.db"))  # integrity and references
    assert checked.returncode == 0, checked.stdout + checked.stderr
    teams = rows_in_backup(tmp_path / "copy.db", "teams")
    assert before <= teams <= len(writer.acknowledged) + 4  # a moment of the live database, writes in flight aside
