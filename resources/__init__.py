"""The generic resource layer: a collection declared once (model, schema, group, default order) answers
list/get/create/patch/delete with the §2 conventions. Irregular behaviour lives in a subclass beside the
resource's declaration. It may override:

- the hooks of a write: `before_save`, `after_save`, `before_delete`;
- how its records read: `columns` (added to in `__init__`: a computed column), `changed_now` (columns that read
  otherwise at this moment), `answer_json` (a create's answer);
- the gig its events belong to: `gig_of`, `gigs_of` (of the RecordsEvents mixin);
- a whole operation, around the generic one or instead of it: `create`, `delete`;

and it declares what the views and the OpenAPI document read: `write_flags`, the boolean query parameters its
writes take; `list_flags`, those its list takes, each narrowing it as `list_scope` says; `upload`, a create body sent
as multipart/form-data instead of JSON; `created`, the schema of a create's answer that shows more than a read (with
`answer_json` making it).

Its parts: `views.py` (the views `register` serves), `parameters.py` (query parameters, write flags, multipart
bodies), `related.py` (the other rows a write or delete touches)."""

import functools
import json
from dataclasses import dataclass, field

from flask import g
from peewee import ForeignKeyField

import events
import listing
from auth import current_capabilities, is_own_member, require
from dialects import dialect
from domain import custom_fields, pay_policy
from domain.errors import not_found
from events.resource import RECORDERS, RecordsEvents
from models import db, now
from resources.parameters import Flag, Multipart, reject_parameters
from resources.related import check_references, clear_others, in_use_error, references_to, singular
from resources.views import CollectionView, RecordView
from schemas import load
from web.lifecycle import json_body, json_text_response, page_answer

# what the collections' own code and the OpenAPI document import from `resources`
__all__ = [
    "REGISTRY",
    "Flag",
    "Multipart",
    "Resource",
    "Write",
    "clear_others",
    "in_use_error",
    "private_fields",
    "register",
    "reject_parameters",
    "resource_of",
]

REGISTRY = {}

# What `q` searches (SPEC §11): names, titles, e-mail, city and their kind; never notes or descriptions. Each
# collection with one of them keeps a search index of them (sql/sqlite/0010_search.py made those that shipped then).
SEARCHED_FIELDS = frozenset(
    (
        "name",
        "title",
        "first_name",
        "last_name",
        "email",
        "company",
        "city",
        "artist",
        "label",
        "key",
        "filename",
        "serial_number",
        "relationship",
        "reason",
        "url",
    )
)


def default_order(columns):
    """SPEC §2.1: `position` first where there is one, then `name`, else `created_at`."""
    order = ["position"] if "position" in columns else []
    return order + (["name"] if "name" in columns else ["created_at"])


