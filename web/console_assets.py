"""The console's static files (SPEC §12), read once at start and served from memory under a content hash.

Every file of `static/` is read when the app is built, with a gzip copy and an ETag of each; the digest of the
whole tree names the URL prefix `/static/<digest>/`, so a page asks for `/static/<digest>/console/main.js`, its
relative ES-module imports stay under the same prefix, and any change to any file gives every URL anew: the
answers can then be cached for a year. Only files found at start are served: no path a request spells can reach
the disk (no `..`, no directory listing).
"""

import gzip
import hashlib
import mimetypes
from dataclasses import dataclass
from pathlib import Path

STATIC_ROOT = Path(__file__).resolve().parent.parent / "static"
DIGEST_LENGTH = 16
MEDIA_TYPES = {".js": "text/javascript", ".mjs": "text/javascript", ".css": "text/css", ".svg": "image/svg+xml"}
COMPRESSED_TYPES = ("text/", "image/svg+xml", "application/json")


@dataclass(frozen=True)
class Asset:
    body: bytes
    gzipped: bytes | None  # None where compressing gains nothing (PNG, say)
    media_type: str
    etag: str


@dataclass(frozen=True)
class StaticTree:
    digest: str
    assets: dict  # relative path with forward slashes -> Asset

    def url(self, relative):
        """The URL of a file of the tree: `console/main.js` -> `/static/<digest>/console/main.js`."""
        return f"/static/{self.digest}/{relative}"


def media_type_of(path):
    return MEDIA_TYPES.get(path.suffix) or mimetypes.guess_type(path.name)[0] or "text/plain"


def asset_of(content, media_type):
    etag = hashlib.sha256(content).hexdigest()[:32]
    compressible = media_type.startswith(COMPRESSED_TYPES)
    gzipped = gzip.compress(content, compresslevel=9, mtime=0) if compressible else None
    return Asset(content, gzipped, media_type, etag)


def read_tree(root=STATIC_ROOT):
    """Every file under `root` as an Asset, and the digest of their names and contents together."""
    whole = hashlib.sha256()
    assets = {}
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        relative = path.relative_to(root).as_posix()
        content = path.read_bytes()
        whole.update(relative.encode() + b"\0" + hashlib.sha256(content).digest())
        assets[relative] = asset_of(content, media_type_of(path))
    return StaticTree(whole.hexdigest()[:DIGEST_LENGTH], assets)
