"""SPEC §9, the mail and push channels of notifications, end to end: real servers (`app.py serve`) send what is
queued in their database to a real SMTP server (aiosmtpd) and to a real UnifiedPush server, both on 127.0.0.1.
The notifications are queued as the rules queue them, straight into the served database; what a test observes
is the mail and the pushes that arrive, and each channel's state as the office reads it."""

import collections
import json
import time
import uuid
from urllib.parse import urlsplit

import pytest

from delivery import notifications
from delivery.notifications import sender as notification_sender
from models import Notification
from storage import writer
from tests.support.database import connected
from tests.support.mail import mails
from tests.support.push_servers import Answer, UnifiedPushServer
from tests.support.queued import devices_of, later, log_lines, mail_off, person, queue, reading, register_device, stored
from tests.support.served import ServedOffice, Service, served_offices
from tests.support.smtp_server import REFUSED, closed_port, smtp_server
from tests.support.users import make_user
from tests.support.waiting import SLOW_MACHINE_SECONDS, wait_for

FAST = {"BAND_MAIL_RETRY_SECONDS": "0.2"}
DEFAULT_SENDER = "Band Office <office@localhost>"


@pytest.fixture(scope="module")
def smtp():
    with smtp_server() as (inbox, port):
        yield inbox, port


@pytest.fixture(scope="module")
def served(tmp_path_factory, smtp):
    """One office mailing to the module's SMTP server, for every test that needs no other settings."""
    office = ServedOffice(tmp_path_factory.mktemp("served"), **FAST, BAND_MAIL_URL=f"smtp://127.0.0.1:{smtp[1]}")
    yield office.start()
    office.service.stop()


@pytest.fixture
def inbox(smtp):
    return smtp[0]


@pytest.fixture
def serve(tmp_path):
    """serve(**env) -> a served office of its own with FAST schedules, `env` overriding; stopped after the test."""
    with served_offices(tmp_path, **FAST) as start:
        yield start


@pytest.fixture
def receiver():
    """A UnifiedPush server; receiver.answer may be set to say how each request is answered."""
    server = UnifiedPushServer()
    yield server
    server.close()


# --- mail ------------------------------------------------------------------------------------------------------


def test_a_notification_is_mailed_to_its_user_with_its_title_as_subject_and_its_body_as_text(served, inbox):
    someone = person(served)
    notification = queue(served, someone)
    [msg] = wait_for(lambda: inbox.messages(someone.address))
    assert msg["Subject"] == "Wedding at Schloss Hof: gig_changed" and msg["From"] == DEFAULT_SENDER
    assert msg.get_body(("plain",)).get_content().splitlines() == [
        "The whole message of gig_changed.",
        "Saturday 12 June 2027, 18:00, Schloss Hof, Hauptstraße 1.",
    ]
    row = reading(served, notification, email_state="sent", push_state="skipped")
    assert row["email_to"] == someone.address and row["email_attempts"] == 1 and row["email_error"] is None
    assert row["push_error"] == "No device on a platform this server pushes to." and row["push_attempts"] == 0
    assert row["claimed_until"] is None


def test_a_notifications_mail_is_named_by_its_id_at_the_public_host(served, inbox):
    someone = person(served)
    notification = queue(served, someone)
    [msg] = wait_for(lambda: inbox.messages(someone.address))
    assert msg["Message-ID"] == f"<{notification}@{urlsplit(served.service.public_url).hostname}>"


def test_a_member_without_a_user_is_mailed_at_their_own_address_and_never_pushed(served, inbox):
    member = person(served, user=False)
    nowhere = person(served, user=False, address=None)
    mailed, unmailed = queue(served, member), queue(served, nowhere)
    [msg] = wait_for(lambda: inbox.messages(member.address))
    assert msg["Subject"] == "Wedding at Schloss Hof: gig_changed"
    row = reading(served, mailed, email_state="sent", push_state="skipped")
    assert row["email_to"] == member.address and row["push_error"] == "No user to push to."
    row = reading(served, unmailed, email_state="skipped", push_state="skipped")
    assert row["email_error"] == "No address to mail." and row["email_attempts"] == 0 and row["email_to"] is None


