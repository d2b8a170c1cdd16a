"""First run (SPEC §12): while no active user holds `*`, `serve` prints a setup link, valid one hour, whose page
names the first admin. The link's token is signed (`signed_links.setup_token`) and names a nonce kept in the database;
naming the admin deletes the nonce in the same transaction, so a link works once, only the one `serve` printed
last works, and none works once an admin exists."""

import secrets
import time

from dialects import access, dialect
from domain import signed_links
from models import Setting

SETUP_MINUTES = 60
NONCE_KEY = "setup_nonce"


def admin_exists():
    return access.count_all_capability_holders() > 0


def new_setup_link(config):
    """`{public_url}/setup#token=...`, replacing any link printed before (in the fragment, as sign-in links: no
    server or log between the browser and the service sees it)."""
    nonce = secrets.token_urlsafe(16)
    with dialect.locking_transaction():  # one statement: it needs no more
        dialect.upsert(Setting, key=NONCE_KEY, value=nonce)
    return f"{config['PUBLIC_URL']}/setup#token={signed_links.setup_token(config, nonce)}"


def fresh(config, token):
    """The nonce of a setup token signed by us less than an hour ago, else None."""
    subject = signed_links.setup_subject(config, token)
    if subject is None:
        return None
    nonce, issued_at = subject
    age = time.time() - issued_at
    return nonce if -60 < age < SETUP_MINUTES * 60 else None  # a minute's leeway for a clock set back


def spend(nonce):
    """Use up the link of `nonce` (inside the caller's transaction): True when it was the live one."""
    return Setting.delete().where(Setting.key == NONCE_KEY, Setting.value == nonce).execute() == 1
