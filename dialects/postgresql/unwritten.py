"""The names of the seam this dialect does not offer yet (pages, expressions, search, access, attachments and the
demo's bulk writes, which come with their own modules): each fails, when used, with a message naming it."""

UNWRITTEN = [
    "all_of",
    "as_json",
    "caller_row",
    "compact",
    "contains",
    "count_all_capability_holders",
    "count_role_holders",
    "counted",
    "database_at",
    "embedded",
    "fold",
    "fold_text",
    "grants_of",
    "indexes_deferred",
    "json_field",
    "json_has",
    "json_page",
    "matching_words",
    "packed_rows",
    "page_query",
    "page_total",
    "record_query",
    "refresh_statistics",
    "search_columns",
    "search_index",
    "starts_with",
    "store_attachment",
    "write_fast",
]


def _unwritten(name):
    def fails(*args, **kwargs):
        raise NotImplementedError(f"dialects.postgresql.{name} is not written yet")

    fails.__name__ = name
    return fails


globals().update({name: _unwritten(name) for name in UNWRITTEN})


class AttachmentDownload:
    @classmethod
    def open(cls, database, attachment_id):
        raise NotImplementedError("dialects.postgresql.AttachmentDownload is not written yet")


CALLER_SQL = "-- dialects.postgresql.CALLER_SQL is not written yet"
MAX_REMEMBERED_SQL = 512