def test_the_address_is_the_users_as_it_is_when_the_mail_goes_out(served, inbox):
    someone = person(served)
    notification = queue(served, someone, due_in=1.5)
    moved = f"moved-{uuid.uuid4().hex[:8]}@example.com"
    served.call("PATCH", f"/users/{someone.user_id}", {"email": moved})
    wait_for(lambda: inbox.messages(moved))
    assert reading(served, notification, email_state="sent")["email_to"] == moved
    assert inbox.messages(someone.address) == []


def test_channels_turned_off_in_the_settings_are_skipped(served, inbox, receiver):
    someone = person(served, key=True)
    register_device(served, someone, f"{receiver.origin}/up/{uuid.uuid4().hex}")
    mail_off(served, someone, push=False)
    notification = queue(served, someone)
    row = reading(served, notification, email_state="skipped", push_state="skipped")
    assert row["email_error"] == "Mail is off in the recipient's settings."
    assert row["push_error"] == "Push is off in the recipient's settings."
    assert row["email_attempts"] == row["push_attempts"] == 0 and row["claimed_until"] is None
    assert inbox.messages(someone.address) == [] and receiver.received == []


def test_an_inactive_user_is_neither_mailed_nor_pushed(served, inbox, receiver):
    someone = person(served, key=True)
    register_device(served, someone, f"{receiver.origin}/up/{uuid.uuid4().hex}")
    served.call("PATCH", f"/users/{someone.user_id}", {"active": False})
    notification = queue(served, someone)
    row = reading(served, notification, email_state="skipped", push_state="skipped")
    assert row["email_error"] == row["push_error"] == "The recipient's user is inactive."
    assert inbox.messages(someone.address) == [] and receiver.received == []


def test_invitations_due_together_for_one_address_make_one_mail(served, inbox):
    someone = person(served)
    due = {"due_at": later(1.0)}  # held until the same moment, as the rules hold invitations to one person
    invitations = [queue(served, someone, "invitation", body=f"Invitation {n}.", **due) for n in (1, 2, 3)]
    change = queue(served, someone, "gig_changed", **due)
    for notification in [*invitations, change]:
        reading(served, notification, email_state="sent")
    combined, single = sorted(inbox.messages(someone.address), key=lambda m: m["Subject"])
    assert combined["Subject"] == "3 new invitations"
    text = combined.get_body(("plain",)).get_content()
    assert text.index("Invitation 1.") < text.index("Invitation 2.") < text.index("Invitation 3.")
    assert single["Subject"] == "Wedding at Schloss Hof: gig_changed"
    assert all(stored(served, n)["email_attempts"] == 1 for n in invitations)
    host = urlsplit(served.service.public_url).hostname  # the one mail of three is named after all three
    assert single["Message-ID"] == f"<{change}@{host}>" and combined["Message-ID"].endswith(f"@{host}>")
    assert not any(invitation in combined["Message-ID"] for invitation in invitations)


def test_a_mail_the_server_refuses_for_good_fails_at_once_and_is_logged_masked(served, inbox):
    someone = person(served, prefix=REFUSED)
    notification = queue(served, someone)
    row = reading(served, notification, email_state="failed")
    masked = "r***@example.com"
    assert row["email_attempts"] == 1 and row["email_next_at"] is None and row["email_to"] == someone.address
    assert "550" in row["email_error"] and masked in row["email_error"] and someone.address not in row["email_error"]
    [line] = wait_for(lambda: log_lines(served, notification))
    assert "ERROR" in line and "refused" in line and masked in line and someone.address not in line


