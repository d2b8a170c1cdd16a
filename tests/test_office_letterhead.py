"""SPEC §15's letterhead: `/office` keeps the office's address, contact, tax and bank details (the IBAN checked as
ISO 13616 says, the BIC's shape as ISO 9362 says), read by anyone signed in and changed by an admin; its logo, a
PNG or a sanitised SVG of at most 256 KB, is uploaded, read and removed at `/office/logo`."""

import io
import xml.etree.ElementTree as ElementTree

import pytest
from PIL import Image

from tests.support.api import error_of
from tests.support.moves import copy_to, empty_database, served_copy
from tests.support.records import LETTERHEAD, NO_LETTERHEAD
from tests.support.served import ServedOffice

SVG_NS = "{http://www.w3.org/2000/svg}"
HOSTILE_SVG = b"""<?xml version="1.0"?>
<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 200 80"
     onload="alert('load')">
  <style>.ink{fill:#8a1538} .bad{background:url(https://tracker.example/s.png)} @import url(https://x.example/a.css);</style>
  <script>alert('script')</script>
  <defs><linearGradient id="gold"><stop offset="0" stop-color="#d4af37"/></linearGradient></defs>
  <rect width="200" height="80" fill="url(#gold)" onclick="alert('click')" style="stroke:#000;fill:url(https://x.example/p)"/>
  <foreignObject width="10" height="10"><div xmlns="http://www.w3.org/1999/xhtml">html inside</div></foreignObject>
  <image xlink:href="https://tracker.example/pixel.png" width="1" height="1"/>
  <use xlink:href="#gold"/>
  <a href="javascript:alert('link')"><text>click me</text></a>
  <text class="ink" x="10" y="50" font-family="Georgia" transform="rotate(-5 10 50)">Die Hochzeitsband</text>
  <path d="M10,70 L190,70" stroke="#d4af37" fill="\75 rl(https://escaped.example/f)"
        mask="image-set('https://masked.example/m.png' 1x)"/>
  <set attributeName="fill" to="red"/>
</svg>"""
# what HOSTILE_SVG holds that no kept logo may
GONE = ["script", "alert", "onload", "onclick", "foreignObject", "html inside", "tracker.example", "x.example"]
GONE += ["javascript", "@import", "<set", "click me", "escaped.example", "masked.example"]


def png(width=120, height=40):
    out = io.BytesIO()
    Image.new("RGB", (width, height), "#8a1538").save(out, format="PNG")
    return out.getvalue()


def put_logo(api, content, filename="logo.png", content_type="image/png"):
    data = {"file": (io.BytesIO(content), filename, content_type)}
    return api.request("PUT", "/office/logo", data=data, content_type="multipart/form-data")


def letterhead(office):
    return {key: office[key] for key in LETTERHEAD}


def test_an_admin_keeps_the_letterhead_and_anyone_signed_in_reads_it(admin, signed_in, documented):
    typed = {**LETTERHEAD, "iban": "at61 1904 3002 3457 3201", "bic": "bkau at ww", "country": "at"}
    r = admin.patch("/office", json=typed)
    assert r.status_code == 200, r.get_json()
    documented.check("PATCH", "/office", r)
    assert letterhead(r.get_json()["data"]) == LETTERHEAD
    for role in ("office", "staff", "viewer"):
        read = signed_in(role).get("/office")
        documented.check("GET", "/office", read)
        assert letterhead(read.get_json()["data"]) == LETTERHEAD
        assert read.get_json()["data"]["logo"] is None


def test_a_new_office_has_an_empty_letterhead_and_an_empty_string_clears_a_field(admin):
    assert letterhead(admin.get("/office").get_json()["data"]) == NO_LETTERHEAD
    admin.patch("/office", json=LETTERHEAD)
    r = admin.patch("/office", json={"address_line2": "", "iban": " ", "bic": "", "tax_note": ""})
    assert r.status_code == 200, r.get_json()
    cleared = {**LETTERHEAD, "address_line2": None, "iban": None, "bic": None, "tax_note": None}
    assert letterhead(admin.get("/office").get_json()["data"]) == cleared


@pytest.mark.parametrize(
    ("iban", "said"),
    [
        ("DE89 3704 0044 0532 0130 01", "The check digits do not match the rest: a character is mistyped."),
        ("DE89 3704 0044 0532 0130 0", "An IBAN of Germany has 22 characters; this one has 21."),
        ("AT61 1904 3002 3457 3201 99", "An IBAN of Austria has 20 characters; this one has 22."),
        ("XX89 3704 0044 0532 0130 00", "XX is not the code of a country with IBANs."),
        (
            "1234 5678 9012",
            "Not an IBAN: two letters of the country, two check digits, then the account in letters and digits.",
        ),
    ],
)
def test_an_iban_that_is_not_one_is_refused_at_its_field_and_nothing_changes(admin, iban, said):
    admin.patch("/office", json=LETTERHEAD)
    r = admin.patch("/office", json={"iban": iban, "city": "Graz"})
    assert error_of(r, 422, "validation_failed")["details"] == {"iban": [said]}
    assert letterhead(admin.get("/office").get_json()["data"]) == LETTERHEAD


