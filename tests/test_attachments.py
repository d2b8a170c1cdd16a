"""SPEC §4.8: attachments, created from a multipart upload: their metadata, the size limit, changes, lists,
deletes and capabilities (their bytes as served: test_attachment_content.py)."""

import hashlib
import io

import pytest

from app import configure, create_app
from models import AttachmentContent
from tests.support import postgresql
from tests.support.api import Api, error_of
from tests.support.database import release_database
from tests.support.uploads import MB, PDF, browser_upload, created, upload
from tests.support.users import make_token, make_user

FIELDS = {"id", "gig_id", "filename", "content_type", "size_bytes", "sha256", "description", "created_at", "updated_at"}


def total(api):
    return api.get("/attachments").get_json()["meta"]["total"]


def stored_contents():
    return AttachmentContent.select().count()


@pytest.fixture
def gig(build):
    return build("gigs")


# --- create ---------------------------------------------------------------------------------------------


def test_an_upload_creates_the_record_with_its_size_and_digest(admin, gig):
    r = upload(admin, {"gig_id": gig["id"], "description": " Stage plan "})
    record = created(r)
    assert r.headers["Location"] == f"/v1/attachments/{record['id']}"
    assert set(record) == FIELDS
    assert record == {
        "id": record["id"],
        "gig_id": gig["id"],
        "filename": "plan.pdf",
        "content_type": "application/pdf",
        "size_bytes": len(PDF),
        "sha256": hashlib.sha256(PDF).hexdigest(),
        "description": "Stage plan",
        "created_at": record["created_at"],
        "updated_at": record["created_at"],
    }
    assert record["created_at"].endswith("Z")
    assert admin.get(f"/attachments/{record['id']}").get_json() == {"data": record}
    assert admin.get(f"/attachments?filter[gig_id]={gig['id']}").get_json()["data"] == [record]


def test_the_description_is_optional(admin, gig):
    assert created(upload(admin, {"gig_id": gig["id"]}))["description"] is None
    assert created(upload(admin, {"gig_id": gig["id"], "description": "  "}))["description"] is None


def test_an_empty_file_is_stored_as_zero_bytes(admin, gig):
    record = created(upload(admin, {"gig_id": gig["id"]}, file=(b"", "empty.txt", "text/plain")))
    assert (record["size_bytes"], record["sha256"]) == (0, hashlib.sha256(b"").hexdigest())
    r = admin.get(f"/attachments/{record['id']}/content")
    assert r.status_code == 200 and r.data == b""


def test_a_json_body_is_unsupported(admin, gig):
    r = admin.post("/attachments", json={"gig_id": gig["id"], "filename": "plan.pdf"})
    error_of(r, 415, "unsupported_media_type")
    r = admin.post("/attachments", data="gig_id=x", content_type="application/x-www-form-urlencoded")
    error_of(r, 415, "unsupported_media_type")
    assert total(admin) == 0


def test_a_missing_file_is_named(admin, gig):
    details = error_of(upload(admin, {"gig_id": gig["id"]}, file=None), 422, "validation_failed")["details"]
    assert details == {"file": ["Missing data for required field."]}
    assert total(admin) == 0


def test_a_missing_file_and_gig_are_both_named(admin):
    details = error_of(upload(admin, {"description": "Plan"}, file=None), 422, "validation_failed")["details"]
    assert set(details) == {"file", "gig_id"}
    assert total(admin) == 0


@pytest.mark.parametrize("gig_id", [None, "", "nope", "00000000-0000-4000-8000-000000000000"])
def test_a_missing_malformed_or_unknown_gig_is_named(admin, gig_id):
    form = {} if gig_id is None else {"gig_id": gig_id}
    details = error_of(upload(admin, form), 422, "validation_failed")["details"]
    assert set(details) == {"gig_id"}
    assert total(admin) == 0 and stored_contents() == 0


