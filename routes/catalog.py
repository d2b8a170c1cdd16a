"""The catalog group: what the band sells, who plays it, and the vocabulary gigs are described with."""

from domain import custom_fields, invitations, office, rules
from domain.errors import invalid
from models import (
    MODELS_BY_TABLE,
    NOT_LIVE_KINDS,
    CustomField,
    Ensemble,
    EnsembleRole,
    Gig,
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
from resources import REGISTRY, Resource, clear_others, in_use_error
from schemas import (
    CustomFieldSchema,
    EnsembleRoleSchema,
    EnsembleSchema,
    GigStatusSchema,
    GigTypeSchema,
    MomentSchema,
    PriceSchema,
    ProductEnsembleSchema,
    ProductSchema,
    RoleSchema,
    SongSchema,
    TeamSchema,
)


class Priced(Resource):
    """A resource with an amount: its currency defaults to the office's."""

    def before_save(self, write):
        if write.record.currency is None:
            write.record.currency = office.current().currency


class Prices(Priced):
    def before_save(self, write):
        super().before_save(write)
        rules.not_before(write.record, "valid_from", "valid_to")


class ProductEnsembles(Resource):
    def after_save(self, write):
        clear_others(ProductEnsemble, write.record, "is_default", "product_id")


class GigStatuses(Resource):
    def after_save(self, write):
        status = write.record
        clear_others(GigStatus, status, "is_default")
        if not write.creating and "kind" in write.changes and status.kind in NOT_LIVE_KINDS:
            withdrawn = invitations.withdraw_for_gigs(Gig.select(Gig.id).where(Gig.gig_status == status.id))
            REGISTRY["gig-role-invitations"].record_events("withdrawn", withdrawn)


class CustomFields(Resource):
    """Definitions of custom fields: their values live on the records of `resource` (§4.7)."""

    def before_save(self, write):
        definition = write.record
        if definition.field_type != "select":
            if definition.options is not None:
                raise invalid({"options": ["Only a select field has options."]})
            return
        if not definition.options:
            raise invalid({"options": ["A select field needs at least one option."]})
        definition.options = list(dict.fromkeys(definition.options))
        if not write.creating and "options" in write.changes:
            model = MODELS_BY_TABLE[definition.resource]
            dropped = custom_fields.values_outside(model, definition.key, definition.options)
            if dropped:
                raise invalid({"options": [f"Still in use: {', '.join(map(str, dropped))}."]})

    def before_delete(self, record):
        held = custom_fields.records_with_value(MODELS_BY_TABLE[record.resource], record.key)
        if held:
            raise in_use_error("custom field", {record.resource: held})


RESOURCES = [
    Resource(Product, ProductSchema, "catalog"),
    Resource(Ensemble, EnsembleSchema, "catalog"),
    Resource(EnsembleRole, EnsembleRoleSchema, "catalog"),
    ProductEnsembles(ProductEnsemble, ProductEnsembleSchema, "catalog"),
    Resource(Role, RoleSchema, "catalog"),
    Resource(Team, TeamSchema, "catalog"),
    Prices(Price, PriceSchema, "catalog"),
    Resource(Moment, MomentSchema, "catalog"),
    Resource(Song, SongSchema, "catalog", order=["title"]),
    GigStatuses(GigStatus, GigStatusSchema, "catalog"),
    Resource(GigType, GigTypeSchema, "catalog"),
    CustomFields(CustomField, CustomFieldSchema, "catalog"),
]
