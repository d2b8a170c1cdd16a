"""The gigs group: gigs, where they happen, and what belongs to each (products, moments, songs, contacts,
attachments)."""

import hashlib
import io
import mimetypes
import re

from flask import Blueprint, current_app, request, send_file

import rules
from auth import require
from conventions import too_large
from errors import ApiError, invalid
from models import (
    Attachment,
    AttachmentContent,
    Gig,
    GigContact,
    GigMoment,
    GigProduct,
    GigSong,
    GigStatus,
    Moment,
    Song,
    Venue,
)
from openapi import operation
from resources import Resource, clear_others, reject_parameters
from schemas import (
    AttachmentSchema,
    GigContactSchema,
    GigMomentSchema,
    GigProductSchema,
    GigSchema,
    GigSongSchema,
    VenueSchema,
    load,
)

blueprint = Blueprint("gigs", __name__)


class Gigs(Resource):
    def before_save(self, write):
        if write.creating and "gig_status_id" not in write.changes:
            default = GigStatus.get_or_none(GigStatus.is_default == True)  # noqa: E712
            write.record.gig_status_id = default.id if default else None

    def after_save(self, write):
        gig = write.record
        if not write.creating and "gig_status_id" in write.changes and not rules.is_live(gig):
            rules.withdraw_for_gigs([gig.id])


class GigProducts(Resource):
    def before_save(self, write):
        product = write.record
        rules.ensemble_offered(product.product_id, product.ensemble_id)
        if write.creating and "price_cents" not in write.changes:
            gig = Gig.get_by_id(product.gig_id)
            product.price_cents = rules.catalog_price(product.product_id, product.ensemble_id, gig.gig_date)


class GigMoments(Resource):
    def before_save(self, write):
        moment = write.record
        if not moment.name and moment.moment_id:
            moment.name = Moment.get_by_id(moment.moment_id).name
        if not moment.name:
            raise invalid({"name": ["Give a name or a moment_id."]})
        rules.same_gig(GigProduct, moment.gig_product_id, moment.gig_id, "gig_product_id")


class GigSongs(Resource):
    def before_save(self, write):
        song = write.record
        if not song.title and song.song_id:
            catalog_song = Song.get_by_id(song.song_id)
            song.title = catalog_song.title
            song.artist = song.artist or catalog_song.artist
        if not song.title:
            raise invalid({"title": ["Give a title or a song_id."]})
        rules.same_gig(GigMoment, song.gig_moment_id, song.gig_id, "gig_moment_id")


class GigContacts(Resource):
    def after_save(self, write):
        clear_others(GigContact, write.record, "is_primary", "gig_id")


class Attachments(Resource):
    """Created from a multipart upload (§4.8); the bytes go to a table of their own."""

    FORM_FIELDS = ("gig_id", "description")
    upload_schema = {  # the multipart body, for the OpenAPI document
        "type": "object",
        "required": ["file", "gig_id"],
        "properties": {
            "file": {"type": "string", "format": "binary", "description": "the bytes, with a filename"},
            "gig_id": {"type": "string", "format": "uuid"},
            "description": {"type": "string"},
        },
    }

    def request_body(self):
        if request.mimetype != "multipart/form-data":
            raise ApiError(415, "unsupported_media_type", "Upload the file as multipart/form-data.")
        unknown = [k for k in request.form if k not in self.FORM_FIELDS] + [k for k in request.files if k != "file"]
        if unknown:
            raise invalid({key: ["Unknown field."] for key in unknown})
        return {"file": request.files.get("file"), **request.form.to_dict()}

    def create(self, data, options=None):
        upload = data.pop("file", None)
        filename = safe_filename(uploaded_name(upload)) if upload is not None else "attachment"
        try:
            values = load(self.schema, {**data, "filename": filename})
        except ApiError as e:
            if upload is None:
                e.details["file"] = ["Missing data for required field."]
            raise
        if upload is None:
            raise invalid({"file": ["Missing data for required field."]})
        content = read_upload(upload, current_app.config["MAX_UPLOAD_MB"] * 1024 * 1024)
        record = Attachment(
            **values,
            content_type=content_type(upload),
            size_bytes=len(content),
            sha256=hashlib.sha256(content).hexdigest(),
        )
        self.save(record, values, creating=True, options=options or {})
        AttachmentContent.create(attachment=record.id, data=content)
        return record

    def before_save(self, write):
        write.record.filename = safe_filename(write.record.filename)


def uploaded_name(upload):
    """The filename the client sent. werkzeug reads backslashes as escapes, which glues a Windows path
    (C:\\x\\y.pdf, as some clients send it) into one name: such a name is taken as sent."""
    disposition = upload.headers.get("Content-Disposition", "")
    raw = re.search(r'filename="((?:[^"\\]|\\.)*)"', disposition)
    if raw is not None and "\\" in raw[1] and "filename*" not in disposition:
        return raw[1]
    return upload.filename


def safe_filename(name):
    """The last path part of `name`, without control characters; never empty."""
    name = re.split(r"[\\/]", name or "")[-1]
    name = re.sub(r"[\x00-\x1f\x7f]", "", name).strip().lstrip(".")
    return name[:255] or "attachment"


MEDIA_TYPE_RE = re.compile(r"[a-z0-9][a-z0-9!#$&^_.+-]*/[a-z0-9][a-z0-9!#$&^_.+-]*")


def content_type(upload):
    given = (upload.mimetype or "").lower()
    if (
        re.fullmatch(r"[a-z0-9][a-z0-9!#$&^_.+-]*/[a-z0-9][a-z0-9!#$&^_.+-]*", given)
        and given != "application/octet-stream"
    ):
        return given
    return mimetypes.guess_type(upload.filename or "")[0] or "application/octet-stream"


def read_upload(upload, limit):
    content = upload.stream.read(limit + 1)
    if len(content) > limit:
        raise too_large(limit)
    return content


@blueprint.get("/attachments/<id>/content")
@operation(media_type="*/*", errors=(400, 404))
def attachment_content(id):
    """Download an attachment's bytes, with their Content-Type and an ETag."""
    require("gigs", "view")
    reject_parameters(request.args)
    attachment = ATTACHMENTS.get(id)
    content = AttachmentContent.get(AttachmentContent.attachment == attachment.id).data
    response = send_file(
        io.BytesIO(content),
        mimetype=attachment.content_type,
        as_attachment=True,
        download_name=attachment.filename,
        etag=attachment.sha256,
        conditional=True,
        max_age=0,
    )
    response.headers["Content-Type"] = attachment.content_type  # as stored: Flask would add a charset to text/*
    response.headers["X-Content-Type-Options"] = "nosniff"
    return response


GIGS = Gigs(Gig, GigSchema, "gigs", order=["gig_date", "start_time"])
ATTACHMENTS = Attachments(Attachment, AttachmentSchema, "gigs")
RESOURCES = [
    GIGS,
    Resource(Venue, VenueSchema, "gigs"),
    GigProducts(GigProduct, GigProductSchema, "gigs"),
    GigMoments(GigMoment, GigMomentSchema, "gigs"),
    GigSongs(GigSong, GigSongSchema, "gigs"),
    GigContacts(GigContact, GigContactSchema, "gigs"),
    ATTACHMENTS,
]
