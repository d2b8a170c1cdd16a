"""Outgoing mail: the `console:`, `file:DIR` and `smtp[s]://` backends (standard library), and the outbox
thread that does mail work after the request has been answered and retries mail that could not be sent."""

import base64
import collections
import datetime as dt
import heapq
import itertools
import logging
import os
import re
import smtplib
import ssl
import threading
import time
import uuid
from email.message import EmailMessage
from email.utils import formatdate, getaddresses, make_msgid
from urllib.parse import parse_qs, unquote, urlsplit

from delivery import backoff, mail_html
from domain.errors import ConfigError
from storage.private_files import private_directory, private_file

log = logging.getLogger("band.mail")

RETRY_SECONDS = (5, 15, 30, 60, 120, 300, 600)  # waits between attempts; the last repeats until the window ends
SIGNIN_WINDOW_SECONDS = 15 * 60  # a sign-in link is dead after that anyway
JITTER = 0.2  # each wait is stretched or shrunk by up to this share, so retries do not arrive in step
LINE_CHARS = 78  # of a header line (RFC 5322's "should")
ENCODED_BYTES = 39  # of text in one encoded word: 64 characters, which fit a line after `Subject: `


def message(sender, to, subject, text, message_id, attachments=()):
    """A mail of plain text with its HTML alternative; `message_id` as `message_id()` makes it; `attachments`,
    PDFs as (file name, bytes)."""
    msg = EmailMessage()
    msg["From"], msg["To"] = sender, to
    msg.set_raw("Subject", folded(subject))
    msg["Date"] = formatdate(localtime=False, usegmt=True)
    msg["Message-ID"] = message_id
    # Unencoded, so the link stays one line in a .eml file or a terminal (quoted-printable would fold it).
    msg.set_content(text, cte="7bit" if text.isascii() else "8bit")
    msg.add_alternative(mail_html.html_of(subject, text), subtype="html")
    for name, data in attachments:
        msg.add_attachment(data, maintype="application", subtype="pdf", filename=name)
    return msg


def message_id(public_url, local_part=None):
    """`<local_part@public-host>` (SPEC §2.3): the host of BAND_PUBLIC_URL; a unique local part unless given."""
    host = urlsplit(public_url).hostname or "localhost"
    domain = f"[{host}]" if ":" in host else host
    return f"<{local_part}@{domain}>" if local_part else make_msgid(domain=domain)


def folded(subject):
    """The Subject's value as it goes on the wire, lines of at most 78 characters that parse back to exactly
    `subject`: plain words folded between words, or else (other than printable ASCII, a word too long for a line,
    text that would read as an encoded word) UTF-8 encoded words (RFC 2047). The library's own folding may put
    the first fold right after `Subject:` (read back with a leading space) and leaves `=?...?=` to be decoded."""
    if not subject:
        return ""
    words = subject.split(" ")
    plain = re.fullmatch(r"[!-~]+( [!-~]+)*", subject) and "=?" not in subject
    if plain and max(len(word) for word in words) <= LINE_CHARS - len("Subject: "):
        return fold(words, "Subject: ")
    chunks = [encoded_word(chunk) for chunk in utf8_chunks(subject, ENCODED_BYTES)]
    return "\n ".join(chunks)


def fold(words, start):
    """The words joined by spaces, a fold before a word that would end past LINE_CHARS."""
    lines, line = [], start + words[0]
    for word in words[1:]:
        if len(line) + 1 + len(word) > LINE_CHARS:
            lines.append(line)
            line = " " + word
        else:
            line += " " + word
    return "\n".join([*lines, line])[len(start) :]


def utf8_chunks(text, most_bytes):
    """The text cut into runs of whole characters, each at most `most_bytes` in UTF-8."""
    chunks, chunk = [], ""
    for character in text:
        if len((chunk + character).encode()) > most_bytes:
            chunks.append(chunk)
            chunk = ""
        chunk += character
    return [*chunks, chunk]


def encoded_word(text):
    return f"=?utf-8?b?{base64.b64encode(text.encode()).decode()}?="


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
        private_directory(self.directory)
        stamp = dt.datetime.now(dt.UTC).strftime("%Y%m%dT%H%M%S%f")
        path = os.path.join(self.directory, f"{stamp}-{uuid.uuid4().hex[:8]}.eml")
        private_file(path + ".part")  # a message holds a sign-in link
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


def masked(address):
    """`ada@example.com` -> `a***@example.com`: enough for the office to tell whose mail it was."""
    local, at, domain = address.rpartition("@")
    return f"{local[:1]}***@{domain}" if at else "***"


def describe(error, addresses):
    """The error on one line, with the recipients masked (a refusal names them) and control characters escaped."""
    text = f"{type(error).__name__}: {error}"
    for address in addresses:
        text = re.sub(re.escape(address), masked(address), text, flags=re.IGNORECASE)
    return re.sub(r"[\x00-\x1f\x7f]", lambda m: f"\\x{ord(m[0]):02x}", text)


