"""A throwaway PostgreSQL for the tests (`pytest --database=postgresql`): a cluster of its own in a temporary folder,
initdb'd and run as the `postgres` user when the tests run as root (PostgreSQL refuses root), spoken to through a
Unix socket in that folder (no port to collide with another), with its durability switched off (a test's data never
outlives the run). Databases are made from a migrated template: the `app` fixture's tests of a process run on one
copy, emptied back to the template's rows after each (`Emptied`); any other database a test makes is a copy of its
own, dropped after the test module. A process makes its next copies and drops the used ones on threads of its own
(`Copies`), while its tests run, as most of the time a copy takes is spent waiting (on the server's checkpoint and
its other sessions), not computing."""

import atexit
import contextlib
import os
import pwd
import queue
import shutil
import subprocess
import tempfile
import threading
from pathlib import Path
from urllib.parse import urlsplit

# Settings for speed and for many databases side by side: nothing written survives a crash, and none needs to.
SETTINGS = {
    "listen_addresses": "''",
    "max_connections": "400",
    "fsync": "off",
    "synchronous_commit": "off",
    "full_page_writes": "off",
    "shared_buffers": "64MB",
    "max_locks_per_transaction": "256",
}
SUPERUSER = "postgres"


def server_program(name):
    """A server program (initdb, pg_ctl): on PATH, else the newest of Debian's /usr/lib/postgresql/*/bin."""
    found = shutil.which(name)
    if found:
        return found
    installed = sorted(Path("/usr/lib/postgresql").glob(f"*/bin/{name}"), key=lambda p: int(p.parts[-3]))
    if not installed:
        raise FileNotFoundError(f"{name} not found: install PostgreSQL (Debian: apt-get install postgresql)")
    return str(installed[-1])


class Cluster:
    """A PostgreSQL server of the tests' own: `start()`, `url(database)`, `stop()`."""

    def __init__(self, folder=None):
        self.folder = Path(folder or tempfile.mkdtemp(prefix="band-pg-"))
        self.data, self.socket = self.folder / "data", self.folder
        self.as_user = SUPERUSER if os.geteuid() == 0 else None

    def start(self):
        if self.as_user:
            account = pwd.getpwnam(self.as_user)
            os.chown(self.folder, account.pw_uid, account.pw_gid)
        self._run(
            server_program("initdb"),
            "--auth=trust",
            f"--username={SUPERUSER}",
            "--encoding=UTF8",
            "--locale=C.UTF-8",
            "--no-sync",
            "-D",
            str(self.data),
        )
        options = " ".join(f"-c {name}={value}" for name, value in SETTINGS.items())
        self._run(
            server_program("pg_ctl"),
            "start",
            "--wait",
            "--timeout=60",
            "-D",
            str(self.data),
            f"--log={self.folder / 'server.log'}",
            "-o",
            f"{options} -k {self.socket}",
        )
        return self

    def stop(self):
        if not self.data.exists():
            return
        with contextlib.suppress(subprocess.CalledProcessError):
            self._run(server_program("pg_ctl"), "stop", "--wait", "-m", "immediate", "-D", str(self.data))
        shutil.rmtree(self.folder, ignore_errors=True)

    def url(self, database):
        return f"postgresql://{SUPERUSER}@/{database}?host={self.socket}"

    def _run(self, *command):
        subprocess.run(command, check=True, capture_output=True, text=True, user=self.as_user)


def execute(url, *statements):
    """Run statements outside a transaction (CREATE DATABASE cannot run in one) on a connection of their own."""
    import psycopg  # here: a run on SQLite never loads it (see dialects._spare_the_driver)

    with psycopg.connect(url, autocommit=True) as connection:
        for statement in statements:
            connection.execute(statement)


def create_database(server_url, name, template=None):
    """A new database `name` on the server of `server_url` (any of its databases), copied from `template`."""
    copied = f' TEMPLATE "{template}" STRATEGY FILE_COPY' if template else ""  # FILE_COPY: faster for small ones
    execute(server_url, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)', f'CREATE DATABASE "{name}"{copied}')


