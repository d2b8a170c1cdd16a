"""Read by pytest before tests/conftest.py imports the project: the database the tests run on, SQLite by default,
or PostgreSQL with `--database=postgresql` (or BAND_TEST_DATABASE=postgresql), which must be chosen before the
project is imported, as its dialect follows BAND_DB (see dialects/__init__.py). On PostgreSQL a throwaway server is
started for the run (tests/support/postgresql.py), unless BAND_TEST_POSTGRESQL names one."""

import os
import sys

import pytest

from tests.support import postgresql

# Python's compiled modules are written whatever PYTHONDONTWRITEBYTECODE says (into __pycache__/, which git ignores):
# a run starts some 300 processes (served offices, commands, demos) that would each compile the project's 400 modules
# again (0.15 CPU-s a process), and every worker would rewrite the asserts of every test module again.
sys.dont_write_bytecode = False
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)

DATABASE = postgresql.chosen_database(sys.argv)
CLUSTER = postgresql.prepare_server(DATABASE)


def pytest_addoption(parser):
    parser.addoption(
        "--database",
        choices=["sqlite", "postgresql"],
        default=DATABASE,
        help="the database the tests run on: sqlite (the default), or postgresql on a throwaway PostgreSQL of "
        "their own (also BAND_TEST_DATABASE=postgresql; BAND_TEST_POSTGRESQL=URL: on that server instead)",
    )


def pytest_xdist_auto_num_workers(config):
    """`--numprocesses=auto` (pyproject.toml): one process more than there are cores. A test spends much of its time
    waiting (on the servers it starts, a browser, PostgreSQL, a worker's interval): with one process per core, a
    2-core machine ran the suite at about half its CPU. With two more, the suite took as long on SQLite (354-375 s
    against 356-374 s, two runs each) and longer on PostgreSQL (542 s against 491 s), and 6-13 % more CPU: the
    processes beyond the cores only took turns (CI's side steps, run beside the suite, use what one more leaves).
    PYTEST_XDIST_AUTO_NUM_WORKERS=N still says otherwise."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None  # xdist's own hook reads it
    return (os.cpu_count() or 1) + 1


def pytest_configure(config):
    if config.getoption("database") != DATABASE:
        raise pytest.UsageError(f"--database={config.getoption('database')}: give it on the command line")
    for name in ("sqlite", "postgresql"):
        config.addinivalue_line("markers", f"{name}_only: makes sense on {name} alone (skipped on the other)")


def pytest_collection_modifyitems(config, items):
    """Tests marked `<database>_only` are skipped on the other database; a test that drives Chromium (the `browser` or
    `whole_browser` fixture, itself or through another) is marked `browser`."""
    for item in items:
        if {"browser", "whole_browser"} & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.browser)
        for name in ("sqlite", "postgresql"):
            if item.get_closest_marker(f"{name}_only") and name != DATABASE:
                item.add_marker(pytest.mark.skip(reason=f"makes sense on {name} alone"))


def pytest_unconfigure(config):
    postgresql.finish()
    if CLUSTER is not None:
        CLUSTER.stop()
