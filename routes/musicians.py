"""A musician added in one step (SPEC §12.1): the staff member, their roles and their own rates, and, when they may
sign in, a user of the `staff` access role linked to them with a welcome mail holding a sign-in link; and "let them
sign in" later. Each is one write transaction: an error leaves nothing of it behind."""

from flask import Blueprint, g, request

from auth import digest, expiry, new_secret, require
from delivery.notifications import messages, queue
from domain import office
from domain.errors import conflict, invalid
from formats.office_schemas import MusicianSchema
from models import Product, Role, SignInLink, StaffMemberProductRate, StaffMemberRole, User
from openapi import operation
from resources import reject_parameters, resource_of
from routes.people import STAFF_MEMBERS
from schemas import StaffMemberSchema, load
from web import lifecycle
from web.lifecycle import json_body, json_text_response

blueprint = Blueprint("musicians", __name__)

STAFF_ROLE = "staff"  # the access role a musician's user gets (SPEC §3)
WELCOME_DAYS = 7  # how long a welcome mail's sign-in link works: a musician may not read their mail at once


@blueprint.post("/musicians")
@operation(
    capability="people.edit",
    body=MusicianSchema,
    response=StaffMemberSchema,
    status=201,
    errors=(400, 409, 413, 415, 422),
)
def add_musician():
    """Add a musician: the staff member, their roles (the first their primary one), their own rates per product
    (needs pay.edit), and with can_sign_in a user of the staff access role, linked, mailed a welcome link."""
    reject_parameters(request.args)
    values = load(MusicianSchema(), json_body())
    if values["can_sign_in"] and not values.get("email"):
        raise invalid({"email": ["An e-mail address is needed to sign in."]})
    if values["rates"]:
        require("pay", "edit")
    refuse_unknown(values)
    person = {name: values.get(name) for name in ("first_name", "last_name", "email", "phone")}
    member = STAFF_MEMBERS.create(person)
    for position, role_id in enumerate(dict.fromkeys(values["roles"])):
        add(StaffMemberRole, staff_member_id=member.id, role_id=role_id, is_primary=position == 0)
    for rate in values["rates"]:
        add(StaffMemberProductRate, staff_member_id=member.id, **rate)
    if values["can_sign_in"]:
        let_sign_in(member)
    return member_answer(member)


@blueprint.post("/staff-members/<id>/sign-in")
@operation(capability="people.edit", response=StaffMemberSchema, status=201, errors=(400, 404, 409, 422))
def let_them_sign_in(id):
    """Let the staff member sign in: a user of the staff access role, linked to them, mailed a welcome link."""
    reject_parameters(request.args)
    member = STAFF_MEMBERS.get(id)
    if member.user_id is not None:
        raise conflict("already_signs_in", "This staff member signs in already.")
    if not member.email:
        raise invalid({"email": ["The staff member has no e-mail address: give them one first."]})
    let_sign_in(member)
    return member_answer(member)


def refuse_unknown(values):
    """422 at each role or product that does not exist (the body's own place: `roles.1`, `rates.0.product_id`)."""
    roles = {role.id for role in Role.select(Role.id).where(Role.id.in_(values["roles"]))}
    products = [rate["product_id"] for rate in values["rates"]]
    known = {product.id for product in Product.select(Product.id).where(Product.id.in_(products))}
    errors = {f"roles.{i}": ["No role with this id."] for i, role in enumerate(values["roles"]) if role not in roles}
    for i, product_id in enumerate(products):
        if product_id not in known:
            errors[f"rates.{i}.product_id"] = ["No product with this id."]
    if len(set(products)) < len(products):
        errors["rates"] = ["One rate per product."]
    if errors:
        raise invalid(errors)


def add(model, **values):
    """A record of `model`, as its collection creates one (its checks and its event)."""
    resource_of(model).create(values)


def let_sign_in(member):
    """A user of the staff access role for `member` (whose address no user has), linked, and their welcome mail
    queued in this transaction: it goes out through the notification sender, whenever the mail server answers."""
    email = member.email.lower()
    if User.select().where(User.email == email).exists():
        raise conflict("email_in_use", "A user with this e-mail address exists already: link them instead.")
    name = f"{member.first_name} {member.last_name}"[:200]
    user = resource_of(User).create({"email": email, "name": name, "roles": [STAFF_ROLE]})
    STAFF_MEMBERS.change(member, user=user.id)
    token = new_secret("bol_")
    SignInLink.create(user=user.id, token_hash=digest(token), expires_at=expiry(days=WELCOME_DAYS))
    link = lifecycle.signin_url().replace("{token}", token)
    message = messages.welcome(member, g.caller.name, office.current().name, link, WELCOME_DAYS)
    queue.add("welcome", message, queue.ids(), member=member, user_id=user.id)


def member_answer(member):
    """201 with the staff member as its read shows it to the caller."""
    response = json_text_response(f'{{"data":{STAFF_MEMBERS.read_json(member.id)}}}', 201)
    response.headers["Location"] = f"/v1/staff-members/{member.id}"
    return response
