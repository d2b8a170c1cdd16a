"""SPEC §4.8: an attachment's bytes, served apart from its metadata."""

import hashlib
import os
import re
import urllib.parse

import pytest
from werkzeug.http import parse_options_header

from tests.support.api import error_of
from tests.support.uploads import MB, PDF, browser_upload, created, upload


@pytest.fixture
def gig(build):
    return build("gigs")


def test_the_content_is_the_exact_bytes_with_its_headers(admin, gig):
    record = created(upload(admin, {"gig_id": gig["id"]}))
    r = admin.get(f"/attachments/{record['id']}/content")
    assert r.status_code == 200
    assert r.data == PDF
    assert r.headers["Content-Type"] == "application/pdf"
    assert r.headers["Content-Length"] == str(len(PDF))
    assert r.headers["ETag"] == f'"{record["sha256"]}"'
    assert r.headers["ETag"] == f'"{hashlib.sha256(r.data).hexdigest()}"'
    assert disposition(r) == ("attachment", "plan.pdf")


def test_a_file_of_many_chunks_comes_back_byte_for_byte(admin, gig):
    content = os.urandom(MB + 12_345)  # past a multiple of the 64 KiB chunks
    record = created(upload(admin, {"gig_id": gig["id"]}, file=(content, "take.wav", "audio/wav")))
    assert (record["size_bytes"], record["sha256"]) == (len(content), hashlib.sha256(content).hexdigest())
    path = f"/attachments/{record['id']}/content"
    r = admin.get(path)
    assert r.status_code == 200 and r.data == content
    assert r.headers["Content-Length"] == str(len(content))
    assert r.headers["ETag"] == f'"{record["sha256"]}"'
    r = admin.get(path, headers={"Range": "bytes=0-9"})  # ranges are not served: the whole file is
    assert r.status_code == 200 and r.data == content and "Content-Range" not in r.headers
    r = admin.request("HEAD", path)
    assert r.status_code == 200 and r.data == b"" and r.headers["Content-Length"] == str(len(content))


def test_a_download_under_way_is_whole_though_the_attachment_is_deleted_meanwhile(admin, gig):
    content = os.urandom(MB)
    record = created(upload(admin, {"gig_id": gig["id"]}, file=(content, "take.wav", "audio/wav")))
    path = f"/attachments/{record['id']}/content"
    with admin.get(path) as r:
        body = iter(r.response)
        first = next(body)
        assert 0 < len(first) < len(content)  # the rest is still to be read
        assert admin.delete(f"/attachments/{record['id']}").status_code == 204
        assert first + b"".join(body) == content
    error_of(admin.get(path), 404, "not_found")


ACTIVE = [
    ("page.html", "text/html"),
    ("page.xhtml", "application/xhtml+xml"),
    ("logo.svg", "image/svg+xml"),
    ("data.xml", "text/xml"),
    ("data.xml", "application/xml"),
    ("feed.rss", "application/rss+xml"),
    ("style.xsl", "text/xsl"),
    ("app.js", "text/javascript"),
    ("app.js", "application/javascript"),
    ("app.js", "application/x-javascript"),
    ("app.es", "application/ecmascript"),
]


@pytest.mark.parametrize(("filename", "stored_type"), ACTIVE)
def test_an_active_type_is_served_inert(admin, gig, filename, stored_type):
    script = b"<svg xmlns='http://www.w3.org/2000/svg'><script>alert(document.cookie)</script></svg>"
    record = created(upload(admin, {"gig_id": gig["id"]}, file=(script, filename, stored_type)))
    assert record["content_type"] == stored_type
    r = admin.get(f"/attachments/{record['id']}/content")
    assert r.data == script
    assert r.headers["Content-Type"] == "application/octet-stream"
    assert r.headers["Content-Security-Policy"] == "sandbox"
    assert r.headers["X-Content-Type-Options"] == "nosniff"
    assert disposition(r) == ("attachment", filename)
    assert admin.get(f"/attachments/{record['id']}").get_json()["data"]["content_type"] == stored_type


@pytest.mark.parametrize("stored_type", ["application/pdf", "text/plain", "image/png", "text/csv", "application/json"])
def test_a_passive_type_is_served_as_stored(admin, gig, stored_type):
    record = created(upload(admin, {"gig_id": gig["id"]}, file=(b"bytes", "file.bin", stored_type)))
    r = admin.get(f"/attachments/{record['id']}/content")
    assert r.headers["Content-Type"] == stored_type
    assert "Content-Security-Policy" not in r.headers
    assert r.headers["X-Content-Type-Options"] == "nosniff"


def test_the_content_type_is_the_stored_one(admin, gig):
    latin1 = "Künstler;Gage\n".encode("latin-1")
    record = created(upload(admin, {"gig_id": gig["id"]}, file=(latin1, "gage.csv", "text/csv")))
    assert record["content_type"] == "text/csv"
    r = admin.get(f"/attachments/{record['id']}/content")
    assert r.data == latin1
    assert r.headers["Content-Type"] == "text/csv"  # not a charset the bytes were never said to have


def test_a_non_ascii_filename_is_safely_encoded(admin, gig):
    name = 'Bühnenplan "final".pdf'
    record = created(browser_upload(admin, gig["id"], b'filename="B\xc3\xbchnenplan %22final%22.pdf"'))
    assert record["filename"] == name
    r = admin.get(f"/attachments/{record['id']}/content")
    header = r.headers["Content-Disposition"]
    header.encode("ascii")  # a header a client can always read
    assert "\r" not in header and "\n" not in header
    assert disposition(r) == ("attachment", name)
    encoded = re.search(r"filename\*=UTF-8''([^;\s]+)", header, re.IGNORECASE)
    assert encoded and urllib.parse.unquote(encoded[1]) == name


def test_a_renamed_attachment_downloads_under_its_new_name_and_no_header_is_injected(admin, gig):
    record = created(upload(admin, {"gig_id": gig["id"]}))
    r = admin.patch(f"/attachments/{record['id']}", json={"filename": "x\r\nSet-Cookie: a=1\r\n.pdf"})
    assert r.status_code == 200, r.get_json()
    renamed = r.get_json()["data"]["filename"]
    assert "\r" not in renamed and "\n" not in renamed
    r = admin.get(f"/attachments/{record['id']}/content")
    assert "Set-Cookie" not in r.headers
    assert disposition(r) == ("attachment", renamed)
    assert r.data == PDF


@pytest.mark.parametrize("sent", ["{etag}", "W/{etag}", '"other", {etag}', "*"])
def test_a_matching_if_none_match_answers_304(admin, gig, sent):
    record = created(upload(admin, {"gig_id": gig["id"]}))
    path = f"/attachments/{record['id']}/content"
    etag = admin.get(path).headers["ETag"]
    r = admin.get(path, headers={"If-None-Match": sent.format(etag=etag)})
    assert r.status_code == 304 and r.data == b""
    assert r.headers["ETag"] == etag
    r = admin.get(path, headers={"If-None-Match": f'"{"0" * 64}"'})
    assert r.status_code == 200 and r.data == PDF


def test_the_content_of_an_unknown_attachment_is_not_found(admin):
    error_of(admin.get("/attachments/00000000-0000-4000-8000-000000000000/content"), 404, "not_found")
    error_of(admin.get("/attachments/nope/content"), 404, "not_found")


def disposition(response):
    """(type, filename) of the Content-Disposition header, read as RFC 6266 says (`filename*` first)."""
    kind, params = parse_options_header(response.headers["Content-Disposition"])
    return kind, params.get("filename")