def permanent(error):
    """A 5xx answer: the server refused this mail for good, and asking again changes nothing."""
    if isinstance(error, smtplib.SMTPRecipientsRefused):
        return all(code >= 500 for code, _ in error.recipients.values())
    return isinstance(error, smtplib.SMTPResponseException) and error.smtp_code >= 500


class Delivery:
    """One message on its way: each `attempt` sends it once and says when to try again, if at all."""

    def __init__(self, msg, mailer, window_seconds, waits):
        self.msg, self.mailer, self.waits = msg, mailer, waits
        self.started = time.monotonic()
        self.deadline = self.started + window_seconds
        self.attempts = 0

    def attempt(self):
        """Send once: the monotonic time of the next attempt, or None when it is sent or given up."""
        self.attempts += 1
        try:
            self.mailer(self.msg)
        except Exception as error:  # whatever the backend raises: retried, and logged as one line
            return self.failed(error)
        if self.attempts > 1:
            log.info("mail to %s sent at attempt %d", self.recipients(), self.attempts)
        return None

    def failed(self, error):
        moment = time.monotonic()
        reason = describe(error, self.addresses())
        if permanent(error):
            self.give_up(f"the server refused it ({reason})")
            return None
        if moment >= self.deadline:
            self.give_up(f"the last of {self.attempts} attempts failed ({reason})")
            return None
        wait = backoff.jittered(backoff.nth_wait(self.waits, self.attempts), JITTER)
        due = min(moment + wait, self.deadline)
        to, attempts = self.recipients(), self.attempts
        log.warning("mail to %s not sent yet, attempt %d: %s; next in %.1f s", to, attempts, reason, due - moment)
        return due

    def give_up(self, why):
        log.error("mail to %s given up after %.0f s: %s", self.recipients(), time.monotonic() - self.started, why)

    def addresses(self):
        return [a for _, a in getaddresses(self.msg.get_all("To", []) + self.msg.get_all("Cc", [])) if a]

    def recipients(self):
        return ", ".join(masked(a) for a in self.addresses()) or "nobody"


class Outbox:
    """A worker thread for work that must not delay or shape the answer; it starts with the first job. A job
    runs once; a mail is sent with retries, and while it waits for its next attempt what comes after it goes
    ahead."""

    def __init__(self, retry_seconds=RETRY_SECONDS):
        self.waits = tuple(retry_seconds)
        self.ready = collections.deque()
        self.waiting = []  # heap of (due, sequence, delivery): mail between attempts
        self.sequence = itertools.count()
        self.unfinished = 0
        self.closing = False
        self.changed = threading.Condition()
        self.thread = None

    def put(self, job):
        """Run `job()` once; an exception is logged."""
        with self.changed:
            if self.thread is None:
                self.thread = threading.Thread(target=self._work, name="outbox", daemon=True)
                self.thread.start()
            self.ready.append(job)
            self.unfinished += 1
            self.changed.notify_all()

    def send(self, msg, mailer, window_seconds=SIGNIN_WINDOW_SECONDS):
        """Send a composed message with `mailer`; while that fails, try again with back-off for the window."""
        self.put(Delivery(msg, mailer, window_seconds, self.waits))

    def join(self, timeout=None):
        """Wait until everything put so far is done (mail sent or given up); False if the timeout came first."""
        with self.changed:
            return self.changed.wait_for(lambda: self.unfinished == 0, timeout)

    def close(self):
        """Finish the jobs put so far, give up mail that waits for a later attempt, then stop the thread."""
        with self.changed:
            self.closing = True
            self.changed.notify_all()
        if self.thread is not None:
            self.thread.join()

    def _work(self):
        while (job := self._next()) is not None:
            due = self._run(job)
            with self.changed:
                if due is None:
                    self._done()
                else:
                    heapq.heappush(self.waiting, (due, next(self.sequence), job))

    def _run(self, job):
        if isinstance(job, Delivery):
            return job.attempt()
        try:
            job()
        except Exception:
            log.exception("outbox job failed")
        return None

    def _next(self):
        """The next job: one put, else a mail whose next attempt is due; None once closing leaves nothing."""
        with self.changed:
            while True:
                if self.ready:
                    return self.ready.popleft()
                moment = time.monotonic()
                if self.waiting and self.waiting[0][0] <= moment:
                    return heapq.heappop(self.waiting)[2]
                if self.closing:
                    self._abandon()
                    return None
                self.changed.wait(self.waiting[0][0] - moment if self.waiting else None)

    def _abandon(self):
        while self.waiting:
            heapq.heappop(self.waiting)[2].give_up("the service stopped before the next attempt")
            self._done()

    def _done(self):
        self.unfinished -= 1
        self.changed.notify_all()
