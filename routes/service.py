"""The service's own endpoints: health, the OpenAPI document and its reference page (offline: the page's
assets come from the flask-swagger-ui package and are served from here)."""

import gzip
from importlib import resources

from flask import Blueprint, current_app, render_template, request, send_from_directory, url_for

import openapi
from auth import public
from formats.operation_schemas import HealthSchema, IndexSchema
from openapi import operation
from storage.migrations import schema_version

blueprint = Blueprint("service", __name__)
DOCS_ASSETS = resources.files("flask_swagger_ui") / "dist"
DOCS_MEDIA_TYPES = ("text/javascript", "text/css", "image/png", "text/html")


@blueprint.get("/")
@public
@operation(response=IndexSchema)
def index():
    """Where to start: the reference page and the OpenAPI document."""
    docs, document = url_for("api.service.docs"), url_for("api.service.openapi_document")
    return {"data": {"name": "Band Office", "version": openapi.VERSION, "docs": docs, "openapi": document}}


@blueprint.get("/health")
@public
@operation(response=HealthSchema)
def health():
    """Whether the service is up, its version and its database schema version."""
    return {"data": {"status": "ok", "version": openapi.VERSION, "schema_version": schema_version()}}


@blueprint.get("/openapi.json")
@public
@operation()
def openapi_document():
    """This OpenAPI 3.1 document (gzip-compressed for clients that accept it)."""
    plain, compressed = document_bodies()
    response = current_app.response_class(plain, mimetype="application/json")
    if request.accept_encodings["gzip"]:
        response.set_data(compressed)
        response.headers["Content-Encoding"] = "gzip"
    response.vary.add("Accept-Encoding")
    return response


def document_bodies():
    """The document's JSON and a gzip copy of it, built on first use (it takes a moment) and kept."""
    if "openapi" not in current_app.extensions:
        plain = (current_app.json.dumps(openapi.document(current_app)) + "\n").encode()
        current_app.extensions["openapi"] = plain, gzip.compress(plain, compresslevel=9, mtime=0)
    return current_app.extensions["openapi"]


@blueprint.get("/docs")
@public
@operation(media_type="text/html")
def docs():
    """A reference page that renders this document in a browser (no internet needed)."""
    return render_template("docs.html")


@blueprint.get("/docs/<path:asset>")
@public
@operation(media_type=DOCS_MEDIA_TYPES, errors=(404,))
def docs_asset(asset):
    """The assets of the reference page."""
    return send_from_directory(str(DOCS_ASSETS), asset, max_age=86400)
