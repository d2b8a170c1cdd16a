"""Other rows a record's write or delete touches: the references it names must exist (422), the references to it
keep it (409 `resource_in_use`), a flag only one row may hold; a record's name in those messages (`singular`)."""

from domain.errors import ApiError, invalid
from models import db, now


def singular(model):
    """gig_statuses -> "gig status", webhook_deliveries -> "webhook delivery": a record's name in messages."""
    name = model._meta.table_name
    if name.endswith("ies"):
        name = name[:-3] + "y"
    else:
        name = name[:-2] if name.endswith("ses") else name[:-1] if name.endswith("s") else name
    return name.replace("_", " ")


def in_use_error(noun, counts):
    return ApiError(
        409, "resource_in_use", f"This {noun} is still referenced by other records.", {"referenced_by": counts}
    )


def check_references(references, changes):
    """422 on each `*_id` in `changes` that names no existing row."""
    errors = {}
    for name, target in references.items():
        value = changes.get(name)
        if value is not None and not target.select().where(target.id == value).exists():
            errors[name] = [f"No {singular(target)} with this id."]
    if errors:
        raise invalid(errors)


def references_to(record):
    """{collection: count} of the rows whose references keep `record` from being deleted, in one query."""
    restricting = [
        (field.model._meta.table_name, field.column_name)
        for field in record._meta.backrefs
        if (field.on_delete or "RESTRICT").upper() in ("RESTRICT", "NO ACTION")
    ]
    if not restricting:
        return {}
    one = 'SELECT COUNT(*) FROM "{}" WHERE "{}" = ' + db.param
    counts = ", ".join(f"({one.format(table, column)})" for table, column in restricting)
    row = db.execute_sql(f"SELECT {counts}", [record.id] * len(restricting)).fetchone()
    totals = {}
    for (table, _), count in zip(restricting, row):
        if count:
            totals[table] = totals.get(table, 0) + count
    return totals


def clear_others(model, record, flag, *within):
    """Unset `flag` on the other rows (sharing the values of the fields `within`) once `record` has it set."""
    if not getattr(record, flag):
        return
    field = getattr(model, flag)
    query = model.update({field: False, model.updated_at: now()}).where(field == True, model.id != record.id)  # noqa: E712
    for name in within:
        query = query.where(getattr(model, name) == getattr(record, name))
    query.execute()
