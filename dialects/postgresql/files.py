"""Attachment bytes in chunks: written through COPY as they arrive, read a slice at a time in one snapshot."""

import hashlib
import struct

import psycopg

from dialects.postgresql.database import connection_params

# Written and read in chunks, so that memory does not grow with the size of a file or with the number of
# downloads at once (SPEC §2.3); the limit on a file's size is the app's (BAND_MAX_UPLOAD_MB), as on SQLite.

CHUNK_BYTES = 64 * 1024
CONTENTS, ATTACHMENTS = "attachment_contents", "attachments"

# COPY's binary form: its signature, flags and header extension; a row of two fields; the end.
COPY_HEADER = b"PGCOPY\n\xff\r\n\0" + struct.pack("!ii", 0, 0)
COPY_END = struct.pack("!h", -1)


def store_attachment(connection, attachment_id, stream, size):
    """Write the next `size` bytes of `stream` as the content of `attachment_id`, a chunk at a time, in the binary
    form of COPY (a field's length comes before its bytes, and the size is known); answer their sha256 (hex). Runs
    in the caller's transaction on `connection`."""
    digest, written = hashlib.sha256(), 0
    key = attachment_id.encode()
    copying = f'COPY "{CONTENTS}" ("attachment_id", "data") FROM STDIN (FORMAT binary)'
    with connection.cursor() as cursor, cursor.copy(copying) as copy:
        copy.write(COPY_HEADER + struct.pack("!hi", 2, len(key)) + key + struct.pack("!i", size))
        while written < size:
            chunk = stream.read(min(CHUNK_BYTES, size - written))
            if not chunk:
                raise ValueError(f"the upload ended after {written} of {size} bytes")
            copy.write(chunk)
            digest.update(chunk)
            written += len(chunk)
        copy.write(COPY_END)
    return digest.hexdigest()


class AttachmentDownload:
    """An attachment's metadata and bytes as one read snapshot: a connection of its own holds a repeatable-read
    transaction from the lookup until `close()`, so a change or delete committed meanwhile cannot tear the bytes
    apart. Iterating gives the bytes in chunks, each a slice of the stored value (stored uncompressed: a slice reads
    only its own pages); a WSGI body: the server calls `close()` once the body is sent or the client has gone."""

    def __init__(self, connection, attachment_id, row):
        self.connection, self.attachment_id = connection, attachment_id
        self.filename, self.content_type, self.size, self.sha256 = row

    @classmethod
    def open(cls, database, attachment_id):
        """The download of `attachment_id` from the application's database (`database`, its name, is `db`'s), or
        None when there is none."""
        connection = _own_connection()
        try:
            connection.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
            row = connection.execute(
                f'SELECT a."filename", a."content_type", a."size_bytes", a."sha256" FROM "{ATTACHMENTS}" a '
                f'JOIN "{CONTENTS}" c ON c."attachment_id" = a."id" WHERE a."id" = %s',
                (attachment_id,),
            ).fetchone()
            if row is not None:
                return cls(connection, attachment_id, row)
        except BaseException:
            connection.close()
            raise
        connection.close()
        return None

    def __iter__(self):
        for start in range(0, self.size, CHUNK_BYTES):
            row = self.connection.execute(
                f'SELECT substring("data" FROM %s FOR %s) FROM "{CONTENTS}" WHERE "attachment_id" = %s',
                (start + 1, CHUNK_BYTES, self.attachment_id),
            ).fetchone()
            yield bytes(row[0])

    def close(self):
        self.connection.close()  # ends the read transaction


def _own_connection():
    """A connection to the application's database apart from the pool (a download may last as long as the client
    takes), in autocommit mode (its transaction is begun as the download needs it)."""
    return psycopg.connect(**connection_params(), autocommit=True)
