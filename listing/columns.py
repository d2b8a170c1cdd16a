"""A listed record's columns: `Column` (a field's name, SQL expression and kind) and the columns of a collection
read from its model and schema (`columns_of`)."""

from dataclasses import dataclass, replace

from peewee import SQL, BooleanField, ForeignKeyField, IntegerField, TextField

from models import DateField, EnumField, JSONField, TimeField, TimestampField


@dataclass(frozen=True)
class Column:
    """A field of a listed record: its name, SQL expression and kind (which decides operators and values)."""

    name: str
    expr: object
    kind: str
    choices: tuple = ()
    group: str = None  # a capability group whose `view` it needs beyond the collection's (pay amounts, §4.6)
    hidden: bool = False  # read as null: pay_policy.masked_columns hid it from the caller
    shape: tuple = ()  # what else decides its SQL: the columns of an embedded record
    on: object = None  # a computed column: on(table) is its SQL on another alias of its table (a joined record)
    # A computed column's `narrowing(values)`: the condition on stored fields that its being one of `values`
    # implies, which an index can find (the computed expression itself no index holds).
    narrowing: object = None
    followed: bool = False  # read through a reference (`gig.title` on gig roles)
    unindexed: bool = False  # ...where no index of the referenced table leads with it (see `Reference.through`)
    unsorted: bool = False  # a computed column no list sorts by: no index holds it (a gig's money-in counts)

    @property
    def key(self):
        """What decides the column's SQL in a record's JSON (see dialect.as_json)."""
        return self.name, self.hidden, self.shape

    @property
    def sortable(self):
        return self.kind != "json" and not self.unsorted

    @property
    def free_text(self):
        """Free text (notes, a message, a description: up to 100 000 characters), which no list follows a reference
        to sort or filter by (see `Reference.followable`)."""
        return self.kind == "str" and isinstance(self.expr, TextField)

    def masked(self):
        """The column as a caller reads it whom the pay policy hides it from: null, and neither filtered nor sorted
        on."""
        return replace(self, expr=SQL("NULL"), hidden=True)


def kind_of(field):
    """The listing kind of a model field: which filter operators and values it takes."""
    if isinstance(field, ForeignKeyField):
        return "ref"
    if field.primary_key:
        return "id"
    for cls, kind in KINDS:
        if isinstance(field, cls):
            return kind
    return "str"


KINDS = (
    (EnumField, "enum"),
    (DateField, "date"),
    (TimeField, "time"),
    (TimestampField, "timestamp"),
    (JSONField, "json"),
    (BooleanField, "bool"),
    (IntegerField, "int"),
)


def columns_of(model, schema):
    """{field name: listing.Column} for every field the schema answers with: the model's columns, and (kind json,
    neither filtered nor sorted on) the parts of an answer made of other records, which `fields` names."""
    columns = {}
    for name, schema_field in schema.fields.items():
        if schema_field.load_only:
            continue
        column = model._meta.columns.get(name)
        if column is None:
            columns[name] = Column(name, SQL("NULL"), "json")
            continue
        group = schema_field.metadata.get("group")
        columns[name] = Column(name, column, kind_of(column), getattr(column, "values", ()), group)
    return columns
