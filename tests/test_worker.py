"""SPEC §8, §6: the worker inside `serve`: invitation expiry recorded as events, events pruned after
BAND_EVENT_DAYS, the daily backup kept to BAND_BACKUP_KEEP, and BAND_WORKER=off."""

import datetime as dt
import os

from tests.support.database import connected
from tests.support.served import ServedOffice, running
from tests.support.waiting import SLOW_MACHINE_SECONDS, wait_for


class Office(ServedOffice):
    def invitation(self, expires_in_seconds):
        gig = self.call("POST", "/gigs", {"gig_date": "2027-06-12", "title": "Soon"})
        role = self.call("POST", "/roles", {"name": "Bass"})
        member = self.call("POST", "/staff-members", {"first_name": "Kim", "last_name": "Low"})
        self.call("POST", "/staff-member-roles", {"staff_member_id": member["id"], "role_id": role["id"]})
        gig_role = self.call("POST", "/gig-roles", {"gig_id": gig["id"], "role_id": role["id"]})
        expires_at = soon(expires_in_seconds)  # from now, not from before the four writes above (a busy machine)
        body = {"gig_role_id": gig_role["id"], "staff_member_id": member["id"], "expires_at": expires_at}
        return self.call("POST", "/gig-role-invitations", body)

    def stored_status(self, invitation):
        with connected(self.db) as connection:
            query = "SELECT status FROM gig_role_invitations WHERE id = ?"
            return connection.execute(query, (invitation["id"],)).fetchone()[0]


def soon(seconds):
    return (dt.datetime.now(dt.UTC) + dt.timedelta(seconds=seconds)).isoformat()


def test_an_expired_invitation_becomes_an_event_and_its_stored_status_catches_up(tmp_path):
    office = Office(tmp_path).start()
    try:
        invitation = office.invitation(2)
        expired = "/events?filter[type]=gig_role_invitation.expired"
        assert wait_for(lambda: office.call("GET", expired), timeout=10)
        [event] = office.call("GET", expired)
        assert event["subject"]["id"] == invitation["id"] and event["actor"] is None
        assert event["data"]["status"] == "expired" and event["gig_id"]
        assert office.stored_status(invitation) == "expired"
        assert office.call("GET", f"/gig-role-invitations/{invitation['id']}")["status"] == "expired"
    finally:
        assert office.service.stop() == 0


def test_with_the_worker_off_nothing_is_recorded_but_reads_still_say_expired(tmp_path):
    office = Office(tmp_path, BAND_WORKER="off")
    (tmp_path / "on").mkdir()
    witness = Office(tmp_path / "on")  # the same settings but the worker's, on a database of its own
    with running(office.service, witness.service):
        invitation = office.invitation(2)
        later = witness.invitation(3)  # expires a second after the other: a worker's round has run since
        assert wait_for(lambda: witness.stored_status(later) == "expired")
        assert office.call("GET", f"/gig-role-invitations/{invitation['id']}")["status"] == "expired"
        assert office.call("GET", "/events?filter[type]=gig_role_invitation.expired") == []
        assert office.stored_status(invitation) == "pending"


def test_old_events_are_pruned_and_a_daily_backup_is_kept(tmp_path):
    backups = tmp_path / "backups"
    backups.mkdir()
    older = ("band-20250101-030000.db", "band-20250102-030000.db")  # with the new one, one too many for BACKUP_KEEP=2
    for day, name in enumerate(older, start=1):
        old_backup = backups / name
        old_backup.write_bytes(b"old")
        stamp = dt.datetime(2025, 1, day, 3).timestamp()
        os.utime(old_backup, (stamp, stamp))
    office = Office(tmp_path, BAND_BACKUP_DIR=str(backups), BAND_BACKUP_KEEP="2", BAND_BACKUP_TIME="00:00")
    office.service.run("init-db")
    with connected(office.db) as connection:
        old = (dt.datetime.now(dt.UTC) - dt.timedelta(days=400)).strftime("%Y-%m-%dT%H:%M:%S.000000Z")
        connection.execute(
            "INSERT INTO events (id, type, occurred_at, subject_collection, subject_id, subject_group) "
            "VALUES ('00000000-0000-4000-8000-000000000001', 'team.created', ?, 'teams', "
            "'00000000-0000-4000-8000-000000000002', 'catalog')",
            (old,),
        )
    office.start()
    try:
        # a backup is there once whole (written as .part, then renamed): a SQLite file or a pg_dump archive; the
        # oldest one may be pruned at any moment once it is, so the new one is told apart by its name
        assert wait_for(lambda: [p for p in backups.glob("band-*.db") if p.name not in older], SLOW_MACHINE_SECONDS)
        assert wait_for(lambda: not office.call("GET", "/events?filter[type]=team.created"), SLOW_MACHINE_SECONDS)
        kept = sorted(p.name for p in backups.glob("band-*.db"))
        assert len(kept) == 2 and kept[0] == older[1]
        [fresh] = [p for p in backups.glob("band-*.db") if p.name != kept[0]]
        checked = office.service.run("check", str(fresh))
        assert checked.returncode == 0, checked.stdout + checked.stderr
    finally:
        office.service.stop()
