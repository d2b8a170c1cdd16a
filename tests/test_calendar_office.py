"""SPEC §5.6: the office's calendar feed, and what a feed costs to make."""

import pytest

from app import configure
from domain.errors import ConfigError
from service import settings
from tests.support import feeds
from tests.support.api import error_of
from tests.support.database import connected, count_queries


@pytest.fixture
def member(build):
    return build("staff-members")


# --- the office feed ------------------------------------------------------------------------------------


def test_the_office_feed_lists_every_live_gig(admin, anon, build, member):
    tentative, confirmed, closed = (feeds.gig_status(build, kind) for kind in ("tentative", "confirmed", "cancelled"))
    gigs = {
        "tentative": build("gigs", gig_date=feeds.day(1).isoformat(), gig_status_id=tentative),
        "confirmed": build("gigs", gig_date=feeds.day(2).isoformat(), gig_status_id=confirmed),
        "no status": build("gigs", gig_date=feeds.day(3).isoformat()),
        "recent": build("gigs", gig_date=feeds.day(-10).isoformat(), gig_status_id=confirmed),
        "closed": build("gigs", gig_date=feeds.day(4).isoformat(), gig_status_id=closed),
    }
    feeds.put_on(admin, build, member["id"], gigs["confirmed"]["id"])
    url = feeds.office_url(admin)
    assert feeds.URL_RE.fullmatch(url) and url != feeds.staff_url(admin, member["id"])
    found = feeds.by_title(feeds.fetch(anon, url), *(gig["title"] for gig in gigs.values()))
    assert {title: len(found_events) for title, found_events in found.items()} == {
        gigs[name]["title"]: 1 for name in ("tentative", "confirmed", "no status", "recent")
    }
    assert str(found[gigs["tentative"]["title"]][0]["STATUS"]) == "TENTATIVE"
    assert str(found[gigs["confirmed"]["title"]][0]["STATUS"]) == "CONFIRMED"


def test_the_office_url_needs_gigs_view_and_its_rotation_gigs_edit(anon, role):
    role("gig-viewer", "gigs.view")
    role("gig-editor", "gigs.edit")
    role("people-admin", "people.*")
    _, viewer = feeds.user_client(anon, "gig-viewer")
    _, editor = feeds.user_client(anon, "gig-editor")
    _, people = feeds.user_client(anon, "people-admin")
    url = feeds.office_url(viewer)
    assert feeds.office_url(viewer) == url
    assert error_of(people.get("/calendar-url"), 403, "forbidden")["details"] == {"required": "gigs.view"}
    assert error_of(editor.get("/calendar-url"), 403, "forbidden")["details"] == {"required": "gigs.view"}
    for client in (viewer, people):
        assert error_of(client.post("/calendar-url/rotate"), 403, "forbidden")["details"] == {"required": "gigs.edit"}
    error_of(anon.get("/calendar-url"), 401, "unauthenticated")
    error_of(anon.post("/calendar-url/rotate"), 401, "unauthenticated")
    feeds.fetch(anon, url)

    new = feeds.url_of(editor.post("/calendar-url/rotate"))
    assert feeds.URL_RE.fullmatch(new) and new != url
    assert feeds.office_url(viewer) == new
    error_of(anon.get(feeds.path_of(url)), 404, "not_found")
    feeds.fetch(anon, new)


def test_rotating_the_office_url_leaves_staff_feeds_alone(admin, anon, member):
    staff = feeds.staff_url(admin, member["id"])
    old = feeds.office_url(admin)
    new = feeds.url_of(admin.post("/calendar-url/rotate"))
    error_of(anon.get(feeds.path_of(old)), 404, "not_found")
    feeds.fetch(anon, new)
    feeds.fetch(anon, staff)


# --- cost -----------------------------------------------------------------------------------------------


def add_gigs(admin, build, member, first, count):
    """`count` gigs on consecutive days, each at a venue, with a product, a status and the member on it."""
    status = feeds.gig_status(build, "confirmed")
    role_id, product_id = build.id("roles"), build.id("products")
    for n in range(first, first + count):
        venue = build("venues", timezone="Europe/Vienna" if n % 2 else "Europe/London", address_line1=f"Street {n}")
        gig = build(
            "gigs",
            gig_date=feeds.day(n).isoformat(),
            venue_id=venue["id"],
            gig_status_id=status,
            start_time="18:00",
            end_time="01:00",
        )
        body = {"gig_id": gig["id"], "product_id": product_id, "start_time": "19:00", "end_time": "20:00"}
        admin.create("gig-products", body)
        feeds.put_on(admin, build, member["id"], gig["id"], role_id, call_time="17:00")


def test_a_feed_costs_the_same_queries_whatever_the_number_of_gigs(admin, anon, build, member, monkeypatch):
    staff, office = feeds.staff_url(admin, member["id"]), feeds.office_url(admin)
    executed = count_queries(monkeypatch)
    counts = {}
    for first, count in ((1, 2), (3, 10)):
        add_gigs(admin, build, member, first, count)
        for name, url in (("staff", staff), ("office", office)):
            feeds.fetch_until(anon, url, lambda calendar, n=first + count - 1: len(feeds.events(calendar)) == n)
            executed.clear()
            feeds.fetch(anon, url)
            counts.setdefault(name, []).append(len(executed))
    assert counts["staff"][0] == counts["staff"][1], counts
    assert counts["office"][0] == counts["office"][1], counts
    assert max(counts["staff"] + counts["office"]) <= 3, counts


