"""The PostgreSQL dialect: every piece of SQL only PostgreSQL speaks, its modules by job (see `dialects.SEAM` for
what each name does), through psycopg 3 and peewee's pool. Migrations of this dialect: `sql/postgresql/`."""

from dialects.counters import count_up
from dialects.exemption import without_budget
from dialects.postgresql.backups import Unreadable, copy_database, database_folder, inspect_file, keep_private
from dialects.postgresql.binding import NOW, OFFICE_TODAY, greater_of, one_of, prepared, prepared_rows, subquery
from dialects.postgresql.budget import limit_statements, over_budget
from dialects.postgresql.bulk import compact, database_at, indexes_deferred, triggers_deferred, write_fast
from dialects.postgresql.database import (
    ChangeWatch,
    connect_in_background,
    db,
    insert_if_absent,
    is_busy,
    locking_transaction,
    lost_to_another,
    open_database,
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
from dialects.postgresql.expressions import (
    all_of,
    contains,
    fold,
    fold_text,
    json_array_holds,
    json_array_of,
    json_field,
    json_has,
    starts_with,
)
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
