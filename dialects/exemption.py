"""Blocks of this thread's statements that no read budget applies to (SPEC §2.3), whatever the dialect: a write
transaction, and the server's own work done once for many requests. A dialect's budget asks `exempt()` before it
limits or interrupts a statement."""

import contextlib
import threading

_held = threading.local()


def exempt():
    """Whether this thread is inside an Unbudgeted block."""
    return getattr(_held, "depth", 0) > 0


def without_budget():
    """A block whose statements are never interrupted for their cost (see the dialects' `limit_statements`)."""
    return Unbudgeted(contextlib.nullcontext())


class Unbudgeted:
    """A context (a transaction, say) during which this thread's statements have no budget."""

    def __init__(self, context):
        self.context = context

    def __enter__(self):
        _held.depth = getattr(_held, "depth", 0) + 1
        try:
            return self.context.__enter__()
        except BaseException:
            _held.depth -= 1
            raise

    def __exit__(self, *exception):
        try:
            return self.context.__exit__(*exception)
        finally:
            _held.depth -= 1
