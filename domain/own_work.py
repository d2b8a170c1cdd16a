"""A staff member's own work (SPEC §10), read set-based for the /me routes: the gigs where they hold a role or
have a pending invitation, each with what they need to play it, and their invitations with the gig and their
pay. Nobody else's contact details or pay are shown. A page costs the same few queries whatever its size; no
Flask here."""

from typing import NamedTuple

from peewee import JOIN, fn

from dialects import dialect
from domain import invitations, pay_policy
from domain.payroll import RateBook
from domain.postal_addresses import place
from formats.operation_schemas import OwnGigSchema, OwnInvitationSchema
from listing import Column, columns_of, page_query, page_total
from models import (
    INVITATION_STATUS,
    Gig,
    GigMoment,
    GigProduct,
    GigRole,
    GigRoleInvitation,
    GigSong,
    GigStatus,
    Product,
    Role,
    StaffMember,
    Venue,
    db,
)

# --- what a gig and a role read as ------------------------------------------------------------------------

VENUE = (
    Venue.name,
    Venue.address_line1,
    Venue.address_line2,
    Venue.postal_code,
    Venue.city,
    Venue.region,
    Venue.country,
    Venue.timezone,
)
GIG = (
    Gig.id,
    Gig.gig_date,
    Gig.title,
    Gig.start_time,
    Gig.end_time,
    Gig.gig_status,
    GigStatus.name,
    GigStatus.kind,
    *VENUE,
)
ROLE = (
    GigRole.id,
    GigRole.role,
    Role.name,
    GigProduct.product,
    Product.name,
    GigProduct.start_time,
    GigProduct.end_time,
    GigRole.call_time,
    GigRole.pay_cents,
    GigRole.staff_member,
)


def with_gig(query, source):
    """`query` joined from `source` (a Gig or GigRole query) to the gig's venue and status."""
    if source is not Gig:
        query = query.join_from(source, Gig)
    return query.join_from(Gig, Venue, JOIN.LEFT_OUTER).join_from(Gig, GigStatus, JOIN.LEFT_OUTER)


def with_role(query):
    """`query` (from GigRole) joined to the role and to what is played (the gig product's product)."""
    query = query.join_from(GigRole, Role).join_from(GigRole, GigProduct, JOIN.LEFT_OUTER)
    return query.join_from(GigProduct, Product, JOIN.LEFT_OUTER)


def gig_summary(values):
    """The values of GIG as the gig reads: {id, gig_date, title, start_time, end_time, gig_status_id, status,
    venue}."""
    gig_id, gig_date, title, start_time, end_time, status_id, status_name, status_kind, *venue = values
    return {
        "id": gig_id,
        "gig_date": gig_date,
        "title": title,
        "start_time": start_time,
        "end_time": end_time,
        "gig_status_id": status_id,
        "status": None if status_name is None else {"name": status_name, "kind": status_kind},
        "venue": None if venue[0] is None else place(Venue(**{f.name: v for f, v in zip(VENUE, venue)})),
    }


def own_role(values, book, member_id, offered=True):
    """The values of ROLE as the member reads their role: what it is, what is played, when, and their pay as
    `pay_policy.member_sees_role_pay` says (while it is theirs or `offered` to them by a pending invitation)."""
    gig_role_id, role_id, role, product_id, product, start_time, end_time, call_time, pay_cents, holder = values
    theirs = pay_policy.member_sees_role_pay(holder, member_id, offered)
    amount = book.pay(role_id, product_id, member_id, pay_cents)[0] if theirs else None
    return {
        "gig_role_id": gig_role_id,
        "role_id": role_id,
        "role": role,
        "product": None if product is None else {"name": product, "start_time": start_time, "end_time": end_time},
        "call_time": call_time,
        "amount_cents": amount,
    }


def rate_book(roles, member_id):
    """The rates that can apply to the member on the roles (values of ROLE), read in two queries."""
    return RateBook({values[1] for values in roles}, {values[3] for values in roles} - {None}, {member_id})


def page_rows(query, page):
    return dialect.packed_rows(query, [(column.expr, descending) for column, descending in page.order])


def shown(answer, names):
    return {name: value for name, value in answer.items() if name in names}


