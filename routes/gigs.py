"""The gigs group: gigs, where they happen, and what belongs to each."""

from models import Gig, GigStatus, Venue
from resources import Resource
from schemas import GigSchema, VenueSchema


class Gigs(Resource):
    def before_save(self, write):
        if write.creating and "gig_status_id" not in write.changes:
            default = GigStatus.get_or_none(GigStatus.is_default == True)  # noqa: E712
            write.record.gig_status_id = default.id if default else None


RESOURCES = [
    Gigs(Gig, GigSchema, "gigs", order=["gig_date", "start_time"]),
    Resource(Venue, VenueSchema, "gigs"),
]
