"""The PostgreSQL dialect: every piece of SQL only PostgreSQL speaks, its modules by job (see `dialects` for what
each name does), through psycopg 3 and peewee's pool. Migrations of this dialect: `sql/postgresql/`."""

from dialects.exemption import without_budget
from dialects.postgresql.access import (
    CALLER_SQL,
    caller_row,
    count_all_capability_holders,
    count_role_holders,
    grants_of,
)
from dialects.postgresql.backups import Unreadable, copy_database, database_folder, inspect_file, keep_private
from dialects.postgresql.binding import NOW, greater_of, one_of, prepared, prepared_rows, subquery
from dialects.postgresql.budget import limit_statements, over_budget
from dialects.postgresql.bulk import compact, database_at, indexes_deferred, write_fast
from dialects.postgresql.database import (
    ChangeWatch,
    connect_in_background,
    db,
    insert_if_absent,
    is_busy,
    locking_transaction,
    lost_to_another,
    open_database,
    rows_written,
    schema_version,
    set_schema_version,
    statements,
    unique_violation,
    unique_with_null,
    upsert,
    without_waiting,
    write_queue,
    write_transaction,
)
from dialects.postgresql.expressions import all_of, contains, fold, fold_text, json_field, json_has, starts_with
from dialects.postgresql.files import AttachmentDownload, store_attachment
from dialects.postgresql.pages import (
    as_json,
    counted,
    embedded,
    json_rows,
    ordered,
    packed_rows,
)
from dialects.postgresql.search import matching_words, search_columns, search_index
from dialects.postgresql.servers import claiming, locking, one_server_at_a_time
from dialects.postgresql.statistics import refresh_statistics

NAME = "postgresql"  # its migrations: sql/postgresql/

__all__ = [
    "CALLER_SQL",
    "NAME",
    "NOW",
    "AttachmentDownload",
    "ChangeWatch",
    "Unreadable",
    "all_of",
    "as_json",
    "caller_row",
    "claiming",
    "compact",
    "connect_in_background",
    "contains",
    "copy_database",
    "count_all_capability_holders",
    "count_role_holders",
    "counted",
    "database_at",
    "database_folder",
    "db",
    "embedded",
    "fold",
    "fold_text",
    "grants_of",
    "greater_of",
    "indexes_deferred",
    "insert_if_absent",
    "inspect_file",
    "is_busy",
    "json_field",
    "json_has",
    "json_rows",
    "keep_private",
    "limit_statements",
    "locking",
    "locking_transaction",
    "lost_to_another",
    "matching_words",
    "one_of",
    "one_server_at_a_time",
    "open_database",
    "ordered",
    "over_budget",
    "packed_rows",
    "prepared",
    "prepared_rows",
    "refresh_statistics",
    "rows_written",
    "schema_version",
    "search_columns",
    "search_index",
    "set_schema_version",
    "starts_with",
    "statements",
    "store_attachment",
    "subquery",
    "unique_violation",
    "unique_with_null",
    "upsert",
    "without_budget",
    "without_waiting",
    "write_fast",
    "write_queue",
    "write_transaction",
]
