"""The couple's wishes (SPEC §16): what their page shows of their gig's timeline, song wishes and their notes to the
band, and the rules of changing them: only until the planning locks (`locks_on`), only their own gig's records, only
the songs they added (the band's setlist is not theirs), only the notes they wrote."""

import datetime as dt

from dialects import dialect
from domain.errors import conflict, not_found
from domain.sales.records import office_today
from models import ClientNote, GigMoment, GigSong, Song

WISHED_KINDS = ("request", "do_not_play")  # the song wishes a couple reads and adds; the setlist is the band's
FOUND_AT_MOST = 20  # songs of the repertoire a search answers: a picker's list


def locks_on(gig_date, days):
    """The day the gig's planning locks: `days` before its date (ISO dates)."""
    return (dt.date.fromisoformat(str(gig_date)) - dt.timedelta(days=days)).isoformat()


def require_open(gig, days):
    """409 `planning_locked` from the lock day on (the office's today)."""
    locked_on = locks_on(gig.gig_date, days)
    if office_today().isoformat() >= locked_on:
        message = f"The planning of your day locked on {locked_on}: please call the office to change anything."
        raise conflict("planning_locked", message, planning_locks_on=locked_on)


def view_of(gig, contact_id, days):
    """The wishes as the couple reads them: the gig's moments with their proposals, its song wishes (requests and
    do-not-plays, whoever added them), the notes this contact wrote; and whether they may still change them."""
    locked_on = locks_on(gig.gig_date, days)
    moments = GigMoment.select().where(GigMoment.gig == gig.id)
    moments = moments.order_by(GigMoment.position.asc(nulls="LAST"), GigMoment.time, GigMoment.name, GigMoment.id)
    songs = GigSong.select().where(GigSong.gig == gig.id, GigSong.kind.in_(WISHED_KINDS))
    notes = ClientNote.select().where(ClientNote.gig == gig.id, ClientNote.contact == contact_id)
    return {
        "planning_locks_on": locked_on,
        "open": office_today().isoformat() < locked_on,
        "timeline": [moment_of(moment) for moment in moments],
        "songs": [song_of(song) for song in songs.order_by(GigSong.created_at, GigSong.id)],
        "notes": [note_of(note) for note in notes.order_by(ClientNote.created_at, ClientNote.id)],
    }


def moment_of(moment):
    names = ("id", "name", "time", "proposed_time", "proposed_note")
    return {name: getattr(moment, name) for name in names}


def song_of(song):
    names = ("id", "title", "artist", "kind", "gig_moment_id", "link", "from_client")
    return {name: getattr(song, name) for name in names}


def note_of(note):
    return {"id": note.id, "body": note.body, "created_at": note.created_at}


def moment(gig_id, moment_id):
    """The gig's moment `moment_id`, or 404 (another gig's too)."""
    return of_gig(GigMoment, gig_id, moment_id, "No such moment of your day.")


def own_song(gig_id, song_id):
    """A song wish of the gig that the couple added, or 404: the band's own are not theirs to change."""
    song = of_gig(GigSong, gig_id, song_id, "No such song wish of yours.")
    if not song.from_client:
        raise not_found("No such song wish of yours.")
    return song


def own_note(gig_id, contact_id, note_id):
    note = of_gig(ClientNote, gig_id, note_id, "No such note of yours.")
    if note.contact_id != contact_id:
        raise not_found("No such note of yours.")
    return note


def of_gig(model, gig_id, record_id, message):
    found = model.get_or_none(model.id == record_id, model.gig == gig_id)
    if found is None:
        raise not_found(message)
    return found


def repertoire_song(song_id):
    """An active song of the band's repertoire, or None."""
    return Song.get_or_none(Song.id == song_id, Song.active == True)  # noqa: E712


def repertoire(text):
    """Active songs whose title or artist holds `text`, by title: their title and artist only."""
    found = Song.select(Song.id, Song.title, Song.artist).where(
        Song.active == True,  # noqa: E712
        dialect.contains(Song.title, text) | dialect.contains(Song.artist, text),
    )
    found = found.order_by(Song.title, Song.artist, Song.id).limit(FOUND_AT_MOST)
    return [{"id": song.id, "title": song.title, "artist": song.artist} for song in found]
