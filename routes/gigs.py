"""The gigs group: gigs, where they happen, and what belongs to each (products, moments, songs, contacts,
attachments)."""

import io
import mimetypes
import re
import unicodedata
import urllib.parse

from flask import Blueprint, current_app, request
from werkzeug.http import dump_options_header, quote_etag

import listing
from dialects import dialect
from domain import invitations, rules
from domain.errors import ApiError, invalid, not_found
from domain.sales import counts as sales_counts
from formats.field_types import TEXT_CHARS
from models import (
    Attachment,
    ClientNote,
    Gig,
    GigContact,
    GigMoment,
    GigProduct,
    GigSong,
    GigStatus,
    Moment,
    Song,
    Venue,
    db,
)
from openapi import operation
from resources import REGISTRY, Multipart, Resource, clear_others, reject_parameters
from schemas import (
    AttachmentSchema,
    ClientNoteSchema,
    GigContactSchema,
    GigMomentSchema,
    GigProductSchema,
    GigSchema,
    GigSongSchema,
    VenueSchema,
    load,
)
from web.lifecycle import too_large

blueprint = Blueprint("gigs", __name__)


class Gigs(Resource):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.columns.update(sales_counts.COLUMNS)

    def readable(self, can):
        """As any collection's, but a caller without `sales.view` reads no money-in counts at all (SPEC §15)."""
        found = super().readable(can)
        shown = sales_counts.without_hidden(found[0], can)
        return found if shown is found[0] else (shown, list(shown.values()), found[2])

    def gig_of(self, record):
        return record.id

    def changed_now(self):
        """While an invitation stored as pending is past its expiry (the worker has not marked it yet, or there is
        no worker), `pending_invitation_count` subtracts such ones; else it is the stored count, indexed."""
        return {} if invitations.gig_counts_are_exact() else {"pending_invitation_count": invitations.PENDING_COUNT_NOW}

    def before_save(self, write):
        if write.creating and "gig_status_id" not in write.changes:
            default = GigStatus.get_or_none(GigStatus.is_default == True)  # noqa: E712
            write.record.gig_status_id = default.id if default else None

    def after_save(self, write):
        gig = write.record
        if not write.creating and "gig_status_id" in write.changes and not rules.is_live(gig):
            REGISTRY["gig-role-invitations"].record_events("withdrawn", invitations.withdraw_for_gigs([gig.id]))


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
    """Created from a multipart upload (§4.8); the bytes go to a table of their own, written in chunks."""

    upload = Multipart(
        parts={
            "file": {"type": "string", "format": "binary", "description": "the bytes, with a filename"},
            "gig_id": {"type": "string", "format": "uuid"},
            "description": {"type": "string", "maxLength": TEXT_CHARS},
        },
        required=("file", "gig_id"),
    )

    def create(self, data, options=None):
        upload = data.pop("file", None)
        limit = current_app.config["UPLOAD_BYTES"]
        size = upload_size(upload, limit) if upload is not None else 0
        filename = safe_filename(uploaded_name(upload)) if upload is not None else "attachment"
        try:
            values = load(self.schema, {**data, "filename": filename})
        except ApiError as e:
            if upload is None:
                e.details["file"] = ["Missing data for required field."]
            raise
        if upload is None:
            raise invalid({"file": ["Missing data for required field."]})
        # the digest is known once the bytes are written, later in the same transaction
        record = Attachment(**values, content_type=content_type(upload), size_bytes=size, sha256="")
        self.save(record, values, creating=True, options=options or {})
        record.sha256 = dialect.store_attachment(db.connection(), record.id, upload.stream, size)
        record.save(only=[Attachment.sha256])
        record.event_json = self.record_event("created", record)
        return record

    def before_save(self, write):
        write.record.filename = safe_filename(write.record.filename)


def upload_size(upload, limit):
    """The size of the uploaded file (werkzeug has spooled it to a seekable file), or 413 over `limit`."""
    stream = upload.stream
    stream.seek(0, io.SEEK_END)
    size = stream.tell()
    stream.seek(0)
    if size > limit:
        raise too_large(limit)
    return size


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
    if MEDIA_TYPE_RE.fullmatch(given) and given != "application/octet-stream":
        return given
    return mimetypes.guess_type(upload.filename or "")[0] or "application/octet-stream"


# Types a browser renders as a document or runs as a script, after the lists of the WHATWG MIME Sniffing
# standard (HTML, XML, JavaScript; SVG and XHTML are +xml): served inert (§2.3).
ACTIVE_TYPES = frozenset(
    {"text/html", "text/xml", "application/xml", "text/xsl"}
    | {"application/ecmascript", "application/javascript", "application/x-ecmascript", "application/x-javascript"}
    | {"text/ecmascript", "text/javascript", "text/x-ecmascript", "text/x-javascript", "text/jscript"}
    | {"text/livescript", *(f"text/javascript1.{n}" for n in range(6))}
)


def is_active(media_type):
    media_type = media_type.lower()
    return media_type in ACTIVE_TYPES or media_type.endswith("+xml")


@blueprint.get("/attachments/<id>/content")
@operation(capability="gigs.view", media_type="*/*", errors=(400, 404))
def attachment_content(id):
    """Download an attachment's bytes, with their Content-Type and an ETag."""
    reject_parameters(request.args)
    download = dialect.AttachmentDownload.open(db.database, id) if listing.is_id(id) else None
    if download is None:
        raise not_found(f"No {ATTACHMENTS.noun} with this id.")
    headers = {"ETag": quote_etag(download.sha256), "Cache-Control": "private, no-cache"}
    if request.if_none_match.contains_weak(download.sha256):
        download.close()
        return current_app.response_class(status=304, headers=headers)
    return current_app.response_class(download, headers={**headers, **download_headers(download)})


def download_headers(download):
    """The headers that tell a browser to save the bytes, under their filename, and never to run them."""
    active = is_active(download.content_type)
    headers = {
        "Content-Type": "application/octet-stream" if active else download.content_type,
        "Content-Length": str(download.size),
        "Content-Disposition": disposition(download.filename),
        "X-Content-Type-Options": "nosniff",
    }
    if active:
        headers["Content-Security-Policy"] = "sandbox"
    return headers


def disposition(filename):
    """`attachment` and the filename as RFC 6266 says: ASCII in `filename`, UTF-8 in `filename*` if needed."""
    fallback = unicodedata.normalize("NFKD", filename).encode("ascii", "ignore").decode("ascii")
    if fallback == filename:
        return dump_options_header("attachment", {"filename": filename})
    encoded = "UTF-8''" + urllib.parse.quote(filename, safe="!#$&+-.^_`|~")  # RFC 5987 attr-chars
    return dump_options_header("attachment", {"filename": fallback, "filename*": encoded})


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
    Resource(ClientNote, ClientNoteSchema, "gigs"),
]
