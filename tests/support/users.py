"""Users and tokens made directly in the database, and the moments they expire at."""

import datetime as dt
import uuid

from auth import digest, expiry, new_secret
from models import Token, User, timestamp


def make_user(email=None, roles=("admin",), active=True, name="Test User"):
    return User.create(
        email=email or f"u-{uuid.uuid4().hex[:8]}@example.com", name=name, roles=list(roles), active=active
    )


def make_token(user, kind="session", days=30, label=None):
    value = new_secret("bos_" if kind == "session" else "bok_")
    Token.create(
        user=user.id, kind=kind, token_hash=digest(value), prefix=value[:12], label=label, expires_at=expiry(days=days)
    )
    return value


def ago(**delta):
    return timestamp(dt.datetime.now(dt.UTC) - dt.timedelta(**delta))
