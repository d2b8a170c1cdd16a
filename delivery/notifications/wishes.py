"""The couple's wishes in the office digest (SPEC §16): each change the couple made on their page since the last
digest (their events, by the actor `client`) as a line "new from the couple", for the readers of money in's lines."""

from models import Event, Gig

WHAT = "new from the couple"
WISH_EVENTS = (
    "gig_moment.updated",
    "gig_song.created",
    "gig_song.updated",
    "gig_song.deleted",
    "client_note.created",
    "client_note.deleted",
)
BY_THE_COUPLE = (Event.actor_token_kind == "client") & Event.type.in_(WISH_EVENTS)
LONGEST = 80  # characters of a note or title quoted in a line
SONG_VERBS = {"created": "added", "updated": "changed", "deleted": "removed"}


def of_the_couple(event):
    return event.actor_token_kind == "client" and event.type in WISH_EVENTS


def digest_lines(happened):
    """(what, line) of each of the couple's changes, where its gig remains: "Anna & Ben, 2027-06-12: Anna Berger
    added the song “Perfect” (request)"."""
    gigs = {gig.id: gig for gig in Gig.select().where(Gig.id.in_({event.gig_id for event in happened}))}
    lines = []
    for event in happened:
        gig = gigs.get(event.gig_id)
        if gig is not None:
            lines.append((WHAT, f"{gig.title}, {gig.gig_date}: {event.actor_name} {said(event)}"))
    return lines


def said(event):
    data, verb = event.data or {}, event.type.partition(".")[2]
    if event.type == "gig_moment.updated":
        proposal = " ".join(filter(None, (data.get("proposed_time"), quoted(data.get("proposed_note")))))
        return f"proposed for {quoted(data.get('name'))}: {proposal or 'nothing (cleared)'}"
    if event.type.startswith("client_note."):
        return f"{'wrote' if verb == 'created' else 'took back'} a note: {quoted(data.get('body'))}"
    song = f"the song {quoted(data.get('title'))} ({(data.get('kind') or '').replace('_', ' ')})"
    return f"{SONG_VERBS[verb]} {song}"


def quoted(text):
    if not text:
        return ""
    return f"“{text if len(text) <= LONGEST else text[:LONGEST] + '…'}”"
