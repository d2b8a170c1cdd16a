"""The bodies and answers of the couple's wishes on their page (SPEC §16, `domain/wishes.py`): a time and a note
proposed for a moment, a song wish, a note to the band; what `GET /v1/client` shows of them."""

from marshmallow import fields

from formats.field_types import Bool, Date, Enum, Ref, Str, Time, Timestamp, Url
from models import SONG_KINDS
from schemas import BaseSchema

WISH_CHARS = 2000  # a note of the couple's, to the band or on a moment
WISHED = SONG_KINDS[:2]  # request, do_not_play: the setlist is the band's


class ProposalSchema(BaseSchema):
    proposed_time = Time(metadata={"description": "the time they would like it at (null: none)"})
    proposed_note = Str(WISH_CHARS, metadata={"description": "what they would like the band to know of it"})


class SongWishSchema(BaseSchema):
    kind = Enum(*WISHED, load_default="request")
    song_id = Ref(metadata={"description": "a song of the band's active repertoire (GET /client/repertoire)"})
    title = Str(200, metadata={"description": "required unless song_id is given (then its title)"})
    artist = Str(200)
    link = Url(metadata={"description": "where to hear it (http or https, at most 2000 characters)"})
    gig_moment_id = Ref(metadata={"description": "a moment of their gig, such as the first dance"})


class NoteSchema(BaseSchema):
    body = Str(WISH_CHARS, required=True)


class MomentWishSchema(BaseSchema):
    id = fields.UUID(dump_only=True)
    name = Str(200, dump_only=True)
    time = Time(dump_only=True)
    proposed_time = Time(dump_only=True)
    proposed_note = Str(WISH_CHARS, dump_only=True)


class SongWishShownSchema(BaseSchema):
    id = fields.UUID(dump_only=True)
    title = Str(200, dump_only=True)
    artist = Str(200, dump_only=True)
    kind = Enum(*WISHED, dump_only=True)
    gig_moment_id = Ref(dump_only=True)
    link = Url(dump_only=True)
    from_client = Bool(dump_only=True, metadata={"description": "they added it: theirs to change or remove"})


class NoteShownSchema(BaseSchema):
    id = fields.UUID(dump_only=True)
    body = Str(WISH_CHARS, dump_only=True)
    created_at = Timestamp(dump_only=True, allow_none=False)


class RepertoireSongSchema(BaseSchema):
    id = fields.UUID(dump_only=True)
    title = Str(200, dump_only=True)
    artist = Str(200, dump_only=True)


class WishesSchema(BaseSchema):
    planning_locks_on = Date(dump_only=True, allow_none=False)
    open = Bool(dump_only=True, metadata={"description": "false from planning_locks_on on: read only"})
    timeline = fields.List(fields.Nested(MomentWishSchema), dump_only=True)
    songs = fields.List(fields.Nested(SongWishShownSchema), dump_only=True)
    notes = fields.List(fields.Nested(NoteShownSchema), dump_only=True, metadata={"description": "theirs"})
