"""What a 409 shows of the record it clashed with (SPEC §2.3), for every conflict that names one (`domain.errors.Clash`:
a gig role the member plays that night, their blockout, equipment on another gig). One rule, by who asks:

- a caller who may view the record's group reads it as their own read of it shows it (`Resource.read`: pay
  masked as `pay_policy` says, null without pay.view; notes and custom fields, since they hold the view);
- a caller without that view (a musician) reads `{collection, id, gig_id, gig_date, gig_title}` (a blockout:
  `{collection, id, start_date, end_date}`);
- a request without a caller (an answer link's public endpoint) reads the date and the gig's title only."""

from flask import g

from models import Gig, StaffMemberBlockout
from resources import resource_of


def details_of(error):
    """The details of the 409 `error` (a `Clash`), its clashing record as the caller may see it."""
    return {**error.details, error.key: shown(error.record, g.get("caller"))}


def shown(record, caller):
    """`record` as `caller` may see it (None: no caller, the public answer endpoint)."""
    if caller is None:
        return {key: value for key, value in dated(record).items() if key != "gig_id"}
    resource = resource_of(type(record))
    if f"{resource.group}.view" in caller.can:
        return resource.read(record.id)
    return {"collection": record._meta.table_name, "id": record.id, **dated(record)}


def dated(record):
    """When the record is: a blockout's days; else its gig's id, date and title."""
    if isinstance(record, StaffMemberBlockout):
        return {"start_date": record.start_date, "end_date": record.end_date}
    gig = Gig.get_by_id(record.gig_id)
    return {"gig_id": gig.id, "gig_date": gig.gig_date, "gig_title": gig.title}
