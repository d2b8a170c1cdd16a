"""The office console's page and its static files (SPEC §12): `GET /` and every path of the console answer one
HTML page (the console's router shows the screen the path names); `/static/<digest>/...` answers its files.

The prefixes of the console's paths are declared here (CONSOLE_PATHS), its screens in static/console/screens.js (a
test holds the two to each other); a screen at a new prefix adds it. Any other path keeps the API's 404 envelope.
"""

import json
import re

from flask import Blueprint, current_app, render_template, request

from auth import public
from domain.errors import not_found
from web import console_assets
from web.service_worker import worker_script

pages = Blueprint("console", __name__)

# The prefixes the console's router shows screens under: each answers at `/prefix` and `/prefix/...`.
CONSOLE_PATHS = (
    "/agenda",
    "/gigs",
    "/staffing",
    "/people",
    "/pay",
    "/money",
    "/admin",
    "/records",
    "/my",
    "/first-day",
)

POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; connect-src 'self'; "
    "frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
)
YEAR_SECONDS = 31536000
CONSOLE_FILES = {
    "css": "console.css",
    "script": "main.js",
    "icon": "icon.svg",
    "touch_icon": "icons/apple-touch-icon.png",
}
# The manifest's icons (static/console/icons/, drawn for the band office: scripts/render_icons.py)
APP_ICONS = [
    ("icons/app-192.png", "192x192", "any"),
    ("icons/app-512.png", "512x512", "any"),
    ("icons/app-maskable-192.png", "192x192", "maskable"),
    ("icons/app-maskable-512.png", "512x512", "maskable"),
]


def static_tree():
    return current_app.extensions["console_assets"]


def page_text():
    tree = static_tree()
    urls = {name: tree.url(f"console/{file}") for name, file in CONSOLE_FILES.items()}
    return render_template("console.html", **urls, theme_colour=css_colour(tree, "accent"))


@public
def console_page(rest=None):
    """The console's one page; its script reads the path."""
    response = current_app.response_class(page_text(), mimetype="text/html")
    response.headers["Content-Security-Policy"] = POLICY
    response.headers["Cache-Control"] = "no-cache"  # the page names the assets' digest: always ask for it anew
    return response


@pages.get("/static/<digest>/<path:relative>")
@public
def static_asset(digest, relative):
    """A file of the console, gzip-compressed for browsers that accept it; cached for a year (its URL changes with
    any change to the tree)."""
    tree = static_tree()
    asset = tree.assets.get(relative) if digest == tree.digest else None
    if asset is None:
        raise not_found("No such file.")
    compressed = asset.gzipped is not None and request.accept_encodings["gzip"]
    response = current_app.response_class(asset.gzipped if compressed else asset.body, mimetype=asset.media_type)
    if compressed:
        response.headers["Content-Encoding"] = "gzip"
    response.vary.add("Accept-Encoding")
    response.set_etag(asset.etag + ("-gz" if compressed else ""))
    response.headers["Cache-Control"] = f"public, max-age={YEAR_SECONDS}, immutable"
    return response.make_conditional(request)


@public
def service_worker():
    """The service worker (web/service_worker.py), at the root so that its scope is the whole site; asked anew each time
    (browsers also look for a new one at least daily)."""
    script = worker_script(static_tree(), page_text(), "/", CONSOLE_PATHS)
    response = current_app.response_class(script, mimetype="text/javascript")
    response.headers["Content-Security-Policy"] = POLICY
    response.headers["Cache-Control"] = "no-cache"
    return response


def css_colour(tree, name):
    """The light scheme's `--name` of console.css (its first declaration), the one home of the console's colours."""
    css = tree.assets["console/console.css"].body.decode()
    return re.search(rf"--{name}:\s*(#[0-9a-fA-F]{{3,8}})\s*;", css)[1]


@public
def web_app_manifest():
    """What a phone installs (SPEC §13): the app's name, where it starts, its colours and icons."""
    tree = static_tree()
    icons = [
        {"src": tree.url(f"console/{file}"), "sizes": sizes, "type": "image/png", "purpose": purpose}
        for file, sizes, purpose in APP_ICONS
    ]
    manifest = {
        "name": "Band Office",
        "short_name": "Band Office",
        "description": "Your gigs, invitations, pay and days off with the band.",
        "id": "/",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "lang": "en",
        "theme_color": css_colour(tree, "accent"),
        "background_color": css_colour(tree, "background"),
        "icons": icons,
    }
    response = current_app.response_class(json.dumps(manifest, indent=1), mimetype="application/manifest+json")
    response.headers["Cache-Control"] = "no-cache"  # it names the icons' digest
    return response


def register(app):
    """The console's routes on `app`, and its static tree read once."""
    app.extensions["console_assets"] = console_assets.read_tree()
    app.jinja_env.globals["console_file"] = lambda name: app.extensions["console_assets"].url(f"console/{name}")
    app.jinja_env.globals["static_file"] = lambda name: app.extensions["console_assets"].url(name)
    app.add_url_rule("/", "console.home", console_page)
    app.add_url_rule("/sw.js", "console.service_worker", service_worker)
    app.add_url_rule("/manifest.webmanifest", "console.manifest", web_app_manifest)
    for prefix in CONSOLE_PATHS:
        app.add_url_rule(prefix, f"console.{prefix[1:]}", console_page)
        app.add_url_rule(f"{prefix}/<path:rest>", f"console.{prefix[1:]}_within", console_page)
    app.register_blueprint(pages)
