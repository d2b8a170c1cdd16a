"""SPEC §10 and §4.6: a musician signed in with the shipped `staff` access role walks every operation of the OpenAPI
document. Nothing answers another member's contact details, pay, invitations or blockouts, or a client's contact
details; everything of the musician's own is reachable; every answer is one the document describes."""

import datetime as dt
import re
import uuid

import pytest

from tests.support.documented import operations, required_query
from tests.support.users import make_token, make_user
from web.rate_limits import RateLimiter


def day(offset):
    return (dt.date.today() + dt.timedelta(days=offset)).isoformat()


class Office:
    """Sam (the musician walking the API) and Kim, on one gig with a client; each with contact details, pay, an
    invitation and a blockout, every value written so that it cannot turn up by chance."""

    def __init__(self, admin, build, anon):
        self.admin, self.build = admin, build
        singer, drums = build("roles", name="Lead vocals"), build("roles", name="Drums")
        reception = build("products", name="Reception")
        self.sam = self.member("Sam", "sam.own@example.com", "+43 660 1010101", singer)
        self.kim = self.member("Kim", "kim.private@example.com", "+43 660 2020202", drums, notes="Kim's secret")
        self.kims_user = kims_user = make_user(roles=["staff"], email="kim.user@example.com")
        self.user = make_user(roles=["staff"], email="sam.user@example.com", name="Sam Own")
        for member, user in ((self.sam, self.user), (self.kim, kims_user)):
            admin.patch(f"/staff-members/{member['id']}", json={"user_id": user.id})
        self.client = build("contacts", first_name="Bride", email="bride@client.example", phone="+43 699 3030303")
        self.gig = build("gigs", gig_date=day(10), title="Anna & Ben", start_time="18:00", end_time="23:00")
        build("gig-contacts", gig_id=self.gig["id"], contact_id=self.client["id"], is_primary=True)
        product = build("gig-products", gig_id=self.gig["id"], product_id=reception["id"])
        self.sams_role = self.role(singer, self.sam, product, pay_cents=313131313)
        self.kims_role = self.role(drums, self.kim, product, pay_cents=424242424)
        build(
            "staff-member-product-rates",
            staff_member_id=self.kim["id"],
            product_id=reception["id"],
            amount_cents=535353535,
        )
        build("rates", role_id=drums["id"], amount_cents=646464646)
        later = build("gigs", gig_date=day(30), title="Party")
        self.sams_invitation = self.invite(later, singer, self.sam)
        self.kims_invitation = self.invite(later, drums, self.kim)
        self.taken = self.invite(later, singer, self.sam)  # Sam said no; Kim took the role at a pay of her own
        admin.post(f"/gig-role-invitations/{self.taken['id']}/decline")
        admin.post("/staff-member-roles", json={"staff_member_id": self.kim["id"], "role_id": singer["id"]})
        kims_pay = {"staff_member_id": self.kim["id"], "pay_cents": 424242424}
        assert admin.patch(f"/gig-roles/{self.taken['gig_role_id']}", json=kims_pay).status_code == 200
        offered = self.invite(later, singer, self.sam)  # Sam said no; Kim is asked at a pay of her own
        admin.post(f"/gig-role-invitations/{offered['id']}/decline")
        assert admin.patch(f"/gig-roles/{offered['gig_role_id']}", json={"pay_cents": 979797979}).status_code == 200
        self.build("gig-role-invitations", gig_role_id=offered["gig_role_id"], staff_member_id=self.kim["id"])
        self.money_in = self.sales()
        self.sams_blockout = self.blockout(self.sam, day(60))
        self.kims_blockout = self.blockout(self.kim, day(61))
        self.kims_feed = admin.get(f"/staff-members/{self.kim['id']}/calendar-url").get_json()["data"]["url"]
        self.me = anon.with_token(make_token(self.user))
        told = admin.get(f"/notifications?filter[recipient_user_id]={kims_user.id}").get_json()["data"]
        self.kims_notification = told[0]

    def member(self, first, email, phone, role, **fields):
        member = self.build("staff-members", first_name=first, last_name="Player", email=email, phone=phone, **fields)
        self.build("staff-member-roles", staff_member_id=member["id"], role_id=role["id"])
        return member

    def role(self, role, member, product, **fields):
        body = {"gig_id": self.gig["id"], "role_id": role["id"], "gig_product_id": product["id"], **fields}
        gig_role = self.admin.post("/gig-roles", json=body).get_json()["data"]
        self.admin.patch(f"/gig-roles/{gig_role['id']}", json={"staff_member_id": member["id"]})
        return gig_role

    def invite(self, gig, role, member):
        gig_role = self.build("gig-roles", gig_id=gig["id"], role_id=role["id"])
        return self.build("gig-role-invitations", gig_role_id=gig_role["id"], staff_member_id=member["id"])

    def sales(self):
        """The couple's quote, invoice and payment (SPEC §15): money in, which no musician reads."""
        quote = self.build("quotes", gig_id=self.gig["id"], intro="Quote of the couple")
        self.build("quote-lines", quote_id=quote["id"], unit_price_cents=868686868)
        invoice = self.build("invoices", gig_id=self.gig["id"], kind="deposit", notes="Invoice of the couple")
        self.build("invoice-lines", invoice_id=invoice["id"], unit_price_cents=757575757)
        payment = self.build("payments", invoice_id=invoice["id"], amount_cents=1000, reference="Paid by the couple")
        return {"868686868", "757575757", "Paid by the couple", quote["id"], invoice["id"], payment["id"]}

    def blockout(self, member, date):
        return self.build("staff-member-blockouts", staff_member_id=member["id"], start_date=date, end_date=date)

    def others(self):
        """What Sam must never read: Kim's contact details, notes, user, pay, invitation and blockout, and the
        client's contact details."""
        return {
            "kim.private@example.com",
            "+43 660 2020202",
            "Kim's secret",
            "kim.user@example.com",
            "424242424",
            "535353535",
            "646464646",
            "979797979",
            self.kim["id"],
            self.kims_feed.rsplit("/", 1)[1],
            self.kims_invitation["id"],
            self.kims_blockout["id"],
            self.kims_notification["id"],
            "bride@client.example",
            "+43 699 3030303",
            *self.money_in,
        }

    def own(self):
        """What Sam must be able to read: his contact details, his pay, his invitation and his blockout."""
        return {
            "sam.own@example.com",
            "+43 660 1010101",
            "313131313",
            self.sams_invitation["id"],
            self.sams_blockout["id"],
        }

    def others_records(self):
        """The other member's and the client's records, by the collection a path names them in."""
        return {
            "staff-members": self.kim["id"],
            "contacts": self.client["id"],
            "gig-roles": self.kims_role["id"],
            "gig-role-invitations": self.kims_invitation["id"],
            "staff-member-blockouts": self.kims_blockout["id"],
            "blockouts": self.kims_blockout["id"],
            "users": self.kims_user.id,
            "notifications": self.kims_notification["id"],
        }

    def id_for(self, path):
        """The record a path names: the other member's where the path leads to one, else one of the office's."""
        parts = path.split("/")
        collection = parts[parts.index("{id}") - 1]
        if collection in self.others_records():
            return self.others_records()[collection]
        if collection == "gigs":
            return self.gig["id"]
        listed = self.admin.get(f"/{collection}?limit=1").get_json().get("data")
        return listed[0]["id"] if isinstance(listed, list) and listed else str(uuid.uuid4())


