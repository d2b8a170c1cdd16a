"""SPEC §2.3 and §4.8 on a real waitress server: an attachment download streams from the database, so many
downloads of a large file at once leave the server's memory where it was."""

import hashlib
import http.client
import json
import os
import select
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
MULTIPART = f"multipart/form-data; boundary={BOUNDARY}"


@pytest.fixture
def office(tmp_path):
    """A running service and the headers of an admin's API key for it."""
    service = Service(tmp_path)
    _, key = service.run_all(
        ["create-user", "ada@example.com", "--name", "Ada", "--role", "admin"],
        ["create-api-key", "ada@example.com", "--label", "tests"],
    )
    service.key = key.strip()
    service.start()
    yield service, {"Authorization": f"Bearer {service.key}"}
    service.stop()


def upload(service, headers, content):
    """A gig with `content` attached: the attachment's record."""
    body = multipart(new_gig(service, headers), content)
    status, _, body = service.request("POST", "/attachments", body, {**headers, "Content-Type": MULTIPART})
    assert status == 201, body
    return json.loads(body)["data"]


def new_gig(service, headers):
    """A new gig's id."""
    gig = json.dumps({"gig_date": "2027-06-12", "title": "Big file"}).encode()
    status, _, body = service.request("POST", "/gigs", gig, {**headers, "Content-Type": "application/json"})
    assert status == 201, body
    return json.loads(body)["data"]["id"]


def multipart(gig_id, content):
    """The upload's body: `content` as the file of gig `gig_id`."""
    return b"".join(
        [
            f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="gig_id"\r\n\r\n{gig_id}\r\n'.encode(),
            f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="take.wav"\r\n'.encode(),
            b"Content-Type: audio/wav\r\n\r\n",
            content,
            f"\r\n--{BOUNDARY}--\r\n".encode(),
        ]
    )


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


class HeldUpload:
    """An upload sent over a socket of its own but for its last bytes: the server is receiving it and cannot
    answer it until `finish()` sends them; `answer()` is then its status and record."""

    def __init__(self, service, headers, content):
        body = multipart(new_gig(service, headers), content)
        head = f"POST /v1/attachments HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: {len(body)}\r\n"
        head += f"Authorization: {headers['Authorization']}\r\nContent-Type: {MULTIPART}\r\nConnection: close\r\n\r\n"
        self.socket = service.connect(timeout=SLOW_MACHINE_SECONDS)
        self.socket.sendall(head.encode() + body[:-100])
        self.rest = body[-100:]

    def unanswered(self):
        return select.select([self.socket], [], [], 0)[0] == []

    def finish(self):
        self.socket.sendall(self.rest)

    def answer(self):
        response = http.client.HTTPResponse(self.socket)
        response.begin()
        record = json.loads(response.read())
        self.socket.close()
        return response.status, record


def test_uploads_under_way_leave_small_writes_their_turn(office):
    """Six large uploads at once, sent but for their last bytes; then three of them finished and written while the
    other three still arrive; then those. Small writes go on throughout: an upload holds no write turn while its
    bytes arrive, small writes get theirs while uploads are written, and nothing answers 500 or 503 (a write that
    waited past the busy timeout). Nothing here is timed: an upload cannot be answered before its last bytes are
    in, so each small write answered before that was answered while the upload was under way."""
    service, headers = office
    json_headers = {**headers, "Content-Type": "application/json"}
    statuses = []

    def write_small():
        body = json.dumps({"name": f"t{len(statuses)}"}).encode()
        statuses.append(service.request("POST", "/teams", body, json_headers)[0])

    with ThreadPoolExecutor(6) as pool:
        held = list(pool.map(lambda _: HeldUpload(service, headers, os.urandom(SIZE)), range(6)))
    for _ in range(5):
        write_small()
    assert statuses == [201] * 5 and all(one.unanswered() for one in held)  # all six under way
    answers = []
    for batch, following in ((held[:3], held[3:]), (held[3:], [])):
        with ThreadPoolExecutor(len(batch)) as pool:
            for one in batch:
                one.finish()
            answering = [pool.submit(one.answer) for one in batch]
            while not all(future.done() for future in answering):  # small writes while these are written
                write_small()
            answers += [future.result() for future in answering]
        assert all(one.unanswered() for one in following)  # still arriving: the small writes went before them
    assert [status for status, _ in answers] == [201] * 6, answers
    assert all(record["data"]["size_bytes"] == SIZE for _, record in answers)
    assert all(status == 201 for status in statuses), statuses
