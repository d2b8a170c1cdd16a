"""The music of a demo gig: its moments and their songs, the clients' requests and do-not-play list, the
setlist, and the run of show agreed with the clients."""

import hashlib
import itertools

from demo.data import ALWAYS, DO_NOT_PLAY, MOMENT_SONGS, MOMENTS
from demo.office import clock
from models import Attachment, AttachmentContent, GigMoment, GigSong, Moment


def plan_music(office, gig, products, slots, booked):
    """The gig's moments, the songs for them, and the clients' requests, do-not-play list and setlist."""
    programme, moments = Programme(office, gig, booked), []
    for gig_product in products:
        for name, product, offset in MOMENTS:
            if product == gig_product.product.name and is_wanted(office, gig, name):
                moments.append(programme.moment(gig_product, name, moment_time(slots, product, offset)))
    if "Reception" in [p.product.name for p in products]:
        programme.requests()
        programme.do_not_play()
        if gig.gig_status.name == "Confirmed" and -30 <= office.days_until(gig) <= 45:
            programme.setlist()
    return moments


def is_wanted(office, gig, moment):
    """Weddings have the classic moments and some of the others; other gigs just speeches and a last dance."""
    if gig.gig_type.name != "Wedding":
        return moment in ("Speeches", "Last dance")
    return moment in ALWAYS or office.rng.random() < 0.3


def moment_time(slots, product, offset):
    if not slots:
        return None
    start, end = slots[product]
    return clock(start + offset if offset >= 0 else end + offset)


class Programme:
    """One gig's music as it is planned: the moments and songs added so far, no catalogue song twice."""

    def __init__(self, office, gig, booked):
        self.office, self.rng, self.gig, self.booked = office, office.rng, gig, booked
        self.used = set()  # ids of the catalogue songs on the gig
        self.moment_positions, self.song_positions = itertools.count(1), itertools.count(1)

    def moment(self, gig_product, name, time):
        """The moment, with a song for it where the moment has one."""
        gig_moment = self.office.add(
            GigMoment,
            when=self.booked,
            gig=self.gig,
            moment=self.office.get(Moment, name),
            name=name,
            time=time,
            gig_product=gig_product,
            position=next(self.moment_positions),
        )
        if name in MOMENT_SONGS:
            use, kind = MOMENT_SONGS[name]
            self.song(self.fresh_song(use), kind, gig_moment=gig_moment)
        return gig_moment

    def fresh_song(self, use):
        """A song of the repertoire for `use` not yet on the gig; when every one is (a long setlist of jazz drew
        more than the band knows), any song of the repertoire not yet on it."""
        fresh = [s for s in self.office.songs[use] if s.id not in self.used]
        if not fresh:
            fresh = [s for songs in self.office.songs.values() for s in songs if s.id not in self.used]
        song = self.rng.choice(fresh)
        self.used.add(song.id)
        return song

    def song(self, song, kind, **fields):
        return self.office.add(
            GigSong,
            when=self.booked,
            gig=self.gig,
            song=song,
            title=song.title,
            artist=song.artist,
            kind=kind,
            position=next(self.song_positions),
            **fields,
        )

    def requests(self):
        for _ in range(self.rng.randint(1, 3)):
            self.song(self.fresh_song(self.rng.choice(["dance", "dance", "ballad"])), "request")

    def do_not_play(self):
        """Songs the clients never want to hear: mostly off the repertoire, now and then one of the band's."""
        for title, artist in self.rng.sample(DO_NOT_PLAY, self.rng.randint(0, 1)):
            fields = dict(title=title, artist=artist, kind="do_not_play", position=next(self.song_positions))
            self.office.add(GigSong, when=self.booked, gig=self.gig, **fields)
        if self.rng.random() < 0.15:
            notes = "Played at their friends' wedding last month."
            self.song(self.fresh_song("dance"), "do_not_play", notes=notes)

    def setlist(self):
        for _ in range(self.rng.randint(6, 8)):
            self.song(self.fresh_song(self.rng.choice(["dance", "dance", "dance", "jazz"])), "setlist")


def write_run_of_show(office, gig, moments, booked):
    """The run of show as a text attachment of the gig."""
    content = run_of_show(gig, moments)
    attachment = office.add(
        Attachment,
        when=booked,
        gig=gig,
        filename="run-of-show.txt",
        content_type="text/plain",
        size_bytes=len(content),
        sha256=hashlib.sha256(content).hexdigest(),
        description="Run of show, as agreed with the clients",
    )
    office.keep(AttachmentContent(attachment=attachment, data=content))


def run_of_show(gig, moments):
    lines = [f"{gig.title}, {gig.gig_date}", ""] + [f"{m.time or '--:--'}  {m.name}" for m in moments]
    return "\n".join(lines).encode() + b"\n"