@pytest.mark.parametrize(
    "extra",
    [
        {"bogus": "1"},
        {"filename": "other.pdf"},
        {"sha256": "0" * 64},
        {"size_bytes": "3"},
        {"content_type": "text/plain"},
        {"other": (io.BytesIO(b"x"), "x.txt")},
    ],
    ids=["unknown", "filename", "sha256", "size_bytes", "content_type", "second-file"],
)
def test_unknown_and_read_only_form_fields_are_named(admin, gig, extra):
    details = error_of(upload(admin, {"gig_id": gig["id"], **extra}), 422, "validation_failed")["details"]
    assert set(details) == set(extra)
    assert total(admin) == 0 and stored_contents() == 0


@pytest.mark.parametrize(
    ("field", "parts"),
    [
        ("file", {"file": [(io.BytesIO(PDF), "plan.pdf"), (io.BytesIO(b"other"), "other.pdf")]}),
        ("gig_id", {"gig_id": "GIG", "file": (io.BytesIO(PDF), "plan.pdf")}),
        ("description", {"description": ["first", "second"], "file": (io.BytesIO(PDF), "plan.pdf")}),
    ],
)
def test_a_part_given_twice_is_named_never_taken_as_the_last(admin, build, gig, field, parts):
    if field == "gig_id":
        parts["gig_id"] = [gig["id"], build.id("gigs")]
    else:
        parts["gig_id"] = gig["id"]
    r = admin.post("/attachments", data=parts, content_type="multipart/form-data")
    assert error_of(r, 422, "validation_failed")["details"] == {field: ["Give this field once."]}
    assert total(admin) == 0 and stored_contents() == 0


@pytest.mark.parametrize(
    ("filename_param", "stored"),
    [
        (b'filename="../../etc/passwd"', "passwd"),
        (b'filename="/abs/path/plan.pdf"', "plan.pdf"),
        (b'filename="C:\\\\x\\\\y.pdf"', "y.pdf"),  # backslashes escaped as quoted-pairs
        (b'filename="C:\\x\\y.pdf"', "y.pdf"),  # as browsers and urllib3 send a Windows path: unescaped
        (b'filename="..\\\\..\\\\boot.ini"', "boot.ini"),
        (b'filename="plain.pdf"', "plain.pdf"),
        (b'filename="B\xc3\xbchnenplan %22final%22.pdf"', 'Bühnenplan "final".pdf'),  # HTML5 form encoding
        (b"filename*=UTF-8''B%C3%BChnenplan%20%22final%22.pdf", 'Bühnenplan "final".pdf'),  # RFC 5987
    ],
)
def test_the_filename_loses_its_path(admin, gig, filename_param, stored):
    record = created(browser_upload(admin, gig["id"], filename_param))
    assert record["filename"] == stored
    assert record["size_bytes"] == len(PDF)


@pytest.mark.parametrize("filename_param", [b'filename=".."', b'filename="../.."', b'filename="a/.."'])
def test_a_filename_that_is_only_a_path_part_is_not_kept(admin, gig, filename_param):
    filename = created(browser_upload(admin, gig["id"], filename_param))["filename"]
    assert filename not in ("", ".", "..") and "/" not in filename


@pytest.mark.parametrize(
    ("sent_type", "filename", "stored"),
    [
        ("image/png", "scan.dat", "image/png"),  # the part's type wins over the name
        ("application/octet-stream", "setlist.csv", "text/csv"),  # a generic type: guessed from the name
        ("application/octet-stream", "plan.pdf", "application/pdf"),
        ("application/octet-stream", "blob.zzz-unknown", "application/octet-stream"),
    ],
)
def test_the_content_type_comes_from_the_part_or_the_filename(admin, gig, sent_type, filename, stored):
    record = created(upload(admin, {"gig_id": gig["id"]}, file=(b"a,b\n1,2\n", filename, sent_type)))
    assert record["content_type"] == stored


# --- the size limit -------------------------------------------------------------------------------------


