"""Pay (SPEC §5.5): what a gig role pays, resolved in one documented order, and the pay sheets built on it.
No Flask here; a constant number of queries whatever the number of roles."""

from peewee import JOIN, SQL, Query, fn

from dialects import dialect
from models import NOT_CANCELLED, Gig, GigRole, GigStatus, Rate, StaffMember, StaffMemberProductRate


class RateBook:
    """The rates that can apply to some roles, products and staff members, read in two queries.
    `staff_member_ids` may be a query that selects them."""

    def __init__(self, role_ids, product_ids, staff_member_ids):
        member = StaffMemberProductRate.staff_member
        if isinstance(staff_member_ids, Query):
            theirs = member.in_(staff_member_ids)
        else:
            theirs = dialect.one_of(member, staff_member_ids)
        member_rates = StaffMemberProductRate.select(
            member, StaffMemberProductRate.product, StaffMemberProductRate.amount_cents
        ).where(theirs, dialect.one_of(StaffMemberProductRate.product, product_ids))
        self.member_rates = {(m, p): amount for m, p, amount in member_rates.tuples()}
        rates = Rate.select(Rate.role, Rate.product, Rate.amount_cents).where(dialect.one_of(Rate.role, role_ids))
        self.rates = {(role, product): amount for role, product, amount in rates.tuples()}

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


def pay_of(gig_role, staff_member_id):
    """What `staff_member_id` earns on `gig_role` (a GigRole), in cents, in the order of RateBook.pay; None
    when nothing applies."""
    found = GigRole.get_by_id(gig_role.id)  # its product_id is its gig product's (copied by the database)
    book = RateBook({found.role_id}, {found.product_id} - {None}, {staff_member_id})
    return book.pay(found.role_id, found.product_id, staff_member_id, found.pay_cents)[0]


def priced(query):
    """The gig roles `query` selects, each with what it pays and why: [(GigRole, amount_cents, source)], in its
    order; the rates that can apply are read in two queries."""
    roles = list(query.objects())  # a role's product_id is its gig product's (copied by the database)
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
        GigRole.select(GigRole)
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


ROWS = fn.COUNT(SQL("*"))  # how many rows a statement selects

# A role on a gig not cancelled, told by the gig's status copied onto the role (few statuses are cancelled ones).
NOT_CANCELLED_ROLE = GigRole.gig_status_id.is_null() | GigRole.gig_status_id.not_in(
    GigStatus.select(GigStatus.id).where(~NOT_CANCELLED)
)


def period_pay_sheet(first_date, last_date, limit, offset):
    """A page of the staff members with filled roles on gigs not cancelled (live or played) between the dates
    (inclusive), by last and first name, each {staff_member_id, first_name, last_name, gigs, total_cents}; and how
    many such members there are. The page's members are chosen first and only their roles are priced: a year of a
    big agency is tens of thousands of roles, of which a page needs a few. A member's roles are walked in indexes
    that hold all the sheet reads of them (the gig's date, status and product are copied onto the role), and they
    are priced by kind (role, product, own pay) with how many there are of each, not one by one. Each statement is
    written once: the all-time sheet of 200 members at 20 000 gigs costs some 17 ms, of which peewee would
    write a tenth."""
    counted = PAID if long_period(first_date, last_date) else PAID_FROM_THE_GIGS
    total = dialect.counted(counted(first_date, last_date))
    members = {
        member_id: {"staff_member_id": member_id, "first_name": first, "last_name": last, "gigs": 0, "total_cents": 0}
        for member_id, first, last in PAGE(first_date, last_date, limit, offset)
    }
    if not members:
        return [], total
    kinds = (WIDE_KINDS if wide_period(first_date, last_date) else KINDS)(list(members), first_date, last_date)
    book = RateBook({row[1] for row in kinds}, {row[2] for row in kinds}, members)
    for member_id, role_id, product_id, pay_cents, count in kinds:
        members[member_id]["total_cents"] += (book.pay(role_id, product_id, member_id, pay_cents)[0] or 0) * count
    for member_id, count in GIGS(list(members), first_date, last_date):
        members[member_id]["gigs"] = count
    return list(members.values()), total


