"""Numbered schema steps tracked by the schema version the dialect keeps in the database (SPEC §6).

Each dialect has its own folder of steps: step N is `sql/<dialect>/NNNN_*.sql`, or `sql/<dialect>/NNNN_*.py` with
`apply(database)` where SQL alone cannot say it. Pending steps run in order, each in one transaction with its
version number, after a backup copy of an existing database is written: beside it (a SQLite file), or in
BAND_BACKUP_DIR for a database that is no file here (PostgreSQL; without that folder the migration is refused
before anything changes). A database whose version is
newer than the last step is refused. Step 1 creates the schema as it first shipped; a test keeps the sum of the
steps equal to what `models.py` declares.
"""

import datetime as dt
import importlib.util
import logging
from dataclasses import dataclass
from pathlib import Path

from flask import current_app, has_app_context

from dialects import dialect
from domain.errors import ConfigError
from models import AccessRole, db
from storage.private_files import private_directory

SQL_DIR = Path(__file__).resolve().parent.parent / "sql"  # a folder per dialect: sql/sqlite/, ...
log = logging.getLogger("band.migrations")

# The groups of the office's own work (domain.capabilities.GROUPS but admin): the shipped office and viewer roles'.
OFFICE_GROUPS = ("gigs", "catalog", "staffing", "production", "people", "pay", "sales")
DEFAULT_ROLES = {
    "admin": (["*"], "Everything, including users and access roles."),
    "office": ([f"{g}.*" for g in OFFICE_GROUPS], "Runs the office."),
    "staff": (["catalog.view"], "Musicians and crew: the catalogue; their own work under /me."),
    "crew": (["gigs.view", "catalog.view", "production.*"], "Production crew: equipment."),
    "viewer": ([f"{g}.view" for g in OFFICE_GROUPS], "Reads all."),
}


@dataclass(frozen=True)
class Step:
    version: int
    name: str
    apply: object  # callable taking the database


def sql_step(path):
    def apply(database):
        for statement in dialect.statements(path.read_text()):
            database.execute_sql(statement)

    return Step(int(path.name[:4]), path.stem[5:], apply)


def python_step(path):
    spec = importlib.util.spec_from_file_location(f"migration_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return Step(int(path.name[:4]), path.stem[5:], module.apply)


STEP_KINDS = {".sql": sql_step, ".py": python_step}


def steps():
    """The steps of the current dialect, in order."""
    folder = SQL_DIR / dialect.NAME
    paths = sorted(p for p in folder.glob("[0-9][0-9][0-9][0-9]_*") if p.suffix in STEP_KINDS)
    found = [STEP_KINDS[p.suffix](p) for p in paths]
    assert [s.version for s in found] == list(range(1, len(found) + 1)), "steps must be numbered 1, 2, 3, ..."
    return found


def schema_version():
    return dialect.schema_version()


def upgrade(all_steps=None, backup_dir=None):
    """Bring the open database up to the last step; returns (version before, version after). `backup_dir` (else
    the app's BAND_BACKUP_DIR) receives the copy taken first of a database that is no file to keep it beside."""
    all_steps = steps() if all_steps is None else all_steps
    latest = all_steps[-1].version if all_steps else 0
    current = schema_version()
    if current > latest:
        raise ConfigError(
            f"{db.database} is at schema version {current}, newer than this code knows ({latest}): "
            "run a newer Band Office, or restore a backup made for this version."
        )
    if current and current < latest:
        log.info("backed up %s before migrating to %s", db.database, backup(backup_path(current, backup_dir)))
    for step in all_steps[current:]:
        with dialect.locking_transaction():
            step.apply(db)
            dialect.set_schema_version(step.version)
            if step.version == 1:
                seed()
        log.info("database %s: applied step %d (%s)", db.database, step.version, step.name)
    return current, latest


def seed():
    """What a new database starts with: the five default access roles of §3."""
    for name, (grants, description) in DEFAULT_ROLES.items():
        AccessRole.create(name=name, grants=grants, description=description)


def backup_path(version, backup_dir=None):
    """Where the copy taken before migrating from `version` goes: beside the database file, else in `backup_dir`
    (else the app's BAND_BACKUP_DIR)."""
    if backup_dir is None and has_app_context():
        backup_dir = current_app.config["BACKUP_DIR"]
    folder = dialect.database_folder() or backup_dir
    if not folder:
        raise ConfigError(
            f"{db.database} is at schema version {version} and needs migrating, after a backup: set BAND_BACKUP_DIR "
            "to the folder where the backup is to be written (nothing was changed)."
        )
    private_directory(folder)
    stamp = dt.datetime.now(dt.UTC).strftime("%Y%m%dT%H%M%SZ")
    return str(Path(folder) / f"{Path(db.database).name}.v{version}-{stamp}.bak")


def backup(path):
    """An online, consistent copy of the open database at `path`."""
    if Path(path).exists():
        raise ConfigError(f"{path} exists already: choose a new file for the backup.")
    dialect.copy_database(path)
    return path