def test_mail_is_retried_while_the_smtp_server_is_down_and_delivered_once_it_is_up(serve):
    with closed_port() as down:
        office = serve(BAND_MAIL_URL=f"smtp://127.0.0.1:{down.getsockname()[1]}")
        someone = person(office)
        notification = queue(office, someone)
        # a mail tried every 0.2 s for a day: the next failure is its last
        day_old = queue(office, someone, "gig_reminder", email_attempts=int(24 * 3600 / 0.2) + 1)
        row = wait_for(lambda: (row := stored(office, notification))["email_attempts"] >= 3 and row)
        assert row["email_state"] == "pending"
        assert "ConnectionRefusedError" in row["email_error"] and row["email_next_at"] > row["due_at"]
        given_up = reading(office, day_old, email_state="failed")
        assert "ConnectionRefusedError" in given_up["email_error"]
        with smtp_server(down) as (inbox, _):
            [msg] = wait_for(lambda: inbox.messages(someone.address))
            row = reading(office, notification, email_state="sent", email_error=None)
    assert msg["Subject"] == "Wedding at Schloss Hof: gig_changed" and row["email_attempts"] >= 4
    retries, [last] = log_lines(office, f"{notification}: mail to"), log_lines(office, f"{day_old}: mail to")
    assert len(retries) >= 3 and all("WARNING" in line and "not sent yet" in line for line in retries)
    assert "ERROR" in last and "given up" in last
    for line in [*retries, last]:
        assert someone.address not in line and f"{someone.address[0]}***@example.com" in line


# --- push ------------------------------------------------------------------------------------------------------


def test_a_push_reaches_every_device_of_the_user_with_the_summary_and_ids_only(served, receiver):
    someone = person(served, key=True)
    tokens = [f"{receiver.origin}/up/{uuid.uuid4().hex}" for _ in range(2)]
    for token in tokens:
        register_device(served, someone, token)
    notification = queue(served, someone)
    row = reading(served, notification, push_state="sent")
    assert row["push_attempts"] == 1 and row["push_error"] is None
    assert sorted(r.path for r in receiver.received) == sorted(t.removeprefix(receiver.origin) for t in tokens)
    for request in receiver.received:
        assert request.headers["content-type"] == "application/json"
        assert json.loads(request.body) == {
            "notification_id": notification,  # the same on every device and every attempt
            "type": "gig_changed",
            "title": "Wedding at Schloss Hof: gig_changed",
            "body": "Wedding at Schloss Hof on 12 June (gig_changed)",
            "data": json.loads(row["data"]),
        }


def test_a_device_whose_token_is_gone_is_deleted(served, receiver):
    someone = person(served, key=True)
    receiver.answer = lambda number: Answer(410 if number == 1 else 404)
    for _ in range(2):
        register_device(served, someone, f"{receiver.origin}/up/{uuid.uuid4().hex}")
    notification = queue(served, someone)
    row = reading(served, notification, push_state="failed")
    assert row["push_attempts"] == 1 and "410" in row["push_error"] and "404" in row["push_error"]
    assert len(receiver.received) == 2 and devices_of(served, someone) == []


def test_a_push_the_gateway_cannot_take_now_is_retried_when_it_asks_and_sent(served, receiver):
    someone = person(served, key=True)
    busy = Answer(503, {"retry-after": "1"})
    receiver.answer = lambda number: busy if number < 3 else None
    token = f"{receiver.origin}/up/{uuid.uuid4().hex}"
    register_device(served, someone, token)
    notification = queue(served, someone)
    row = reading(served, notification, push_attempts=1, push_state="pending")
    assert "503" in row["push_error"]
    # two retries by the back-off alone would take 15 + 60 s
    row = reading(served, notification, timeout=SLOW_MACHINE_SECONDS, push_state="sent")
    assert row["push_attempts"] == 3 and row["push_error"] is None and len(receiver.received) == 3
    assert devices_of(served, someone) == [token]


