"""Custom-field definitions made through the API, on the collections that take them, and the fixtures that walk
those collections."""

import pytest

# The table name a definition's `resource` names, and the collection of its records.
COLLECTIONS = {
    "gigs": "gigs",
    "venues": "venues",
    "contacts": "contacts",
    "staff_members": "staff-members",
    "equipment": "equipment",
}
TIERS = ["gold", "silver", "bronze"]


def define(admin, resource, key, field_type, **fields):
    body = {"resource": resource, "key": key, "label": key.replace("_", " ").title(), "field_type": field_type}
    return admin.create("custom-fields", {**body, **fields})


def define_all(admin, resource):
    """One definition of each type on `resource`."""
    define(admin, resource, "dress", "text")
    define(admin, resource, "n", "number")
    define(admin, resource, "b", "boolean")
    define(admin, resource, "d", "date")
    define(admin, resource, "tier", "select", options=TIERS)


def collection_fixtures():
    """The fixtures `resource` (each resource name as a definition gives it) and `collection` (its records'
    collection), for a test module to name at its top: `resource, collection = collection_fixtures()`."""

    @pytest.fixture(params=list(COLLECTIONS))
    def resource(request):
        """A resource name as a definition gives it (`staff_members`)."""
        return request.param

    @pytest.fixture
    def collection(resource):
        """Its records' collection (`staff-members`)."""
        return COLLECTIONS[resource]

    return resource, collection
