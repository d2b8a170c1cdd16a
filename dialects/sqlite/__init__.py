"""The SQLite dialect: every piece of SQL only SQLite speaks, its modules by job (see `dialects.SEAM` for what each
name does). Migrations of this dialect: `sql/sqlite/`."""

from dialects.counters import count_up
from dialects.exemption import without_budget
from dialects.sqlite.budget import limit_statements, over_budget
from dialects.sqlite.bulk import compact, database_at, indexes_deferred, triggers_deferred, write_fast
from dialects.sqlite.database import (
    ChangeWatch,
    connect_in_background,
    db,
    insert_if_absent,
    is_busy,
    locking_transaction,
    lost_to_another,
    open_database,
    refresh_statistics,
    schema_version,
    set_schema_version,
    statements,
    unique_violation,
    unique_with_null,
    upsert,
    without_waiting,
    write_transaction,
)
from dialects.sqlite.expressions import (
    NOW,
    OFFICE_TODAY,
    all_of,
    contains,
    fold,
    fold_text,
    greater_of,
    json_array_holds,
    json_array_of,
    json_field,
    json_has,
    one_of,
    starts_with,
    subquery,
)
from dialects.sqlite.files import (
    AttachmentDownload,
    Unreadable,
    copy_database,
    database_folder,
    inspect_file,
    keep_private,
    store_attachment,
)
from dialects.sqlite.pages import (
    as_json,
    counted,
    embedded,
    json_rows,
    ordered,
    packed_rows,
    prepared,
    prepared_rows,
)
from dialects.sqlite.queue import write_queue
from dialects.sqlite.search import matching_words, search_columns, search_index
from dialects.sqlite.servers import claiming, locking, one_server_at_a_time

NAME = "sqlite"  # its migrations: sql/sqlite/
