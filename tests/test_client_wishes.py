"""SPEC §16's wishes: with their link alone, the couple proposes times and notes for their gig's moments, adds song
wishes (from the band's active repertoire or free text with a link) and notes to the band, until the planning locks
`BAND_PLANNING_LOCK_DAYS` (14) before the gig; each change is an event by `client` in the gig's history; the office
sees them on the gig's records and in its digest."""

import datetime as dt
import json
import re

import pytest

from delivery.notifications import run_timed
from models import Notification
from tests.support.api import error_of
from tests.support.client_links import make_link, token_of
from tests.support.days import today
from tests.support.notified import config
from tests.support.receiver import Receiver
from tests.support.waiting import wait_for
from tests.support.webhook_office import endpoint_for, webhook_fixtures

serve, served, office = webhook_fixtures()
HOSTILE = '<script>alert("x")</script> \'; DROP TABLE gig_songs; -- {{7*7}} \u202e'


@pytest.fixture
def couple(admin, build):
    """A gig 30 days ahead with a first dance and the band's setlist song, the couple's link, the repertoire, and a
    gig of another couple with a moment."""
    perfect = build("songs", title="Perfect", artist="Ed Sheeran")
    build("songs", title="Perfect Day", artist="Lou Reed", active=False)
    return {**wedding(admin, build, 30), "perfect": perfect}


def wedding(admin, build, days):
    gig = build("gigs", gig_date=today(days), title="Anna & Ben")
    dance = build("gig-moments", gig_id=gig["id"], name="First dance", time="21:00", notes="Office: dim the lights")
    setlist = build("gig-songs", gig_id=gig["id"], title="Band's opener", kind="setlist")
    banned = build("gig-songs", gig_id=gig["id"], title="Macarena", kind="do_not_play")
    anna = build("contacts", first_name="Anna", last_name="Berger", email="anna@couple.example")
    gig_contact = build("gig-contacts", gig_id=gig["id"], contact_id=anna["id"], is_primary=True)
    other = build("gigs", gig_date=today(days + 1), title="Other couple")
    other_moment = build("gig-moments", gig_id=other["id"], name="Their entrance")
    other_song = build("gig-songs", gig_id=other["id"], title="Their song")
    token = token_of(make_link(admin, gig_contact["id"]))
    return {
        "gig": gig,
        "dance": dance,
        "setlist": setlist,
        "banned": banned,
        "token": token,
        "other_moment": other_moment,
        "other_song": other_song,
    }


def refused(response):
    """The fields a 422 names."""
    return set(error_of(response, 422, "validation_failed")["details"])


class Client:
    def __init__(self, anon, token):
        self.anon, self.headers = anon, {"Authorization": f"Bearer {token}"}

    def __getattr__(self, method):
        return lambda path, **kwargs: getattr(self.anon, method)(path, headers=self.headers, **kwargs)


@pytest.fixture
def client(anon, couple):
    return Client(anon, couple["token"])


def test_the_couple_reads_their_timeline_songs_and_lock_day(client, couple, documented):
    response = client.get("/client")

    assert response.status_code == 200, response.get_json()
    documented.check("GET", "/client", response)
    data = response.get_json()["data"]
    locks_on = today(30 - 14)
    assert data["gig"]["planning_locks_on"] == locks_on
    wishes = data["wishes"]
    assert (wishes["planning_locks_on"], wishes["open"], wishes["notes"]) == (locks_on, True, [])
    dance = {"id": couple["dance"]["id"], "name": "First dance", "time": "21:00"}
    assert wishes["timeline"] == [{**dance, "proposed_time": None, "proposed_note": None}]
    assert [(song["title"], song["kind"], song["from_client"]) for song in wishes["songs"]] == [
        ("Macarena", "do_not_play", False)
    ]  # the band's setlist is not a wish
    assert "dim the lights" not in response.get_data(as_text=True)


