"""Rows of a SELECT packed into one value by the database, whatever the dialect: the query as each dialect's
`packed_statement` reads it, before its own SQL packs the rows."""


def named(query, order=()):
    """(sql, params, names, keys) of `query` with its columns named c0, c1... (`names`) and the expressions of
    `order`, a page's [(expression, descending)], added as k0, k1... (`keys`)."""
    names = [f"c{i}" for i in range(len(query.selected_columns))]
    keys = [f"k{i}" for i in range(len(order))]
    inner = query.clone()
    inner.selected_columns = [column.alias(name) for column, name in zip(query.selected_columns, names)]
    inner.selected_columns += [expr.alias(key) for (expr, _), key in zip(order, keys)]
    sql, params = inner.sql()
    return sql, params, names, keys