@pytest.fixture
def office(admin, build, anon):
    return Office(admin, build, anon)


def request_for(office, method, path, operation):
    """A request the operation takes: ids of the other member's records in the path, its required parameters."""
    filled = re.sub(r"\{id\}", lambda _: office.id_for(path), path)
    filled = re.sub(r"\{[a-z_]+\}", "not-a-token", filled)
    return filled + required_query(operation)


def test_a_musician_walking_every_endpoint_reads_only_their_own(app, office, anon, documented):
    app.extensions["member_writes"] = RateLimiter(1000, 60)  # more writes than a musician's minute (test_quotas.py)
    document = documented.document
    kim_before = office.admin.get(f"/staff-members/{office.kim['id']}").get_json()
    everything_read, walked = "", 0
    for method, path, operation in operations(document):
        target = request_for(office, method, path, operation)
        body = {} if method in ("POST", "PATCH") else None
        response = office.me.request(method, target, json=body)
        documented.check(method, path, response)
        text = response.get_data(as_text=True)
        leaked = {value for value in office.others() if value in text}
        assert not leaked, (method, target, response.status_code, leaked)
        if any(record_id in target for record_id in office.others_records().values()):
            assert response.status_code in (403, 404), (method, target, response.status_code)
        everything_read += text
        walked += 1
    assert walked == sum(1 for _ in operations(document)) > 200
    missing = {value for value in office.own() if value not in everything_read}
    assert not missing, missing
    assert office.admin.get(f"/staff-members/{office.kim['id']}").get_json() == kim_before


def test_the_walk_would_see_a_leak(office):
    """The same look, on what the office reads: Kim's details are there (so the walk above can fail)."""
    text = "".join(
        office.admin.get(path).get_data(as_text=True)
        for path in (
            f"/staff-members/{office.kim['id']}",
            "/contacts",
            "/gig-role-invitations",
            "/staff-member-blockouts",
            "/gig-roles",
            "/staff-member-product-rates",
            "/rates",
            "/users?limit=200",
            "/notifications",
            "/quote-lines",
            "/invoice-lines",
            "/payments",
            f"/staff-members/{office.kim['id']}/calendar-url",
        )
    )
    assert {value for value in office.others() if value not in text} == set()
