"""The README and the code do not drift: its set-up commands, configuration table and command table."""

import os
import re
import subprocess
from pathlib import Path

import pytest

from service import commands, settings
from tests.support.served import example_office, served_offices

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


# --- the walk through the API, run as written ---------------------------------------------------------------


def the_walk():
    """The commands of the README's "A walk through the API", in order, as a user would paste them.
    A command with a `...` placeholder (a token only a mail carries) is shown, not run."""
    section = README.split("\n## A walk through the API\n", 1)[1].split("\n## ", 1)[0]
    lines = [line[4:] for line in section.splitlines() if line.startswith("    ")]
    return [line for line in lines if '"..."' not in line]


def walk_on(office, tmp_path):
    """Run the walk in bash against `office`, each curl failing on an error status: the completed process."""
    script = "\n".join(
        [
            "set -euo pipefail",
            'curl() { command curl --fail-with-body --max-time 30 "$@"; }',
            *the_walk(),
        ]
    )
    env = {
        "PATH": os.environ["PATH"],
        "HOME": str(tmp_path),
        "T": office.key,
        "API": office.service.base,
        "no_proxy": "*",
    }
    return subprocess.run(["bash", "-c", script], cwd=PROJECT, env=env, capture_output=True, text=True, timeout=300)


def test_the_walk_has_the_commands_a_reader_pastes():
    walk = the_walk()
    assert walk[0].startswith("auth=(") and any("/gig-statuses" in line for line in walk)
    assert any("/attachments" in line for line in walk)


@pytest.mark.parametrize("office_kind", ["empty", "demo"])
def test_the_walk_runs_on_an_empty_office_and_on_the_demo(tmp_path, office_kind):
    if office_kind == "demo":
        example_office(tmp_path)
    with served_offices(tmp_path, BAND_MAIL_URL="console:") as start:
        office = start()
        walk = walk_on(office, tmp_path)
    assert walk.returncode == 0, f"the walk stopped ({walk.returncode}):\n{walk.stderr[-3000:]}\n{walk.stdout[-3000:]}"
