"""Query discipline (issue 6): the busy lists walk an index for every documented filter and sort, and every
list costs the same few queries whatever the page size."""

import uuid

import pytest
from werkzeug.datastructures import MultiDict

import listing
from dialects import dialect
from domain import own_work
from listing.queries import page_choice
from models import BUSY_TABLES, Gig, GigRoleInvitation, Invoice, Payment, Role, db, new_id
from routes import RESOURCES
from tests.support.database import count_queries

BY_NAME = {r.name: r for r in RESOURCES}
BUSY = ("gigs", "gig-roles", "gig-role-invitations")
VALUES = {
    "id": "00000000-0000-4000-8000-000000000000",
    "ref": "00000000-0000-4000-8000-000000000000",
    "str": "x",
    "int": "1",
    "date": "2027-06-12",
    "time": "12:00",
    "timestamp": "2027-06-12T12:00:00Z",
    "bool": "true",
}
# An invitation's status is computed (a pending one past its expiry reads `expired`): sorting by it sorts.
COMPUTED = {("gig-role-invitations", "status")}


def plan(resource, **args):
    page = listing.parse(MultiDict(args), resource.columns, resource.order)
    sql, params = listing.page_query(resource.model, page).sql()
    return [row[3] for row in db.execute_sql("EXPLAIN QUERY PLAN " + sql, params).fetchall()]


def walks_an_index(steps):
    """No step reads the table row by row without an index."""
    return all("USING" in step for step in steps if step.startswith(("SCAN", "SEARCH")))


def cases():
    for name in BUSY:
        for column in BY_NAME[name].columns.values():
            if column.kind == "json":
                continue
            value = column.choices[0] if column.kind == "enum" else VALUES[column.kind]
            op = "eq" if "eq" in listing.OPERATORS[column.kind] else listing.OPERATORS[column.kind][0]
            yield pytest.param(name, {f"filter[{column.name}][{op}]": value}, id=f"{name}-filter-{column.name}")
            if (name, column.name) not in COMPUTED and column.sortable:
                for sort in (column.name, f"-{column.name}"):
                    yield pytest.param(name, {"sort": sort}, id=f"{name}-sort-{sort}")


@pytest.mark.sqlite_only  # SQLite's plans (EXPLAIN QUERY PLAN)
@pytest.mark.parametrize("name, args", list(cases()))
def test_every_filter_and_sort_of_the_busy_lists_walks_an_index(app, name, args):
    steps = plan(BY_NAME[name], **args)
    assert walks_an_index(steps), steps


@pytest.mark.sqlite_only  # SQLite's plans (EXPLAIN QUERY PLAN)
def test_the_everyday_gig_list_needs_no_sorting(app):
    steps = plan(BY_NAME["gigs"], **{"filter[gig_status_id]": VALUES["ref"], "sort": "-gig_date", "offset": "50000"})
    assert walks_an_index(steps) and not any("TEMP B-TREE" in step for step in steps), steps


@pytest.mark.sqlite_only  # SQLite's plans (EXPLAIN QUERY PLAN)
def test_the_computed_status_is_the_one_sort_that_sorts(app):
    steps = plan(BY_NAME["gig-role-invitations"], sort="status")
    assert any("TEMP B-TREE" in step for step in steps)


@pytest.mark.parametrize("name", sorted(BY_NAME))
def test_every_list_costs_the_same_queries_whatever_the_page_size(admin, build, monkeypatch, name):
    for _ in range(3):
        build(name)
    executed = count_queries(monkeypatch)
    counts = []
    expand = ",".join(BY_NAME[name].documented_references())
    queries = ["limit=1", "limit=2", "limit=200"] + (
        [f"limit=1&expand={expand}", f"limit=200&expand={expand}"] if expand else []
    )
    for query in queries:
        executed.clear()
        r = admin.get(f"/{name}?{query}")
        assert r.status_code == 200, r.get_json()
        counts.append(len(executed))
    # the bearer, the page and (unless the page shows everything) the total: never a query per row, nor one per
    # expanded reference (each referenced record is read inside the page's own statement)
    assert max(counts) <= 3, counts


def test_expanded_references_are_filled_in(admin, build):
    """The query-count test above expands every reference; here a page shows that they were read, not null."""
    role = build("gig-roles")
    expanded = admin.get(f"/gig-roles?expand=gig,role&filter[id]={role['id']}").get_json()["data"][0]
    assert expanded["gig"]["id"] == role["gig_id"] and expanded["role"]["id"] == role["role_id"]


