"""The README stays a page read in one sitting, and true: its set-up commands and its table of dependencies.
What it links to, docs/, is pinned by tests/test_docs.py."""

import re
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent
README = (PROJECT / "README.md").read_text()


def commands_on_top():
    """The first two commands of the README, before any section."""
    top = README.split("\n## ", 1)[0]
    return [line.strip() for line in top.splitlines() if line.startswith("    ")]


def test_the_readme_opens_with_install_and_serve_then_install_and_test():
    serve, test = commands_on_top()
    assert serve.endswith("app.py serve") and "pip install" in serve and "requirements.txt" in serve
    assert test.endswith("python -m pytest") and "requirements-dev.txt" in test


def test_ci_runs_the_readmes_test_command_word_for_word():
    _, test = commands_on_top()
    assert test in (PROJECT / ".ci" / "run").read_text().splitlines()


def test_the_readme_is_read_in_one_sitting():
    assert len(README.splitlines()) <= 200, "move a section to docs/ and link it from the README"


def requirements(name):
    """The names of the packages a requirements file pins (its extras and version left out)."""
    lines = (PROJECT / name).read_text().splitlines()
    return {re.split(r"[\[=<>~ ]", line, maxsplit=1)[0] for line in lines if line and not line.startswith(("#", "-r"))}


def test_the_dependency_table_says_what_every_requirement_is_for():
    section = README.split("\n## Dependencies\n", 1)[1].split("\n## ", 1)[0]
    named = {
        re.split(r"[\[=<>~ ]", name, maxsplit=1)[0]
        for row in re.findall(r"^\| (`.+?`) \|", section, re.MULTILINE)
        for name in re.findall(r"`([^`]+)`", row)
    }
    assert named == requirements("requirements.txt") | requirements("requirements-dev.txt")
