"""The demo's equipment: the types and items, what each product needs, the issues some items have had, and
the items that go out on gigs."""

import datetime as dt
from collections import defaultdict

from demo.data import EQUIPMENT, ISSUES, PRODUCT_EQUIPMENT, RESOLVED_ISSUES
from models import Equipment, EquipmentIssue, EquipmentType, GigEquipment, Product, ProductEquipment, timestamp


def write_equipment(office):
    """The items, as many for each crew as the example band has; what the products need; wear and tear."""
    crews = office.size.crews
    serials = iter(office.rng.sample(range(10**7, 10**8), 100 * crews))
    for type_name, (description, models) in EQUIPMENT.items():
        kind = office.add_named(EquipmentType, type_name, description=description)
        for model, count in models:
            for number in range(1, count * crews + 1):
                office.gear[kind.id].append(write_item(office, kind, f"{model} #{number}", next(serials)))
    for product, needs in PRODUCT_EQUIPMENT.items():
        for type_name, quantity in needs.items():
            kind = office.get(EquipmentType, type_name)
            office.add(ProductEquipment, product=office.get(Product, product), equipment_type=kind, quantity=quantity)
    write_wear_and_tear(office)
    # Only available items go out on gigs, the first free ones of their type (as generate-equipment takes them).
    for items in office.gear.values():
        items[:] = [item for item in items if item.status == "available"]


def write_item(office, kind, name, serial):
    purchased = office.today - dt.timedelta(days=office.rng.randint(200, 2500))
    serviced = office.today - dt.timedelta(days=office.rng.randint(10, 300))
    return office.add(
        Equipment,
        equipment_type=kind,
        name=name,
        serial_number=f"{kind.name[:2].upper()}{serial}",
        purchased_on=purchased.isoformat(),
        custom_fields={"last_serviced": serviced.isoformat()} if office.rng.random() < 0.4 else {},
    )


def write_wear_and_tear(office):
    """Some equipment broke: open issues keep it in repair, resolved ones retired it or were fixed."""
    issues = (ISSUES + RESOLVED_ISSUES) * office.size.crews
    items = office.rng.sample([item for items in office.gear.values() for item in items], len(issues))
    for item, issue in zip(items, issues, strict=True):
        write_issue(office, item, *issue, resolved=issue in RESOLVED_ISSUES)


def write_issue(office, item, title, severity, status, resolved):
    """The issue reported on the item, which leaves the item in `status`."""
    reported = office.between(office.now - dt.timedelta(days=90), office.now - dt.timedelta(days=2))
    office.add(
        EquipmentIssue,
        when=reported,
        equipment=item,
        title=title,
        severity=severity,
        status="resolved" if resolved else "open",
        reported_by_user=office.crew_user,
        resolved_at=timestamp(reported + dt.timedelta(days=1)) if resolved else None,
    )
    item.status = status


def equip_gig(office, gig, products, booked):
    """What the products need, from the equipment free that day (as generate-equipment assigns it)."""
    needs = defaultdict(int)
    for gig_product in products:
        for type_name, quantity in PRODUCT_EQUIPMENT[gig_product.product.name].items():
            needs[type_name] += quantity
    for type_name, quantity in needs.items():
        kind = office.get(EquipmentType, type_name)
        # Each gig of a date took the first free items: those out that date are the first of the list.
        out = office.gear_out[kind.id, gig.gig_date]
        for item in office.gear[kind.id][out : out + quantity]:
            office.add(GigEquipment, when=booked, gig=gig, equipment=item)
            office.gear_out[kind.id, gig.gig_date] += 1
