"""Refresh the vendored front-end files from the npm registry, each at its pinned version and checked against the
registry's sha512 integrity (SPEC §12: no build step, no CDN).

.venv/bin/python scripts/vendor.py

- the console's library: Preact with htm, the one ES module `htm/preact/standalone.module.js` of the npm package
  `htm`, into static/vendor/htm/ with the package's LICENSE beside it;
- the client's page's signature pad: the ES module `dist/signature_pad.js` of `signature_pad`, into
  static/vendor/signature_pad/ with its LICENSE;
- the tests' accessibility checker: axe-core's `axe.min.js` into tests/support/vendor/ with its LICENSE.
"""

import base64
import hashlib
import io
import json
import sys
import tarfile
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
REGISTRY = "https://registry.npmjs.org"

# (package, version, {file in the package: where it goes in this repository})
VENDORED = [
    (
        "htm",
        "3.1.1",
        {
            "preact/standalone.module.js": "static/vendor/htm/preact/standalone.module.js",
            "LICENSE": "static/vendor/htm/LICENSE",
        },
    ),
    (
        "signature_pad",
        "5.1.4",
        {
            "dist/signature_pad.js": "static/vendor/signature_pad/signature_pad.js",
            "LICENSE": "static/vendor/signature_pad/LICENSE",
        },
    ),
    (
        "axe-core",
        "4.10.2",
        {"axe.min.js": "tests/support/vendor/axe.min.js", "LICENSE": "tests/support/vendor/axe-core.LICENSE"},
    ),
]


def fetch(url):
    with urllib.request.urlopen(url, timeout=60) as response:
        return response.read()


def verified_tarball(package, version):
    """The package's tarball, refused unless its sha512 is the one the registry's metadata states."""
    dist = json.loads(fetch(f"{REGISTRY}/{package}/{version}"))["dist"]
    algorithm, _, expected = dist["integrity"].partition("-")
    if algorithm != "sha512":
        raise SystemExit(f"{package}@{version}: unexpected integrity {dist['integrity']!r}")
    tarball = fetch(dist["tarball"])
    if base64.b64encode(hashlib.sha512(tarball).digest()).decode() != expected:
        raise SystemExit(f"{package}@{version}: the tarball does not match its sha512 integrity")
    return tarball


def extract(tarball, files):
    """Write each wanted file of the tarball (npm puts them under `package/`) to its place."""
    with tarfile.open(fileobj=io.BytesIO(tarball), mode="r:gz") as archive:
        for inside, target in files.items():
            content = archive.extractfile(f"package/{inside}").read()
            path = ROOT / target
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(content)
            print(f"{target}: {len(content)} bytes")


def main():
    for package, version, files in VENDORED:
        extract(verified_tarball(package, version), files)


if __name__ == "__main__":
    sys.exit(main())
