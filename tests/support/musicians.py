"""A band of two musicians with gigs, roles and invitations, as the tests of a musician's own work (/me) read it."""

import datetime as dt

from models import timestamp
from tests.support.records import SCHLOSS_HOF
from tests.support.users import make_token, make_user


def day(offset):
    return (dt.date.today() + dt.timedelta(days=offset)).isoformat()


def in_hours(hours):
    return timestamp(dt.datetime.now(dt.UTC) + dt.timedelta(hours=hours))


class Band:
    """Sam (the signed-in musician, access role `staff`) and Kim. Sam sings on the wedding in ten days, Kim drums
    there; Sam is invited to sing at a party in twenty days, and sang at a gig ten days ago; Kim plays a gig of her
    own. The singer's rate is 350 EUR; Kim's drums pay more on the wedding (an amount Sam never reads)."""

    def __init__(self, admin, build, anon):
        self.admin, self.build = admin, build
        self.venue = build("venues", **SCHLOSS_HOF)
        self.status = build.status("Confirmed", "confirmed", is_default=True)
        self.singer = build("roles", name="Lead vocals", position=1)
        self.drums = build("roles", name="Drums", position=2)
        self.reception = build("products", name="Reception")
        build("rates", role_id=self.singer["id"], amount_cents=35000)
        self.user = make_user(roles=["staff"], name="Sam Adams")
        self.sam = self.member("Sam", "Adams", self.singer, email="sam@example.com", phone="+43 660 111")
        admin.patch(f"/staff-members/{self.sam['id']}", json={"user_id": self.user.id})
        self.kim = self.member("Kim", "Clark", self.drums, email="kim@example.com", phone="+43 660 999")
        self.me = anon.with_token(make_token(self.user))
        self.wedding = self.gig(10, "Anna & Ben", start_time="18:00", end_time="01:00", load_in_time="16:00")
        product = build(
            "gig-products",
            gig_id=self.wedding["id"],
            product_id=self.reception["id"],
            start_time="19:00",
            end_time="00:30",
        )
        self.vocals = self.role(self.wedding, self.singer, self.sam, gig_product_id=product["id"], call_time="17:00")
        self.kims_drums = self.role(self.wedding, self.drums, self.kim, pay_cents=765432109)
        self.role(self.wedding, self.singer)  # a second voice, still open
        self.entrance = build("gig-moments", gig_id=self.wedding["id"], name="Grand entrance", time="19:30", position=1)
        self.dance = build("gig-moments", gig_id=self.wedding["id"], name="First dance", time="21:00", position=2)
        self.song = build(
            "gig-songs",
            gig_id=self.wedding["id"],
            title="Superstition",
            kind="setlist",
            gig_moment_id=self.entrance["id"],
        )
        self.party = self.gig(20, "Birthday party")
        self.party_role = self.role(self.party, self.singer)
        self.invitation = self.invite(self.party_role, self.sam, message="Free then?")
        self.past = self.gig(-10, "Last month")
        self.role(self.past, self.singer, self.sam)
        self.kims_gig = self.gig(12, "Kim's gig")
        self.role(self.kims_gig, self.drums, self.kim)

    def member(self, first, last, role, **fields):
        member = self.build("staff-members", first_name=first, last_name=last, **fields)
        self.build("staff-member-roles", staff_member_id=member["id"], role_id=role["id"])
        return member

    def gig(self, offset, title, **fields):
        return self.build("gigs", gig_date=day(offset), title=title, venue_id=self.venue["id"], **fields)

    def role(self, gig, role, member=None, **fields):
        body = {"gig_id": gig["id"], "role_id": role["id"], "staff_member_id": member and member["id"], **fields}
        return data(self.admin.post("/gig-roles", json=body), 201)

    def invite(self, gig_role, member, **fields):
        body = {"gig_role_id": gig_role["id"], "staff_member_id": member["id"], **fields}
        return self.build("gig-role-invitations", **body)


def data(response, status=200):
    body = response.get_json()
    assert response.status_code == status, body
    return body["data"]