def test_a_device_that_could_not_take_a_push_is_tried_again_though_another_got_it(served, receiver):
    someone = person(served, key=True)
    busy = UnifiedPushServer(lambda number: Answer(503, {"retry-after": "0"}) if number == 1 else None)
    try:
        register_device(served, someone, f"{receiver.origin}/up/{uuid.uuid4().hex}")
        register_device(served, someone, f"{busy.origin}/up/{uuid.uuid4().hex}")
        notification = queue(served, someone)
        row = reading(served, notification, push_state="sent")
        assert row["push_attempts"] == 2 and row["push_error"] is None
        assert len(receiver.received) == 1 and len(busy.received) == 2
    finally:
        busy.close()


def test_a_push_no_device_got_after_three_attempts_fails(served, receiver):
    someone = person(served, key=True)
    receiver.answer = lambda number: Answer(503, {"retry-after": "0"})
    register_device(served, someone, f"{receiver.origin}/up/{uuid.uuid4().hex}")
    notification = queue(served, someone)
    row = reading(served, notification, push_state="failed")
    assert row["push_attempts"] == 3 and "503" in row["push_error"] and len(receiver.received) == 3


def test_devices_on_platforms_not_configured_are_skipped_said_once_at_start(served, receiver):
    someone = person(served, key=True)
    register_device(served, someone, uuid.uuid4().hex * 2, platform="ios")
    keys = {"p256dh": "B" + "A" * 86, "auth": "A" * 22}  # the shapes of a P-256 point and a 16-byte secret
    subscription = {"endpoint": f"https://{receiver.origin.removeprefix('http://')}/wp", "keys": keys}
    register_device(served, someone, json.dumps(subscription), platform="web")
    notification = queue(served, someone)
    row = reading(served, notification, push_state="skipped", email_state="sent")
    assert row["push_error"] == "No device on a platform this server pushes to." and receiver.received == []
    [line] = log_lines(served, "push skipped for")
    assert "ios (BAND_APNS_KEY_FILE" in line and "web (BAND_VAPID_PRIVATE_KEY" in line


# --- the worker's stop and a crash ------------------------------------------------------------------------------


def test_sigterm_gives_a_push_on_its_way_back_and_the_next_start_sends_it(serve, receiver):
    receiver.answer = lambda number: Answer(201, delay=60) if number == 1 else None
    office = serve()
    someone = person(office, key=True)
    register_device(office, someone, f"{receiver.origin}/up/{uuid.uuid4().hex}")
    notification = queue(office, someone)
    wait_for(lambda: receiver.received)
    started = time.monotonic()
    assert office.service.stop() == 0 and time.monotonic() - started < 10
    row = stored(office, notification)
    assert row["claimed_until"] is None and row["push_state"] == "pending" and row["push_attempts"] == 0
    office.service.start()
    row = reading(office, notification, push_state="sent")
    assert row["push_attempts"] == 1 and len(receiver.received) == 2


def test_after_a_kill_9_a_claimed_notification_is_sent_once_its_claim_runs_out(serve, receiver):
    receiver.answer = lambda number: Answer(201, delay=60) if number == 1 else None
    # a claim then lasts 14 s: the timeout, a second, the writer's margin; the timeout is no shorter, or an attempt
    # after the restart on a busy machine (load 20) could run out of it and count as a second
    office = serve(BAND_PUSH_TIMEOUT="3")
    someone = person(office, key=True)
    mail_off(office, someone)  # a mail's claim lasts longer
    register_device(office, someone, f"{receiver.origin}/up/{uuid.uuid4().hex}")
    notification = queue(office, someone)
    wait_for(lambda: receiver.received)
    office.service.proc.kill()
    office.service.proc.wait(10)
    killed = time.monotonic()
    assert stored(office, notification)["claimed_until"] is not None
    office.service.start()
    # the claim's 12 s, and a restart and a worker's round on a busy machine (20 s in all failed at load 20)
    row = reading(office, notification, timeout=14 + SLOW_MACHINE_SECONDS, push_state="sent")
    assert time.monotonic() - killed > 5 and row["push_attempts"] == 1 and len(receiver.received) == 2


