"""Days as the office counts them: its today (its zone is UTC in a new database), in the API's form."""

import datetime as dt


def today(days=0):
    """The office's today, moved by `days`, as the API writes a date."""
    return (dt.datetime.now(dt.UTC).date() + dt.timedelta(days=days)).isoformat()
