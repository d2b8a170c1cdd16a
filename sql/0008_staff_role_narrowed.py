"""Step 8: the shipped `staff` access role reads the catalogue only (SPEC §10); a musician's own work is under /me.
A database whose `staff` role still has the grants it shipped with gets the new ones; a role the office changed is
its own choice and stays as it is (the log says which)."""

import json
import logging

from models import now

OLD_GRANTS = {"gigs.view", "catalog.view", "staffing.view", "people.view"}
OLD_DESCRIPTION = "Musicians and crew."
NEW_GRANTS = ["catalog.view"]
NEW_DESCRIPTION = "Musicians and crew: the catalogue; their own work under /me."

log = logging.getLogger("band.migrations")


def apply(database):
    row = database.execute_sql("SELECT grants, description FROM access_roles WHERE name = 'staff'").fetchone()
    if row is None:
        log.info("step 8: no access role named staff: nothing to narrow")
        return
    grants, description = set(json.loads(row[0])), row[1]
    if grants == set(NEW_GRANTS):
        return
    if grants != OLD_GRANTS:
        log.info(
            "step 8: the staff access role was changed from its defaults (%s): left as it is; it still reads "
            "what its grants say, beyond a musician's own work under /me",
            ", ".join(sorted(grants)) or "no grants",
        )
        return
    new_description = NEW_DESCRIPTION if description == OLD_DESCRIPTION else description
    database.execute_sql(
        "UPDATE access_roles SET grants = ?, description = ?, updated_at = ? WHERE name = 'staff'",
        (json.dumps(NEW_GRANTS), new_description, now()),
    )
    log.info("step 8: the staff access role now reads the catalogue only (was %s)", ", ".join(sorted(OLD_GRANTS)))
