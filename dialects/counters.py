"""Counters kept in a row, raised in the transaction under way (`count_up`): both databases say it alike, an
upsert that answers the new value (SQLite 3.35's and PostgreSQL's `ON CONFLICT … DO UPDATE … RETURNING`)."""


def count_up(model, counter, **key):
    """In one statement, the row of `model` with the primary key `key` made with `counter` 1, or its `counter`
    raised by one; the new value. The row stays held by the transaction until it ends (SQLite: its write lock;
    PostgreSQL: the row's lock), so no concurrent one counts from the same value, and a rollback takes the step
    back."""
    field = getattr(model, counter)
    query = (
        model.insert(**key, **{counter: 1})
        .on_conflict(conflict_target=[getattr(model, name) for name in key], update={field: field + 1})
        .returning(field)
        .tuples()
    )
    [(value,)] = list(query.execute())
    return value
