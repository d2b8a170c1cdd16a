"""The /v1 API: one module per capability group, each declaring its resources and operations."""

from flask import Blueprint

from formats import client_words
from resources import register as register_resources
from routes import (
    account,
    admin,
    answers,
    catalog,
    client,
    client_actions,
    client_wishes,
    console,
    contracts,
    devices,
    events,
    gigs,
    inquiries,
    invoicing,
    me,
    musicians,
    notifications,
    office,
    pay,
    people,
    production,
    quotes,
    sales,
    service,
    setup,
    staffing,
    webhooks,
)

GROUP_MODULES = (gigs, catalog, staffing, production, people, pay, sales, admin, webhooks)
RESOURCES = [resource for module in GROUP_MODULES for resource in module.RESOURCES]


def register(app):
    api = Blueprint("api", __name__, url_prefix="/v1")
    register_resources(api, *RESOURCES)
    others = (
        account,
        answers,
        client,
        client_actions,
        client_wishes,
        contracts,
        devices,
        events,
        inquiries,
        invoicing,
        me,
        musicians,
        notifications,
        office,
        quotes,
        service,
        setup,
    )
    for module in (*GROUP_MODULES, *others):
        if hasattr(module, "blueprint"):
            api.register_blueprint(module.blueprint)
    app.register_blueprint(api)
    app.register_blueprint(account.pages)
    app.register_blueprint(answers.pages)
    app.register_blueprint(client.pages)
    app.register_blueprint(inquiries.pages)
    app.register_blueprint(setup.pages)
    console.register(app)
    client_words.load()