def test_the_couple_adds_a_first_dance_song_from_the_repertoire_and_the_gig_history_says_it_was_them(
    admin, client, couple, documented
):
    found = client.get("/client/repertoire", query_string={"q": "sheer"})
    assert found.status_code == 200, found.get_json()
    documented.check("GET", "/client/repertoire", found)
    assert found.get_json()["data"] == [{"id": couple["perfect"]["id"], "title": "Perfect", "artist": "Ed Sheeran"}]
    assert client.get("/client/repertoire", query_string={"q": "Lou Reed"}).get_json()["data"] == []  # not active

    wish = {"song_id": couple["perfect"]["id"], "gig_moment_id": couple["dance"]["id"]}
    added = client.post("/client/songs", json=wish)

    assert added.status_code == 201, added.get_json()
    documented.check("POST", "/client/songs", added)
    song = added.get_json()["data"]
    assert [song[name] for name in ("title", "artist", "kind", "from_client")] == [
        "Perfect",
        "Ed Sheeran",
        "request",
        True,
    ]
    stored = admin.get(f"/gig-songs/{song['id']}").get_json()["data"]
    assert (stored["song_id"], stored["gig_moment_id"], stored["from_client"]) == (
        couple["perfect"]["id"],
        couple["dance"]["id"],
        True,
    )
    history = admin.get(f"/gigs/{couple['gig']['id']}/history").get_json()["data"]
    event = next(event for event in history if event["type"] == "gig_song.created")
    assert event["actor"] == {"user_id": None, "name": "Anna Berger", "token_kind": "client"}
    assert event["data"]["title"] == "Perfect"


def test_free_text_songs_take_an_http_link_and_hostile_text_is_kept_as_text(admin, client, couple):
    bad = {"title": "Our song", "link": "javascript:alert(1)"}
    assert refused(client.post("/client/songs", json=bad)) == {"link"}
    too_long = {"title": "Our song", "link": "https://example.com/" + "a" * 2000}
    assert "link" in refused(client.post("/client/songs", json=too_long))
    assert "title" in refused(client.post("/client/songs", json={"artist": "Nobody"}))
    unknown = {"song_id": "00000000-0000-4000-8000-000000000001"}
    assert "song_id" in refused(client.post("/client/songs", json=unknown))
    other_moment = {"title": "Our song", "gig_moment_id": couple["other_moment"]["id"]}
    assert "gig_moment_id" in refused(client.post("/client/songs", json=other_moment))
    setlist = {"title": "Our song", "kind": "setlist"}
    assert "kind" in refused(client.post("/client/songs", json=setlist))
    wish = {"title": HOSTILE, "artist": HOSTILE, "kind": "do_not_play", "link": "https://youtu.be/abc?x=<b>"}

    added = client.post("/client/songs", json=wish)

    assert added.status_code == 201, added.get_json()
    song = admin.get(f"/gig-songs/{added.get_json()['data']['id']}").get_json()["data"]
    assert (song["title"], song["artist"], song["kind"], song["link"]) == (
        HOSTILE.strip(),
        HOSTILE.strip(),
        "do_not_play",
        "https://youtu.be/abc?x=<b>",
    )
    assert [s["title"] for s in client.get("/client").get_json()["data"]["wishes"]["songs"]].count(HOSTILE.strip()) == 1


def test_the_couple_changes_and_removes_only_their_own_songs(admin, client, couple, documented):
    song = client.post("/client/songs", json={"title": "Our song", "artist": "Us"}).get_json()["data"]

    changed = client.patch(f"/client/songs/{song['id']}", json={"kind": "do_not_play", "link": "https://example.com/a"})

    assert changed.status_code == 200, changed.get_json()
    documented.check("PATCH", "/client/songs/{id}", changed)
    assert (changed.get_json()["data"]["kind"], changed.get_json()["data"]["title"]) == ("do_not_play", "Our song")
    for theirs_not in (couple["banned"]["id"], couple["setlist"]["id"], couple["other_song"]["id"]):
        error_of(client.patch(f"/client/songs/{theirs_not}", json={"title": "Mine now"}), 404, "not_found")
        error_of(client.delete(f"/client/songs/{theirs_not}"), 404, "not_found")
    assert admin.get(f"/gig-songs/{couple['banned']['id']}").get_json()["data"]["title"] == "Macarena"
    removed = client.delete(f"/client/songs/{song['id']}")
    assert removed.status_code == 204
    error_of(admin.get(f"/gig-songs/{song['id']}"), 404, "not_found")
    history = admin.get(f"/gigs/{couple['gig']['id']}/history").get_json()["data"]
    by_client = {event["type"] for event in history if (event["actor"] or {}).get("token_kind") == "client"}
    assert by_client == {"gig_song.created", "gig_song.updated", "gig_song.deleted"}


