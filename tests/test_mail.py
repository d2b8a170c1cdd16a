"""The mail backends of BAND_MAIL_URL (SPEC §6)."""

import logging

import pytest

import mail
from errors import ConfigError


def sign_in_message():
    return mail.message(
        "Band Office <office@band.example>",
        "ada@example.com",
        "Your link",
        "Open https://band.example/signin#token=bol_abc within 15 minutes.",
    )


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


def test_the_message_is_plain_text_with_the_link_on_one_line():
    msg = sign_in_message()
    assert msg.get_content_type() == "text/plain" and msg["To"] == "ada@example.com"
    assert "https://band.example/signin#token=bol_abc" in msg.as_string()  # not folded by an encoding


def test_file_mailer_writes_one_eml_per_message_newest_last(tmp_path):
    send = mail.mailer(f"file:{tmp_path}")
    send(sign_in_message())
    send(mail.message("a@b.c", "second@example.com", "Second", "text"))
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