def in_period(first_date, last_date):
    """A role on a gig not cancelled between the dates (inclusive)."""
    return GigRole.gig_date.between(first_date, last_date) & NOT_CANCELLED_ROLE


def paid(first_date, last_date):
    """The staff members with a filled role on a gig not cancelled between the dates, each found by its own roles."""
    theirs = GigRole.select(GigRole.id).where(GigRole.staff_member == StaffMember.id, in_period(first_date, last_date))
    return StaffMember.select(StaffMember.id, StaffMember.first_name, StaffMember.last_name).where(fn.EXISTS(theirs))


def roles_in_period(first_date, last_date):
    """The roles on gigs not cancelled between the dates, found from the gigs of the period (by their date)."""
    return (
        GigRole.select(GigRole.staff_member)
        .join(Gig)
        .join(GigStatus, JOIN.LEFT_OUTER)
        .where(Gig.gig_date.between(first_date, last_date), NOT_CANCELLED)
    )


def distinct_members(roles):
    return roles.select(GigRole.staff_member).where(GigRole.staff_member.is_null(False)).distinct()


def counted_by_kind(member_ids, dates):
    """The roles of the members in the period `dates` selects, on gigs not cancelled, counted by member and kind
    (role, product, own pay): [[member, role, product, own pay, count]]."""
    kind = (GigRole.staff_member, GigRole.role, GigRole.product_id, GigRole.pay_cents)
    theirs = dialect.one_of(GigRole.staff_member, member_ids)
    return GigRole.select(*kind, ROWS).where(theirs, dates & NOT_CANCELLED_ROLE).group_by(*kind)


PAID = dialect.prepared(lambda first, last: paid(first, last).select_from(ROWS))
PAID_FROM_THE_GIGS = dialect.prepared(
    lambda first, last: distinct_members(roles_in_period(first, last)).select_from(ROWS)
)
PAGE = dialect.prepared_rows(
    lambda first, last, limit, offset: (
        paid(first, last)
        .order_by(StaffMember.last_name, StaffMember.first_name, StaffMember.id)
        .limit(limit)
        .offset(offset)
    ),
    [(StaffMember.last_name, False), (StaffMember.first_name, False), (StaffMember.id, False)],
)
KINDS = dialect.prepared_rows(
    lambda members, first, last: counted_by_kind(members, GigRole.gig_date.between(first, last))
)
# Over a wide period the dates are a filter that no index seeks by, so that the walk follows the index of kinds (one
# pass, no sort) rather than that of dates, which would sort every role of the period.
WIDE_KINDS = dialect.prepared_rows(
    lambda members, first, last: counted_by_kind(members, fn.COALESCE(GigRole.gig_date, "").between(first, last))
)
GIGS = dialect.prepared_rows(
    lambda members, first, last: (
        GigRole.select(GigRole.staff_member, fn.COUNT(GigRole.gig.distinct()))
        .where(dialect.one_of(GigRole.staff_member, members), in_period(first, last))
        .group_by(GigRole.staff_member)
    )
)


def long_period(first_date, last_date):
    """Whether the paid members of a period are counted faster member by member (each found by its first role in
    the period) than from the period's roles. The first costs about members x gigs / the period's gigs, the second
    the period's gigs: a month of a big agency is counted from its roles, a year or ten member by member."""
    members = dialect.counted(MEMBERS())
    return gigs_between(first_date, last_date) ** 2 > members * dialect.counted(GIGS_EVER())


def wide_period(first_date, last_date):
    """Whether the period holds more than a third of the gigs: its roles are then counted by kind faster from all
    the page's members' roles in the order of kinds than from the period's alone sorted (a sort costs some three
    times a walk)."""
    return gigs_between(first_date, last_date) * 3 > dialect.counted(GIGS_EVER())


def gigs_between(first_date, last_date):
    """How many gigs there are between the dates (inclusive), remembered until the database changes."""
    return dialect.counted(GIGS_BETWEEN(first_date, last_date))


MEMBERS = dialect.prepared(lambda: StaffMember.select(ROWS))
GIGS_EVER = dialect.prepared(lambda: Gig.select(ROWS))
GIGS_BETWEEN = dialect.prepared(lambda first, last: Gig.select(ROWS).where(Gig.gig_date.between(first, last)))