def test_a_proposed_time_and_note_for_a_moment_of_their_gig_only(admin, client, couple, documented):
    proposal = {"proposed_time": "21:30", "proposed_note": "After the cake, please " + HOSTILE}

    response = client.patch(f"/client/moments/{couple['dance']['id']}", json=proposal)

    assert response.status_code == 200, response.get_json()
    documented.check("PATCH", "/client/moments/{id}", response)
    moment = admin.get(f"/gig-moments/{couple['dance']['id']}").get_json()["data"]
    note = proposal["proposed_note"].strip()
    assert (moment["time"], moment["proposed_time"], moment["proposed_note"]) == ("21:00", "21:30", note)
    error_of(client.patch(f"/client/moments/{couple['other_moment']['id']}", json=proposal), 404, "not_found")
    assert admin.get(f"/gig-moments/{couple['other_moment']['id']}").get_json()["data"]["proposed_time"] is None
    error_of(client.patch(f"/client/moments/{couple['dance']['id']}", json={"time": "20:00"}), 422, "validation_failed")
    bad = {"proposed_note": "x" * 2001}
    assert "proposed_note" in refused(client.patch(f"/client/moments/{couple['dance']['id']}", json=bad))
    history = admin.get(f"/gigs/{couple['gig']['id']}/history").get_json()["data"]
    event = next(event for event in history if event["type"] == "gig_moment.updated")
    assert event["actor"]["token_kind"] == "client"
    assert event["changes"]["proposed_time"] == {"from": None, "to": "21:30"}


def test_notes_to_the_band_are_theirs_to_remove(admin, anon, build, client, couple, documented):
    error_of(client.post("/client/notes", json={"body": "x" * 2001}), 422, "validation_failed")
    added = client.post("/client/notes", json={"body": HOSTILE})

    assert added.status_code == 201, added.get_json()
    documented.check("POST", "/client/notes", added)
    note = added.get_json()["data"]
    listed = admin.get("/client-notes", query_string={"filter[gig_id]": couple["gig"]["id"]}).get_json()["data"]
    assert [one["body"] for one in listed] == [HOSTILE.strip()]
    assert client.get("/client").get_json()["data"]["wishes"]["notes"] == [note]
    planner = build("contacts", first_name="Pia", last_name="Planner")
    planner_link = build("gig-contacts", gig_id=couple["gig"]["id"], contact_id=planner["id"])
    pia = Client(anon, token_of(make_link(admin, planner_link["id"])))
    assert pia.get("/client").get_json()["data"]["wishes"]["notes"] == []
    error_of(pia.delete(f"/client/notes/{note['id']}"), 404, "not_found")
    assert client.delete(f"/client/notes/{note['id']}").status_code == 204
    assert admin.get("/client-notes", query_string={"filter[gig_id]": couple["gig"]["id"]}).get_json()["data"] == []


def test_the_wishes_lock_on_the_lock_day_and_stay_open_the_day_before(admin, anon, build):
    locked = wedding(admin, build, 14)  # the gig in 14 days: planning locks today
    open_gig = wedding(admin, build, 15)  # locks tomorrow
    for days, found in ((14, locked), (15, open_gig)):
        assert Client(anon, found["token"]).get("/client").get_json()["data"]["wishes"]["open"] is (days == 15)
    writes = (
        ("patch", lambda f: f"/client/moments/{f['dance']['id']}", {"proposed_time": "22:00"}),
        ("post", lambda f: "/client/songs", {"title": "Late wish"}),
        ("post", lambda f: "/client/notes", {"body": "Late note"}),
    )

    for method, path, body in writes:
        error = error_of(getattr(Client(anon, locked["token"]), method)(path(locked), json=body), 409, "conflict")
        assert error["details"] == {"reason": "planning_locked", "planning_locks_on": today()}
        assert getattr(Client(anon, open_gig["token"]), method)(path(open_gig), json=body).status_code in (200, 201)

    gig_id = locked["gig"]["id"]
    assert admin.get("/gig-songs", query_string={"filter[gig_id]": gig_id}).get_json()["meta"]["total"] == 2
    assert admin.get(f"/gig-moments/{locked['dance']['id']}").get_json()["data"]["proposed_time"] is None
    assert admin.get("/client-notes", query_string={"filter[gig_id]": gig_id}).get_json()["data"] == []


