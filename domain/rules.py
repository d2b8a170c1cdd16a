"""Domain rules that span records (SPEC §4, §5): plain functions on models that raise a domain error.
They know nothing of Flask; resources and operations call them inside the request's transaction."""

import datetime as dt

from peewee import JOIN

from domain.errors import Clash, conflict, invalid
from models import (
    LIVE,
    Equipment,
    Gig,
    GigEquipment,
    GigProduct,
    GigStatus,
    Price,
    ProductEnsemble,
    ProductEquipment,
    now,
)

# --- the shape of records ------------------------------------------------------------------------------


def same_gig(model, record_id, gig_id, field):
    """422 on `field` unless the `model` row `record_id` (when given) belongs to the gig `gig_id`."""
    if record_id is None:
        return
    row = model.get_or_none(model.id == record_id)
    if row is not None and row.gig_id != gig_id:
        raise invalid({field: ["Belongs to another gig."]})


def ensemble_offered(product_id, ensemble_id):
    """422 unless the ensemble is one of the product's product-ensembles (when it has any)."""
    if ensemble_id is None:
        return
    offered = {pe.ensemble_id for pe in ProductEnsemble.select().where(ProductEnsemble.product == product_id)}
    if offered and ensemble_id not in offered:
        raise invalid({"ensemble_id": ["This ensemble is not offered for the product."]})


def not_before(record, start, end):
    """422 on `end` when it comes before `start` (both optional)."""
    first, last = getattr(record, start), getattr(record, end)
    if first is not None and last is not None and last < first:
        raise invalid({end: [f"Must not be before {start}."]})


# --- §5.1 prices ---------------------------------------------------------------------------------------


def catalog_price(product_id, ensemble_id, gig_date):
    """The price of a product on a gig's date, or None.

    Among the product's prices whose validity range holds the date (open ends allowed), one for the gig
    product's ensemble beats one for any ensemble, then the newest `valid_from` wins.
    """
    ensemble = Price.ensemble.is_null() | (Price.ensemble == ensemble_id) if ensemble_id else Price.ensemble.is_null()
    price = (
        Price.select(Price.amount_cents)
        .where(
            Price.product == product_id,
            ensemble,
            Price.valid_from.is_null() | (Price.valid_from <= gig_date),
            Price.valid_to.is_null() | (Price.valid_to >= gig_date),
        )
        .order_by(Price.ensemble.is_null(), Price.valid_from.desc(nulls="LAST"), Price.created_at.desc())
        .first()
    )
    return price.amount_cents if price else None


# --- gigs: live or not, and when they happen -----------------------------------------------------------


def live_gigs():
    """Gigs whose status is neither completed nor cancelled (a gig without a status is live); join GigStatus."""
    return Gig.select(Gig).join(GigStatus, JOIN.LEFT_OUTER).where(LIVE)


def is_live(gig):
    return live_gigs().where(Gig.id == gig.id).exists()


def require_live(gig):
    if not is_live(gig):
        raise conflict(
            "gig_closed", "The gig is completed or cancelled: it takes no new roles or invitations.", gig_id=gig.id
        )


def window(gig):
    """The gig's time as [start, end) datetimes: its whole date when it has no times, past midnight when
    it ends before it starts."""
    return window_of(gig.gig_date, gig.start_time, gig.end_time)


def window_of(gig_date, start_time, end_time):
    day = dt.date.fromisoformat(gig_date)
    start = dt.datetime.combine(day, dt.time.fromisoformat(start_time or "00:00"))
    if end_time is None:
        end = dt.datetime.combine(day + dt.timedelta(days=1), dt.time())
    else:
        end = dt.datetime.combine(day, dt.time.fromisoformat(end_time))
        if end <= start:
            end += dt.timedelta(days=1)
    return start, end


def overlap(first, second):
    return first[0] < second[1] and second[0] < first[1]


def neighbour_dates(gig_date):
    """The gig's date and the days either side: a gig past midnight can meet one on the next date."""
    day = dt.date.fromisoformat(gig_date)
    return [(day + dt.timedelta(days=d)).isoformat() for d in (-1, 0, 1)]


# --- §5.4 equipment on gigs ----------------------------------------------------------------------------


def equipment_free(equipment, gig, exclude=None):
    """409 when the equipment is in repair or retired, or on another live gig that date."""
    if equipment.status != "available":
        raise conflict(
            "equipment_unavailable",
            f"The equipment is {equipment.status.replace('_', ' ')}.",
            equipment_id=equipment.id,
        )
    booked = booked_elsewhere(gig).where(GigEquipment.equipment == equipment.id)
    if exclude is not None:
        booked = booked.where(GigEquipment.id != exclude)
    clash = booked.first()
    if clash is not None:
        raise Clash("double_booked", "The equipment is on another gig that date.", "gig_equipment", clash)


def booked_elsewhere(gig):
    """Gig equipment on the other live gigs of the gig's date."""
    return (
        GigEquipment.select(GigEquipment)
        .join(Gig)
        .join(GigStatus, JOIN.LEFT_OUTER)
        .where(Gig.gig_date == gig.gig_date, Gig.id != gig.id, LIVE)
    )


def generate_equipment(gig):
    """Assign free equipment for what the gig's products need (§5.4); returns (assigned, shortages)."""
    needs = {}
    per_product = (
        ProductEquipment.select(ProductEquipment.equipment_type, ProductEquipment.quantity)
        .join(GigProduct, on=GigProduct.product == ProductEquipment.product)
        .where(GigProduct.gig == gig.id)
    )
    for need in per_product:  # one row per gig product: a product sold twice needs its kit twice
        needs[need.equipment_type_id] = needs.get(need.equipment_type_id, 0) + need.quantity
    on_gig = list(Equipment.select().join(GigEquipment).where(GigEquipment.gig == gig.id))
    busy = {ge.equipment_id for ge in booked_elsewhere(gig)} | {e.id for e in on_gig}
    assigned, shortages = [], []
    for type_id, quantity in sorted(needs.items()):
        missing = quantity - sum(1 for e in on_gig if e.equipment_type_id == type_id)
        free = (
            Equipment.select()
            .where(Equipment.equipment_type == type_id, Equipment.status == "available")
            .order_by(Equipment.name, Equipment.id)
        )
        for equipment in (e for e in free if e.id not in busy):
            if missing <= 0:
                break
            stamp = now()
            assigned.append(GigEquipment.create(gig=gig.id, equipment=equipment.id, created_at=stamp, updated_at=stamp))
            missing -= 1
        if missing > 0:
            shortages.append({"equipment_type_id": type_id, "missing": missing})
    return assigned, shortages
