"""The demo's catalogue: teams, roles, ensembles, products and their prices, the moments and songs of the
repertoire, and the gig statuses, gig types and custom fields."""

from demo.data import (
    CURRENCY,
    CUSTOM_FIELDS,
    DEFAULT_STATUS,
    ENSEMBLES,
    GIG_STATUSES,
    GIG_TYPES,
    MOMENTS,
    OFFERED,
    PRICES,
    PRODUCTS,
    ROLES,
    SONGS,
    TEAMS,
)
from models import (
    CustomField,
    Ensemble,
    EnsembleRole,
    GigStatus,
    GigType,
    Moment,
    Price,
    Product,
    ProductEnsemble,
    Role,
    Song,
    Team,
)


def write_catalog(office):
    write_teams_and_roles(office)
    write_ensembles(office)
    for position, row in enumerate(PRODUCTS, 1):
        write_product(office, position, *row)
    for row in PRICES:
        write_price(office, *row)
    write_repertoire(office)
    write_gig_settings(office)
    write_custom_fields(office)


def write_teams_and_roles(office):
    for name, description in TEAMS.items():
        office.add_named(Team, name, description=description)
    for position, (name, team, _) in enumerate(ROLES, 1):
        office.add_named(Role, name, team=office.get(Team, team), position=position)


def write_ensembles(office):
    for name, (description, roles) in ENSEMBLES.items():
        ensemble = office.add_named(Ensemble, name, description=description)
        for role, quantity in roles.items():
            office.add(EnsembleRole, ensemble=ensemble, role=office.get(Role, role), quantity=quantity)


def write_product(office, position, name, description, minutes):
    product = office.add_named(
        Product, name, description=description, default_duration_minutes=minutes, position=position
    )
    for rank, ensemble in enumerate(OFFERED[name]):
        office.add(ProductEnsemble, product=product, ensemble=office.get(Ensemble, ensemble), is_default=rank == 0)


def write_price(office, product, ensemble, cents, season):
    year = office.today.year + (season or 0)
    valid_from, valid_to = f"{year}-01-01" if season == 1 else None, f"{year}-12-31" if season == 0 else None
    office.add(
        Price,
        product=office.get(Product, product),
        ensemble=office.get(Ensemble, ensemble) if ensemble else None,
        amount_cents=cents,
        currency=CURRENCY,
        valid_from=valid_from,
        valid_to=valid_to,
        label=f"Season {year}" if season is not None else "Standard",
    )
    if valid_from or valid_to:  # the day the price starts to apply, or the first it no longer does
        office.price_changes.add(valid_from or f"{year + 1}-01-01")


def write_repertoire(office):
    for position, (name, product, _) in enumerate(MOMENTS, 1):
        office.add_named(Moment, name, description=f"Part of the {product.lower()}.", position=position)
    for use, songs in SONGS.items():
        for title, artist, key, bpm, seconds, genre in songs:
            fields = dict(musical_key=key, tempo_bpm=bpm, duration_seconds=seconds, genre=genre)
            office.songs[use].append(office.add(Song, title=title, artist=artist, **fields))


def write_gig_settings(office):
    GigStatus.delete().execute()  # the first day's of a new database (migration step 14): the demo has its own
    GigType.delete().execute()
    for position, (name, kind, color) in enumerate(GIG_STATUSES, 1):
        office.add_named(GigStatus, name, kind=kind, position=position, color=color, is_default=name == DEFAULT_STATUS)
    for name, description in GIG_TYPES.items():
        office.add_named(GigType, name, description=description)


def write_custom_fields(office):
    for position, (resource, key, label, field_type, options) in enumerate(CUSTOM_FIELDS, 1):
        fields = dict(resource=resource, key=key, label=label, field_type=field_type, options=options)
        office.add(CustomField, position=position, **fields)
