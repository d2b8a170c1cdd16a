"""The mail a test sent (the file mailer's messages) and the sign-in links in it."""

import email
import email.policy
import re
import urllib.parse
from pathlib import Path

from tests.support.waiting import SLOW_MACHINE_SECONDS, wait_for


def request_link(anon, address):
    """Ask for a sign-in link and wait until the outbox has done what the request set off."""
    r = anon.post("/auth/link", json={"email": address})
    assert r.status_code == 200 and r.get_json() == {"data": {"sent": True}}, r.get_json()
    anon.client.application.extensions["outbox"].join()


def mails(app, address=None):
    """The messages the file mailer wrote, oldest first (after the outbox is done)."""
    app.extensions["outbox"].join()
    directory = Path(app.config["MAIL_URL"].removeprefix("file:"))
    found = [
        email.message_from_bytes(p.read_bytes(), policy=email.policy.default) for p in sorted(directory.glob("*.eml"))
    ]
    return [m for m in found if address is None or m["To"] == address]


def text_of(msg):
    """The plain text of a mail (it has an HTML alternative too)."""
    return msg.get_body(("plain",)).get_content()


def link_token(msg):
    """The sign-in token a mailed link carries."""
    text = text_of(msg)
    return urllib.parse.unquote(re.search(r"token=([A-Za-z0-9_\-]+)", text).group(1))


def mailed_signin_link(outbox, address):
    """The sign-in link in the mail to `address` that a served office's file mailer writes into the folder
    `outbox`, once it is there."""

    def found():
        for path in outbox.glob("*.eml"):
            message = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
            if message["To"] == address:
                return re.search(r"\S+/signin#token=\S+", text_of(message))[0]
        return None

    return wait_for(found, timeout=SLOW_MACHINE_SECONDS)
