"""The layers of the code (STYLE.md "Layout"): a module imports its own layer and those below it, never one above.
Rules live below the routes, and the routes import them; the background work and the band's rules never import the
HTTP layer, nor Flask's request machinery, and the band's rules no Flask at all; no module of the app imports the
tests or the scripts. Imports are read with `ast`, so that a new one across the line fails here
before anyone has to find it in review."""

import ast
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent

# From the top down; a name is a top-level module or package, or one module of a package placed apart from it.
LAYERS = [
    ("entry points", ("app", "service", "demo")),
    ("routes", ("routes",)),
    ("HTTP layer", ("web", "server", "resources", "openapi", "auth")),
    ("background work and feeds", ("delivery", "feeds", "events")),
    ("rules and formats", ("domain", "listing", "formats", "documents", "schemas")),
    ("storage", ("storage", "dialects", "sql", "models", "domain.errors")),
]
OUTSIDE = ("tests", "scripts", "conftest")  # they may import anything; the app never imports them

# Flask's request machinery: what only code that runs inside a request may use. `current_app` (the app's config
# and extensions) is not: the background work runs inside the app's context, without a request.
REQUEST_MACHINERY = {"request", "g", "session", "has_request_context", "jsonify", "make_response", "abort", "url_for"}
REQUEST_FREE = (
    "domain",
    "delivery",
    "feeds",
    "events",
    "formats",
    "documents",
    "listing",
    "storage",
    "dialects",
    "models",
    "schemas",
)
# The one exemption, by module (exactly: not its submodules), with the names it may use and why.
REQUEST_EXEMPT = {
    "events": (
        {"g", "has_request_context"},
        "events.record reads the caller and the request id from `g`, only when has_request_context() (the background "
        "work records with neither). Passing them in from the HTTP layer would change the 24 calls that record "
        "events in routes/ and resources/ (events.record, record_event, record_events, change).",
    ),
}
# The band's rules, and the documents made from plain data, have no Flask in them at all (README's code map,
# domain/__init__.py, documents/__init__.py): not even `current_app`.
FLASK_FREE = ("domain", "documents")


def within(name, packages):
    """Whether the dotted `name` is one of `packages` or inside one."""
    return any(name == package or name.startswith(package + ".") for package in packages)


def layer_of(name):
    """The index in LAYERS of the dotted `name` (a module, or a name imported from one), or None."""
    best = None
    for index, (_, names) in enumerate(LAYERS):
        for placed in names:
            if (name == placed or name.startswith(placed + ".")) and (best is None or len(placed) > len(best[1])):
                best = index, placed
    return best and best[0]


