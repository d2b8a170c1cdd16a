"""The /v1 API: one module per capability group, each declaring its resources and operations."""

from flask import Blueprint

import auth
from resources import register as register_resources
from routes import admin, catalog, gigs, service

GROUP_MODULES = (gigs, catalog, admin)


def register(app):
    api = Blueprint("api", __name__, url_prefix="/v1")
    for module in GROUP_MODULES:
        register_resources(api, *module.RESOURCES)
    api.register_blueprint(auth.api)
    api.register_blueprint(service.blueprint)
    app.register_blueprint(api)
    app.register_blueprint(auth.pages)
