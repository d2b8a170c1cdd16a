"""What several `serve` processes on one PostgreSQL database need (SPEC §14): claims that skip the rows another
server's transaction holds, and blocks of timed work that one server at a time does."""

import contextlib

from dialects.postgresql.database import db

SERVERS_LOCKS = 0x42414E44  # "BAND": the first key of the advisory locks of `one_server_at_a_time`


def claiming(query):
    """The SELECT of rows a claim takes, in a locking transaction (`locking_transaction`): each row locked as it is
    read, the rows another transaction holds skipped (FOR UPDATE SKIP LOCKED), a row another claim changed and
    committed meanwhile read again as it is now and taken only if it still matches; so two servers claiming at once
    never take one row. The claim then marks them claimed before the transaction ends."""
    return query.for_update(skip_locked=True)


def locking(query):
    """The SELECT of rows a locking transaction writes from what it reads: each row locked as it is read (waiting for
    a transaction that holds it) and read as last committed (FOR UPDATE), so no other writes it meanwhile."""
    return query.for_update()


@contextlib.contextmanager
def one_server_at_a_time(name):
    """Whether this process has the block to itself: a session advisory lock named `name` taken without waiting
    (False: another server is doing it now) and given back at the end; a process that dies gives it back with its
    connection. Its keys: SERVERS_LOCKS, and a hash of the name."""
    held = db.execute_sql("SELECT pg_try_advisory_lock(%s, hashtext(%s))", (SERVERS_LOCKS, name)).fetchone()[0]
    try:
        yield held
    finally:
        if held:
            db.execute_sql("SELECT pg_advisory_unlock(%s, hashtext(%s))", (SERVERS_LOCKS, name))
