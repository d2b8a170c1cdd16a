"""The PostgreSQL databases a test process runs its tests on, ready before the tests ask: copies of the migrated
template made ahead and dropped after on threads of their own (`Copies`), as most of the time a copy takes is spent
waiting (on the server's checkpoint and its other sessions), not computing; and the one database the `app` fixture's
tests share, emptied back to the template's rows after each (`Emptied`, the template's rows kept as `Seeds`)."""

import contextlib
import os
import queue
import threading

from tests.support.postgresql_server import database_url, drop_database


class Copies:
    """Copies of one template database, made ahead on a thread of this process: `take()` answers a new one (made
    after the template was, as any copy), `drop(name)` drops one later on a second thread (a copy and a drop wait on
    the server's checkpoints: side by side they share them), `finish()` drops what is left and waits. Each copy is as
    fresh as one made on the spot; only the waiting moves off the test's path."""

    AHEAD = 2  # copies kept ready: one for the next test, one more for a test that makes two (a served office's)
    DROPPERS = 3  # a module's databases are dropped at its end, all at once: side by side they share checkpoints

    def __init__(self, server_url, template):
        self.server, self.template = server_url, template
        self.prefix = f"band_{os.environ.get('PYTEST_XDIST_WORKER', 'main')}_{os.getpid()}"[:50].lower()
        self.count = 0
        self.ready = queue.Queue()  # names of copies made, or the exception making one raised
        self.drops = queue.Queue()  # names to drop; None ends the dropping thread
        self.failed = []  # drops that failed on the thread, tried again by `finish`
        self.wanted = self.AHEAD
        self.changed = threading.Condition()
        self.done = False
        self.maker = threading.Thread(target=self._make_copies, name="postgresql-copies", daemon=True)
        self.droppers = [
            threading.Thread(target=self._drop_copies, name=f"postgresql-drops-{n}", daemon=True)
            for n in range(self.DROPPERS)
        ]
        for thread in (self.maker, *self.droppers):
            thread.start()

    def take(self):
        with self.changed:
            self.wanted += 1
            self.changed.notify()
        made = self.ready.get(timeout=300)
        if isinstance(made, BaseException):
            raise made
        return made

    def drop(self, name):
        self.drops.put(name)

    def finish(self):
        with self.changed:
            self.done = True
            self.changed.notify()
        self.maker.join(timeout=300)
        while not self.ready.empty():
            made = self.ready.get()
            if isinstance(made, str):
                self.drops.put(made)
        for _ in self.droppers:
            self.drops.put(None)
        for thread in self.droppers:
            thread.join(timeout=300)
        for name in self.failed:  # copies no test took, drops that failed on the thread: here, where they raise
            drop_database(self.server, name)

    def _make_copies(self):
        with self._connection() as connection:
            while True:
                with self.changed:
                    while not (self.done or self.wanted):
                        self.changed.wait()
                    if self.done:
                        return
                    self.wanted -= 1
                    self.count += 1
                    name = f"{self.prefix}_{self.count}"
                try:
                    self._make(connection.get(), name)
                except Exception as e:  # handed to the test that takes the copy
                    connection.lost()
                    self.ready.put(e)
                else:
                    self.ready.put(name)

    def _drop_copies(self):
        with self._connection() as connection:
            while (name := self.drops.get()) is not None:
                try:
                    connection.get().execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
                except Exception:  # tried again by `finish`, where it raises
                    connection.lost()
                    self.failed.append(name)

    @contextlib.contextmanager
    def _connection(self):
        """A thread's connection to the server (autocommit: CREATE and DROP DATABASE run outside a transaction),
        opened again after an error."""
        import psycopg

        class Connection:
            current = None

            def get(self):
                if self.current is None or self.current.closed:
                    self.current = psycopg.connect(server, autocommit=True)
                return self.current

            def lost(self):
                with contextlib.suppress(Exception):
                    self.current.close()
                self.current = None

        server, connection = self.server, Connection()
        try:
            yield connection
        finally:
            connection.lost()

    def _make(self, connection, name):
        """The copy `name` made; tried again while another session is on the template (CREATE DATABASE waits 5 s for
        it to leave, then refuses): a test may read the template itself."""
        import psycopg.errors

        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        for attempt in range(5):
            try:
                connection.execute(f'CREATE DATABASE "{name}" TEMPLATE "{self.template}" STRATEGY FILE_COPY')
                return
            except psycopg.errors.ObjectInUse:
                if attempt == 4:
                    raise


