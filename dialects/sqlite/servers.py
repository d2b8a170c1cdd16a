"""What several `serve` processes on one database need, on SQLite: nothing more than its write lock, which every
claim and every piece of timed work holds from its start (each is one write transaction)."""

import contextlib


def claiming(query):
    """The SELECT of rows a claim takes, as it is: no other writer runs while the claim's transaction does."""
    return query


def locking(query):
    """The SELECT of rows a transaction writes from what it reads, as it is: the writer runs alone."""
    return query


def one_server_at_a_time(name):
    """Whether this process has the block to itself: always (each piece of it is a write transaction)."""
    return contextlib.nullcontext(True)
