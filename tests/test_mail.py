"""The mail backends of BAND_MAIL_URL (SPEC §6), and the outbox that retries mail an SMTP outage held up
(SPEC §9), against a real SMTP server (aiosmtpd) on 127.0.0.1."""

import email
import html.parser
import logging
from email import policy

import hypothesis
import pytest
from hypothesis import strategies as st

from delivery import mail
from domain.errors import ConfigError
from service import settings
from tests.support.mail import mails, request_link
from tests.support.smtp_server import closed_port, smtp_server
from tests.support.users import make_user
from tests.support.waiting import wait_for

LINK = "https://band.example/signin#token=bol_abc"


def sign_in_message(to="ada@example.com", subject="Your link", text=f"Open {LINK} within 15 minutes."):
    return mail.message("Band Office <office@band.example>", to, subject, text, "<link-1@band.example>")


class FakeSMTP:
    """Stands in for smtplib.SMTP / SMTP_SSL and records what the mailer asked of it."""

    sessions = []

    def __init__(self, host, port, timeout=None, context=None):
        self.calls = [("connect", host, port, "ssl" if context else "plain")]
        FakeSMTP.sessions.append(self)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.calls.append(("quit",))

    def starttls(self, context=None):
        self.calls.append(("starttls",))

    def login(self, user, password):
        self.calls.append(("login", user, password))

    def send_message(self, msg):
        self.calls.append(("send", msg["To"], msg["Subject"]))


@pytest.fixture
def fake_smtp(monkeypatch):
    FakeSMTP.sessions = []
    monkeypatch.setattr(mail.smtplib, "SMTP", FakeSMTP)
    monkeypatch.setattr(mail.smtplib, "SMTP_SSL", FakeSMTP)
    return FakeSMTP.sessions


def test_smtp_with_starttls_and_login(fake_smtp):
    mail.mailer("smtp://office%40band.example:p%40ss@mail.example.com:587?starttls=1")(sign_in_message())
    assert fake_smtp[0].calls == [
        ("connect", "mail.example.com", 587, "plain"),
        ("starttls",),
        ("login", "office@band.example", "p@ss"),
        ("send", "ada@example.com", "Your link"),
        ("quit",),
    ]


def test_smtps_connects_over_tls_on_port_465_by_default(fake_smtp):
    mail.mailer("smtps://mail.example.com")(sign_in_message())
    assert fake_smtp[0].calls[0] == ("connect", "mail.example.com", 465, "ssl")
    assert ("starttls",) not in fake_smtp[0].calls and not any(c[0] == "login" for c in fake_smtp[0].calls)


def test_the_plain_text_keeps_the_link_on_one_line():
    msg = sign_in_message()
    assert msg["To"] == "ada@example.com"
    assert "https://band.example/signin#token=bol_abc" in msg.as_string()  # not folded by an encoding


HOSTILE = '<script>alert("x")</script> & "Anna" <Ben> javascript:alert(1) \'><img src=x onerror=alert(1)>'
INVITATION = f"""Hello Kim,

You are invited to {HOSTILE} as Bass.

  When:       Sat 12 June 2027, 18:00–23:00
  Call time:  17:00
  Where:      Schloss Hof, Schlosshof 1, 2294 Marchegg, AT
  Pay:        350.00 EUR

Message from the office:
  Can you play?
  Two sets.

Please answer by Thu 10 June 2027, 14:03 CEST. Accept or decline here:
  {LINK}

----------------------------------------

Second part, see {LINK}."""


class Reading(html.parser.HTMLParser):
    """What a mail program shows of an HTML part: its elements, links, table rows and text."""

    def __init__(self, document):
        super().__init__()
        self.tags, self.links, self.rows, self.text, self.in_body = set(), [], [], [], False
        self.feed(document)

    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)
        self.in_body = self.in_body or tag == "body"
        if tag == "a":
            self.links.append(dict(attrs)["href"])
        if tag == "tr":
            self.rows.append([])

    def handle_data(self, data):
        if self.in_body and data.strip():
            self.text.append(data.strip())
            if self.rows and self.get_starttag_text().startswith(("<th", "<td")):
                self.rows[-1].append(data.strip())


def test_a_mail_is_plain_text_with_a_safe_html_alternative_of_the_same_words():
    with smtp_server() as (receiver, port):
        mail.mailer(f"smtp://127.0.0.1:{port}")(sign_in_message(subject=HOSTILE, text=INVITATION))
        [msg] = receiver.messages()
    assert msg.get_content_type() == "multipart/alternative"
    assert [part.get_content_type() for part in msg.iter_parts()] == ["text/plain", "text/html"]
    assert msg.get_body(("plain",)).get_content().splitlines() == INVITATION.splitlines()  # CRLF on the wire
    shown = Reading(msg.get_body(("html",)).get_content())
    assert shown.tags <= {
        "html",
        "head",
        "meta",
        "title",
        "body",
        "div",
        "p",
        "span",
        "table",
        "tr",
        "th",
        "td",
        "a",
        "hr",
    }
    assert shown.links == [LINK, LINK]  # http(s) addresses only, the full stop after the second left out
    assert shown.rows == [
        ["When", "Sat 12 June 2027, 18:00–23:00"],
        ["Call time", "17:00"],
        ["Where", "Schloss Hof, Schlosshof 1, 2294 Marchegg, AT"],
        ["Pay", "350.00 EUR"],
    ]
    words = " ".join(shown.text)
    for said in ("Hello Kim,", f"You are invited to {HOSTILE} as Bass.", "Can you play? Two sets.", "Second part, see"):
        assert said in words, said
    assert "hr" in shown.tags  # the line of dashes between two invitations