# When the member's first pending invitation expires: its SQL written once (see `first_pending_expiry`).
FIRST_PENDING_EXPIRY = dialect.prepared(
    lambda member_id: GigRoleInvitation.select(fn.MIN(GigRoleInvitation.expires_at)).where(
        (GigRoleInvitation.staff_member == member_id) & (INVITATION_STATUS == "pending")
    )
)


def first_pending_expiry(member_id):
    """When the member's first pending invitation expires (None: none is pending): until then, their gigs and
    invitations read the same unless the database changes."""
    return db.execute_sql(*FIRST_PENDING_EXPIRY(member_id)).fetchone()[0]


# --- their gigs -------------------------------------------------------------------------------------------


def gig_ids_of(member_id):
    """The ids of the gigs where the member holds a role or has a pending invitation (a query)."""
    holding = GigRole.select(GigRole.gig).where(GigRole.staff_member == member_id)
    invited = GigRoleInvitation.select(GigRole.gig).join(GigRole)
    return holding | invited.where(GigRoleInvitation.staff_member == member_id, INVITATION_STATUS == "pending")


GIG_IDS = dialect.prepared(gig_ids_of)


# A gig's own fields filter and sort; its venue, roles, lineup, moments and songs are parts that `fields` names.
GIG_COLUMNS = columns_of(Gig, OwnGigSchema())
GIG_ORDER = ["gig_date", "start_time"]


def gigs_page(member_id, page, since=None):
    """A page of the member's gigs (from the date `since` on, when given): ([gig], total), each gig with the
    parts `page.columns` names."""
    scope = [Gig.id.in_(dialect.subquery(*GIG_IDS(member_id))), *([Gig.gig_date >= since] if since else [])]
    query = with_gig(page_query(Gig, page, scope, [*GIG, Gig.load_in_time]), Gig)
    rows = page_rows(query, page)
    total = page_total(Gig, page, scope, len(rows))
    names = {column.name for column in page.columns}
    gigs = {values[0]: {**gig_summary(values[:-1]), "load_in_time": values[-1]} for values in rows}
    if names & {"roles", "lineup"}:
        add_roles(gigs, member_id)
    if "moments" in names:
        add_parts(gigs, "moments", parts_of(MOMENTS(list(gigs)), MOMENT_KEYS))
    if "songs" in names:
        add_parts(gigs, "songs", parts_of(SONGS(list(gigs)), SONG_KEYS))
    return [shown(gig, names) for gig in gigs.values()], total


class Seat(NamedTuple):
    """A gig role of a page's gigs as add_roles reads it: ROLE's values, then where it is and who holds it."""

    role: list  # the values of ROLE
    gig_id: str
    position: int | None
    first_name: str | None
    last_name: str | None

    @classmethod
    def of(cls, row):
        return cls(row[: len(ROLE)], *row[len(ROLE) :])

    @property
    def holder(self):
        return self.role[-1]

    def key(self):
        """The lineup's order: the roles' (position, name), then the players' names."""
        return (*in_order(self.position, self.role[2]), self.last_name or "", self.first_name or "", self.role[0])


def seats_of(gig_ids):
    query = GigRole.select(*ROLE, GigRole.gig, Role.position)
    query = with_role(query.select_extend(StaffMember.first_name, StaffMember.last_name))
    return query.join_from(GigRole, StaffMember, JOIN.LEFT_OUTER).where(dialect.one_of(GigRole.gig, gig_ids))


SEATS = dialect.prepared_rows(seats_of)


def add_roles(gigs, member_id):
    """Each gig's `roles` (the member's, and those they are invited to) and `lineup` (who else plays which)."""
    seats = sorted((Seat.of(row) for row in SEATS(list(gigs))), key=Seat.key)
    invited = pending_invitations(member_id, list(gigs))
    own = [seat for seat in seats if seat.holder == member_id or seat.role[0] in invited]
    book = rate_book([seat.role for seat in own], member_id)
    for gig in gigs.values():
        gig["roles"], gig["lineup"] = [], []
    for seat in own:
        role = own_role(seat.role, book, member_id)
        gigs[seat.gig_id]["roles"].append({**role, "invitation": invited.get(seat.role[0])})
    for seat in seats:
        if seat.holder not in (None, member_id):
            player = {"first_name": seat.first_name, "last_name": seat.last_name, "role": seat.role[2]}
            gigs[seat.gig_id]["lineup"].append({**player, "product": seat.role[4]})


