"""The service's own endpoints: health, the OpenAPI document and its reference page."""

from flask import Blueprint, current_app

import openapi
from auth import public
from migrations import schema_version

blueprint = Blueprint("service", __name__)


@blueprint.get("/health")
@public
def health():
    """Whether the service is up, its version and its database schema version."""
    return {"data": {"status": "ok", "version": "1.0.0", "schema_version": schema_version()}}


@blueprint.get("/openapi.json")
@public
def openapi_document():
    """The OpenAPI 3.1 document of the whole API."""
    if "openapi" not in current_app.extensions:  # built on first use: it takes a moment
        current_app.extensions["openapi"] = openapi.document(current_app)
    return current_app.extensions["openapi"]
