"""The database's files: attachment bytes in chunks, private modes, online copies, and checking a copy."""

import contextlib
import hashlib
import sqlite3
from pathlib import Path

from dialects.sqlite.database import db
from storage.private_files import private_file

# --- attachment bytes: incremental blob I/O ------------------------------------------------------------------
# Written and read in chunks, so that memory does not grow with the size of a file or with the number of
# downloads at once (SPEC §2.3).

CHUNK_BYTES = 64 * 1024
CONTENTS, ATTACHMENTS = "attachment_contents", "attachments"

# A download's own connection keeps a small page cache: sixteen of them must not add up to much.
DOWNLOAD_CACHE_KIB = 256


def store_attachment(connection, attachment_id, stream, size):
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


class AttachmentDownload:
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


def keep_private(path):
    """Make the database file 0600 before SQLite opens it (created empty when new, narrowed when an earlier version
    left it readable): SQLite gives its -wal and -shm files the database's mode, and any already there are narrowed."""
    private_file(path)
    for suffix in ("-wal", "-shm", "-journal"):
        if Path(f"{path}{suffix}").exists():
            private_file(f"{path}{suffix}")


def copy_database(path):
    """An online, consistent copy of the open database at `path` (SQLite's backup API), while writes go on; 0600,
    as the database's own file."""
    private_file(path)
    target = sqlite3.connect(path)
    try:
        with target:
            db.connection().backup(target)
    finally:
        target.close()


def database_folder():
    """The folder of the database file, where the copy taken before a migration is kept beside it."""
    return Path(db.database).parent


# --- checking a database file without changing it (`app.py check`) ----------------------------------------


class Unreadable(Exception):
    """The file is no SQLite database, or too damaged to read; the message says which."""


def inspect_file(path):
    """(schema version, integrity problems, {(table, referenced table): rows pointing at nothing}) of the SQLite
    file `path`, read in one snapshot and never written. Raises Unreadable."""
    try:
        with contextlib.closing(_open_for_inspection(path)) as connection:
            connection.execute("BEGIN")  # one snapshot, should a server be writing the file meanwhile
            version = connection.execute("PRAGMA user_version").fetchone()[0]
            problems = [row[0] for row in connection.execute("PRAGMA integrity_check") if row[0] != "ok"]
            broken = {}
            for table, _, parent, _ in connection.execute("PRAGMA foreign_key_check"):
                broken[table, parent] = broken.get((table, parent), 0) + 1
    except sqlite3.DatabaseError as e:
        raise Unreadable("is not a SQLite database" if "not a database" in str(e) else f"is corrupt ({e})") from None
    return version, problems, broken


def _open_for_inspection(path):
    """A read-only connection to `path`. Without a -wal or -journal beside it no process is writing the file (a
    server keeps its WAL while it runs), so it is opened immutable: a read-only open of a WAL file would leave
    new -wal and -shm files beside a backup."""
    in_use = any(Path(f"{path}{suffix}").exists() for suffix in ("-wal", "-journal"))
    uri = read_only_uri(path) + ("" if in_use else "&immutable=1")
    return sqlite3.connect(uri, uri=True, isolation_level=None)
