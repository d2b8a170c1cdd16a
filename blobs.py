"""Attachment bytes through SQLite's incremental blob I/O: written and read in chunks, so that memory does
not grow with the size of a file or with the number of downloads at once (SPEC §2.3)."""

import hashlib
import sqlite3
from pathlib import Path

from models import Attachment, AttachmentContent

CHUNK_BYTES = 64 * 1024
CONTENTS = AttachmentContent._meta.table_name
ATTACHMENTS = Attachment._meta.table_name

# A download's own connection keeps a small page cache: sixteen of them must not add up to much.
DOWNLOAD_CACHE_KIB = 256


def store(connection, attachment_id, stream, size):
    """Write the next `size` bytes of `stream` as the content of `attachment_id`, a chunk at a time into a
    zeroblob of that size; answer their sha256 (hex). Runs in the caller's transaction on `connection`."""
    cursor = connection.execute(
        f'INSERT INTO "{CONTENTS}" ("attachment_id", "data") VALUES (?, zeroblob(?))', (attachment_id, size)
    )
    digest = hashlib.sha256()
    with connection.blobopen(CONTENTS, "data", cursor.lastrowid) as blob:
        while blob.tell() < size:
            chunk = stream.read(min(CHUNK_BYTES, size - blob.tell()))
            if not chunk:
                raise ValueError(f"the upload ended after {blob.tell()} of {size} bytes")
            blob.write(chunk)
            digest.update(chunk)
    return digest.hexdigest()


class Download:
    """An attachment's metadata and bytes as one read snapshot: a read-only connection of its own holds a
    read transaction from the lookup until `close()`, so a change or delete committed meanwhile cannot
    tear the bytes apart. Iterating gives the bytes in chunks (a WSGI body; the server calls `close()`
    once the body is sent or the client has gone)."""

    def __init__(self, connection, row):
        self.connection = connection
        self.filename, self.content_type, self.size, self.sha256, rowid = row
        self.blob = connection.blobopen(CONTENTS, "data", rowid, readonly=True)

    @classmethod
    def open(cls, database, attachment_id):
        """The download of `attachment_id` from the SQLite file `database`, or None when there is none."""
        connection = sqlite3.connect(read_only_uri(database), uri=True, isolation_level=None, check_same_thread=False)
        try:
            connection.execute(f"PRAGMA cache_size = -{DOWNLOAD_CACHE_KIB}")
            connection.execute("BEGIN")  # the snapshot starts with the first read below
            row = connection.execute(
                f'SELECT a."filename", a."content_type", a."size_bytes", a."sha256", c.rowid FROM "{ATTACHMENTS}" a '
                f'JOIN "{CONTENTS}" c ON c."attachment_id" = a."id" WHERE a."id" = ?',
                (attachment_id,),
            ).fetchone()
            if row is not None:
                return cls(connection, row)
        except BaseException:
            connection.close()
            raise
        connection.close()
        return None

    def __iter__(self):
        while chunk := self.blob.read(CHUNK_BYTES):
            yield chunk

    def close(self):
        self.blob.close()
        self.connection.close()  # ends the read transaction


def read_only_uri(database):
    return Path(database).resolve().as_uri() + "?mode=ro"
