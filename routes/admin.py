"""The admin group: who may sign in (users) and what their access roles grant."""

from flask import g

from auth import held_capabilities, valid_grant
from errors import conflict, invalid
from models import AccessRole, User, db
from resources import Resource, in_use_error
from schemas import AccessRoleSchema, UserSchema


def keep_own_admin():
    """A user cannot take away their own admin capability, by any route."""
    if "admin.edit" not in held_capabilities(g.caller.user_id):
        raise conflict("own_admin_capability", "You cannot remove your own admin capability.")


def holders(role_name):
    """How many users hold the access role `role_name`."""
    sql = "SELECT COUNT(*) FROM users WHERE EXISTS (SELECT 1 FROM json_each(users.roles) WHERE value = ?)"
    return db.execute_sql(sql, (role_name,)).fetchone()[0]


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

    def before_delete(self, record):
        if record.id == g.caller.user_id:
            raise conflict("own_admin_capability", "You cannot delete your own user.")


class AccessRoles(Resource):
    def before_save(self, write):
        role = write.record
        if "grants" in write.changes:
            role.grants = list(dict.fromkeys(role.grants))
            wrong = {
                f"grants.{i}": ["Not a grant: *, <group>.*, <group>.view or <group>.edit."]
                for i, grant in enumerate(role.grants)
                if not valid_grant(grant)
            }
            if wrong:
                raise invalid(wrong)
        if not write.creating and "name" in write.changes:
            stored = AccessRole.get_by_id(role.id).name
            if stored != role.name and holders(stored):
                raise in_use_error("access role", {"users": holders(stored)})

    def after_save(self, write):
        keep_own_admin()

    def before_delete(self, record):
        if holders(record.name):
            raise in_use_error("access role", {"users": holders(record.name)})


RESOURCES = [
    Users(User, UserSchema, "admin"),
    AccessRoles(AccessRole, AccessRoleSchema, "admin"),
]
