"""The production group: the band's equipment, what each product needs, and what goes to each gig.
Operation: generate a gig's equipment from its products' needs (§5.4)."""

from flask import Blueprint, g, request

from domain import rules
from formats.operation_schemas import GeneratedEquipmentSchema
from models import Equipment, EquipmentIssue, EquipmentType, Gig, GigEquipment, ProductEquipment, now
from openapi import operation
from resources import Resource, reject_parameters
from routes.gigs import GIGS
from schemas import (
    EquipmentIssueSchema,
    EquipmentSchema,
    EquipmentTypeSchema,
    GigEquipmentSchema,
    ProductEquipmentSchema,
)

blueprint = Blueprint("production", __name__)


class GigEquipmentResource(Resource):
    def before_save(self, write):
        item = write.record
        if write.creating or "equipment_id" in write.changes:
            gig = Gig.get_by_id(item.gig_id)
            rules.equipment_free(Equipment.get_by_id(item.equipment_id), gig, exclude=item.id)


class EquipmentIssues(Resource):
    def before_save(self, write):
        issue = write.record
        if write.creating:
            issue.reported_by_user_id = g.caller.user_id
        if issue.status == "resolved" and issue.resolved_at is None:
            issue.resolved_at = now()
        elif issue.status == "open":
            issue.resolved_at = None


GIG_EQUIPMENT = GigEquipmentResource(GigEquipment, GigEquipmentSchema, "production")
RESOURCES = [
    Resource(EquipmentType, EquipmentTypeSchema, "production"),
    Resource(Equipment, EquipmentSchema, "production"),
    Resource(ProductEquipment, ProductEquipmentSchema, "production"),
    GIG_EQUIPMENT,
    EquipmentIssues(EquipmentIssue, EquipmentIssueSchema, "production"),
]


@blueprint.post("/gigs/<id>/generate-equipment")
@operation(
    capability="production.edit",
    response=GeneratedEquipmentSchema,
    errors=(400, 404),
)
def generate_equipment(id):
    """Assign free equipment for what the gig's products need, and report what is short."""
    reject_parameters(request.args)
    gig = GIGS.get(id)
    assigned, shortages = rules.generate_equipment(gig)
    GIGS.record_event("equipment_generated", gig)
    return {"data": {"assigned": GIG_EQUIPMENT.read_many([item.id for item in assigned]), "shortages": shortages}}