@pytest.fixture
def small_limit(template_db, tmp_path):
    """A service started with BAND_MAX_UPLOAD_MB=1, and an admin client of it."""
    folder = tmp_path / "small"
    folder.mkdir()
    location = postgresql.location(folder, template=template_db)
    small = create_app({"DB": location, "MAX_UPLOAD_MB": 1, "MAIL_URL": f"file:{tmp_path / 'mail'}"})
    client = Api(small.test_client())
    admin = client.with_token(make_token(make_user(roles=["admin"])))
    yield client, admin
    small.extensions["outbox"].join()
    release_database()


def test_a_file_of_exactly_the_limit_is_accepted(small_limit):
    _, admin = small_limit
    gig_id = admin.create("gigs", {"gig_date": "2027-06-12", "title": "Big file"})["id"]
    content = b"x" * MB
    record = created(upload(admin, {"gig_id": gig_id, "description": "d" * 1000}, file=(content, "big.bin")))
    assert record["size_bytes"] == MB and record["sha256"] == hashlib.sha256(content).hexdigest()
    assert admin.get(f"/attachments/{record['id']}/content").data == content


@pytest.mark.parametrize("size", [MB + 1, MB + 100_000, 3 * MB])
def test_a_file_over_the_limit_is_refused_and_nothing_is_stored(small_limit, size):
    anon, admin = small_limit
    gig_id = admin.create("gigs", {"gig_date": "2027-06-12", "title": "Big file"})["id"]
    r = upload(admin, {"gig_id": gig_id}, file=(b"x" * size, "big.bin"))
    error_of(r, 413, "payload_too_large")
    assert total(admin) == 0 and stored_contents() == 0
    # the capability is checked before the body (§2: 401, then 403, then 413)
    viewer = anon.with_token(make_token(make_user(roles=["viewer"])))
    assert error_of(upload(viewer, {"gig_id": gig_id}, file=(b"x" * size, "big.bin")), 403, "forbidden")
    error_of(upload(anon, {"gig_id": gig_id}, file=(b"x" * size, "big.bin")), 401, "unauthenticated")


def test_the_limit_follows_the_configuration(app, admin, gig):
    configure(app, {**app.config, "MAX_UPLOAD_MB": 1})
    error_of(upload(admin, {"gig_id": gig["id"]}, file=(b"x" * (MB + 1), "big.bin")), 413, "payload_too_large")
    assert total(admin) == 0 and stored_contents() == 0
    assert created(upload(admin, {"gig_id": gig["id"]}, file=(b"x" * MB, "big.bin")))["size_bytes"] == MB


# --- patch ----------------------------------------------------------------------------------------------


def test_patch_changes_the_filename_and_description_only(admin, gig):
    record = created(upload(admin, {"gig_id": gig["id"]}))
    r = admin.patch(f"/attachments/{record['id']}", json={"filename": "../secret/Setlist.pdf", "description": "v2"})
    assert r.status_code == 200, r.get_json()
    patched = r.get_json()["data"]
    assert patched == {
        **record,
        "filename": "Setlist.pdf",
        "description": "v2",
        "updated_at": patched["updated_at"],
    }
    assert patched["updated_at"] > record["updated_at"]
    assert admin.get(f"/attachments/{record['id']}/content").data == PDF


@pytest.mark.parametrize(
    "change",
    [
        {"content_type": "text/plain"},
        {"size_bytes": 1},
        {"sha256": "0" * 64},
    ],
)
def test_the_computed_fields_are_read_only(admin, gig, change):
    record = created(upload(admin, {"gig_id": gig["id"]}))
    r = admin.patch(f"/attachments/{record['id']}", json={**change, "description": "changed"})
    assert error_of(r, 422, "validation_failed")["details"] == {name: ["Read-only field."] for name in change}
    assert admin.get(f"/attachments/{record['id']}").get_json()["data"] == record


def test_the_gig_is_read_only_after_create(admin, build, gig):
    record = created(upload(admin, {"gig_id": gig["id"]}))
    r = admin.patch(f"/attachments/{record['id']}", json={"gig_id": build.id("gigs")})
    assert error_of(r, 422, "validation_failed")["details"] == {"gig_id": ["Set on create; read-only afterwards."]}
    assert admin.get(f"/attachments/{record['id']}").get_json()["data"] == record