class Emptied:
    """The database the `app` fixture's tests of this process run on, one after the other: a copy of the template,
    emptied back to the template's rows after each test instead of dropped for a new copy. A copy and its drop
    cost the server ~55 ms of CPU, and every connection of the next test would start on a database no backend has
    read yet; emptying the tables costs ~10 ms, and the process's pool keeps its connections for the next test. A
    test that changed the schema or wrote many rows (they would stay in the tables' pages and the planner's
    statistics), or whose folder another process was given (a served office: it may outlive the test a moment), is
    given a new copy."""

    ROWS_AT_MOST = 2000

    def __init__(self, copies):
        self.copies = copies
        self.name = self.seeds = self.connection = None
        self.shared = False

    def take(self):
        import psycopg

        if self.name is None:
            self.name = self.copies.take()
            url = database_url(self.copies.server, self.name)
            # A row a test left locked makes the emptying wait that long, then give up (a new copy instead).
            self.connection = psycopg.connect(url, autocommit=True, options="-c lock_timeout=5000")
            self.seeds = Seeds.read(self.connection)  # a copy just made: the template's
        return self.name

    def give_back(self):
        """After a test: the database emptied back to the template's rows (True), or dropped."""
        import psycopg

        shared, self.shared = self.shared, False
        with contextlib.suppress(psycopg.Error):
            if not shared and self.seeds.restore(self.connection, self.ROWS_AT_MOST):
                return True
        self.drop()
        return False

    def drop(self):
        with contextlib.suppress(Exception):
            self.connection.close()
        self.copies.drop(self.name)
        self.name = self.seeds = self.connection = None


class Seeds:
    """What a migrated database holds before any test writes to it: the rows of its tables (the access roles, the
    gig statuses and types, the settings), its sequences' values, and a fingerprint of its schema."""

    # The schema's rows in the catalogues, each row's oid and xmin: any DDL writes one of them anew (their hashes
    # summed: no sort).
    SCHEMA = """
        SELECT count(*) || ':' || sum(hashtextextended(line, 0)) FROM (
            SELECT 'c' || oid || ':' || xmin AS line FROM pg_class WHERE relnamespace = 'public'::regnamespace
            UNION ALL SELECT 'a' || attrelid || '.' || attnum || ':' || a.xmin FROM pg_attribute a
                JOIN pg_class c ON c.oid = a.attrelid WHERE c.relnamespace = 'public'::regnamespace
            UNION ALL SELECT 't' || t.oid || ':' || t.xmin FROM pg_trigger t
                JOIN pg_class c ON c.oid = t.tgrelid WHERE c.relnamespace = 'public'::regnamespace
            UNION ALL SELECT 'p' || oid || ':' || xmin FROM pg_proc WHERE pronamespace = 'public'::regnamespace
            UNION ALL SELECT 'n' || oid || ':' || xmin FROM pg_namespace
        ) schema"""
    TABLES = """
        SELECT format('%I', c.relname), string_agg(format('%I', a.attname), ', ' ORDER BY a.attnum)
        FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid
        WHERE c.relnamespace = 'public'::regnamespace AND c.relkind = 'r' AND a.attnum > 0 AND NOT a.attisdropped
          AND a.attgenerated = ''
        GROUP BY c.relname ORDER BY c.relname"""
    SEQUENCES = """
        SELECT format('%I', sequencename), coalesce(last_value, start_value), last_value IS NOT NULL
        FROM pg_sequences WHERE schemaname = 'public'"""

    def __init__(self, schema, tables, rows, sequences):
        self.schema, self.tables, self.rows, self.sequences = schema, tables, rows, sequences

    @classmethod
    def read(cls, connection):
        schema = connection.execute(cls.SCHEMA).fetchone()[0]
        tables = dict(connection.execute(cls.TABLES).fetchall())
        rows = {}
        for table, columns in tables.items():
            if connection.execute(f"SELECT EXISTS (SELECT FROM {table})").fetchone()[0]:
                with connection.cursor().copy(f"COPY {table} ({columns}) TO STDOUT (FORMAT binary)") as copy:
                    rows[table] = b"".join(bytes(block) for block in copy)
        return cls(schema, tables, rows, connection.execute(cls.SEQUENCES).fetchall())

    def restore(self, connection, rows_at_most):
        """The database's rows and sequences back to these, in one transaction; False (nothing changed) where its
        schema is not these seeds', or it holds more than `rows_at_most` rows."""
        import psycopg

        if connection.execute(self.SCHEMA, prepare=True).fetchone()[0] != self.schema:  # planned once a connection
            return False
        with connection.transaction() as transaction:
            connection.execute("SET LOCAL session_replication_role = replica")  # no trigger, no foreign key checked
            deleted = ", ".join(f"d{n} AS (DELETE FROM {table} RETURNING 1)" for n, table in enumerate(self.tables))
            counted = " + ".join(f"(SELECT count(*) FROM d{n})" for n in range(len(self.tables)))
            if connection.execute(f"WITH {deleted} SELECT {counted}", prepare=True).fetchone()[0] > rows_at_most:
                raise psycopg.Rollback(transaction)
            for table, data in self.rows.items():
                columns = self.tables[table]
                with connection.cursor().copy(f"COPY {table} ({columns}) FROM STDIN (FORMAT binary)") as copy:
                    copy.write(data)
            if self.sequences:
                values = ", ".join(f"setval('{name}', {value}, {called})" for name, value, called in self.sequences)
                connection.execute(f"SELECT {values}")
            return True
        return False
