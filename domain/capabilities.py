"""What an access role's grants let a user do (SPEC §3): the capability groups, the capabilities their grants
give, and what a user holds now, read afresh from the database. No Flask: the caller of a request is `auth`'s, the
admins a message goes to are the background work's."""

import json

from dialects import access

GROUPS = ("gigs", "catalog", "staffing", "production", "people", "pay", "sales", "admin")
CAPABILITIES = tuple(f"{group}.{action}" for group in GROUPS for action in ("view", "edit"))


def capabilities(grants):
    """The capabilities the grants of some access roles give: `*`, `<group>.*`, `<group>.view|edit`."""
    held = set()
    for grant in grants:
        group, _, action = grant.partition(".")
        if grant == "*":
            return frozenset(CAPABILITIES)
        if action == "*":
            held.update((f"{group}.view", f"{group}.edit"))
        else:
            held.add(grant)
    return frozenset(held & set(CAPABILITIES))


def valid_grant(grant):
    group, _, action = grant.partition(".")
    return grant == "*" or (group in GROUPS and action in ("*", "view", "edit"))


def held_capabilities(user_id):
    """What the (active) user `user_id` may do now, read afresh from the database."""
    grants = access.grants_of(user_id)
    return capabilities(flat_grants(grants)) if grants is not None else frozenset()


def flat_grants(text):
    """The grants of a user's access roles (their JSON text, a list per role) as one list."""
    return [grant for role_grants in json.loads(text or "[]") for grant in role_grants]