SUBJECTS = [
    "Invitation: Lead vocals at Hochzeit Müller-Lüdenscheidt im Schlosspark Laxenburg, Sat 12 June 2027",
    "Please answer: Keyboards and backing vocals at Anna & Ben at the Grand Ferdinand Hotel Ballroom, Sat 12 June",
    "x" * 70 + " at the start",
    "Invitation: Bass at " + "Averyveryverylongtitlewithoutanyspaces" * 3,
    "Changed: 山田太郎と花子の結婚式パーティー会場東京都港区六本木ヒルズ森タワー最上階のスカイデッキ, Sat 12 June 2027",
    "Withdrawn: the =?utf-8?q?literal?= text of a title",
    "Tomorrow: 🎉 party 🎉",
]


@pytest.mark.parametrize("subject", SUBJECTS)
def test_a_long_subject_is_folded_so_that_it_reads_back_exactly(subject):
    with smtp_server() as (receiver, port):
        mail.mailer(f"smtp://127.0.0.1:{port}")(sign_in_message(subject=subject))
        [envelope], [msg] = receiver.envelopes, receiver.messages()
    assert msg["Subject"] == subject
    head = envelope.content.split(b"\r\n\r\n")[0].split(b"\r\n")
    subject_lines = head[head.index(next(line for line in head if line.startswith(b"Subject:"))) :]
    assert subject_lines[0].startswith(b"Subject: ") and subject_lines[0] != b"Subject: "
    assert all(len(line) <= 78 for line in head), head


@hypothesis.settings(max_examples=300, deadline=None)
@hypothesis.given(st.text(st.characters(exclude_categories=("Cs",)), min_size=1, max_size=250))
@hypothesis.example("x" * 70 + " then words")  # the library folds that right after `Subject:`
def test_any_subject_reads_back_exactly(text):
    subject = " ".join(text.split()) or "x"  # one line, as messages write a subject
    raw = sign_in_message(subject=subject).as_bytes()
    assert email.message_from_bytes(raw, policy=policy.default)["Subject"] == subject
    assert all(len(line) <= 78 for line in raw.split(b"\n\n")[0].split(b"\n"))


def test_the_message_id_is_at_the_public_host():
    assert mail.message_id("https://office.example.com/band", "n-1") == "<n-1@office.example.com>"
    assert mail.message_id("http://[::1]:8080", "n-1") == "<n-1@[::1]>"
    first, second = (mail.message_id("http://band-office.local:8080") for _ in range(2))
    assert first != second and first.endswith("@band-office.local>") and second.endswith("@band-office.local>")


def test_the_sign_in_mail_has_a_message_id_of_its_own_at_the_public_host(app, anon):
    app.config["PUBLIC_URL"] = "https://office.example.com/band"
    for address in ("ada@example.com", "bob@example.com"):
        make_user(address)
        request_link(anon, address)
    first, second = (msg["Message-ID"] for msg in mails(app))
    assert first != second and first.endswith("@office.example.com>") and second.endswith("@office.example.com>")


def test_file_mailer_writes_one_eml_per_message_newest_last(tmp_path):
    send = mail.mailer(f"file:{tmp_path}")
    send(sign_in_message())
    send(sign_in_message("second@example.com"))
    files = sorted(tmp_path.glob("*.eml"))
    assert len(files) == 2 and "second@example.com" in files[-1].read_text()
    assert list(tmp_path.glob("*.part")) == []


def test_console_mailer_prints_the_text(caplog):
    with caplog.at_level(logging.INFO, logger="band.mail"):
        mail.mailer("console:")(sign_in_message())
    assert "ada@example.com" in caplog.text and "signin#token=bol_abc" in caplog.text


@pytest.mark.parametrize("url", ["", "file:", "mailto:someone", "smtp"])
def test_an_unknown_mail_url_is_a_configuration_error(url):
    with pytest.raises(ConfigError):
        mail.mailer(url)


# --- the outbox against a real SMTP server ----------------------------------------------------------------


@pytest.fixture
def outbox():
    """outbox(*waits): an Outbox whose retries wait those seconds; closed after the test."""
    boxes = []
    yield lambda *waits: boxes.append(mail.Outbox(retry_seconds=waits)) or boxes[-1]
    for box in boxes:
        box.close()


