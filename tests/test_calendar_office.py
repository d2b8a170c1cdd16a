"""SPEC §5.6: the office's calendar feed, and what a feed costs to make."""

import pytest

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
            executed.clear()
            assert len(feeds.events(feeds.fetch(anon, url))) == first + count - 1
            counts.setdefault(name, []).append(len(executed))
    assert counts["staff"][0] == counts["staff"][1], counts
    assert counts["office"][0] == counts["office"][1], counts
    assert max(counts["staff"] + counts["office"]) <= 5, counts


def test_the_office_feed_holds_played_gigs_and_none_older_than_sixty_days(admin, anon, build):
    inquiry, completed, confirmed = (feeds.gig_status(build, kind) for kind in ("inquiry", "completed", "confirmed"))
    gigs = {
        "inquiry": build("gigs", gig_date=feeds.day(5).isoformat(), gig_status_id=inquiry),
        "played": build("gigs", gig_date=feeds.day(-3).isoformat(), gig_status_id=completed),
        "old": build("gigs", gig_date=feeds.day(-61).isoformat(), gig_status_id=confirmed),
    }
    found = feeds.by_title(feeds.fetch(anon, feeds.office_url(admin)), *(gig["title"] for gig in gigs.values()))
    assert set(found) == {gigs["inquiry"]["title"], gigs["played"]["title"]}
    assert str(found[gigs["inquiry"]["title"]][0]["STATUS"]) == "TENTATIVE"
    assert str(found[gigs["played"]["title"]][0]["STATUS"]) == "CONFIRMED"


def test_the_office_feed_is_served_from_a_copy_until_the_database_changes(app, admin, anon, build, monkeypatch):
    gig = build("gigs", gig_date=feeds.day(3).isoformat())
    url = feeds.office_url(admin)
    feeds.fetch(anon, url)
    executed = count_queries(monkeypatch)
    assert feeds.by_title(feeds.fetch(anon, url), gig["title"])
    assert not any('"gigs"' in sql for sql in executed)  # the copy: no gig was read
    assert admin.patch(f"/gigs/{gig['id']}", json={"title": gig["title"] + " (moved)"}).status_code == 200
    assert str(only_event_titled(feeds.fetch(anon, url), gig["title"])["SUMMARY"]) == gig["title"] + " (moved)"
    # a change made by another process counts too (every writer of this schema keeps updated_at)
    with connected(app.config["DB"]) as other:
        renamed = "UPDATE gigs SET title = 'Renamed elsewhere', updated_at = ? WHERE id = ?"
        other.execute(renamed, ("2099-01-01T00:00:00.000000Z", gig["id"]))
    assert str(only_event_titled(feeds.fetch(anon, url), "Renamed elsewhere")["SUMMARY"]) == "Renamed elsewhere"
    # a write the feed does not show (a team, a sign-in link asked for) leaves the copy as it is
    admin.post("/teams", json={"name": "Unrelated"})
    anon.post("/auth/link", json={"email": "nobody@example.com"})
    executed.clear()
    feeds.fetch(anon, url)
    assert not any('"gigs" AS' in sql for sql in executed), executed


def only_event_titled(calendar, title):
    [event] = [e for e in feeds.events(calendar) if title in str(e["SUMMARY"])]
    return event


def test_a_member_whose_user_is_inactive_has_no_feed(admin, anon, build):
    user = build("users", roles=[])
    member = build("staff-members", user_id=user["id"])
    url = feeds.staff_url(admin, member["id"])
    feeds.fetch(anon, url)
    assert admin.patch(f"/users/{user['id']}", json={"active": False}).status_code == 200
    error_of(anon.get(feeds.path_of(url)), 404, "not_found")