def test_good_ibans_of_several_countries_are_kept_compact(admin):
    for typed, kept in [
        ("DE89 3704 0044 0532 0130 00", "DE89370400440532013000"),
        ("gb82 west 1234 5698 7654 32", "GB82WEST12345698765432"),
        ("CH93 0076 2011 6238 5295 7", "CH9300762011623852957"),
    ]:
        r = admin.patch("/office", json={"iban": typed})
        assert r.status_code == 200, r.get_json()
        assert r.get_json()["data"]["iban"] == kept


@pytest.mark.parametrize(
    ("bic", "said"),
    [
        ("DEUTDEF", "A BIC has 8 or 11 characters; this one has 7."),
        ("DEUTDEFF50", "A BIC has 8 or 11 characters; this one has 10."),
        ("DEUTXXFF", "Not a BIC: XX is not the code of a country."),
        (
            "1EUTDEFF",
            "Not a BIC: 4 letters of the bank, 2 of its country, 2 letters or digits of its place, 3 of a branch.",
        ),
    ],
)
def test_a_bic_of_the_wrong_shape_is_refused_at_its_field(admin, bic, said):
    r = admin.patch("/office", json={"bic": bic})
    assert error_of(r, 422, "validation_failed")["details"] == {"bic": [said]}
    assert admin.get("/office").get_json()["data"]["bic"] is None


def test_a_bic_of_8_or_11_characters_is_kept_upper_case(admin):
    assert admin.patch("/office", json={"bic": "deutdeff"}).get_json()["data"]["bic"] == "DEUTDEFF"
    assert admin.patch("/office", json={"bic": "DEUT DE FF 500"}).get_json()["data"]["bic"] == "DEUTDEFF500"


def test_the_letterhead_is_changed_by_an_admin_only(signed_in):
    r = signed_in("office").patch("/office", json={"city": "Graz"})
    error_of(r, 403, "forbidden")


# --- the logo ----------------------------------------------------------------------------------------------


def test_a_png_logo_is_kept_and_served_to_anyone_signed_in_as_it_was_sent(admin, signed_in, documented):
    logo = png()
    r = put_logo(admin, logo)
    assert r.status_code == 200, r.get_json()
    documented.check("PUT", "/office/logo", r)
    facts = r.get_json()["data"]["logo"]
    assert facts["media_type"] == "image/png" and facts["size_bytes"] == len(logo) and facts["updated_at"]
    staff = signed_in("staff")
    assert staff.get("/office").get_json()["data"]["logo"] == facts
    read = staff.get("/office/logo")
    assert read.status_code == 200 and read.data == logo
    documented.check("GET", "/office/logo", read)
    assert read.mimetype == "image/png"
    assert read.headers["X-Content-Type-Options"] == "nosniff"
    policy = read.headers["Content-Security-Policy"]
    assert "sandbox" in policy and "default-src 'none'" in policy and "script-src" not in policy
    again = staff.get("/office/logo", headers={"If-None-Match": read.headers["ETag"]})
    assert again.status_code == 304 and again.data == b""


def test_an_svg_logo_keeps_its_drawing_and_loses_scripts_events_links_and_foreign_objects(admin):
    r = put_logo(admin, HOSTILE_SVG, "logo.svg", "image/svg+xml")
    assert r.status_code == 200, r.get_json()
    read = admin.get("/office/logo")
    assert read.mimetype == "image/svg+xml"
    kept = read.data.decode()
    for word in GONE:
        assert word not in kept, word
    tree = ElementTree.fromstring(read.data)
    assert tree.tag == f"{SVG_NS}svg" and tree.get("viewBox") == "0 0 200 80"
    (text,) = tree.iter(f"{SVG_NS}text")
    assert text.text == "Die Hochzeitsband" and text.get("class") == "ink"
    assert text.get("transform") == "rotate(-5 10 50)"
    (path,) = tree.iter(f"{SVG_NS}path")
    assert path.attrib == {"d": "M10,70 L190,70", "stroke": "#d4af37"}
    (rect,) = tree.iter(f"{SVG_NS}rect")
    assert rect.get("fill") == "url(#gold)" and rect.get("style") == "stroke:#000"
    (use,) = tree.iter(f"{SVG_NS}use")
    assert use.get("{http://www.w3.org/1999/xlink}href") == "#gold"
    assert ".ink{fill:#8a1538}" in kept
    assert r.get_json()["data"]["logo"]["size_bytes"] == len(read.data)


