"""Pay (SPEC §5.5): what a gig role pays, resolved in one documented order, and the pay sheets built on it.
No Flask here; a constant number of queries whatever the number of roles."""

from peewee import JOIN, SQL, Query, fn

from dialects import dialect
from models import NOT_CANCELLED, Gig, GigProduct, GigRole, GigStatus, Rate, StaffMember, StaffMemberProductRate


class RateBook:
    """The rates that can apply to some roles, products and staff members, read in two queries.
    `staff_member_ids` may be a query that selects them."""

    def __init__(self, role_ids, product_ids, staff_member_ids):
        if not isinstance(staff_member_ids, Query):
            staff_member_ids = list(staff_member_ids)
        member_rates = StaffMemberProductRate.select().where(
            StaffMemberProductRate.staff_member.in_(staff_member_ids),
            dialect.one_of(StaffMemberProductRate.product, product_ids),
        )
        self.member_rates = {(r.staff_member_id, r.product_id): r.amount_cents for r in member_rates}
        rates = Rate.select().where(dialect.one_of(Rate.role, role_ids))
        self.rates = {(r.role_id, r.product_id): r.amount_cents for r in rates}

    def pay(self, role_id, product_id, staff_member_id, pay_cents=None):
        """(amount_cents, source): the gig role's own pay, else the member's rate for the product, else
        the role's rate for the product, else the role's default rate, else nothing."""
        if pay_cents is not None:
            return pay_cents, "gig_role"
        if product_id is not None and (staff_member_id, product_id) in self.member_rates:
            return self.member_rates[staff_member_id, product_id], "staff_member_product_rate"
        if product_id is not None and (role_id, product_id) in self.rates:
            return self.rates[role_id, product_id], "rate"
        if (role_id, None) in self.rates:
            return self.rates[role_id, None], "role_default_rate"
        return None, "none"


def roles_with_products(query):
    """Gig roles with the product of their gig product (or None), as GigRole rows carrying `product_id`."""
    return query.select_extend(GigProduct.product.alias("product_id")).join_from(
        GigRole, GigProduct, JOIN.LEFT_OUTER, on=GigRole.gig_product == GigProduct.id
    )


def pay_of(gig_role, staff_member_id):
    """What `staff_member_id` earns on `gig_role` (a GigRole), in cents, in the order of RateBook.pay; None
    when nothing applies."""
    found = roles_with_products(GigRole.select(GigRole).where(GigRole.id == gig_role.id)).objects().get()
    book = RateBook({found.role_id}, {found.product_id} - {None}, {staff_member_id})
    return book.pay(found.role_id, found.product_id, staff_member_id, found.pay_cents)[0]


def priced(query):
    """The gig roles `query` selects, each with what it pays and why: [(GigRole, amount_cents, source)], in its
    order; the rates that can apply are read in two queries."""
    roles = list(roles_with_products(query).objects())
    book = RateBook({r.role_id for r in roles}, {r.product_id for r in roles}, {r.staff_member_id for r in roles})
    return [(role, *book.pay(role.role_id, role.product_id, role.staff_member_id, role.pay_cents)) for role in roles]


def gig_pay_sheet(gig_id):
    """One line per gig role of the gig: {gig_role_id, role_id, staff_member_id, amount_cents, source}."""
    query = GigRole.select(GigRole).where(GigRole.gig == gig_id).order_by(GigRole.created_at, GigRole.id)
    return [
        {
            "gig_role_id": role.id,
            "role_id": role.role_id,
            "staff_member_id": role.staff_member_id,
            "amount_cents": amount,
            "source": source,
        }
        for role, amount, source in priced(query)
    ]


def member_pay_sheet(staff_member_id, first_date, last_date):
    """The staff member's own lines of the period pay sheet: one per gig role they filled on a gig not cancelled
    between the dates (inclusive), {gig_role_id, gig_id, gig_date, role_id, amount_cents, source}, by date."""
    query = (
        GigRole.select(GigRole, Gig.gig_date)
        .join(Gig)
        .join(GigStatus, JOIN.LEFT_OUTER)
        .where(GigRole.staff_member == staff_member_id, Gig.gig_date.between(first_date, last_date), NOT_CANCELLED)
        .order_by(Gig.gig_date, Gig.start_time, Gig.id, GigRole.id)
    )
    return [
        {
            "gig_role_id": role.id,
            "gig_id": role.gig_id,
            "gig_date": role.gig_date,
            "role_id": role.role_id,
            "amount_cents": amount,
            "source": source,
        }
        for role, amount, source in priced(query)
    ]


def period_pay_sheet(first_date, last_date, limit, offset):
    """A page of the staff members with filled roles on gigs not cancelled (live or played) between the dates
    (inclusive), by last and first name, each {staff_member_id, first_name, last_name, gigs, total_cents}; and how
    many such members there are. The page's members are chosen first and only their roles are priced: a year of a
    big agency is tens of thousands of roles, of which a page needs a few (read as the few fields needed, packed
    by SQLite: see `dialect.packed_rows`)."""

    def roles_in_period():
        return (
            GigRole.select(GigRole.staff_member)
            .join(Gig)
            .join(GigStatus, JOIN.LEFT_OUTER)
            .where(Gig.gig_date.between(first_date, last_date), NOT_CANCELLED)
        )

    paid = StaffMember.select(StaffMember.id, StaffMember.first_name, StaffMember.last_name).where(
        fn.EXISTS(roles_in_period().where(GigRole.staff_member == StaffMember.id))
    )
    counted = paid if long_period(first_date, last_date) else distinct_members(roles_in_period())
    total = dialect.counted(counted.select_from(fn.COUNT(SQL("*"))))
    # the page from the members in name order, each looked up by its own roles until the page is full
    page = paid.order_by(StaffMember.last_name, StaffMember.first_name, StaffMember.id).limit(limit).offset(offset)
    members = {
        member_id: {
            "staff_member_id": member_id,
            "first_name": first,
            "last_name": last,
            "gigs": set(),
            "total_cents": 0,
        }
        for member_id, first, last in page.tuples()
    }
    roles = roles_with_products(
        GigRole.select(GigRole.staff_member, GigRole.gig, GigRole.role, GigRole.pay_cents)
        .join(Gig)
        .join(GigStatus, JOIN.LEFT_OUTER)
        .where(
            # the date cast, so that the page's members' roles are found by member, not the period's by date
            Gig.gig_date.cast("TEXT").between(first_date, last_date),
            NOT_CANCELLED,
            dialect.one_of(GigRole.staff_member, members),
        )
    )
    rows = dialect.packed_rows(roles) if members else []
    book = RateBook({row[2] for row in rows}, {row[4] for row in rows}, members)
    for member_id, gig_id, role_id, pay_cents, product_id in rows:
        line = members[member_id]
        line["gigs"].add(gig_id)
        line["total_cents"] += book.pay(role_id, product_id, member_id, pay_cents)[0] or 0
    return [{**line, "gigs": len(line["gigs"])} for line in members.values()], total


def distinct_members(roles):
    return roles.select(GigRole.staff_member).where(GigRole.staff_member.is_null(False)).distinct()


def long_period(first_date, last_date):
    """Whether the paid members of a period are counted faster member by member (each found by its first role in
    the period) than from the period's roles. The first costs about members x gigs / the period's gigs, the second
    the period's gigs: a month of a big agency is counted from its roles, a year or ten member by member."""
    count = fn.COUNT(SQL("*"))
    in_period = dialect.counted(Gig.select(count).where(Gig.gig_date.between(first_date, last_date)))
    return in_period**2 > dialect.counted(StaffMember.select(count)) * dialect.counted(Gig.select(count))
