"""The couple's wishes from their page (SPEC §16), with their link's `bcl_` bearer alone (as `GET /v1/client`): a
time and a note proposed for a moment of their gig, song wishes (from the band's active repertoire, or free text
with a link), notes to the band; until the planning locks (`BAND_PLANNING_LOCK_DAYS` before the gig). Each change
is its record's event by the actor `client`, in the write's transaction. The rules are `domain/wishes.py`."""

from flask import Blueprint, request

import events
from auth import client_link
from domain import wishes
from domain.errors import ApiError, invalid
from events.resource import recorder_of
from formats.wish_schemas import (
    MomentWishSchema,
    NoteSchema,
    NoteShownSchema,
    ProposalSchema,
    RepertoireSongSchema,
    SongWishSchema,
    SongWishShownSchema,
)
from models import ClientNote, Contact, Gig, GigMoment, GigSong
from openapi import operation
from routes.client import holder, lock_days
from schemas import load
from web.lifecycle import json_body

blueprint = Blueprint("client_wishes", __name__)
CHANGE_ERRORS = (400, 401, 404, 409, 413, 415, 422, 429)
SEARCH = ("q", {"type": "string", "minLength": 1, "maxLength": 100, "description": "in a title or artist"})


class Couple:
    """The holder of the request's link: their gig contact, gig, and who they are in the gig's history."""

    def __init__(self):
        self.gig_contact = holder()
        self.gig = Gig.get_by_id(self.gig_contact.gig_id)
        contact = Contact.get_by_id(self.gig_contact.contact_id)
        name = " ".join(filter(None, (contact.first_name, contact.last_name)))
        self.actor = events.Actor(None, name, "client")

    def may_change(self):
        wishes.require_open(self.gig, lock_days())
        return self

    def changed(self, model, record, values):
        recorder_of(model).change(record, actor=self.actor, **values)

    def created(self, model, record):
        record.save(force_insert=True)
        recorder_of(model).record_event("created", record, actor=self.actor)

    def deleted(self, model, record):
        resource = recorder_of(model)
        data = resource.event_json(record.id)
        record.delete_instance()
        resource.record_event("deleted", record, data=data, actor=self.actor)


def body_of(schema, partial=False):
    return load(schema(), json_body() or {}, partial=partial)


@blueprint.patch("/client/moments/<id>")
@client_link
@operation(body=ProposalSchema, response=MomentWishSchema, partial=True, errors=CHANGE_ERRORS)
def propose(id):
    """Propose a time and a note for a moment of the couple's gig (null clears either)."""
    couple = Couple().may_change()
    moment = wishes.moment(couple.gig.id, id)
    couple.changed(GigMoment, moment, body_of(ProposalSchema, partial=True))
    return {"data": wishes.moment_of(GigMoment.get_by_id(moment.id))}


@blueprint.get("/client/repertoire")
@client_link
@operation(response=RepertoireSongSchema, many=True, params=(SEARCH,), errors=(400, 401, 429))
def repertoire():
    """Songs of the band's active repertoire whose title or artist holds `q` (at most 20): title and artist."""
    holder(("q",))
    text = request.args.get("q", "").strip()
    if not 1 <= len(text) <= 100 or "\x00" in text:
        raise ApiError(
            400, "invalid_query", "Invalid query parameters.", {"q": ["Give 1 to 100 characters of a title or artist."]}
        )
    return {"data": wishes.repertoire(text)}


@blueprint.post("/client/songs")
@client_link
@operation(body=SongWishSchema, response=SongWishShownSchema, status=201, errors=CHANGE_ERRORS)
def add_song():
    """Add a song wish (a request, or one not to play), from the repertoire by `song_id` or by its title."""
    couple = Couple().may_change()
    values = song_values(couple, body_of(SongWishSchema))
    song = GigSong(gig=couple.gig.id, from_client=True, **values)
    couple.created(GigSong, song)
    return {"data": wishes.song_of(song)}, 201


@blueprint.patch("/client/songs/<id>")
@client_link
@operation(body=SongWishSchema, response=SongWishShownSchema, partial=True, errors=CHANGE_ERRORS)
def change_song(id):
    """Change a song wish the couple added (never the band's own)."""
    couple = Couple().may_change()
    song = wishes.own_song(couple.gig.id, id)
    couple.changed(GigSong, song, song_values(couple, body_of(SongWishSchema, partial=True), song))
    return {"data": wishes.song_of(GigSong.get_by_id(song.id))}


@blueprint.delete("/client/songs/<id>")
@client_link
@operation(status=204, errors=(400, 401, 404, 409, 429))
def remove_song(id):
    """Remove a song wish the couple added (never the band's own)."""
    couple = Couple().may_change()
    couple.deleted(GigSong, wishes.own_song(couple.gig.id, id))
    return "", 204


def song_values(couple, values, song=None):
    """The columns of a song wish from its body: a repertoire song's title and artist (free text drops the song),
    a moment of their gig."""
    if values.get("song_id"):
        found = wishes.repertoire_song(values["song_id"])
        if found is None:
            raise invalid({"song_id": ["No such song in the band's active repertoire."]})
        values = {**values, "title": found.title, "artist": found.artist}
    elif "title" in values:
        values["song_id"] = None
    if not values.get("title", song and song.title):
        raise invalid({"title": ["Give a title, or a song_id from the repertoire."]})
    if values.get("gig_moment_id"):
        moment = GigMoment.get_or_none(GigMoment.id == values["gig_moment_id"], GigMoment.gig == couple.gig.id)
        if moment is None:
            raise invalid({"gig_moment_id": ["No such moment of your day."]})
    return values


@blueprint.post("/client/notes")
@client_link
@operation(body=NoteSchema, response=NoteShownSchema, status=201, errors=CHANGE_ERRORS)
def add_note():
    """Write a note to the band (at most 2000 characters)."""
    couple = Couple().may_change()
    note = ClientNote(gig=couple.gig.id, contact=couple.gig_contact.contact_id, **body_of(NoteSchema))
    couple.created(ClientNote, note)
    return {"data": wishes.note_of(note)}, 201


@blueprint.delete("/client/notes/<id>")
@client_link
@operation(status=204, errors=(400, 401, 404, 409, 429))
def remove_note(id):
    """Remove a note the couple's contact wrote."""
    couple = Couple().may_change()
    couple.deleted(ClientNote, wishes.own_note(couple.gig.id, couple.gig_contact.contact_id, id))
    return "", 204