def test_only_a_live_link_changes_wishes(anon, couple):
    nobody = Client(anon, "bcl_" + "A" * 43)
    error_of(nobody.post("/client/notes", json={"body": "Hello"}), 401, "unauthenticated")
    error_of(anon.post("/client/notes", json={"body": "Hello"}), 401, "unauthenticated")
    error_of(nobody.get("/client/repertoire", query_string={"q": "Perfect"}), 401, "unauthenticated")


def test_a_repertoire_search_needs_text(client, documented):
    for wrong in ({}, {"q": ""}, {"q": "x" * 101}, {"q": "a\x00b"}):
        response = client.get("/client/repertoire", query_string=wrong)
        assert set(error_of(response, 400, "invalid_query")["details"]) == {"q"}
        documented.check("GET", "/client/repertoire", response)
    error_of(client.get("/client/repertoire", query_string={"q": "a", "sort": "title"}), 400, "invalid_query")


def test_the_lock_days_are_a_setting():
    from service.settings import load

    with pytest.raises(Exception, match="PLANNING_LOCK_DAYS"):
        load({"PLANNING_LOCK_DAYS": -1})
    assert load({})["PLANNING_LOCK_DAYS"] == 14
    assert dt.date.fromisoformat(today())  # the helper's dates are ISO


def test_the_office_digest_lists_what_is_new_from_the_couple(app, admin, client, couple):
    client.post("/client/songs", json={"song_id": couple["perfect"]["id"], "gig_moment_id": couple["dance"]["id"]})
    client.patch(f"/client/moments/{couple['dance']['id']}", json={"proposed_time": "21:30"})
    client.post("/client/notes", json={"body": "Please no polka."})
    admin.patch(f"/gig-moments/{couple['dance']['id']}", json={"time": "21:15"})  # the office's own: not theirs

    run_timed(config(app, DIGEST_MINUTES=15))

    [digest] = Notification.select().where(Notification.type == "office_digest")
    assert digest.title == "Office digest: 3 new from the couple"
    day = couple["gig"]["gig_date"]
    for line in (
        f"Anna & Ben, {day}: Anna Berger added the song “Perfect” (request)",
        f"Anna & Ben, {day}: Anna Berger proposed for “First dance”: 21:30",
        f"Anna & Ben, {day}: Anna Berger wrote a note: “Please no polka.”",
    ):
        assert line in digest.body


def test_a_webhook_hears_the_couples_change_by_client(office):
    with Receiver() as receiver:
        endpoint_for(office, receiver, event_types=["gig_song.*"])
        gig = office.call("POST", "/gigs", {"gig_date": today(60), "title": "Anna & Ben"})
        anna = office.call("POST", "/contacts", {"first_name": "Anna", "last_name": "Berger"})
        gig_contact = office.call("POST", "/gig-contacts", {"gig_id": gig["id"], "contact_id": anna["id"]})
        url = office.call("POST", f"/gig-contacts/{gig_contact['id']}/client-link")["url"]
        bearer = {"Authorization": "Bearer " + re.search(r"token=(bcl_\S+)", url).group(1)}
        wish = json.dumps({"title": "Our song", "kind": "request"}).encode()

        status, _, answer = office.service.request(
            "POST", "/client/songs", wish, {**bearer, "Content-Type": "application/json"}
        )

        assert status == 201, answer
        [received] = wait_for(lambda: receiver.received)
        event = received.payload["data"]
        assert received.verified and event["type"] == "gig_song.created" and event["gig_id"] == gig["id"]
        assert event["actor"] == {"user_id": None, "name": "Anna Berger", "token_kind": "client"}
        assert (event["data"]["title"], event["data"]["from_client"]) == ("Our song", True)
