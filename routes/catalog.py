"""The catalog group: what the band sells and the vocabulary gigs are described with."""

from models import GigStatus, GigType, Team
from resources import Resource, clear_others
from schemas import GigStatusSchema, GigTypeSchema, TeamSchema


class GigStatuses(Resource):
    def after_save(self, write):
        clear_others(GigStatus, write.record, "is_default")


RESOURCES = [
    Resource(Team, TeamSchema, "catalog"),
    Resource(GigType, GigTypeSchema, "catalog"),
    GigStatuses(GigStatus, GigStatusSchema, "catalog"),
]