@pytest.mark.parametrize(
    ("content", "said"),
    [
        (
            b"GIF89a\x01\x00\x01\x00\x00\x00\x00;",
            "Not a PNG or SVG image (an SVG must be well-formed XML without entities).",
        ),
        (b"just some words", "Not a PNG or SVG image (an SVG must be well-formed XML without entities)."),
        (png()[:60], "This PNG is damaged: it cannot be read."),
        (
            b'<html xmlns="http://www.w3.org/1999/xhtml"><body/></html>',
            "Not a PNG or SVG image: an SVG's outermost element is <svg>.",
        ),
        (
            b'<!DOCTYPE svg [<!ENTITY lol "lol">]><svg xmlns="http://www.w3.org/2000/svg">&lol;</svg>',
            "Not a PNG or SVG image (an SVG must be well-formed XML without entities).",
        ),
        (png(5000, 10), "The logo is 5000 × 10 pixels; it may be at most 4096 on each side."),
        (
            b'<svg xmlns="http://www.w3.org/2000/svg">' + b"<g>" * 5000 + b"</g>" * 5000 + b"</svg>",
            "This SVG nests its elements more than 64 deep.",
        ),
    ],
)
def test_a_logo_that_is_no_png_or_svg_is_refused_at_its_field_and_the_old_one_stays(admin, content, said):
    first = png()
    put_logo(admin, first)
    r = put_logo(admin, content, "logo.png", "image/png")
    assert error_of(r, 422, "validation_failed")["details"] == {"file": [said]}
    assert admin.get("/office/logo").data == first


def test_a_logo_over_256_kb_is_refused(admin):
    big = png()[:-12] + b"\x00" * (256 * 1024)  # a PNG's signature with far too many bytes after it
    r = put_logo(admin, big)
    assert error_of(r, 422, "validation_failed")["details"] == {
        "file": ["The logo is 256 KB; it may be at most 256 KB."]
    }
    assert admin.get("/office").get_json()["data"]["logo"] is None


def test_a_logo_upload_without_a_file_or_not_as_a_form_is_refused(admin):
    r = admin.request("PUT", "/office/logo", data={}, content_type="multipart/form-data")
    assert error_of(r, 422, "validation_failed")["details"] == {"file": ["Missing data for required field."]}
    r = admin.request("PUT", "/office/logo", data=png(), content_type="image/png")
    error_of(r, 415, "unsupported_media_type")


def test_an_admin_removes_the_logo_and_only_an_admin_changes_it(admin, signed_in):
    office = signed_in("office")
    error_of(put_logo(office, png()), 403, "forbidden")
    put_logo(admin, png())
    error_of(office.delete("/office/logo"), 403, "forbidden")
    r = admin.delete("/office/logo")
    assert r.status_code == 204 and r.data == b""
    error_of(admin.get("/office/logo"), 404, "not_found")
    error_of(admin.delete("/office/logo"), 404, "not_found")
    assert admin.get("/office").get_json()["data"]["logo"] is None


def test_the_logo_is_read_by_signed_in_users_only(anon, admin):
    put_logo(admin, png())
    error_of(anon.get("/office/logo"), 401, "unauthenticated")


def multipart(content, filename="logo.png", content_type="image/png"):
    """(body, its Content-Type) of a form with one file part, `file`, as a browser encodes it."""
    boundary = "----BandOfficeLogo7MA4YWxk"
    head = f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="{filename}"\r\n'
    body = f"{head}Content-Type: {content_type}\r\n\r\n".encode() + content + f"\r\n--{boundary}--\r\n".encode()
    return body, f"multipart/form-data; boundary={boundary}"


@pytest.mark.postgresql_only  # copy-to moves a SQLite office into PostgreSQL
def test_copy_to_moves_the_letterhead_and_the_logo_byte_for_byte(tmp_path):
    (tmp_path / "source").mkdir()
    source = ServedOffice(tmp_path / "source", BAND_DB=str(tmp_path / "source" / "band.db")).start()
    logo = png()
    try:
        source.call("PATCH", "/office", LETTERHEAD)
        body, content_type = multipart(logo)
        headers = {"Authorization": f"Bearer {source.key}", "Content-Type": content_type}
        status, _, answer = source.service.request("PUT", "/office/logo", body, headers)
        assert status == 200, answer
        before = source.call("GET", "/office")
    finally:
        source.service.stop()
    target = empty_database(tmp_path)
    copied = copy_to(target, source.db)
    assert copied.returncode == 0, copied.stdout + copied.stderr
    moved = served_copy(tmp_path, source.key)
    try:
        assert moved.call("GET", "/office") == before
        status, headers, kept = moved.service.request(
            "GET", "/office/logo", None, {"Authorization": f"Bearer {source.key}"}
        )
        assert (status, headers["Content-Type"], kept) == (200, "image/png", logo)
    finally:
        moved.service.stop()
