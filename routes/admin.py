"""The admin group: who may sign in (users) and what their access roles grant."""

from flask import g

from dialects import access
from domain.capabilities import held_capabilities, valid_grant
from domain.errors import conflict, invalid
from models import AccessRole, User
from resources import Resource, in_use_error
from schemas import AccessRoleSchema, UserSchema

ADMIN_ROLE = "admin"


def keep_own_admin():
    """A user cannot take away their own admin capability, by any route."""
    if "admin.edit" not in held_capabilities(g.caller.user_id):
        raise conflict("own_admin_capability", "You cannot remove your own admin capability.")


def keep_an_admin():
    """At least one active user holds `*` (SPEC §2.3), whatever the order of the writes that try otherwise."""
    if not access.count_all_capability_holders():
        raise conflict("last_admin", "At least one active user must keep every capability (an admin).")


class Users(Resource):
    def before_save(self, write):
        user = write.record
        user.email = user.email.lower()
        if "roles" in write.changes:
            user.roles = list(dict.fromkeys(user.roles))
            known = {r.name for r in AccessRole.select(AccessRole.name).where(AccessRole.name.in_(user.roles))}
            unknown = [name for name in user.roles if name not in known]
            if unknown:
                raise invalid({"roles": [f"No access role named {name!r}." for name in unknown]})

    def after_save(self, write):
        if write.record.id == g.caller.user_id:
            keep_own_admin()
        keep_an_admin()

    def before_delete(self, record):
        if record.id == g.caller.user_id:
            raise conflict("own_admin_capability", "You cannot delete your own user.")

    def delete(self, record):
        super().delete(record)
        keep_an_admin()


class AccessRoles(Resource):
    def before_save(self, write):
        role = write.record
        stored = None if write.creating else AccessRole.get_by_id(role.id)
        if stored is not None and stored.name == ADMIN_ROLE:
            keep_admin_role(role)
        if "grants" in write.changes:
            role.grants = list(dict.fromkeys(role.grants))
            wrong = {
                f"grants.{i}": ["Not a grant: *, <group>.*, <group>.view or <group>.edit."]
                for i, grant in enumerate(role.grants)
                if not valid_grant(grant)
            }
            if wrong:
                raise invalid(wrong)
        if stored is not None and stored.name != role.name:
            refuse_while_held(stored.name)

    def after_save(self, write):
        keep_own_admin()
        keep_an_admin()

    def before_delete(self, record):
        if record.name == ADMIN_ROLE:
            raise conflict("admin_role", "The admin access role cannot be deleted.")
        refuse_while_held(record.name)


def refuse_while_held(role_name):
    """An access role some user holds is not renamed or deleted (409 resource_in_use)."""
    held = access.count_role_holders(role_name)
    if held:
        raise in_use_error("access role", {"users": held})


def keep_admin_role(role):
    """The shipped `admin` role keeps its name and `*`: without it no one could be made an admin again."""
    errors = {}
    if role.name != ADMIN_ROLE:
        errors["name"] = ["The admin access role keeps its name."]
    if "*" not in role.grants:
        errors["grants"] = ["The admin access role keeps the grant *."]
    if errors:
        raise invalid(errors)


RESOURCES = [
    Users(User, UserSchema, "admin"),
    AccessRoles(AccessRole, AccessRoleSchema, "admin"),
]
