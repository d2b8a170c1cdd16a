"""The demo's people and places: users, staff members with their roles and blockouts, contacts, venues, and
the pay rates of roles and staff members."""

import datetime as dt

from demo.agency import more_staff
from demo.data import (
    BLOCKOUT_REASONS,
    CURRENCY,
    INACTIVE,
    LOAD_IN_NOTES,
    MEMBER_PRODUCT_RATES,
    MUSICIAN,
    MUSICIAN_BLOCKOUTS,
    ROLE_PRODUCT_RATES,
    ROLES,
    STAFF,
    USERS,
)
from demo.office import ascii_name
from models import (
    Contact,
    Product,
    Rate,
    Role,
    StaffMember,
    StaffMemberBlockout,
    StaffMemberProductRate,
    StaffMemberRole,
    User,
    Venue,
)


def write_people(office):
    users = {row[1]: write_user(office, *row) for row in USERS}
    for first, last, roles, shirt in STAFF:
        write_staff_roles(office, write_staff_member(office, first, last, shirt, users.get(f"{first} {last}")), roles)
    for number, (first, last, roles, shirt) in enumerate(more_staff(office), len(STAFF) + 1):
        write_staff_roles(office, write_agency_member(office, first, last, shirt, number), roles)
    office.crew_user = users["Florian Schmid"]
    office.musician = office.named[StaffMember, MUSICIAN]
    for _ in range(office.size.blockouts()):
        write_blockout(office)
    for days_ahead, days, reason in MUSICIAN_BLOCKOUTS:
        start = office.today + dt.timedelta(days=days_ahead)
        block_out(office, office.musician, start, start + dt.timedelta(days=days), reason)


def write_user(office, email, name, role, active):
    return office.add(User, email=email, name=name, roles=[role], active=active)


def write_staff_member(office, first, last, shirt, user):
    """One of the example band's players, known by name."""
    name = f"{first} {last}"
    email = user.email if user else f"{ascii_name(first, last)}@example.com"
    fields = dict(user=user, active=name not in INACTIVE, notes=INACTIVE.get(name))
    office.named[StaffMember, name] = add_member(office, first, last, shirt, email, **fields)
    return office.named[StaffMember, name]


def write_agency_member(office, first, last, shirt, number):
    """A player of a crew after the first: maybe named like another, so numbered in the e-mail address."""
    return add_member(office, first, last, shirt, f"{ascii_name(first, last)}.{number}@example.com")


def add_member(office, first, last, shirt, email, **fields):
    custom_fields = {"shirt_size": shirt} if shirt else {}
    member = office.add(
        StaffMember,
        first_name=first,
        last_name=last,
        email=email,
        phone=office.phone(),
        custom_fields=custom_fields,
        **fields,
    )
    office.members.append(member)
    return member


def write_staff_roles(office, member, roles):
    """The member's roles, the primary first."""
    for rank, name in enumerate(roles):
        role = office.get(Role, name)
        office.add(StaffMemberRole, staff_member=member, role=role, is_primary=rank == 0)
        if member.active:
            office.holders[role.id].append((member, rank == 0))


def write_blockout(office):
    member = office.rng.choice(office.members)
    start = office.today + dt.timedelta(days=office.rng.randint(-office.size.days_back, office.size.days_ahead))
    end = start + dt.timedelta(days=office.rng.choice([0, 0, 1, 2, 6, 9, 13]))
    block_out(office, member, start, end, office.rng.choice(BLOCKOUT_REASONS))


def block_out(office, member, start, end, reason):
    office.add(
        StaffMemberBlockout,
        staff_member=member,
        start_date=start.isoformat(),
        end_date=end.isoformat(),
        reason=reason,
    )
    office.blocked[member.id].append((start.isoformat(), end.isoformat()))


def write_contact(office, first, last, company=None):
    channel = office.rng.choice(["E-mail", "Phone", "WhatsApp", None, None])
    domain = office.rng.choice(["example.com", "example.org", "example.net"])
    return office.add(
        Contact,
        first_name=first,
        last_name=last,
        email=f"{ascii_name(first, last)}@{domain}",
        phone=office.phone(office.rng.choice(["AT", "AT", "DE", "IT"])),
        company=company,
        custom_fields={"preferred_channel": channel} if channel else {},
    )


def write_venue(office, name, street, postal_code, city, region, country, timezone):
    site = ascii_name(*name.split()).replace(".", "-")
    return office.add(
        Venue,
        name=name,
        address_line1=street,
        city=city,
        region=region,
        postal_code=postal_code,
        country=country,
        timezone=timezone,
        phone=office.phone(country),
        email=f"events@{site}.example",
        website=f"https://www.{site}.example/",
        load_in_notes=office.rng.choice(LOAD_IN_NOTES),
        custom_fields={"power_outlets": office.rng.randint(2, 12)} if office.rng.random() < 0.8 else {},
    )


def write_pay_rates(office):
    for name, _, cents in ROLES:
        office.add(Rate, role=office.get(Role, name), product=None, amount_cents=cents, currency=CURRENCY)
    for role, product, cents in ROLE_PRODUCT_RATES:
        role, product = office.get(Role, role), office.get(Product, product)
        office.add(Rate, role=role, product=product, amount_cents=cents, currency=CURRENCY)
    for member, product, cents in MEMBER_PRODUCT_RATES:
        member, product = office.get(StaffMember, member), office.get(Product, product)
        office.add(StaffMemberProductRate, staff_member=member, product=product, amount_cents=cents, currency=CURRENCY)
