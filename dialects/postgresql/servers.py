"""What several `serve` processes on one PostgreSQL database need (SPEC §14): claims that skip the rows another
server's transaction holds, and blocks of timed work that one server at a time does."""

import contextlib

from dialects.postgresql.database import WRITE_LOCK, db


def claiming(query):
    """The SELECT of rows a claim takes, in the write transaction under way: each row locked as it is read, the
    rows another transaction holds skipped (FOR UPDATE SKIP LOCKED), so that two servers claiming at once never
    take one row; the claim then marks them claimed before the transaction ends."""
    return query.for_update(skip_locked=True)


@contextlib.contextmanager
def one_server_at_a_time(name):
    """Whether this process has the block to itself: a session advisory lock named `name` taken without waiting
    (False: another server is doing it now) and given back at the end; a process that dies gives it back with its
    connection. The keys (WRITE_LOCK, hash of the name) are apart from the write lock's single key."""
    held = db.execute_sql("SELECT pg_try_advisory_lock(%s, hashtext(%s))", (WRITE_LOCK, name)).fetchone()[0]
    try:
        yield held
    finally:
        if held:
            db.execute_sql("SELECT pg_advisory_unlock(%s, hashtext(%s))", (WRITE_LOCK, name))
