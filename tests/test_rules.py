"""The domain rules as plain functions, called directly on models (no HTTP)."""

import datetime as dt
from types import SimpleNamespace

import pytest

from domain import availability, invitations, rules
from domain.errors import ApiError
from models import (
    Ensemble,
    EnsembleRole,
    Gig,
    GigProduct,
    GigRole,
    GigRoleInvitation,
    GigStatus,
    Price,
    Product,
    Role,
    StaffMember,
    StaffMemberBlockout,
    StaffMemberRole,
    timestamp,
)


def gig_at(date, start=None, end=None):
    return SimpleNamespace(gig_date=date, start_time=start, end_time=end)


def at(text):
    return dt.datetime.fromisoformat(text)


@pytest.mark.parametrize(
    "gig, expected",
    [
        (gig_at("2027-06-12", "18:00", "23:00"), ("2027-06-12T18:00", "2027-06-12T23:00")),
        (gig_at("2027-06-12", "20:00", "02:00"), ("2027-06-12T20:00", "2027-06-13T02:00")),
        (gig_at("2027-06-12"), ("2027-06-12T00:00", "2027-06-13T00:00")),
        (gig_at("2027-06-12", "18:00"), ("2027-06-12T18:00", "2027-06-13T00:00")),
        (gig_at("2027-06-12", None, "10:00"), ("2027-06-12T00:00", "2027-06-12T10:00")),
        (gig_at("2027-06-12", "18:00", "18:00"), ("2027-06-12T18:00", "2027-06-13T18:00")),
    ],
)
def test_window_of_a_gig(gig, expected):
    assert rules.window(gig) == (at(expected[0]), at(expected[1]))


def test_windows_overlap_only_when_they_share_time():
    evening = rules.window(gig_at("2027-06-12", "18:00", "23:00"))
    assert rules.overlap(evening, rules.window(gig_at("2027-06-12", "22:59", "23:30")))
    assert not rules.overlap(evening, rules.window(gig_at("2027-06-12", "23:00", "23:30")))
    assert rules.overlap(evening, rules.window(gig_at("2027-06-11", "22:00", "18:30")))
    assert not rules.overlap(evening, rules.window(gig_at("2027-06-13")))


def test_neighbour_dates_cross_months():
    assert rules.neighbour_dates("2027-03-01") == ["2027-02-28", "2027-03-01", "2027-03-02"]


def price(product, amount, ensemble=None, valid_from=None, valid_to=None):
    return Price.create(
        product=product.id,
        ensemble=ensemble.id if ensemble else None,
        amount_cents=amount,
        currency="EUR",
        valid_from=valid_from,
        valid_to=valid_to,
    )


def test_catalog_price_precedence(app):
    product = Product.create(name="Reception")
    other = Product.create(name="Ceremony")
    duo, trio = Ensemble.create(name="Duo"), Ensemble.create(name="Trio")
    assert rules.catalog_price(product.id, None, "2027-06-12") is None
    price(other, 1)
    price(product, 100)
    assert rules.catalog_price(product.id, duo.id, "2027-06-12") == 100
    price(product, 150, valid_from="2027-01-01")
    price(product, 175, valid_from="2026-01-01")
    assert rules.catalog_price(product.id, None, "2027-06-12") == 150  # the newest valid_from
    price(product, 999, valid_from="2027-07-01")
    price(product, 998, valid_to="2027-06-11")
    assert rules.catalog_price(product.id, None, "2027-06-12") == 150  # ranges must hold the date
    price(product, 300, ensemble=duo, valid_from="2020-01-01")
    price(product, 400, ensemble=trio)
    assert rules.catalog_price(product.id, duo.id, "2027-06-12") == 300  # the ensemble's own price wins
    assert rules.catalog_price(product.id, None, "2027-06-12") == 150
    assert rules.catalog_price(product.id, duo.id, "2027-06-11") == 300
    assert rules.catalog_price(product.id, trio.id, "2027-06-11") == 400


def test_availability_and_the_role_check(app):
    role = Role.create(name="Bass")
    member = StaffMember.create(first_name="Bo", last_name="Bass")
    closed = GigStatus.create(name="Done", kind="cancelled")
    gig = Gig.create(gig_date="2027-06-12", title="A", start_time="18:00", end_time="22:00")
    with pytest.raises(ApiError) as refused:
        availability.holds_role(member.id, role.id)
    assert refused.value.status == 422
    StaffMemberRole.create(staff_member=member.id, role=role.id)
    availability.holds_role(member.id, role.id)
    availability.require_available(member.id, gig)
    other = Gig.create(gig_date="2027-06-12", title="B", start_time="21:00", end_time="23:00")
    GigRole.create(gig=other.id, role=role.id, staff_member=member.id, status="filled")
    with pytest.raises(ApiError) as refused:
        availability.require_available(member.id, gig)
    assert refused.value.details["reason"] == "double_booked"
    other.gig_status = closed.id
    other.save()
    availability.require_available(member.id, gig)
    StaffMemberBlockout.create(staff_member=member.id, start_date="2027-06-12", end_date="2027-06-12")
    with pytest.raises(ApiError) as refused:
        availability.require_available(member.id, gig)
    assert refused.value.details["reason"] == "staff_member_blocked_out"


def test_generate_roles_counts_what_is_there(app):
    singer, drums = Role.create(name="Singer"), Role.create(name="Drums")
    band = Ensemble.create(name="Band")
    EnsembleRole.create(ensemble=band.id, role=singer.id, quantity=3)
    EnsembleRole.create(ensemble=band.id, role=drums.id, quantity=1)
    gig = Gig.create(gig_date="2027-06-12", title="A")
    product = GigProduct.create(gig=gig.id, product=Product.create(name="Reception").id, ensemble=band.id)
    GigRole.create(gig=gig.id, role=singer.id, gig_product=product.id, status="open")
    created = availability.generate_roles(gig)
    assert sorted(r.role_id for r in created) == sorted([singer.id, singer.id, drums.id])
    assert availability.generate_roles(gig) == []


def test_an_invitation_reads_expired_once_past_its_time(app, build):
    future = timestamp(dt.datetime.now(dt.UTC) + dt.timedelta(hours=1))
    past = timestamp(dt.datetime.now(dt.UTC) - dt.timedelta(seconds=1))
    invitation = GigRoleInvitation.get_by_id(build("gig-role-invitations")["id"])
    for status, expires_at, reads in [
        ("pending", future, "pending"),
        ("pending", past, "expired"),
        ("declined", past, "declined"),
    ]:
        GigRoleInvitation.update(status=status, expires_at=expires_at).where(
            GigRoleInvitation.id == invitation.id
        ).execute()
        assert invitations.status_now(invitation) == reads
