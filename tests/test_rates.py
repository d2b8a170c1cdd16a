"""SPEC §4.6 and §5.5: rates and staff member product rates (unique rules, currency), and payroll.RateBook
(the pay of gig roles and the pay sheets: test_pay.py)."""

import pytest

from domain import payroll
from tests.support.api import error_of
from tests.support.database import count_queries

PRICED = ["rates", "staff-member-product-rates"]


# --- rates and staff member product rates (§4.6) ------------------------------------------------------


def test_a_rate_without_product_is_the_roles_default_rate(admin, build):
    role = build.id("roles")
    r = admin.post("/rates", json={"role_id": role, "amount_cents": 20000})
    assert r.status_code == 201
    rate = r.get_json()["data"]
    assert r.headers["Location"] == f"/v1/rates/{rate['id']}"
    assert rate == {
        "id": rate["id"],
        "role_id": role,
        "product_id": None,
        "amount_cents": 20000,
        "currency": "EUR",
        "created_at": rate["created_at"],
        "updated_at": rate["updated_at"],
    }


def test_a_role_has_one_rate_per_product(admin, build):
    role, product = build.id("roles"), build.id("products")
    build("rates", role_id=role, product_id=product)
    r = admin.post("/rates", json={"role_id": role, "product_id": product, "amount_cents": 1})
    assert error_of(r, 409, "already_exists")["details"] == {"fields": ["role_id", "product_id"]}
    # the same product for another role, another product for the same role, and a default rate are fine
    build("rates", role_id=build.id("roles"), product_id=product)
    other = build("rates", role_id=role, product_id=build.id("products"))
    build("rates", role_id=role)
    r = admin.patch(f"/rates/{other['id']}", json={"product_id": product})
    assert error_of(r, 409, "already_exists")["details"] == {"fields": ["role_id", "product_id"]}
    assert admin.get(f"/rates?filter[role_id]={role}").get_json()["meta"]["total"] == 3


def test_a_role_has_only_one_default_rate(admin, build):
    role = build.id("roles")
    build("rates", role_id=role, amount_cents=20000)
    for body in ({"role_id": role, "amount_cents": 1}, {"role_id": role, "product_id": None, "amount_cents": 1}):
        r = admin.post("/rates", json=body)
        assert error_of(r, 409, "already_exists")["details"] == {"fields": ["role_id", "product_id"]}
    # nor by clearing the product of another of the role's rates
    per_product = build("rates", role_id=role, product_id=build.id("products"))
    r = admin.patch(f"/rates/{per_product['id']}", json={"product_id": None})
    assert error_of(r, 409, "already_exists")["details"] == {"fields": ["role_id", "product_id"]}
    # other roles have their own default rate
    build("rates", role_id=build.id("roles"))
    rows = admin.get(f"/rates?filter[role_id]={role}&filter[product_id][is_null]=true").get_json()["data"]
    assert [row["amount_cents"] for row in rows] == [20000]


def test_a_role_default_rate_duplicate_is_refused_whatever_the_details(admin, build):
    """The rule itself, apart from how its details name the fields."""
    role = build.id("roles")
    build("rates", role_id=role)
    error_of(admin.post("/rates", json={"role_id": role, "amount_cents": 1}), 409, "already_exists")
    assert admin.get(f"/rates?filter[role_id]={role}").get_json()["meta"]["total"] == 1


def test_staff_member_product_rates_are_unique_per_pair(admin, build):
    member, product = build.id("staff-members"), build.id("products")
    rate = build("staff-member-product-rates", staff_member_id=member, product_id=product, amount_cents=25000)
    assert rate == {
        "id": rate["id"],
        "staff_member_id": member,
        "product_id": product,
        "amount_cents": 25000,
        "currency": "EUR",
        "created_at": rate["created_at"],
        "updated_at": rate["updated_at"],
    }
    r = admin.post(
        "/staff-member-product-rates", json={"staff_member_id": member, "product_id": product, "amount_cents": 1}
    )
    assert error_of(r, 409, "already_exists")["details"] == {"fields": ["staff_member_id", "product_id"]}
    build("staff-member-product-rates", staff_member_id=build.id("staff-members"), product_id=product)
    other = build("staff-member-product-rates", staff_member_id=member, product_id=build.id("products"))
    r = admin.patch(f"/staff-member-product-rates/{other['id']}", json={"product_id": product})
    assert error_of(r, 409, "already_exists")["details"] == {"fields": ["staff_member_id", "product_id"]}