def test_patch_takes_json(admin, gig):
    record = created(upload(admin, {"gig_id": gig["id"]}))
    r = admin.patch(f"/attachments/{record['id']}", data={"description": "x"}, content_type="multipart/form-data")
    error_of(r, 415, "unsupported_media_type")


# --- lists, deletes -------------------------------------------------------------------------------------


def test_lists_never_carry_the_bytes(admin, gig):
    big = b"\xab" * 300_000
    record = created(upload(admin, {"gig_id": gig["id"]}, file=(big, "recording.bin", "audio/mpeg")))
    r = admin.get("/attachments")
    assert r.get_json()["data"] == [record]
    assert len(r.data) < 5_000
    assert set(r.get_json()["data"][0]) == FIELDS
    for name in ("data", "content"):
        assert "fields" in error_of(admin.get(f"/attachments?fields={name}"), 400, "invalid_query")["details"]


def test_deleting_an_attachment_deletes_its_bytes(admin, gig):
    keep = created(upload(admin, {"gig_id": gig["id"]}, file=(b"keep me", "keep.txt", "text/plain")))
    gone = created(upload(admin, {"gig_id": gig["id"]}))
    assert stored_contents() == 2
    assert admin.delete(f"/attachments/{gone['id']}").status_code == 204
    error_of(admin.get(f"/attachments/{gone['id']}"), 404, "not_found")
    error_of(admin.get(f"/attachments/{gone['id']}/content"), 404, "not_found")
    assert [row.attachment_id for row in AttachmentContent.select()] == [keep["id"]]
    assert admin.get(f"/attachments/{keep['id']}/content").data == b"keep me"


def test_a_gig_with_an_attachment_cannot_be_deleted(admin, gig):
    record = created(upload(admin, {"gig_id": gig["id"]}))
    error = error_of(admin.delete(f"/gigs/{gig['id']}"), 409, "resource_in_use")
    assert error["details"] == {"referenced_by": {"attachments": 1}}
    assert admin.get(f"/attachments/{record['id']}/content").data == PDF
    assert admin.delete(f"/attachments/{record['id']}").status_code == 204
    assert admin.delete(f"/gigs/{gig['id']}").status_code == 204


# --- capabilities ---------------------------------------------------------------------------------------


def test_reading_needs_gigs_view_and_writing_gigs_edit(admin, anon, signed_in, role, gig):
    record = created(upload(admin, {"gig_id": gig["id"]}))
    role("gig-viewer", "gigs.view")
    role("gig-editor", "gigs.edit")
    viewer, editor = signed_in("gig-viewer"), signed_in("gig-editor")
    path = f"/attachments/{record['id']}"

    assert viewer.get(path).get_json() == {"data": record}
    assert viewer.get("/attachments").get_json()["data"] == [record]
    assert viewer.get(f"{path}/content").data == PDF
    for r in (
        upload(viewer, {"gig_id": gig["id"]}),
        viewer.post("/attachments", json={"gig_id": gig["id"]}),  # 403 wins over 415
        viewer.patch(path, json={"description": "x"}),
        viewer.delete(path),
    ):
        assert error_of(r, 403, "forbidden")["details"] == {"required": "gigs.edit"}

    for r in (editor.get(path), editor.get("/attachments"), editor.get(f"{path}/content")):
        assert error_of(r, 403, "forbidden")["details"] == {"required": "gigs.view"}
    assert editor.patch(path, json={"description": "by the editor"}).status_code == 200
    assert created(upload(editor, {"gig_id": gig["id"]}))["gig_id"] == gig["id"]

    for r in (anon.get(path), anon.get(f"{path}/content"), upload(anon, {"gig_id": gig["id"]})):
        error_of(r, 401, "unauthenticated")
    assert total(admin) == 2
