"""Attachments uploaded as multipart/form-data: through the test client, or encoded byte for byte as a browser
sends them."""

import io

PDF = b"%PDF-1.4\n% a stage plan\n\x00\x01\x02\xff binary tail"
MB = 1024 * 1024


def upload(api, form=None, file=(PDF, "plan.pdf", "application/pdf"), **kwargs):
    """POST /attachments as multipart/form-data; `file` is (bytes, filename[, content type]) or None."""
    data = dict(form or {})
    if file is not None:
        content, *rest = file
        data["file"] = (io.BytesIO(content), *rest)
    return api.post("/attachments", data=data, content_type="multipart/form-data", **kwargs)


def created(response):
    assert response.status_code == 201, response.get_json()
    return response.get_json()["data"]


def browser_upload(api, gig_id, filename_param, content=PDF, content_type="application/pdf"):
    """A multipart upload encoded byte for byte as a client sends it: `filename_param` is the raw
    `filename=...` (or `filename*=...`) parameter of the file part's Content-Disposition."""
    boundary = "----BandOfficeBoundary7MA4YWxk"
    body = b"".join(
        [
            f'--{boundary}\r\nContent-Disposition: form-data; name="gig_id"\r\n\r\n{gig_id}\r\n'.encode(),
            f'--{boundary}\r\nContent-Disposition: form-data; name="file"; '.encode(),
            filename_param,
            f"\r\nContent-Type: {content_type}\r\n\r\n".encode(),
            content,
            f"\r\n--{boundary}--\r\n".encode(),
        ]
    )
    return api.post("/attachments", data=body, content_type=f"multipart/form-data; boundary={boundary}")
