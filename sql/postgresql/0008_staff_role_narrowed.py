"""Step 8: the shipped `staff` access role reads the catalogue only (SPEC §10); a musician's own work is under /me.
A database whose `staff` role still has the grants it shipped with gets the new ones, recorded as an
`access_role.updated` event of no one (as the worker's are); a role the office changed is its own choice and stays
as it is, with a warning in the log, since it may still let musicians read each other's details. As
sql/sqlite/0008_staff_role_narrowed.py."""

import json
import logging

from models import new_id, now

OLD_GRANTS = {"gigs.view", "catalog.view", "staffing.view", "people.view"}
OLD_DESCRIPTION = "Musicians and crew."
NEW_GRANTS = ["catalog.view"]
NEW_DESCRIPTION = "Musicians and crew: the catalogue; their own work under /me."
# The events table as step 5 made it (a later step may change it; this one writes what it knew); {p}: a parameter.
EVENT = """INSERT INTO "events" ("id", "type", "occurred_at", "subject_collection", "subject_id", "subject_group",
  "data", "changes") VALUES ({p}, 'access_role.updated', {p}, 'access_roles', {p}, 'admin', {p}, {p})"""

UPDATE = "UPDATE access_roles SET grants = {p}, description = {p}, updated_at = {p} WHERE id = {p}"

log = logging.getLogger("band.migrations")


def apply(database):
    row = database.execute_sql(
        "SELECT id, created_at, grants, description FROM access_roles WHERE name = 'staff'"
    ).fetchone()
    if row is None:
        return
    role_id, created_at, grants, description = row[0], row[1], json.loads(row[2]), row[3]
    if set(grants) == set(NEW_GRANTS):
        return
    if set(grants) != OLD_GRANTS:
        log.warning(
            "step 8: the staff access role was changed from its defaults (%s): left as it is. Musicians now find "
            "their own work under /me; narrow the role to catalog.view unless they should read what it grants.",
            ", ".join(sorted(grants)) or "no grants",
        )
        return
    stamp, new_description = now(), NEW_DESCRIPTION if description == OLD_DESCRIPTION else description
    database.execute_sql(
        UPDATE.format(p=database.param),
        (json.dumps(NEW_GRANTS), new_description, stamp, role_id),
    )
    data = {"id": role_id, "created_at": created_at, "updated_at": stamp, "name": "staff", "grants": NEW_GRANTS}
    changes = {"grants": {"from": grants, "to": NEW_GRANTS}}
    if new_description != description:
        changes["description"] = {"from": description, "to": new_description}
    data["description"] = new_description
    database.execute_sql(
        EVENT.format(p=database.param), (new_id(), stamp, role_id, json.dumps(data), json.dumps(changes))
    )
    log.info("step 8: the staff access role now reads the catalogue only (was %s)", ", ".join(sorted(OLD_GRANTS)))
