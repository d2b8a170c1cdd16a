"""The README and the code do not drift: its set-up commands, configuration table and command table."""

import re
from pathlib import Path

import commands
import settings

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


def test_the_configuration_table_lists_every_setting():
    documented = set(re.findall(r"^\| `(BAND_[A-Z_]+)` \|", README, re.MULTILINE))
    assert documented == {f"BAND_{name}" for name in settings.SETTINGS}


def test_the_command_table_lists_every_command():
    documented = set(re.findall(r"^\| `([a-z-]+)[ `]", README, re.MULTILINE)) - {f"BAND_{n}" for n in settings.SETTINGS}
    registered = {command.name for command in commands.COMMANDS}
    assert registered <= documented