class Resource(RecordsEvents):
    """A collection of SPEC §4: `name` is its URL segment, derived from the model's table."""

    def __init__(self, model, schema, group, order=None):
        self.model, self.schema, self.group = model, schema(), group
        self.name = model._meta.table_name.replace("_", "-")
        self.columns = listing.columns_of(model, self.schema)
        self.order = order or default_order(self.columns)
        self.by_capabilities = {}  # caller's capabilities -> the columns and references as they read them
        self.aliases = {}  # reference name -> the referenced table as pages join it
        self.searched = tuple(name for name in self.columns if name in SEARCHED_FIELDS)
        # words -> the condition of `q`, where the collection has text to search
        self.search = functools.partial(dialect.matching_words, model) if self.searched else None
        self.references = {
            name: column.rel_model
            for name, column in model._meta.columns.items()
            if isinstance(column, ForeignKeyField) and name in self.schema.fields
        }

    # --- hooks for a resource's own rules ---------------------------------------------------------------

    def before_save(self, write):
        """Check and complete `write.record` (its changes applied) before it is stored: raise ApiError."""

    def after_save(self, write):
        """Work on other rows that the write implies (in the same transaction)."""

    def before_delete(self, record):
        """Refuse a delete that references alone do not forbid."""

    write_flags = ()  # Flag(...): boolean query parameters the create and patch take
    list_flags = ()  # Flag(...): boolean query parameters the list takes (`?overdue=true`), see `list_scope`
    upload = None  # Multipart(...): the create body is multipart/form-data with these parts
    created = None  # a schema: the create's answer shows more than a read does (a secret, once)

    def write_options(self, args):
        """{flag: bool} of the declared write flags; any other query parameter is 400."""
        reject_parameters(args, allowed=[flag.name for flag in self.write_flags])
        return {flag.name: flag.parse(args) for flag in self.write_flags}

    def created_answer(self, record, path):
        """The answer to a create: 201, the record as the caller reads it, and its `Location`."""
        response = json_text_response(f'{{"data":{self.answer_json(record, record.event_json)}}}', 201)
        response.headers["Location"] = path
        return response

    def create_body(self):
        """The body of a create: JSON, or the declared multipart parts."""
        return self.upload.read() if self.upload else json_body()

    # --- the generic behaviour ----------------------------------------------------------------------------

    def list(self, args):
        page = self.parse_list(args)
        given = {flag.name: flag.parse(page.extra) for flag in self.list_flags if flag.name in page.extra}
        return self.list_page(page, self.list_scope(given) if given else ())

    def list_scope(self, flags):
        """The conditions of a list given the list flags `flags` {name: bool}."""
        return ()

    def parse_list(self, args):
        """A list request's parameters as a Page of the columns the caller reads (400 naming each bad one)."""
        return listing.parse(
            args,
            self.readable_columns(),
            self.order,
            resolve=self.resolve,
            references=self.readable_references(),
            search=self.search,
            extra=[flag.name for flag in self.list_flags],
        )

    def parse_record(self, args):
        """A single read's parameters (`fields`, `expand`): the columns to answer with (None: all)."""
        return listing.parse_fields_only(args, self.readable_columns(), self.readable_references())

    def list_page(self, page, scope=()):
        """The answer for a page of the records (of those matching the conditions `scope`, when given)."""
        with db.atomic():  # one snapshot for the rows and their total
            rows, total = listing.json_page(self.model, page, scope)
        return page_answer(rows, total, page)

    def readable_columns(self):
        """The columns as the caller reads them: amounts private to a group they cannot view read as null."""
        return self.readable(g.caller.can)[0]

    def readable_list(self):
        return self.readable(g.caller.can)[1]

    def readable_references(self):
        return self.readable(g.caller.can)[2]

    def readable(self, can):
        """({name: Column}, [Column], {name: Reference}) for a caller holding `can`, worked out once per set of
        capabilities (and per moment: see `changed_now`)."""
        key = (can, self.moment())
        found = self.by_capabilities.get(key)
        if found is None:
            columns = pay_policy.masked_columns(self.current_columns(), can)
            found = self.by_capabilities[key] = (columns, list(columns.values()), self.followed(can))
        return found

    def changed_now(self):
        """{name: Column} of the columns that read otherwise at this moment than `columns` declares (a count kept
        by the database that time has overtaken): none, unless a collection says so."""
        return {}

    def current_columns(self):
        """`columns` as they read at this moment: reads, references to it and its events use these."""
        changed = self.changed_now()
        return {**self.columns, **changed} if changed else self.columns

    def moment(self):
        """What of this moment decides how its records, and those they reference, read: looked at once per request
        (a read asks it for its columns, its list and its references)."""
        moments = g.setdefault("moments", {})
        if self.name not in moments:
            targets = [self, *filter(None, map(resource_of, self.references.values()))]
            moments[self.name] = tuple(tuple(target.changed_now()) for target in targets)
        return moments[self.name]

    def documented_references(self):
        """The references as the OpenAPI document shows them: followed by a caller who may view everything."""
        everything = frozenset(f"{resource.group}.view" for resource in REGISTRY.values())
        return self.followed(everything | {pay_policy.PAY_VIEW})

    def followed(self, can):
        """{name: listing.Reference} of the references to other collections, as a caller holding `can` follows
        them (`venue_id` -> `venue`)."""
        found = {}
        for column_name, model in self.references.items():
            target = resource_of(model)
            if target is None or self.columns[column_name].group:  # not a collection; an id private to a group
                continue
            name = column_name.removesuffix("_id")
            found[name] = listing.Reference(
                name=name,
                column=self.columns[column_name],
                model=model,
                alias=self.aliases.setdefault(name, model.alias(name)),
                required=not self.model._meta.columns[column_name].null,
                group=target.group,
                allowed=f"{target.group}.view" in can,
                columns=pay_policy.masked_columns(target.current_columns(), can),
            )
        return found

    def require_private_edits(self, data):
        """403 when `data` sets a field that needs another group's `edit` (pay_cents: pay.edit; a staff member's
        user_id: admin.edit)."""
        for name in data if isinstance(data, dict) else ():
            field = self.schema.fields.get(name)
            group = field and (field.metadata.get("group") or field.metadata.get("edit_group"))
            if group:
                require(group, "edit")

    def resolve(self, name):
        if "custom_fields" in self.columns:
            return custom_fields.column(self.model, name)
        return None

    def read(self, record_id, columns=None):
        """The record as the API shows it, or 404."""
        return json.loads(self.read_json(record_id, columns))

    def read_json(self, record_id, columns=None):
        """The record as the API shows it, as JSON text (the database writes it, as it writes lists:
        `listing.record_query`), or 404."""
        sql, params = listing.record_query(self.model, columns or self.readable_list())
        row = db.execute_sql(sql, [*params, record_id]).fetchone() if listing.is_id(record_id) else None
        if row is None:
            raise not_found(f"No {self.noun} with this id.")
        return row[0]

    def record_answer(self, record_id, columns=None):
        """The answer of a single read: the record as the caller reads it (of `columns`, when given), or 404."""
        return json_text_response(f'{{"data":{self.read_json(record_id, columns)}}}')

    def read_many(self, record_ids):
        """The records as the API shows them, in the order of `record_ids`, in one query."""
        selection = dialect.as_json(self.model, self.readable_list())
        query = self.model.select(selection).where(self.model.id.in_(list(record_ids)))
        rows = {row["id"]: row for row in (json.loads(text) for (text,) in db.execute_sql(*query.sql()))}
        return [rows[record_id] for record_id in record_ids]

    def get_own_or(self, record_id, action, member_of):
        """The record, when the caller holds `<group>.<action>` or it belongs to their own staff member
        (`member_of(record)` is its staff member's id); 403 otherwise, before any 404."""
        if f"{self.group}.{action}" in current_capabilities():
            return self.get(record_id)
        record = self.model.get_or_none(self.model.id == record_id) if listing.is_id(record_id) else None
        if record is None or not is_own_member(member_of(record)):
            require(self.group, action)
        return record

    def get(self, record_id):
        """The model instance, or 404 (a malformed id is simply not found)."""
        record = self.model.get_or_none(self.model.id == record_id) if listing.is_id(record_id) else None
        if record is None:
            raise not_found(f"No {self.noun} with this id.")
        return record

    @property
    def noun(self):
        return singular(self.model)

    def create(self, data, options=None):
        record = self.insert(data, options)
        record.event_json = self.record_event("created", record)
        return record

    def insert(self, data, options=None):
        """A new record stored, its `created` event left to the caller (a write of several records recorded as one)."""
        self.require_private_edits(data)
        values = load(self.schema, data)
        record = self.model(**values)
        self.save(record, values, creating=True, options=options or {})
        return record

    def update(self, record, data, options=None):
        before = self.event_view(record.id)
        changes = load(self.schema, data, partial=True)
        if "custom_fields" in changes:
            changes["custom_fields"] = custom_fields.merged(
                self.model._meta.table_name, record.custom_fields, changes["custom_fields"], creating=False
            )
        for name, value in changes.items():
            setattr(record, name, value)
        self.save(record, changes, creating=False, options=options or {})
        after = self.event_json(record.id)
        if changed := events.changes_between(before, json.loads(after)):
            self.record_event("updated", record, after, changes=changed)
        return record

    def save(self, record, changes, creating, options):
        check_references(self.references, changes)
        if creating and "custom_fields" in self.columns:
            record.custom_fields = custom_fields.merged(
                self.model._meta.table_name, {}, changes.get("custom_fields", {}), creating=True
            )
        write = Write(record, changes, creating, options)
        self.before_save(write)
        record.updated_at = now()
        if creating:
            record.created_at = record.updated_at
        record.save(force_insert=creating)
        self.after_save(write)

    def delete(self, record):
        in_use = references_to(record)
        if in_use:
            raise in_use_error(self.noun, in_use)
        self.before_delete(record)
        self.record_event("deleted", record)
        record.delete_instance()


