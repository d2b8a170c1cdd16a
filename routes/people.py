"""The people group: the band's staff members and the clients' contacts."""

from models import Contact, StaffMember
from resources import Resource
from schemas import ContactSchema, StaffMemberSchema


class StaffMembers(Resource):
    def before_save(self, write):
        member = write.record
        if member.email:
            member.email = member.email.lower()  # unique when set, whatever the case it was typed in


RESOURCES = [
    StaffMembers(StaffMember, StaffMemberSchema, "people", order=["last_name", "first_name"]),
    Resource(Contact, ContactSchema, "people", order=["last_name", "first_name"]),
]