def full_plan(name, **args):
    resource = BY_NAME[name]
    references = resource.documented_references()
    page = listing.parse(
        MultiDict(args), resource.columns, resource.order, references=references, search=resource.search
    )
    sql, params = listing.page_query(resource.model, page).sql()
    return [row[3] for row in db.execute_sql("EXPLAIN QUERY PLAN " + sql, params).fetchall()]


@pytest.mark.sqlite_only  # SQLite's plans (EXPLAIN QUERY PLAN)
def test_gigs_of_a_month_with_open_roles_walk_the_date_index(app):
    steps = full_plan(
        "gigs",
        **{
            "filter[gig_date][gte]": "2027-06-01",
            "filter[gig_date][lt]": "2027-07-01",
            "filter[open_role_count][gt]": "0",
        },
        expand="venue",
    )
    assert steps[0].startswith("SEARCH t1 USING INDEX gig_gig_date") and walks_an_index(steps), steps


def a_band_of_years(gigs=2000, roles_per_gig=8):
    """Gigs over five years, each with its roles, half of them open; the planner told their sizes."""
    role = Role.create(name="Singer")
    rows = [(str(uuid.uuid4()), f"{2027 + i % 5}-{1 + i % 12:02d}-{1 + i % 28:02d}") for i in range(gigs)]
    db.execute_sql("BEGIN")
    for gig_id, day in rows:
        db.execute_sql(
            "INSERT INTO gigs (id, created_at, updated_at, gig_date, title, custom_fields) "
            "VALUES (?, '', '', ?, 'G', '{}')",
            (gig_id, day),
        )
        for n in range(roles_per_gig):
            db.execute_sql(
                "INSERT INTO gig_roles (id, created_at, updated_at, gig_id, role_id, status) "
                "VALUES (?, '', '', ?, ?, ?)",
                (str(uuid.uuid4()), gig_id, role.id, "open" if n % 2 else "filled"),
            )
    db.execute_sql("COMMIT")
    assert dialect.refresh_statistics(BUSY_TABLES)


@pytest.mark.sqlite_only  # SQLite's plans (EXPLAIN QUERY PLAN)
def test_open_roles_of_a_month_by_gig_date_start_from_the_gigs_of_the_month(app):
    a_band_of_years()
    args = {
        "filter[status]": "open",
        "filter[gig.gig_date][gte]": "2027-06-01",
        "filter[gig.gig_date][lt]": "2027-07-01",
    }
    steps = full_plan("gig-roles", **args, sort="gig.gig_date", expand="gig,role")
    assert steps[0].startswith("SEARCH gig USING COVERING INDEX gig_gig_date"), steps
    assert steps[1].startswith("SEARCH t1 USING INDEX gigrole_gig_id"), steps
    assert not dialect.refresh_statistics(BUSY_TABLES)  # told once, until the tables double


def test_the_planner_is_told_a_busy_tables_size_once_until_it_doubles(app):
    """The worker's refresh of the statistics runs when a busy table has grown past a few rows and has none, then
    not again until the table has doubled (on either database: each counts the rows its statistics know)."""

    def add_gigs(count):
        Gig.insert_many([{"gig_date": "2027-06-12", "title": "G"}] * count).execute()

    add_gigs(999)
    assert not dialect.refresh_statistics(BUSY_TABLES)  # too small to matter
    add_gigs(1)
    assert dialect.refresh_statistics(BUSY_TABLES)
    assert not dialect.refresh_statistics(BUSY_TABLES)
    add_gigs(999)
    assert not dialect.refresh_statistics(BUSY_TABLES)  # 1999 rows: not yet double
    add_gigs(2)
    assert dialect.refresh_statistics(BUSY_TABLES)


@pytest.mark.sqlite_only  # SQLite's plans (EXPLAIN QUERY PLAN)
@pytest.mark.parametrize("name", ["gigs", "staff-members", "contacts", "gig-songs"])
def test_q_reads_the_search_index(app, name):
    steps = full_plan(name, q="anna mü")
    assert steps[0] == "SEARCH t1 USING INTEGER PRIMARY KEY (rowid=?)", steps
    assert any(step.endswith(f"_search VIRTUAL TABLE INDEX 0:M{len(BY_NAME[name].searched)}") for step in steps), steps


@pytest.mark.sqlite_only  # SQLite's plans (EXPLAIN QUERY PLAN)
def test_q_of_a_word_in_many_rows_walks_the_lists_order_and_of_a_rare_word_starts_from_its_matches(app):
    titles = ["Wedding of the Smiths"] * 2100 + ["Gala night"] * 3
    db.execute_sql("BEGIN")
    for n, title in enumerate(titles):
        db.execute_sql(
            "INSERT INTO gigs (id, created_at, updated_at, gig_date, title, custom_fields) "
            "VALUES (?, '', '', ?, ?, '{}')",
            (str(uuid.uuid4()), f"{2027 + n % 5}-{1 + n % 12:02d}-{1 + n % 28:02d}", title),
        )
    db.execute_sql("COMMIT")
    common = full_plan("gigs", q="wedding")
    assert common[0].startswith("SCAN t1 USING") and common[0].endswith("INDEX gig_gig_date_start_time_id"), common
    rare = full_plan("gigs", q="gala")
    assert rare[0] == "SEARCH t1 USING INTEGER PRIMARY KEY (rowid=?)", rare


