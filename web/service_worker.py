"""The console's service worker (SPEC §13), served at `/sw.js` so that its scope is the whole site.

The script is made, not stored: a head that names this office's files, then every `static/console/sw/*.js` file
of the static tree, in name order, each in a block of its own (`{ ... }`: its consts and functions are its own, so
two files cannot clash over a name) under a comment naming it. A file dropped into `static/console/sw/` is taken in
by that alone (the push handlers live in one, the shell's caching in another); every file may read the head's
`SHELL`:

    SHELL.version        changes with any change to the page or to the static tree (a new worker installs)
    SHELL.page           the console's page, kept to open any console path with no connection ("/")
    SHELL.files          every file of the static tree under its current URL (/static/<digest>/...)
    SHELL.consolePaths   the path prefixes the console's page answers (routes/console.py's CONSOLE_PATHS)

Browsers compare the script byte for byte to find a new version, so the head carries the version.
"""

import hashlib
import json

WORKER_FILES = "console/sw/"  # within the static tree


def worker_parts(tree):
    """The static tree's `console/sw/*.js` files (not those in folders below), in name order: [(name, text)]."""
    names = sorted(
        relative
        for relative in tree.assets
        if relative.startswith(WORKER_FILES) and relative.endswith(".js") and "/" not in relative[len(WORKER_FILES) :]
    )
    return [(name, tree.assets[name].body.decode()) for name in names]


def shell_of(tree, page, page_path, console_paths):
    """What the worker keeps: the page (its text, `page`, is part of the version) and the tree's files but its own."""
    files = [tree.url(relative) for relative in tree.assets if not relative.startswith(WORKER_FILES)]
    version = hashlib.sha256(tree.digest.encode() + b"\0" + page.encode()).hexdigest()[:16]
    return {"version": version, "page": page_path, "files": files, "consolePaths": list(console_paths)}


def worker_script(tree, page, page_path, console_paths):
    """The text of `/sw.js`."""
    shell = json.dumps(shell_of(tree, page, page_path, console_paths), indent=1)
    head = (
        "// The band office's service worker (SPEC §13), written by web/service_worker.py: this head, then every\n"
        "// static/console/sw/*.js in name order.\n"
        '"use strict";\n'
        f"const SHELL = Object.freeze({shell});\n"
    )
    parts = [f"\n// ---- {name} ----\n{{\n{text}}}\n" for name, text in worker_parts(tree)]
    return head + "".join(parts)
