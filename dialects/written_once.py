"""Statements peewee writes once and binds afresh with each run's values, whatever the dialect (each dialect's
`prepared`): peewee takes longer to write a statement than the database takes to run a small one."""


class StandIn(str):
    """Where a value goes in a statement written once (see `written_once`): a string no value is."""


def written_once(build, write, bindable):
    """A statement whose SQL peewee writes once, for the values given each time it runs: `build(*stand_ins)` makes
    the query and `write(query)` its (sql, params) (`packed_statement`, say); the answer takes the values and gives
    (sql, params) with each value bound as `bindable(value)` makes it (a list or set as the dialect's `one_of`
    binds one)."""
    written = []

    def bind(*values):
        if not written:
            stand_ins = [StandIn(f"\0{i}\0") for i in range(len(values))]
            sql, params = write(build(*stand_ins))
            written.append((sql, params, [stand_ins.index(p) if isinstance(p, StandIn) else None for p in params]))
        sql, params, places = written[0]
        bound = [given if place is None else bindable(values[place]) for given, place in zip(params, places)]
        return sql, bound

    return bind
