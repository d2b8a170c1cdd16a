"""SPEC §2.3 and §4.8 on a real waitress server: an attachment download streams from the database, so many
downloads of a large file at once leave the server's memory where it was."""

import hashlib
import json
import os
import socket
import sqlite3
import threading
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.support import postgresql
from tests.support.served import OPENER, Service
from tests.support.waiting import SLOW_MACHINE_SECONDS, wait_for

MB = 1024 * 1024
SIZE = 24 * MB  # just under the default limit, BAND_MAX_UPLOAD_MB=25
DOWNLOADS = 16
BOUNDARY = "----BandOfficeServerTest"


@pytest.fixture
def office(tmp_path):
    """A running service and the headers of an admin's API key for it."""
    service = Service(tmp_path)
    assert service.run("create-user", "ada@example.com", "--name", "Ada", "--role", "admin").returncode == 0
    key = service.run("create-api-key", "ada@example.com", "--label", "tests").stdout.strip()
    service.start()
    service.key = key
    yield service, {"Authorization": f"Bearer {key}"}
    service.stop()


def upload(service, headers, content):
    """A gig with `content` attached: the attachment's record."""
    gig = json.dumps({"gig_date": "2027-06-12", "title": "Big file"}).encode()
    status, _, body = service.request("POST", "/gigs", gig, {**headers, "Content-Type": "application/json"})
    assert status == 201, body
    gig_id = json.loads(body)["data"]["id"]
    parts = b"".join(
        [
            f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="gig_id"\r\n\r\n{gig_id}\r\n'.encode(),
            f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="take.wav"\r\n'.encode(),
            b"Content-Type: audio/wav\r\n\r\n",
            content,
            f"\r\n--{BOUNDARY}--\r\n".encode(),
        ]
    )
    content_type = f"multipart/form-data; boundary={BOUNDARY}"
    status, _, body = service.request("POST", "/attachments", parts, {**headers, "Content-Type": content_type})
    assert status == 201, body
    return json.loads(body)["data"]


def download(service, path, headers):
    """(status, sha256 of the body), the body read in pieces as a browser saves a file."""
    digest = hashlib.sha256()
    with OPENER.open(urllib.request.Request(service.base + path, headers=headers), timeout=30) as r:
        while chunk := r.read(256 * 1024):
            digest.update(chunk)
        return r.status, digest.hexdigest()


def resident_bytes(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    raise AssertionError("no VmRSS")


class PeakMemory:
    """The largest resident size of process `pid` seen while the `with` block runs."""

    def __init__(self, pid):
        self.pid, self.peak, self.done = pid, 0, threading.Event()

    def __enter__(self):
        self.thread = threading.Thread(target=self.sample)
        self.thread.start()
        return self

    def sample(self):
        while not self.done.is_set():
            self.peak = max(self.peak, resident_bytes(self.pid))
            self.done.wait(0.005)

    def __exit__(self, *exc):
        self.done.set()
        self.thread.join()


def test_a_large_upload_and_sixteen_concurrent_downloads_of_it_leave_the_memory_flat(office):
    service, headers = office
    content = os.urandom(SIZE)
    before = resident_bytes(service.proc.pid)
    with PeakMemory(service.proc.pid) as uploading:
        record = upload(service, headers, content)
    assert record["sha256"] == hashlib.sha256(content).hexdigest()
    assert uploading.peak - before < SIZE // 2, f"the upload grew the server by {(uploading.peak - before) // MB} MB"

    path = f"/attachments/{record['id']}/content"
    before = resident_bytes(service.proc.pid)
    started = time.monotonic()
    with PeakMemory(service.proc.pid) as downloading, ThreadPoolExecutor(DOWNLOADS) as pool:
        results = list(pool.map(lambda _: download(service, path, headers), range(DOWNLOADS)))
    assert results == [(200, record["sha256"])] * DOWNLOADS
    # a whole blob per download took 500 MB here; streaming it through waitress's default 16 MB output
    # buffer per connection, some 70 MB; in chunks through a 1 MB buffer, about 10 MB
    growth = downloading.peak - before
    assert growth < 40 * MB, f"the downloads grew the server by {growth // MB} MB"
    assert time.monotonic() - started < 15


def log_is_held(database):
    """Whether a reader holds on to an old snapshot of the database at `database` (BAND_DB). On SQLite: a reader
    keeps SQLite from emptying the write-ahead log into the database (its snapshot is older than the last write).
    On PostgreSQL: a connection of another holds a snapshot (which keeps VACUUM from the rows deleted since)."""
    if postgresql.on_postgresql():
        import psycopg

        held = """SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()
                   AND backend_xmin IS NOT NULL"""  # idle in its transaction, or reading its next slice
        with psycopg.connect(database, autocommit=True) as connection:
            return connection.execute(held).fetchone()[0] > 0
    connection = sqlite3.connect(database, timeout=0)
    try:
        busy, _, _ = connection.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
        return busy == 1
    finally:
        connection.close()


def test_a_download_the_client_abandons_lets_go_of_the_database(office):
    service, headers = office
    record = upload(service, headers, os.urandom(8 * MB))
    request = f"GET /v1/attachments/{record['id']}/content HTTP/1.1\r\nHost: x\r\n"
    request += f"Authorization: Bearer {service.key}\r\n\r\n"
    with socket.create_connection(("127.0.0.1", service.port), timeout=10) as client:
        client.sendall(request.encode())
        assert client.recv(65536).startswith(b"HTTP/1.1 200 ")
        # the client stops reading; a write goes ahead, which the download's snapshot must not see
        assert service.request("DELETE", f"/attachments/{record['id']}", headers=headers)[0] == 204
        assert log_is_held(service.env["BAND_DB"])
    # the abandoned download lets go
    wait_for(lambda: not log_is_held(service.env["BAND_DB"]), timeout=SLOW_MACHINE_SECONDS)


@pytest.mark.xfail(
    postgresql.on_postgresql(),
    reason="on PostgreSQL an upload's COPY (about 1 s per 24 MB) runs inside its write transaction, which holds the "
    "process's write turn (writer.QUEUE) and the database's write lock: small writes wait behind it",
    strict=False,
)
def test_uploads_under_way_leave_small_writes_their_turn(office):
    """Six large uploads at once: small writes keep being answered quickly, and nothing answers 500."""
    service, headers = office
    json_headers = {**headers, "Content-Type": "application/json"}
    uploads, small, running = [], [], threading.Event()
    running.set()

    def write_small():
        n = 0
        while running.is_set() and n < 400:
            n += 1
            started = time.monotonic()
            status, _, _ = service.request("POST", "/teams", json.dumps({"name": f"t{n}"}).encode(), json_headers)
            small.append((status, time.monotonic() - started))

    writer = threading.Thread(target=write_small)
    writer.start()
    try:
        with ThreadPoolExecutor(6) as pool:
            uploads = list(pool.map(lambda _: upload(service, headers, os.urandom(24 * MB)), range(6)))
    finally:
        running.clear()
        writer.join(30)
    assert len(uploads) == 6 and all(record["size_bytes"] == 24 * MB for record in uploads)
    assert small and all(status == 201 for status, _ in small), small
    assert max(seconds for _, seconds in small) < 2.0, sorted(seconds for _, seconds in small)[-5:]