def pending_on(member_id, gig_ids):
    query = GigRoleInvitation.select(GigRoleInvitation.gig_role, GigRoleInvitation.id, GigRoleInvitation.expires_at)
    return query.join(GigRole).where(
        GigRoleInvitation.staff_member == member_id,
        INVITATION_STATUS == "pending",
        dialect.one_of(GigRole.gig, gig_ids),
    )


PENDING = dialect.prepared_rows(pending_on)


def pending_invitations(member_id, gig_ids):
    """{gig role id: {id, expires_at}} of the member's pending invitations to roles on the gigs."""
    rows = PENDING(member_id, gig_ids)
    return {gig_role_id: {"id": id, "expires_at": expires_at} for gig_role_id, id, expires_at in rows}


def in_order(position, name):
    """The sort key of a record by (position, name), as lists sort them: no position first."""
    return position is not None, position or 0, name


# The moments and songs of some gigs, in the order the office lists them: (position, then name) and (position,
# then as they were added); each as (gig id, the part's keys' values).
MOMENT = (GigMoment.gig, GigMoment.id, GigMoment.name, GigMoment.time, GigMoment.notes)
MOMENT_KEYS = ("id", "name", "time", "notes")
MOMENTS = dialect.prepared_rows(
    lambda gig_ids: GigMoment.select(*MOMENT).where(dialect.one_of(GigMoment.gig, gig_ids)),
    [(GigMoment.position, False), (GigMoment.name, False), (GigMoment.id, False)],
)
SONG = (GigSong.gig, GigSong.id, GigSong.title, GigSong.artist, GigSong.kind, GigSong.gig_moment, GigSong.notes)
SONG_KEYS = ("id", "title", "artist", "kind", "gig_moment_id", "notes")
SONGS = dialect.prepared_rows(
    lambda gig_ids: GigSong.select(*SONG).where(dialect.one_of(GigSong.gig, gig_ids)),
    [(GigSong.position, False), (GigSong.created_at, False), (GigSong.id, False)],
)


def parts_of(rows, keys):
    """[(gig id, part)] of rows of MOMENTS or SONGS."""
    return [(row[0], dict(zip(keys, row[1:]))) for row in rows]


def add_parts(gigs, name, parts):
    for gig in gigs.values():
        gig[name] = []
    for gig_id, part in parts:
        gigs[gig_id][name].append(part)


# --- their invitations ------------------------------------------------------------------------------------

INVITATION = (
    GigRoleInvitation.id,
    GigRoleInvitation.gig_role,
    INVITATION_STATUS,
    GigRoleInvitation.message,
    GigRoleInvitation.expires_at,
    GigRoleInvitation.responded_at,
    GigRoleInvitation.created_at,
    GigRoleInvitation.updated_at,
)
INVITATION_KEYS = ("id", "gig_role_id", "status", "message", "expires_at", "responded_at", "created_at", "updated_at")
# An invitation's own fields filter and sort (its status as it reads now); its gig and role are parts that `fields`
# names.
INVITATION_COLUMNS = {**columns_of(GigRoleInvitation, OwnInvitationSchema()), "status": invitations.STATUS_COLUMN}
# Pending first (the ones to answer), then the newest.
PENDING_FIRST = [(Column("pending", INVITATION_STATUS == "pending", "bool"), True), "-created_at"]


def invitations_page(member_id, page):
    """A page of the member's invitations: ([invitation], total), each with its gig and their role on it."""
    scope = [GigRoleInvitation.staff_member == member_id]
    query = page_query(GigRoleInvitation, page, scope, [*INVITATION, *GIG, *ROLE])
    rows = page_rows(with_role(with_gig(query.join_from(GigRoleInvitation, GigRole), GigRole)), page)
    total = page_total(GigRoleInvitation, page, scope, len(rows))
    book = rate_book([row[-len(ROLE) :] for row in rows], member_id)
    names = {column.name for column in page.columns}
    found = []
    for row in rows:
        invitation = dict(zip(INVITATION_KEYS, row))
        gig = gig_summary(row[len(INVITATION) : len(INVITATION) + len(GIG)])
        pending = invitation["status"] == "pending"
        invitation.update(gig=gig, role=own_role(row[-len(ROLE) :], book, member_id, offered=pending))
        found.append(shown(invitation, names))
    return found, total