MEMBER = "00000000-0000-4000-8000-000000000001"
OWN_PAGES = {  # a musician's own lists: their scope, and the first step that must start from the member's rows
    "gigs": (own_work.GIG_COLUMNS, own_work.GIG_ORDER, Gig, [Gig.id.in_(own_work.gig_ids_of(MEMBER))]),
    "invitations": (
        own_work.INVITATION_COLUMNS,
        own_work.PENDING_FIRST,
        GigRoleInvitation,
        [GigRoleInvitation.staff_member == MEMBER],
    ),
}


def own_cases():
    for name, (columns, _, _, _) in OWN_PAGES.items():
        yield pytest.param(name, {}, id=f"me-{name}")
        for column in columns.values():
            if column.kind not in ("json", "id"):
                yield pytest.param(name, {"sort": f"-{column.name}"}, id=f"me-{name}-sort-{column.name}")
    yield pytest.param("gigs", {"filter[gig_date][gte]": "2000-01-01", "sort": "gig_date"}, id="me-gigs-all-dates")


@pytest.mark.sqlite_only  # SQLite's plans (EXPLAIN QUERY PLAN)
@pytest.mark.parametrize("name, args", list(own_cases()))
def test_a_musicians_own_pages_start_from_their_own_rows_whatever_the_sort(app, name, args):
    """A member has a few hundred gigs among a hundred thousand: their page walks theirs, never the whole table."""
    columns, order, model, scope = OWN_PAGES[name]
    page = listing.parse(MultiDict(args), columns, order)
    sql, params = listing.page_query(model, page, scope, [model.id]).sql()
    steps = [row[3] for row in db.execute_sql("EXPLAIN QUERY PLAN " + sql, params).fetchall()]
    assert not any(step.startswith("SCAN") for step in steps), steps
    assert any("staff_member_id=?" in step for step in steps), steps
    assert all("(id=?)" in step or "staff_member_id=?" in step for step in steps if step.startswith("SEARCH t1 ")), (
        steps
    )


THROUGH_A_REFERENCE = [
    ("gig-equipment", "gig.title"),
    ("gig-equipment", "-gig.gig_date"),
    ("gig-songs", "gig.title"),
    ("gig-moments", "-gig.title"),
    ("gig-products", "gig.gig_date"),
    ("gig-roles", "gig.title"),
]


@pytest.mark.sqlite_only  # SQLite's plans (EXPLAIN QUERY PLAN)
@pytest.mark.parametrize("name, sort", THROUGH_A_REFERENCE)
def test_a_sort_through_a_reference_walks_indexes_and_sorts_no_rows(app, name, sort):
    """SPEC §2.3: the referenced records in the order of an index, each one's rows by id; a page far down the list
    costs the walk to it, never a sort of every row."""
    steps = full_plan(name, sort=sort)
    assert walks_an_index(steps) and not any("TEMP B-TREE" in step for step in steps), steps


@pytest.mark.sqlite_only  # SQLite's plans (EXPLAIN QUERY PLAN)
@pytest.mark.parametrize("sort", ["created_at", "-created_at"])
@pytest.mark.parametrize("status", ["pending", "expired"])
def test_the_pending_and_expired_invitations_walk_their_own_index_in_the_default_order(app, sort, status):
    """An invitation's status is computed (a pending one past expiry reads expired), but a filter on it finds the
    stored status by an index: the office's pending invitations are never a walk of every invitation, nor its
    expired ones while none stored as pending is overdue (a walk of 97 000 in the 20 000-gig demo: 75 ms)."""
    steps = full_plan("gig-role-invitations", **{"filter[status]": status, "sort": sort})
    assert steps == ["SEARCH t1 USING INDEX gigroleinvitation_status_created_at_id (status=?)"], steps


