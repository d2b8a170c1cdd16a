"""An office whose members are invited to a gig role and answer by link: what the answer page's tests and the
tests of tokens' spelling start from."""

from domain import signed_links


class Office:
    """A gig at a venue with one singer role paying 300.00, three members who sing, and the office's client."""

    def __init__(self, app, admin, build):
        self.app, self.admin, self.build = app, admin, build
        self.singer = build("roles", name="Singer")
        venue = build("venues", name="Schloss Hof", address_line1="Schlosshof 1", postal_code="2294", city="Marchegg")
        times = {"start_time": "18:00", "end_time": "23:30"}
        self.gig = build("gigs", gig_date="2027-06-12", title="Anna & Ben", venue_id=venue["id"], **times)
        self.role = build(
            "gig-roles", gig_id=self.gig["id"], role_id=self.singer["id"], pay_cents=30000, call_time="16:30"
        )
        self.sam, self.alex, self.kim = (self.member(first) for first in ("Sam", "Alex", "Kim"))

    def member(self, first):
        member = self.build("staff-members", first_name=first, last_name="Player")
        self.build("staff-member-roles", staff_member_id=member["id"], role_id=self.singer["id"])
        return member

    def invite(self, member, **fields):
        body = {"gig_role_id": self.role["id"], "staff_member_id": member["id"], **fields}
        return self.admin.create("gig-role-invitations", body)

    def token(self, invitation_id):
        return signed_links.answer_link(self.app.config, invitation_id).split("#token=", 1)[1]

    def status(self, invitation):
        return self.admin.get(f"/gig-role-invitations/{invitation['id']}").get_json()["data"]["status"]

    def events(self, invitation=None):
        """The events, newest first (of one invitation, when given)."""
        query = f"&filter[subject_id]={invitation['id']}" if invitation else ""
        return self.admin.get(f"/events?limit=200{query}").get_json()["data"]