def drop_database(server_url, name):
    execute(server_url, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def database_url(server_url, name):
    """The URL of database `name` on the server of `server_url`."""
    return urlsplit(server_url)._replace(path=f"/{name}").geturl()


def archive_rows(path, table):
    """The rows of `table` in the pg_dump archive `path`, as lines of COPY's text form (fields split by tabs)."""
    restore = [server_program("pg_restore"), "--data-only", f"--table={table}", "--file=-", str(path)]
    script = subprocess.run(restore, check=True, capture_output=True, text=True).stdout
    copied = script.split(" FROM stdin;\n", 1)[1].split("\n\\.\n", 1)[0]
    return copied.splitlines()


# --- the database the tests run on ----------------------------------------------------------------------------

CHOICE = "BAND_TEST_DATABASE"  # sqlite (the default) or postgresql; `pytest --database=...` sets it
SERVER = "BAND_TEST_POSTGRESQL"  # a URL of the PostgreSQL server the tests make databases on (started when unset)


def chosen_database(argv):
    """The database the tests run on: `--database=NAME` (or `--database NAME`) of the command line, else
    BAND_TEST_DATABASE, else sqlite. Read before the project is imported (its dialect follows BAND_DB), so from
    the command line itself; xdist's workers, whose command line is not pytest's, inherit the variable."""
    for i, argument in enumerate(argv):
        if argument.startswith("--database="):
            return argument.split("=", 1)[1]
        if argument == "--database" and i + 1 < len(argv):
            return argv[i + 1]
    return os.environ.get(CHOICE) or "sqlite"


def prepare_server(database):
    """Make `database` this process's and its children's choice; on PostgreSQL, start a cluster unless SERVER
    names one (a parent process, an xdist controller, started it), and point BAND_DB at it so that the project's
    dialect is PostgreSQL's. Answers the cluster started, to be stopped at the end, or None."""
    os.environ[CHOICE] = database
    if database != "postgresql":
        return None
    started = None
    if not os.environ.get(SERVER):
        started = Cluster().start()
        atexit.register(started.stop)  # also when pytest stops before its unconfigure hook (a usage error)
        os.environ[SERVER] = started.url("postgres")
    os.environ["BAND_DB"] = os.environ[SERVER]
    return started


def on_postgresql():
    return os.environ.get(CHOICE) == "postgresql"


def busy_machine_budget():
    """Settings of an app a test makes: on PostgreSQL a read's budget is wall time (statement_timeout), which a busy CI
    machine spends, so 5 s there (the budget's own tests set theirs)."""
    return {"QUERY_BUDGET_MS": 5000} if on_postgresql() else {}


_made = {}  # the databases made for the test under way, by the folder they belong to (see `location`)


def location(tmp_path, template=None, kept=False, emptied=False):
    """BAND_DB of the database of a test's folder `tmp_path`, made if need be (as a copy of `template`, if given):
    on SQLite the file `band.db` in it; on PostgreSQL a database of its own, dropped after the test module unless
    `kept` (a template), or with `emptied` the process's `Emptied` one, given back by `give_back` after the test.
    The test's app and the offices it serves from the folder share it, as they share the file."""
    if not on_postgresql():
        path = tmp_path / "band.db"
        if template and not path.exists():
            shutil.copy(template, path)
        return str(path)
    server = os.environ[SERVER]
    if on_emptied(tmp_path):
        _emptied.shared = True  # asked again, for another process
    if str(tmp_path) not in _made:
        source = template and urlsplit(template).path.lstrip("/")
        if emptied and _emptied is not None and source == _copies.template:
            name, kept = _emptied.take(), True
        elif _copies is not None and source == _copies.template:
            name = _copies.take()
        else:
            worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
            name = f"band_{tmp_path.parent.name}_{worker}_{tmp_path.name}"[:63].lower()
            create_database(server, name, source)
        _made[str(tmp_path)] = name, kept
    return database_url(server, _made[str(tmp_path)][0])


_template = None  # the URL of this process's migrated template (tests/conftest.py's `template_db`), once made


def migrated_template(url):
    """The migrated template database at `url` is what `served_location` copies from now on."""
    global _template
    _template = url


def served_location(tmp_path, kept=False):
    """BAND_DB of an office served from the folder `tmp_path` (tests/support/served.py), made if need be: on SQLite
    the file `band.db` in it, which serve makes; on PostgreSQL a copy of the migrated template, as serve would leave an
    empty database it migrated (migrating costs the server ~0.3 CPU-s, a copy ~0.05); `kept` as for `location`."""
    return location(tmp_path, template=_template if on_postgresql() else None, kept=kept)


def has_database(tmp_path):
    """Whether the folder `tmp_path` has its database already (a test's app, or an office served from it, made it)."""
    if not on_postgresql():
        return (tmp_path / "band.db").exists()
    return str(tmp_path) in _made


def new_location(folder, stem, kept=False):
    """BAND_DB of a database not made yet, for a command that makes one (`app.py demo`): on SQLite the file
    `<stem>.db` in `folder`; on PostgreSQL the URL of a database of that name on the test server, dropped after the
    test module unless `kept` (a template), and before, should an earlier run have left it."""
    if not on_postgresql():
        return str(folder / f"{stem}.db")
    server = os.environ[SERVER]
    name = f"{stem}_{folder.parent.name}_{folder.name}"[:63].lower()
    drop_database(server, name)
    _made[f"{folder}#{stem}"] = name, kept
    return database_url(server, name)


def drop_made_databases():
    """The databases made for the test module that ended dropped, but templates (on the thread of `Copies` once
    there is one: `finish` waits for them)."""
    for folder, (name, kept) in list(_made.items()):
        if not kept:
            if _copies is not None:
                _copies.drop(name)
            else:
                drop_database(os.environ[SERVER], name)
            del _made[folder]


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


_copies = None  # the Copies of this process's template, once `copy_ahead` started it
_emptied = None  # the Emptied database of the `app` fixture's tests, beside them


def copy_ahead(template):
    """Copies of the template database at `template` (its URL) are made ahead from now on: `location` takes them."""
    global _copies, _emptied
    if on_postgresql() and _copies is None:
        _copies = Copies(os.environ[SERVER], urlsplit(template).path.lstrip("/"))
        _emptied = Emptied(_copies)


def on_emptied(tmp_path):
    """Whether the database of the folder `tmp_path` is the process's Emptied one."""
    made = _made.get(str(tmp_path))
    return _emptied is not None and _emptied.name is not None and made is not None and made[0] == _emptied.name


def give_back(tmp_path):
    """After a test whose folder is `tmp_path`: its Emptied database emptied for the next test, whose connections to
    it may be this test's (True), or dropped (False: this process's connections to it are to be closed)."""
    if not on_emptied(tmp_path):
        return not on_postgresql()
    del _made[str(tmp_path)]
    return _emptied.give_back()


def finish():
    """The databases still to drop dropped, and the copies made ahead that no test took."""
    global _copies, _emptied
    if _emptied is not None and _emptied.name:
        _emptied.drop()
    _emptied = None
    if _copies is not None:
        _copies.finish()
        _copies = None
