"""Step 10: `q` search (SPEC §11). Each collection with text to search gets an FTS5 index of those fields, kept by
triggers and filled from the rows already stored: a search of 100 000 gigs reads the index, not every title."""

from dialects import dialect

# The fields each collection searched when this step shipped (resources.SEARCHED_FIELDS says it for today).
SEARCHED = {
    "gigs": ("title",),
    "venues": ("name", "city", "email"),
    "gig_moments": ("name",),
    "gig_songs": ("title", "artist"),
    "gig_contacts": ("relationship",),
    "attachments": ("filename",),
    "products": ("name",),
    "ensembles": ("name",),
    "roles": ("name",),
    "teams": ("name",),
    "prices": ("label",),
    "moments": ("name",),
    "songs": ("title", "artist"),
    "gig_statuses": ("name",),
    "gig_types": ("name",),
    "custom_fields": ("key", "label"),
    "staff_member_blockouts": ("reason",),
    "equipment_types": ("name",),
    "equipment": ("name", "serial_number"),
    "equipment_issues": ("title",),
    "staff_members": ("first_name", "last_name", "email"),
    "contacts": ("first_name", "last_name", "email", "company"),
    "users": ("email", "name"),
    "access_roles": ("name",),
    "webhook_endpoints": ("url",),
}


def apply(database):
    for table, columns in SEARCHED.items():
        for statement in dialect.search_index(table, columns):
            database.execute_sql(statement)