@pytest.mark.sqlite_only  # SQLite's plans (EXPLAIN QUERY PLAN)
@pytest.mark.parametrize("sort", ["staff_member.last_name", "-staff_member.last_name", "staff_member.first_name"])
def test_a_sort_through_a_reference_that_may_be_null_walks_indexes_and_sorts_no_rows(app, sort):
    """A gig role's member may be null: the page is chosen from the roles without one (by the (staff_member_id, id)
    index) merged with the members in the order of their index, each one's roles by (staff_member_id, id)."""
    resource = BY_NAME["gig-roles"]
    references = resource.documented_references()
    page = listing.parse(MultiDict({"sort": sort}), resource.columns, resource.order, references=references)
    sql, params = page_choice(resource.model, page)
    steps = [row[3] for row in db.execute_sql("EXPLAIN QUERY PLAN " + sql, params).fetchall()]
    assert walks_an_index(steps) and not any("TEMP B-TREE" in step for step in steps), steps


@pytest.mark.postgresql_only  # PostgreSQL's plans (EXPLAIN)
def test_q_of_a_rare_word_on_postgresql_reads_its_few_matches_by_id_and_of_a_common_one_leaves_the_walk_to_the_planner(
    app,
):
    """PostgreSQL guesses that a prefix matches 2 % of the rows, and walked 100 000 gigs in their order to find a
    rare word's few (1.1 s): the matches are counted first, as on SQLite, and a few are read by their ids."""
    titles = ["Wedding of the Smiths"] * 2100 + ["Gala night"] * 3
    rows = [(str(uuid.uuid4()), f"{2027 + n % 5}-{1 + n % 12:02d}-{1 + n % 28:02d}", t) for n, t in enumerate(titles)]
    with db.atomic():
        for row in rows:
            db.execute_sql(
                "INSERT INTO gigs (id, created_at, updated_at, gig_date, title, custom_fields) "
                "VALUES (%s, '', '', %s, %s, '{}')",
                row,
            )
    db.execute_sql("ANALYZE")

    def postgresql_plan(q):
        resource = BY_NAME["gigs"]
        page = listing.parse(MultiDict({"q": q}), resource.columns, resource.order, search=resource.search)
        sql, params = listing.page_query(resource.model, page).sql()
        return "\n".join(row[0] for row in db.execute_sql("EXPLAIN " + sql, params).fetchall())

    rare = postgresql_plan("gala")
    assert "Index Scan on gigs_pkey" in rare and "Index Cond: ((id)::text = ANY" in rare, rare  # by their ids
    assert "gig_gig_date" not in rare, rare  # not a walk of the list's order
    common = postgresql_plan("wedding")
    assert "(id)::text = ANY" not in common, common  # (a money-in count's `status = ANY` is no read by ids)


def chosen_plan(name, **args):
    """The plan of the statement that chooses a page's rows (their ids and keys: `page_choice`)."""
    resource = BY_NAME[name]
    page = listing.parse(MultiDict(args), resource.columns, resource.order, references=resource.documented_references())
    sql, params = page_choice(resource.model, page)
    return [row[3] for row in db.execute_sql("EXPLAIN QUERY PLAN " + sql, params).fetchall()]


@pytest.fixture
def money_in(app, build):
    """3 000 invoices of one gig, half of them paid (a payment each), the rest drafts, issued or partly paid, as
    rows written in one go, and what the planner knows of them."""
    gig = build("gigs")["id"]
    statuses = ["paid", "paid", "paid", "draft", "issued", "partly_paid"]
    invoices = [
        {"id": new_id(), "gig": gig, "kind": "deposit", "currency": "EUR", "service_date": "2027-06-12"}
        | {"status": statuses[n % len(statuses)]}
        for n in range(3_000)
    ]
    paid = [invoice["id"] for invoice in invoices if invoice["status"] in ("paid", "partly_paid")]
    payments = [{"id": new_id(), "invoice": id, "amount_cents": 100, "received_on": "2027-01-02"} for id in paid]
    with db.atomic():
        Invoice.insert_many(invoices).execute()
        Payment.insert_many(payments).execute()
    db.execute_sql("ANALYZE")


@pytest.mark.sqlite_only  # SQLite's plans (EXPLAIN QUERY PLAN)
@pytest.mark.parametrize("sort", [None, "-created_at", "received_on", "-amount_cents", "method", "-updated_at"])
def test_payments_filtered_through_their_invoice_walk_indexes_alone(money_in, sort):
    """The Money screen at 100 000 invoices (`scripts/money_in_cost.py`): the payments of paid invoices, a page far
    down, walk the payments' index in the page's order and look each one's invoice up in the invoices' index,
    reading no payment's row (87 ms of server CPU at offset 20 000 when each payment's row was read: 40 ms)."""
    args = {"filter[invoice.status][eq]": "paid", **({"sort": sort} if sort else {})}
    steps = chosen_plan("payments", **args)
    assert steps[0].startswith("SCAN t1 USING COVERING INDEX payment_"), steps
    assert steps[1].startswith("SEARCH invoice USING COVERING INDEX invoice_status_"), steps
