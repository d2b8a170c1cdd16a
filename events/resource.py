"""What a resource records of its changes (SPEC §8): its events, in the write's own transaction. A mixin of
`resources.Resource`, which provides `model`, `columns`, `current_columns`, `group`, `noun` and
`readable_list`. The resources, by model, as the routes register them (`recorder_of`), so that the background work
records its own changes' events as a request would; and the pay amounts among their fields (`pay_amounts`)."""

import functools
import json

import events
from dialects import dialect
from domain import pay_policy
from domain.sales.counts import SALES
from listing import record_query
from models import db, now

# {model: the resource that records its rows' events}, filled as the routes register their resources: the background
# work records the events of a change it makes (an invitation expired, an endpoint switched off) as a request would,
# without importing the routes.
RECORDERS = {}


def recorder_of(model):
    """The resource that records the events of `model`'s rows."""
    return RECORDERS[model]


class RecordsEvents:
    def record_event(self, verb, record, data=None, changes=None, actor=None):
        """An event `<record>.<verb>` about `record`, in the write's transaction: the record as the API shows
        it (every field: what a reader may see is decided when the event is read). Returns that JSON text.
        `actor`: who did it, when not the caller (events.record)."""
        data = data if data is not None else self.event_json(record.id)
        event_type = f"{self.noun.replace(' ', '_')}.{verb}"
        table = self.model._meta.table_name
        gig_id = self.gig_of(record)
        events.record(event_type, table, record.id, self.group, data, changes=changes, gig_id=gig_id, actor=actor)
        return data

    def change(self, record, actor=None, **values):
        """A change the service makes itself, not a client's body: stored, with its `updated` event (`actor`: who
        did it, when not the caller)."""
        before = self.event_view(record.id)
        for name, value in values.items():
            setattr(record, name, value)
        record.updated_at = now()
        record.save()
        after = self.event_json(record.id)
        if changed := events.changes_between(before, json.loads(after)):
            self.record_event("updated", record, after, changes=changed, actor=actor)

    def record_events(self, verb, record_ids, actor=None):
        """`<record>.<verb>` for each of `record_ids`, changed together (in bulk), in a few statements."""
        selection = dialect.as_json(self.model, list(self.current_columns().values()))
        gigs = self.gigs_of(record_ids)
        query = self.model.select(self.model.id, selection).where(self.model.id.in_(list(record_ids)))
        event_type, table = f"{self.noun.replace(' ', '_')}.{verb}", self.model._meta.table_name
        for record_id, data in query.tuples():
            events.record(event_type, table, record_id, self.group, data, gig_id=gigs.get(record_id), actor=actor)

    def gigs_of(self, record_ids):
        """{record id: the gig it belongs to} of the records of a gig (their `gig_id`)."""
        if "gig_id" not in self.columns:
            return {}
        return dict(
            self.model.select(self.model.id, self.model.gig).where(self.model.id.in_(list(record_ids))).tuples()
        )

    def event_json(self, record_id):
        """The record with every field, as JSON text (SQLite writes it)."""
        sql, params = record_query(self.model, list(self.current_columns().values()))
        return db.execute_sql(sql, [*params, record_id]).fetchone()[0]

    def event_view(self, record_id):
        return json.loads(self.event_json(record_id))

    def answer_json(self, record, written):
        """The record as the caller reads it: `written` (its event's JSON) when no field is hidden from them."""
        columns = self.readable_list()
        if len(columns) == len(self.columns) and not any(column.hidden for column in columns):
            return written
        return self.read_json(record.id)

    def gig_of(self, record):
        """The gig the record belongs to (a gig child's `gig_id`), for its history."""
        return getattr(record, "gig_id", None)


@functools.cache
def sales_fields():
    """{collection: [field]} of the money-in fields of other groups' records (a gig's sales counts): private to the
    sales group, as its own records are."""
    found = {}
    for resource in RECORDERS.values():
        if resource.group == SALES:
            continue
        names = [column.name for column in resource.columns.values() if column.group == SALES]
        if names:
            found[resource.model._meta.table_name] = names
    return found


@functools.cache
def pay_amounts():
    """{collection: [field]} of the pay amounts (`pay_policy.is_amount`): fields private to the pay group (gig
    roles' pay_cents), and the amounts of the pay group's own records (rates)."""
    found = {}
    for resource in RECORDERS.values():
        names = [column.name for column in resource.columns.values() if pay_policy.is_amount(resource.group, column)]
        if names:
            found[resource.model._meta.table_name] = names
    return found