def test_a_poll_after_a_change_gets_the_copy_at_once_and_the_change_soon(admin, anon, build, member, monkeypatch):
    """SPEC §2.3: no feed request builds the feed (seconds at ten thousand gigs), whatever changed before it."""
    add_gigs(admin, build, member, 1, 20)
    urls = feeds.staff_url(admin, member["id"]), feeds.office_url(admin)
    for url in urls:
        feeds.fetch_until(anon, url, lambda calendar: len(feeds.events(calendar)) == 20)
    gig = admin.get(f"/gigs?filter[gig_date]={feeds.day(7).isoformat()}").get_json()["data"][0]
    executed = count_queries(monkeypatch)
    for n, url in enumerate(urls):
        title = f"Moved {n}"
        assert admin.patch(f"/gigs/{gig['id']}", json={"title": title}).status_code == 200
        executed.clear()
        assert len(feeds.events(feeds.fetch(anon, url))) == 20
        assert not [sql for sql in executed if '"gigs"' in sql or '"gig_roles"' in sql], executed
        feeds.fetch_until(anon, url, lambda calendar, t=title: any(t in s for s in feeds.summaries(calendar)))


def test_feeds_hold_the_gigs_from_band_feed_past_days_back(app, admin, anon, build, member):
    inquiry, completed, confirmed = (feeds.gig_status(build, kind) for kind in ("inquiry", "completed", "confirmed"))
    gigs = {
        "inquiry": build("gigs", gig_date=feeds.day(5).isoformat(), gig_status_id=inquiry),
        "played": build("gigs", gig_date=feeds.day(-3).isoformat(), gig_status_id=confirmed),
        "ten days": build("gigs", gig_date=feeds.day(-10).isoformat(), gig_status_id=confirmed),
        "eleven days": build("gigs", gig_date=feeds.day(-11).isoformat(), gig_status_id=confirmed),
        "180 days": build("gigs", gig_date=feeds.day(-180).isoformat(), gig_status_id=confirmed),
        "181 days": build("gigs", gig_date=feeds.day(-181).isoformat(), gig_status_id=confirmed),
    }
    for gig in gigs.values():
        feeds.put_on(admin, build, member["id"], gig["id"])
    assert admin.patch(f"/gigs/{gigs['played']['id']}", json={"gig_status_id": completed}).status_code == 200
    titles = {gig["title"]: name for name, gig in gigs.items()}
    urls = feeds.office_url(admin), feeds.staff_url(admin, member["id"])

    def shown():
        return [
            {titles[title] for title in feeds.by_title(feeds.fetch(anon, url), *titles)} for url in urls
        ]  # fmt: skip

    assert shown() == [set(gigs) - {"181 days"}] * 2  # BAND_FEED_PAST_DAYS: 180 unless set
    found = feeds.by_title(feeds.fetch(anon, urls[0]), *titles)
    assert str(found[gigs["inquiry"]["title"]][0]["STATUS"]) == "TENTATIVE"
    assert str(found[gigs["played"]["title"]][0]["STATUS"]) == "CONFIRMED"
    configure(app, {"DB": app.config["DB"], "MAIL_URL": app.config["MAIL_URL"], "FEED_PAST_DAYS": 10})
    assert shown() == [{"inquiry", "played", "ten days"}] * 2


@pytest.mark.parametrize("value", ["-1", "ten", "1.5"])
def test_band_feed_past_days_is_a_number_of_days(value):
    with pytest.raises(ConfigError, match="BAND_FEED_PAST_DAYS"):
        settings.load(environ={"BAND_FEED_PAST_DAYS": value})


def test_the_office_feed_follows_a_change_made_by_another_process(app, admin, anon, build):
    gig = build("gigs", gig_date=feeds.day(3).isoformat())
    url = feeds.office_url(admin)
    assert feeds.by_title(feeds.fetch(anon, url), gig["title"])
    # every writer of this schema keeps updated_at; each server follows the database's commits, whoever made them
    with connected(app.config["DB"]) as other:
        renamed = "UPDATE gigs SET title = 'Renamed elsewhere', updated_at = ? WHERE id = ?"
        other.execute(renamed, ("2099-01-01T00:00:00.000000Z", gig["id"]))
    feeds.fetch_until(anon, url, lambda calendar: feeds.summaries(calendar) == ["Renamed elsewhere"])


def test_a_member_whose_user_is_inactive_has_no_feed(admin, anon, build):
    user = build("users", roles=[])
    member = build("staff-members", user_id=user["id"])
    url = feeds.staff_url(admin, member["id"])
    feeds.fetch(anon, url)
    assert admin.patch(f"/users/{user['id']}", json={"active": False}).status_code == 200
    error_of(anon.get(feeds.path_of(url)), 404, "not_found")
