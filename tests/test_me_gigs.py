"""SPEC §10: a musician's own gigs under /me: what they need to play them, from today on, never another
member's contact details or pay."""

import pytest

from tests.support.api import error_of
from tests.support.musicians import Band, data, day, in_hours
from tests.support.records import SCHLOSS_HOF_ADDRESS
from tests.support.waiting import wait_for


@pytest.fixture
def band(admin, build, anon):
    return Band(admin, build, anon)


def test_their_gigs_hold_what_they_need_to_play_them(band):
    body = band.me.get("/me/gigs").get_json()
    assert body["meta"] == {"total": 2, "limit": 50, "offset": 0}
    wedding, party = body["data"]
    place = {"name": "Schloss Hof", "address": SCHLOSS_HOF_ADDRESS, "timezone": "Europe/Vienna"}
    assert wedding == {
        "id": band.wedding["id"],
        "gig_date": day(10),
        "title": "Anna & Ben",
        "start_time": "18:00",
        "end_time": "01:00",
        "gig_status_id": band.status["id"],
        "status": {"name": "Confirmed", "kind": "confirmed"},
        "venue": place,
        "load_in_time": "16:00",
        "roles": [
            {
                "gig_role_id": band.vocals["id"],
                "role_id": band.singer["id"],
                "role": "Lead vocals",
                "product": {"name": "Reception", "start_time": "19:00", "end_time": "00:30"},
                "call_time": "17:00",
                "amount_cents": 35000,
                "invitation": None,
            }
        ],
        "lineup": [{"first_name": "Kim", "last_name": "Clark", "role": "Drums", "product": None}],
        "moments": [
            {"id": band.entrance["id"], "name": "Grand entrance", "time": "19:30", "notes": None},
            {"id": band.dance["id"], "name": "First dance", "time": "21:00", "notes": None},
        ],
        "songs": [
            {
                "id": band.song["id"],
                "title": "Superstition",
                "artist": None,
                "kind": "setlist",
                "gig_moment_id": band.entrance["id"],
                "notes": None,
            }
        ],
    }
    assert party["title"] == "Birthday party" and party["lineup"] == [] and party["moments"] == []
    invitation = {"id": band.invitation["id"], "expires_at": band.invitation["expires_at"]}
    assert [(role["gig_role_id"], role["amount_cents"], role["invitation"]) for role in party["roles"]] == [
        (band.party_role["id"], 35000, invitation)
    ]


def test_moments_and_songs_come_in_the_office_s_order(band):
    gig = band.wedding["id"]
    band.build("gig-moments", gig_id=gig, name="Cake", position=None)
    band.build("gig-moments", gig_id=gig, name="Apéritif", position=None)
    for title, position in (("Shout", None), ("Africa", None), ("Zombie", 1), ("Hey Jude", None)):
        band.build("gig-songs", gig_id=gig, title=title, position=position)
    [wedding] = [g for g in data(band.me.get("/me/gigs")) if g["id"] == gig]
    for part, collection in (("moments", "gig-moments"), ("songs", "gig-songs")):
        office = [record["id"] for record in data(band.admin.get(f"/{collection}?filter[gig_id]={gig}"))]
        assert [record["id"] for record in wedding[part]] == office, part
    assert [song["title"] for song in wedding["songs"]] == ["Superstition", "Shout", "Africa", "Hey Jude", "Zombie"]


def test_their_gigs_start_today_unless_they_filter_on_the_date(band):
    titles = lambda query: [gig["title"] for gig in data(band.me.get(f"/me/gigs{query}"))]
    assert titles("") == ["Anna & Ben", "Birthday party"]
    assert titles(f"?filter[gig_date][lt]={day(0)}") == ["Last month"]
    assert titles(f"?filter[gig_date][gte]={day(-365)}&sort=-gig_date") == [
        "Birthday party",
        "Anna & Ben",
        "Last month",
    ]
    assert titles("?filter[title][contains]=party") == ["Birthday party"]
    page = band.me.get("/me/gigs?limit=1&offset=1&fields=title").get_json()
    assert page == {
        "data": [{"id": band.party["id"], "title": "Birthday party"}],
        "meta": {"total": 2, "limit": 1, "offset": 1},
    }
    error_of(band.me.get("/me/gigs?filter[notes][contains]=x"), 400, "invalid_query")
    error_of(band.me.get("/me/gigs?sort=roles"), 400, "invalid_query")


def test_gigs_asked_for_by_id_come_whatever_their_date(band):
    assert [gig["title"] for gig in data(band.me.get(f"/me/gigs?filter[id]={band.past['id']}"))] == ["Last month"]
    assert data(band.me.get(f"/me/gigs?filter[id]={band.kims_gig['id']}")) == []
    cancelled = band.build("gig-statuses", name="Called off", kind="cancelled")
    band.admin.patch(f"/gigs/{band.wedding['id']}", json={"gig_status_id": cancelled["id"]})
    assert [gig["status"]["kind"] for gig in data(band.me.get("/me/gigs"))] == ["cancelled", "confirmed"]
    playing = data(band.me.get(f"/me/gigs?filter[gig_status_id][ne]={cancelled['id']}"))
    assert [gig["title"] for gig in playing] == ["Birthday party"]


def test_a_gig_they_were_only_invited_to_goes_once_the_invitation_is_answered(band):
    assert band.me.post(f"/gig-role-invitations/{band.invitation['id']}/decline").status_code == 200
    assert [gig["title"] for gig in data(band.me.get("/me/gigs"))] == ["Anna & Ben"]


def test_an_accepted_invitation_makes_the_role_theirs(band):
    assert band.me.post(f"/gig-role-invitations/{band.invitation['id']}/accept").status_code == 200
    party = data(band.me.get("/me/gigs"))[1]
    assert [(role["role"], role["invitation"]) for role in party["roles"]] == [("Lead vocals", None)]


def test_their_gigs_never_show_another_members_contact_details_or_pay(band):
    text = band.me.get(f"/me/gigs?filter[gig_date][gte]={day(-365)}").get_data(as_text=True)
    for private in ("kim@example.com", "+43 660 999", "765432109", band.kim["id"], band.kims_gig["id"]):
        assert private not in text


def test_a_change_by_the_office_shows_at_once(band):
    assert data(band.me.get("/me/gigs"))[0]["start_time"] == "18:00"
    band.admin.patch(f"/gigs/{band.wedding['id']}", json={"start_time": "17:30"})
    assert data(band.me.get("/me/gigs"))[0]["start_time"] == "17:30"
    band.admin.patch(f"/staff-members/{band.kim['id']}", json={"first_name": "Kimberly"})
    assert data(band.me.get("/me/gigs"))[0]["lineup"][0]["first_name"] == "Kimberly"


def test_an_invitation_that_expires_leaves_their_gigs_without_any_change_to_the_database(band):
    soon = band.invite(band.role(band.gig(30, "Soon over"), band.singer), band.sam, expires_at=in_hours(1 / 1800))
    assert "Soon over" in [gig["title"] for gig in data(band.me.get("/me/gigs"))]
    wait_for(lambda: "Soon over" not in [gig["title"] for gig in data(band.me.get("/me/gigs"))], timeout=10)
    statuses = {i["id"]: i["status"] for i in data(band.me.get("/me/invitations"))}
    assert statuses[soon["id"]] == "expired"
