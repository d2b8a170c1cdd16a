"""References a list follows one hop (SPEC §11): `Reference`, what `expand` embeds and what a filter or sort
goes through (`venue.city`), checked against the capabilities of the caller."""

import functools
from dataclasses import dataclass, replace

from peewee import Field

from dialects import dialect
from domain import pay_policy
from domain.errors import ApiError
from listing.columns import Column


@dataclass(frozen=True, eq=False)
class Reference:
    """A reference of a listed record to a record of another collection (`venue_id` to a venue), as a caller holding
    some capabilities follows it (SPEC §11): `expand=venue` embeds the record, `filter[venue.city]` and
    `sort=venue.city` go through it, when the caller may view the referenced collection."""

    name: str  # `venue`: the reference's field without `_id`
    column: Column  # the referencing field
    model: object
    alias: object  # the referenced table as a page joins it, named after the reference
    required: bool  # never null: joined without keeping records that lack it
    group: str
    allowed: bool  # the caller holds `<group>.view`
    columns: dict  # {name: Column} of the referenced record as the caller reads it

    def require_allowed(self):
        if not self.allowed:
            required = f"{self.group}.view"
            message = f"Following {self.name} needs {required}."
            raise ApiError(403, "forbidden", message, {"required": required})

    def through(self, name):
        """The column `<reference>.<name>`, read from the joined referenced record."""
        self.require_allowed()
        if name not in self.followable():
            if name in self.columns and self.columns[name].free_text:
                raise ValueError(f"{self.name}.{name} is free text: no list follows a reference to it.")
            raise ValueError(f"Unknown field {name!r} of {self.name}.")
        column = self.columns[name]
        if column.hidden:
            raise pay_policy.refused(f"{self.name}.{name}", column)
        expr = column.on(self.alias) if column.on else getattr(self.alias, column.expr.name)
        unindexed = name not in index_keys(self.model)
        return replace(column, name=f"{self.name}.{name}", expr=expr, followed=True, unindexed=unindexed)

    def identity(self):
        """The column `<reference>.id`: the id of the joined referenced record."""
        return Column(f"{self.name}.id", self.alias.id, "id")

    def followable(self):
        """The names of the referenced record's fields that a filter or sort may go through: its stored fields but
        free text. Sorted through a reference, the referencing rows are walked in the order of an index on the
        referenced (key, id), which SQLite walks without a sort only where the key is never null; a long text that
        is often null (notes) would have every row sorted, and filtered, every row read (SPEC §2.3)."""
        return [
            name
            for name, column in self.columns.items()
            if column.kind != "json"
            and not column.free_text
            and (column.hidden or column.on or (isinstance(column.expr, Field) and column.expr.model is self.model))
        ]

    def embedded(self):
        """The column `<reference>`: the referenced record as the caller reads it, or null."""
        self.require_allowed()
        record = list(self.columns.values())
        shape = (self.model, tuple(column.key for column in record))
        return Column(self.name, dialect.embedded(self.model, self.name, record, self.column.expr), "json", shape=shape)


@functools.cache
def index_keys(model):
    """The fields of `model` that lead one of the indexes its model declares (its primary key among them): the keys
    a sort through a reference to it walks in order, without sorting the referencing rows (SPEC §2.3)."""
    indexes = model._meta.fields_to_index()  # ModelIndex objects; a dialect's own (SQL) index is not looked into
    leading = (index._expressions[0] for index in indexes if getattr(index, "_expressions", None))
    return frozenset([model._meta.primary_key.name, *(getattr(field, "name", None) for field in leading)])


def expand_of(values, references, errors):
    """The References `expand` names among the parameters `values` (none where the collection has none to
    follow); a bad `expand` goes into `errors`."""
    if references is None or "expand" not in values:
        return []
    try:
        return _expanded(values["expand"], references)
    except ValueError as e:
        errors["expand"] = str(e)
        return []


def _expanded(value, references):
    """The References named by `expand` (each once), checked before any is followed."""
    names = list(dict.fromkeys(value.split(",")))
    unknown = [name for name in names if name not in references]
    if unknown:
        known = ", ".join(references) or "none"
        raise ValueError(f"Unknown reference {unknown[0]!r}: this collection expands {known}.")
    return [references[name] for name in names]


def with_embedded(columns, expand):
    """`columns` with the records of the `expand` References embedded, each beside its id."""
    if not expand:
        return columns
    embedded = {reference.column.name: reference.embedded() for reference in expand}
    found = []
    for column in columns:
        found.append(column)
        if column.name in embedded:
            found.append(embedded.pop(column.name))
    return found + list(embedded.values())


def through(name, references, page, filtering):
    """The column `<reference>.<field>` (one hop), its reference joined to the page."""
    reference_name, _, field_name = name.partition(".")
    reference = references[reference_name]
    column = reference.through(field_name)
    for joins in (page.joins, page.filter_joins) if filtering else (page.joins,):
        if reference not in joins:
            joins.append(reference)
    return column