def test_a_mail_sent_again_after_a_kill_9_is_the_same_message(serve):
    with smtp_server() as (inbox, port):
        inbox.answer_after = 60  # the server takes the mail, and the sender dies before it hears so
        public_url = "https://office.example.com/band"
        office = serve(BAND_MAIL_URL=f"smtp://127.0.0.1:{port}", BAND_PUBLIC_URL=public_url)
        someone = person(office)
        notification = queue(office, someone)
        wait_for(lambda: inbox.messages(someone.address))
        office.service.proc.kill()
        office.service.proc.wait(10)
        row = stored(office, notification)
        assert row["email_state"] == "pending" and row["claimed_until"] is not None
        inbox.answer_after = 0
        with connected(office.db) as connection:
            connection.execute("UPDATE notifications SET claimed_until = ?", (later(-1),))  # its claim ran out
        office.service.start()
        reading(office, notification, email_state="sent", email_attempts=1)
        first, again = inbox.messages(someone.address)
    assert first["Message-ID"] == again["Message-ID"] == f"<{notification}@office.example.com>"
    assert (
        again["Subject"] == first["Subject"]
        and again.get_body(("plain",)).get_content() == first.get_body(("plain",)).get_content()
    )


def test_two_servers_on_one_database_never_send_one_notification_twice(serve, tmp_path, receiver):
    receiver.answer = lambda number: Answer(201, delay=0.3)  # pushes stay on their way a while
    office = serve()
    (tmp_path / "second").mkdir()
    second = Service(tmp_path / "second", **office.service.env).start()  # the same database and settings
    try:
        someone = person(office, key=True)
        mail_off(office, someone)
        register_device(office, someone, f"{receiver.origin}/up/{uuid.uuid4().hex}")
        # due one after another: both servers wake for each at once, and one of them claims it
        queued = [queue(office, someone, due_in=0.5 + n * 0.1) for n in range(10)]
        for notification in queued:
            reading(office, notification, push_state="sent", push_attempts=1)
        assert second.stop() == 0
    finally:
        second.stop()
    wanted = {json.loads(stored(office, n)["data"])["gig_id"] for n in queued}
    arrived = collections.Counter(json.loads(r.body)["data"]["gig_id"] for r in receiver.received)
    assert set(arrived) == wanted and set(arrived.values()) == {1}, "a notification was pushed twice"


# --- the wake-up, in the process ----------------------------------------------------------------------------


def test_a_commit_that_queues_notifications_wakes_the_sender_at_once(app):
    app.config["WORKER_INTERVAL"] = 600.0  # without the wake-up the sender would look again in ten minutes
    first, second = make_user(), make_user()
    with writer.transaction():
        found = notify(first)  # due before the sender starts: found at its first look, however late that comes
    sender = notification_sender.Sender(app).start()
    try:
        wait_for(lambda: Notification.get_by_id(found).email_state == "sent", timeout=SLOW_MACHINE_SECONDS)
        with writer.transaction():
            notify(second)
            notifications.queue.queued()
        [msg] = wait_for(lambda: mails(app, second.email), timeout=SLOW_MACHINE_SECONDS)
        assert msg["Subject"] == "Rehearsal moved"
    finally:
        sender.stop()


def notify(user):
    """A notification for `user`, due now, written in the transaction under way: its id."""
    moment = later(0)
    return Notification.create(
        type="gig_changed",
        recipient_user=user.id,
        title="Rehearsal moved",
        body="The rehearsal is on Friday now.",
        summary="Rehearsal moved",
        due_at=moment,
        email_state="pending",
        push_state="pending",
    ).id
