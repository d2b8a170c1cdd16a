"""Outgoing mail: the `console:`, `file:DIR` and `smtp[s]://` backends (standard library), and the outbox
thread that does mail work after the request has been answered."""

import datetime as dt
import logging
import os
import queue
import smtplib
import ssl
import threading
import uuid
from email.message import EmailMessage
from email.utils import formatdate, make_msgid
from urllib.parse import parse_qs, unquote, urlsplit

from errors import ConfigError

log = logging.getLogger("band.mail")


def message(sender, to, subject, text):
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = sender, to, subject
    msg["Date"] = formatdate(localtime=False, usegmt=True)
    msg["Message-ID"] = make_msgid(domain="band-office")
    # Unencoded, so the link stays one line in a .eml file or a terminal (quoted-printable would fold it).
    msg.set_content(text, cte="7bit" if text.isascii() else "8bit")
    return msg


def mailer(url):
    """The send function for `BAND_MAIL_URL`."""
    scheme, _, rest = url.partition(":")
    if url == "console:":
        return send_to_log
    if scheme == "file" and rest:
        return FileMailer(rest)
    if scheme in ("smtp", "smtps") and rest.startswith("//") and len(rest) > 2:
        return SmtpMailer(url)
    raise ConfigError(f"BAND_MAIL_URL={url!r}: expected console:, file:DIR or smtp[s]://user:pass@host:port")


def send_to_log(msg):
    log.info("mail to %s\n%s", msg["To"], msg.get_body(("plain",)).get_content())


class FileMailer:
    """One `.eml` file per message, named so that the newest sorts last."""

    def __init__(self, directory):
        self.directory = directory

    def __call__(self, msg):
        os.makedirs(self.directory, exist_ok=True)
        stamp = dt.datetime.now(dt.UTC).strftime("%Y%m%dT%H%M%S%f")
        path = os.path.join(self.directory, f"{stamp}-{uuid.uuid4().hex[:8]}.eml")
        with open(path + ".part", "wb") as f:
            f.write(msg.as_bytes())
        os.replace(path + ".part", path)  # readers never see half a message
        log.info("mail to %s written to %s", msg["To"], path)


class SmtpMailer:
    def __init__(self, url):
        parts = urlsplit(url)
        self.tls = parts.scheme == "smtps"
        self.starttls = parse_qs(parts.query).get("starttls", ["0"])[0] in ("1", "true", "yes")
        self.host, self.port = parts.hostname or "localhost", parts.port or (465 if self.tls else 25)
        self.user = unquote(parts.username) if parts.username else None
        self.password = unquote(parts.password) if parts.password else None

    def __call__(self, msg):
        context = ssl.create_default_context()
        if self.tls:
            client = smtplib.SMTP_SSL(self.host, self.port, timeout=30, context=context)
        else:
            client = smtplib.SMTP(self.host, self.port, timeout=30)
        with client:
            if self.starttls:
                client.starttls(context=context)
            if self.user:
                client.login(self.user, self.password or "")
            client.send_message(msg)


class Outbox:
    """A worker thread for jobs that must not delay or shape the answer (sign-in mail, say); it starts with
    the first job."""

    def __init__(self):
        self.jobs = queue.Queue()
        self.thread = None
        self.lock = threading.Lock()

    def put(self, job):
        with self.lock:
            if self.thread is None:
                self.thread = threading.Thread(target=self._work, name="outbox", daemon=True)
                self.thread.start()
        self.jobs.put(job)

    def join(self):
        """Wait until every job put so far is done (tests use it)."""
        self.jobs.join()

    def close(self):
        """Finish the jobs put so far, then stop the thread."""
        if self.thread is not None:
            self.jobs.put(None)
            self.thread.join()

    def _work(self):
        while (job := self.jobs.get()) is not None:
            try:
                job()
            except Exception:
                log.exception("outbox job failed")
            finally:
                self.jobs.task_done()
        self.jobs.task_done()