@pytest.fixture
def mail_log(caplog):
    """The band.mail log lines so far, as a function."""
    caplog.set_level(logging.INFO, logger="band.mail")
    return lambda: [r for r in caplog.records if r.name == "band.mail"]


def assert_masked_single_lines(records):
    assert records
    for record in records:
        line = record.getMessage()
        assert "a***@example.com" in line and "ada@example.com" not in line, line
        assert "\n" not in line and record.exc_info is None and "bol_abc" not in line, line


def test_mail_goes_out_at_once_when_the_smtp_server_is_up(outbox):
    with smtp_server() as (receiver, port):
        outbox(60).send(sign_in_message(), mail.mailer(f"smtp://127.0.0.1:{port}"))
        wait_for(lambda: receiver.envelopes)  # a retry would come a minute later: this is the first attempt
    [envelope], [msg] = receiver.envelopes, receiver.messages()
    assert envelope.mail_from == "office@band.example" and envelope.rcpt_tos == ["ada@example.com"]
    assert msg["To"] == "ada@example.com" and msg["Subject"] == "Your link"
    assert msg.get_body(("plain",)).get_content().splitlines() == [f"Open {LINK} within 15 minutes."]  # CRLF on wire


def test_mail_sent_while_the_smtp_server_is_down_arrives_once_it_is_up(outbox, mail_log):
    with closed_port() as down:
        box = outbox(0.05, 0.1, 0.2)
        box.send(sign_in_message(), mail.mailer(f"smtp://127.0.0.1:{down.getsockname()[1]}"), window_seconds=60)
        wait_for(lambda: len(mail_log()) >= 2)
        outage = mail_log()
        with smtp_server(down) as (receiver, _):
            assert box.join(timeout=10)
    [msg] = receiver.messages()
    assert msg["To"] == "ada@example.com" and LINK in msg.get_body(("plain",)).get_content()
    assert_masked_single_lines(outage)
    assert all("not sent yet" in r.getMessage() and r.levelname == "WARNING" for r in outage)
    assert "sent at attempt" in mail_log()[-1].getMessage()


def test_after_the_window_the_mail_is_given_up_in_one_line_and_the_outbox_drains(outbox, mail_log):
    box = outbox(0.05)
    with closed_port() as down:
        # a window of some 100 retries, so that a machine running two suites still fits in the three the test needs
        box.send(sign_in_message(), mail.mailer(f"smtp://127.0.0.1:{down.getsockname()[1]}"), window_seconds=5)
        assert box.join(timeout=10)
    *retries, last = mail_log()
    assert_masked_single_lines([*retries, last])
    assert len(retries) >= 3 and all(r.levelname == "WARNING" for r in retries)
    assert last.levelname == "ERROR" and "given up" in last.getMessage() and "ConnectionRefused" in last.getMessage()


def test_mail_waiting_for_its_next_attempt_does_not_hold_up_later_mail(outbox, mail_log):
    box = outbox(60)
    with closed_port() as down:
        box.send(sign_in_message(), mail.mailer(f"smtp://127.0.0.1:{down.getsockname()[1]}"))
        wait_for(mail_log)  # its first attempt failed
    with smtp_server() as (receiver, port):
        box.send(sign_in_message("bob@example.com"), mail.mailer(f"smtp://127.0.0.1:{port}"))
        wait_for(lambda: receiver.envelopes)
    assert [m["To"] for m in receiver.messages()] == ["bob@example.com"]
    assert not box.join(timeout=0)  # the first still waits for its next attempt
    box.close()  # and closing does not wait for it
    assert "given up" in mail_log()[-1].getMessage() and "stopped" in mail_log()[-1].getMessage()


def test_a_mail_the_server_refuses_for_good_is_given_up_at_once(outbox, mail_log):
    with smtp_server(refuse="550 5.1.1 <ada@example.com>: no such user") as (receiver, port):
        box = outbox(60)
        box.send(sign_in_message(), mail.mailer(f"smtp://127.0.0.1:{port}"))
        assert box.join(timeout=10)
    [line] = mail_log()
    assert_masked_single_lines([line])
    assert line.levelname == "ERROR" and "refused" in line.getMessage() and "550" in line.getMessage()
    assert receiver.envelopes == []


@pytest.mark.parametrize("name", ["MAIL_RETRY_SECONDS", "WEBHOOK_RETRY_SECONDS"])
def test_the_retry_schedule_settings(name):
    assert settings.load(environ={})["MAIL_RETRIES"] == mail.RETRY_SECONDS
    assert settings.load(environ={f"BAND_{name}": " 0.05, 2"})[name.replace("_RETRY_SECONDS", "_RETRIES")] == (
        0.05,
        2.0,
    )
    for text in ("5,,15", "5,x", "0", "-1", "nan", "inf"):
        with pytest.raises(ConfigError, match=f"BAND_{name}"):
            settings.load(environ={f"BAND_{name}": text})
