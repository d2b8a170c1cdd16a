"""SPEC §14: the dialect seam is true. SQLite-only constructs live in `dialects/` and `sql/sqlite/` alone, so that
PostgreSQL is one more dialect (a module of `dialects/` and a folder of migrations), not a hunt through the code.
The app's modules are checked (not tests/ or scripts/, which may reach for SQLite directly)."""

import ast
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from dialects import SEAM, dialect_for, dialect_name

ROOT = Path(__file__).resolve().parent.parent
# Where SQLite's own SQL belongs, and what is no app module.
EXEMPT = [("dialects",), ("sql", "sqlite"), ("tests",), ("scripts",)]

SQLITE_ONLY = {
    "json_each": r"\bjson_each\b",
    "json_extract": r"\bjson_extract\b",
    "json_group_array": r"\bjson_group_array\b",
    "json_type": r"\bjson_type\b",
    "randomblob": r"\brandomblob\b",
    "zeroblob": r"\bzeroblob\b",
    "instr(": r"\binstr\s*\(",
    "ifnull(": r"\bifnull\s*\(",
    "group_concat": r"\bgroup_concat\b",
    "PRAGMA": r"\bPRAGMA\b",
    "fts5": r"\bfts5\b",
    "MATCH": r"\bMATCH\b",
    "GLOB": r"\bGLOB\b",
    "rowid": r"\browid\b",
    "sqlite_master": r"\bsqlite_(master|schema|stat1)\b",
    "on_conflict_replace": r"\bon_conflict_replace\b",
    "on_conflict_ignore": r"\bon_conflict_ignore\b",
    "on_conflict(": r"\bon_conflict\s*\(",
    "SqliteDatabase": r"\bSqliteDatabase\b",
    "import sqlite3": r"^\s*(import\s+sqlite3|from\s+sqlite3\s+import)\b",
    "sqlite_dialect": r"\bsqlite_dialect\b",
    "the SQLite dialect by name": r"^\s*(from\s+dialects\.sqlite\b|import\s+dialects\.sqlite\b"
    r"|from\s+dialects\s+import\s+.*\bsqlite\b)",
}


def app_files():
    """The app's Python modules and SQL files, outside the SQLite dialect and its migrations."""
    for path in sorted([*ROOT.rglob("*.py"), *ROOT.rglob("*.sql")]):
        parts = path.relative_to(ROOT).parts
        if any(part.startswith(".") or part in ("__pycache__", "node_modules") for part in parts):
            continue
        if any(parts[: len(prefix)] == prefix for prefix in EXEMPT):
            continue
        yield path


def sqlite_only_constructs():
    """(file:line, construct) of every SQLite-only construct found in an app file."""
    found = []
    for path in app_files():
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            for name, pattern in SQLITE_ONLY.items():
                if re.search(pattern, line, flags=re.MULTILINE):
                    found.append((f"{path.relative_to(ROOT)}:{number}", name))
    return found


def test_the_app_files_are_found():
    names = {path.relative_to(ROOT).as_posix() for path in app_files()}
    assert {
        "app.py",
        "models.py",
        "storage/migrations.py",
        "routes/notifications.py",
        "delivery/notifications/timed.py",
    } <= names
    assert not any(name.startswith(("dialects/", "sql/sqlite/", "tests/")) for name in names)


def test_no_sqlite_only_construct_outside_the_dialect_and_its_migrations():
    assert sqlite_only_constructs() == []


def test_the_lint_sees_each_construct():
    samples = {
        "json_each": "SELECT value FROM json_each(?)",
        "instr(": "instr(NEW.type, '.')",
        "PRAGMA": 'db.execute_sql("PRAGMA user_version")',
        "on_conflict_replace": "Setting.insert(key=k).on_conflict_replace().execute()",
        "on_conflict(": "query.on_conflict(conflict_target=[Setting.key])",
        "import sqlite3": "import sqlite3",
        "the SQLite dialect by name": "from dialects.sqlite import pages",
    }
    for name, line in samples.items():
        assert re.search(SQLITE_ONLY[name], line), name


@pytest.mark.parametrize("location", ["band.db", "/var/lib/band/band.db", "relative/dir/band.db"])
def test_a_path_is_a_sqlite_file(location):
    assert dialect_for(location).NAME == "sqlite"


@pytest.mark.parametrize("location", ["postgresql://band:secret@db.example:5432/band", "postgres://h/band"])
def test_a_postgresql_url_is_postgresql(location):
    assert dialect_name(location) == "postgresql"


def test_a_sqlite_office_never_loads_postgresql():
    modules = "sorted(name for name, module in sys.modules.items() if 'psycopg' in name and module)"
    loaded = subprocess.run(
        [sys.executable, "-c", f"import app, sys; print({modules})"],
        cwd=ROOT,
        env={k: v for k, v in os.environ.items() if k != "BAND_DB"},
        capture_output=True,
        text=True,
        check=True,
    )
    assert loaded.stdout.strip() == "[]"


def offered(name):
    """The names the dialect `name`'s package binds: what it imports and assigns, read without importing it (a
    SQLite process never loads psycopg)."""
    tree = ast.parse((ROOT / "dialects" / name / "__init__.py").read_text(encoding="utf-8"))
    bound = set()
    for node in tree.body:
        if isinstance(node, ast.ImportFrom | ast.Import):
            bound |= {alias.asname or alias.name for alias in node.names}
        elif isinstance(node, ast.Assign):
            bound |= {target.id for target in node.targets}
    return bound


@pytest.mark.parametrize("name", ["sqlite", "postgresql"])
def test_each_dialect_offers_the_seam_and_nothing_else(name):
    """SPEC §14: every dialect offers the names of `dialects.SEAM`, each with a line that says what it means."""
    assert offered(name) ^ set(SEAM) == set(), "offered but not in the seam, or in the seam but not offered"
    assert all(meaning.strip() for meaning in SEAM.values())


def test_the_app_asks_the_dialect_for_the_seam_alone():
    used = {name for path in app_files() for name in re.findall(r"\bdialect\.(\w+)", path.read_text("utf-8"))}
    assert used - set(SEAM) == set()