def module_of(path):
    parts = list(path.relative_to(PROJECT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def project_files():
    for path in sorted(PROJECT.rglob("*.py")):
        parts = path.relative_to(PROJECT).parts
        if any(part.startswith(".") or part == "__pycache__" for part in parts) or parts[0].removesuffix(".py") in (
            *OUTSIDE,
            "static",
        ):
            continue
        yield path


def imports(source, module):
    """(line, dotted name) of every import in `source`; `from a import b` gives `a.b` (a module or a name in one)."""
    package = module.rsplit(".", 1)[0] if "." in module else ""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            yield from ((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                above = package.split(".")[: max(len(package.split(".")) - node.level + 1, 0)] if package else []
                base = ".".join([*above, *([base] if base else [])])
            yield from ((node.lineno, f"{base}.{alias.name}".lstrip(".")) for alias in node.names)


def upward_imports(source, module, where):
    """`where:line imports name (layer)` for each import of `source` (the module `module`) from a higher layer, or
    from the tests and scripts, which are in no layer: the app never imports them."""
    own = layer_of(module)
    found = []
    for line, name in imports(source, module):
        target = layer_of(name)
        if within(name, OUTSIDE):
            found.append(f"{where}:{line} imports {name} (tests and scripts, outside the app)")
        elif own is not None and target is not None and target < own:
            found.append(f"{where}:{line} imports {name} ({LAYERS[target][0]}, above {LAYERS[own][0]})")
    return found


def request_machinery(source, module, where):
    """`where:line uses flask's name` for each use of Flask that `module` may not make: any at all in FLASK_FREE;
    the request machinery in REQUEST_FREE (and `import flask`, which hides what is used), but for REQUEST_EXEMPT."""
    exempt = REQUEST_EXEMPT.get(module, (set(), ""))[0]
    found = []
    for line, name in imports(source, module):
        if not within(name, ("flask",)) and not name.startswith("flask_"):
            continue
        if within(module, FLASK_FREE):
            package = next(package for package in FLASK_FREE if within(module, (package,)))
            found.append(f"{where}:{line} uses flask's {name.rsplit('.', 1)[-1]} (no Flask in {package})")
        elif within(module, REQUEST_FREE) and (name == "flask" or name.rsplit(".", 1)[1] in REQUEST_MACHINERY - exempt):
            found.append(f"{where}:{line} uses flask's {name.rsplit('.', 1)[-1]}")
    return found


def test_every_module_of_the_app_is_in_a_layer():
    unplaced = {module_of(path) for path in project_files() if layer_of(module_of(path)) is None}
    assert unplaced == set(), "place these in LAYERS (and in the README's code map)"
    assert {"app", "routes.staffing", "delivery.worker", "domain.errors", "storage.writer"} <= {
        module_of(path) for path in project_files()
    }


def test_no_module_imports_a_higher_layer():
    found = []
    for path in project_files():
        found += upward_imports(path.read_text(encoding="utf-8"), module_of(path), path.relative_to(PROJECT))
    assert found == []


def test_domain_has_no_flask_and_delivery_no_request_machinery():
    found = []
    for path in project_files():
        found += request_machinery(path.read_text(encoding="utf-8"), module_of(path), path.relative_to(PROJECT))
    assert found == []


def test_the_check_sees_each_kind_of_crossing():
    worker = "from routes.staffing import INVITATIONS\nfrom web import lifecycle\nfrom storage import writer\n"
    assert upward_imports(worker, "delivery.worker", "w.py") == [
        "w.py:1 imports routes.staffing.INVITATIONS (routes, above background work and feeds)",
        "w.py:2 imports web.lifecycle (HTTP layer, above background work and feeds)",
    ]
    assert upward_imports("import auth\n", "domain.rules", "r.py") == [
        "r.py:1 imports auth (HTTP layer, above rules and formats)"
    ]
    assert upward_imports("from . import rules\nfrom .. import routes\n", "domain.payroll", "p.py") == [
        "p.py:2 imports routes (routes, above rules and formats)"
    ]
    assert upward_imports("from domain.errors import ConfigError\n", "storage.writer", "s.py") == []
    assert upward_imports("from domain.rules import window\n", "storage.writer", "s.py") == [
        "s.py:1 imports domain.rules.window (rules and formats, above storage)"
    ]
    assert request_machinery("from flask import current_app, g\n", "delivery.mail", "m.py") == ["m.py:1 uses flask's g"]
    assert request_machinery("from flask import g\n", "web.lifecycle", "l.py") == []
    assert request_machinery("import flask\n", "feeds.calendar", "c.py") == ["c.py:1 uses flask's flask"]
    assert request_machinery("from flask import g, has_request_context, request\n", "events", "e.py") == [
        "e.py:1 uses flask's request"
    ]
    assert request_machinery("from flask import g\n", "events.resource", "r.py") == ["r.py:1 uses flask's g"]
    assert request_machinery("from flask import current_app\n", "domain.pay_policy", "p.py") == [
        "p.py:1 uses flask's current_app (no Flask in domain)"
    ]
    assert request_machinery("from flask import current_app\n", "domain.errors", "e.py") == [
        "e.py:1 uses flask's current_app (no Flask in domain)"
    ]
    assert request_machinery("from flask import render_template\n", "documents.pdfs", "d.py") == [
        "d.py:1 uses flask's render_template (no Flask in documents)"
    ]
    assert upward_imports("from tests.support import fixtures\nimport conftest\n", "delivery.mail", "m.py") == [
        "m.py:1 imports tests.support.fixtures (tests and scripts, outside the app)",
        "m.py:2 imports conftest (tests and scripts, outside the app)",
    ]
    assert upward_imports("from scripts import bench\n", "app", "a.py") == [
        "a.py:1 imports scripts.bench (tests and scripts, outside the app)"
    ]