@dataclass
class Write:
    """One create or patch on its way to the database, as the hooks see it."""

    record: object
    changes: dict
    creating: bool
    options: dict = field(default_factory=dict)


@functools.cache
def private_fields():
    """{collection: {field: group}} of the fields private to another group (gig roles' pay_cents: pay)."""
    return {
        resource.model._meta.table_name: {c.name: c.group for c in resource.columns.values() if c.group}
        for resource in REGISTRY.values()
    }


def resource_of(model):
    """The collection whose records are rows of `model`, or None (events are read through their own routes)."""
    return next((resource for resource in REGISTRY.values() if resource.model is model), None)


def register(blueprint, *resources):
    """Serve each resource's collection and records under `blueprint`."""
    for resource in resources:
        REGISTRY[resource.name] = resource
        RECORDERS[resource.model] = resource
        collection = CollectionView.as_view(f"{resource.name}-collection", resource)
        record = RecordView.as_view(f"{resource.name}-record", resource)
        collection.resource = record.resource = resource  # for the OpenAPI document
        collection.upload = resource.upload is not None  # the server lets its body be as large as an upload
        blueprint.add_url_rule(f"/{resource.name}", view_func=collection, methods=["GET", "POST"])
        blueprint.add_url_rule(f"/{resource.name}/<id>", view_func=record, methods=["GET", "PATCH", "DELETE"])