@pytest.mark.parametrize("collection", PRICED)
def test_currency_defaults_to_the_offices(app, admin, build, collection):
    assert build(collection)["currency"] == "EUR"
    assert admin.patch("/office", json={"currency": "CHF"}).status_code == 200
    record = build(collection)
    assert record["currency"] == "CHF"
    assert admin.get(f"/{collection}/{record['id']}").get_json()["data"]["currency"] == "CHF"
    assert build(collection, currency="USD")["currency"] == "USD"
    # a change of the amount keeps the currency the record has
    usd = build(collection, currency="USD")
    changed = admin.patch(f"/{collection}/{usd['id']}", json={"amount_cents": 1}).get_json()["data"]
    assert (changed["amount_cents"], changed["currency"]) == (1, "USD")
    assert admin.patch(f"/{collection}/{usd['id']}", json={"currency": "GBP"}).get_json()["data"]["currency"] == "GBP"


@pytest.mark.parametrize("collection", PRICED)
@pytest.mark.parametrize("currency", ["eur", "Eur", "EURO", "EU", "E1R", "€", "", None, 978])
def test_currency_is_three_capital_letters(admin, build, collection, currency):
    r = admin.post(f"/{collection}", json=build.body(collection, currency=currency))
    assert "currency" in error_of(r, 422, "validation_failed")["details"]
    record = build(collection)
    r = admin.patch(f"/{collection}/{record['id']}", json={"currency": currency})
    assert "currency" in error_of(r, 422, "validation_failed")["details"]
    assert admin.get(f"/{collection}/{record['id']}").get_json()["data"]["currency"] == "EUR"


@pytest.mark.parametrize("collection", PRICED)
def test_rate_amounts_are_whole_cents_not_below_zero(admin, build, collection):
    for amount in (-1, 1.5, "100", None):
        r = admin.post(f"/{collection}", json=build.body(collection, amount_cents=amount))
        assert "amount_cents" in error_of(r, 422, "validation_failed")["details"], amount
    assert build(collection, amount_cents=0)["amount_cents"] == 0


# --- payroll.RateBook ---------------------------------------------------------------------------------


def test_rate_book_resolves_each_source(app, build):
    role, product, member, other = (build.id(c) for c in ("roles", "products", "staff-members", "staff-members"))
    bare_role = build.id("roles")
    build("staff-member-product-rates", staff_member_id=member, product_id=product, amount_cents=25000)
    build("rates", role_id=role, product_id=product, amount_cents=22000)
    build("rates", role_id=role, amount_cents=20000)
    book = payroll.RateBook({role, bare_role}, {product, None}, {member, other, None})
    assert book.pay(role, product, member, 30000) == (30000, "gig_role")
    assert book.pay(role, product, member, 0) == (0, "gig_role")
    assert book.pay(bare_role, None, None, 100) == (100, "gig_role")
    assert book.pay(role, product, member) == (25000, "staff_member_product_rate")
    assert book.pay(role, product, member, None) == (25000, "staff_member_product_rate")
    assert book.pay(role, product, other) == (22000, "rate")
    assert book.pay(role, product, None) == (22000, "rate")
    assert book.pay(role, None, member) == (20000, "role_default_rate")
    assert book.pay(role, build.id("products"), member) == (20000, "role_default_rate")
    assert book.pay(bare_role, product, member) == (25000, "staff_member_product_rate")
    assert book.pay(bare_role, product, other) == (None, "none")
    assert book.pay(bare_role, None, None) == (None, "none")


def test_rate_book_reads_only_the_rates_asked_for(app, build):
    role, product, member = build.id("roles"), build.id("products"), build.id("staff-members")
    build("staff-member-product-rates", staff_member_id=member, product_id=product, amount_cents=25000)
    build("rates", role_id=role, product_id=product, amount_cents=22000)
    build("rates", role_id=role, amount_cents=20000)
    assert payroll.RateBook(set(), set(), set()).pay(role, product, member) == (None, "none")
    assert payroll.RateBook({role}, {product}, set()).pay(role, product, member) == (22000, "rate")
    assert payroll.RateBook({role}, {product}, {member}).pay(role, product, member)[1] == "staff_member_product_rate"


def test_rate_book_reads_its_rates_in_a_constant_number_of_queries(app, build, monkeypatch):
    roles = [build.id("roles") for _ in range(5)]
    products = [build.id("products") for _ in range(5)]
    members = [build.id("staff-members") for _ in range(5)]
    for role, product, member in zip(roles, products, members):
        build("rates", role_id=role, product_id=product)
        build("staff-member-product-rates", staff_member_id=member, product_id=product)
    executed = count_queries(monkeypatch)
    book = payroll.RateBook(set(roles), set(products), set(members))
    reading = len(executed)
    for role, product, member in zip(roles, products, members):
        assert book.pay(role, product, member)[1] == "staff_member_product_rate"
        assert book.pay(role, product, None)[1] == "rate"
    assert len(executed) == reading <= 2
