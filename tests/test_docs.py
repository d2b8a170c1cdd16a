"""The pages of docs/ and the code do not drift: the configuration table, the command table, the walk through the
API run as written; and every relative link of the README and docs/ leads to a file and heading that exist."""

import os
import re
import subprocess
from pathlib import Path

import pytest

from service import commands, settings
from tests.support.served import example_office, served_offices

PROJECT = Path(__file__).resolve().parent.parent
DOCS = PROJECT / "docs"


def page(name):
    return (DOCS / name).read_text()


def test_the_configuration_table_lists_every_setting():
    documented = set(re.findall(r"^\| `(BAND_[A-Z_]+)` \|", page("configuration.md"), re.MULTILINE))
    assert documented == {f"BAND_{name}" for name in settings.SETTINGS}


def test_the_command_table_lists_every_command():
    documented = set(re.findall(r"^\| `([a-z-]+)[ `]", page("commands.md"), re.MULTILINE))
    registered = {command.name for command in commands.COMMANDS}
    assert registered <= documented


# --- links between the pages ------------------------------------------------------------------------------------

LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")


def slug(heading):
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def prose(text):
    """The text of a Markdown page without its code: fenced and indented blocks, and inline code spans."""
    text = re.sub(r"^```.*?^```", "", text, flags=re.MULTILINE | re.DOTALL)
    text = "\n".join(line for line in text.splitlines() if not line.startswith("    "))
    return re.sub(r"`[^`\n]*`", "", text)


def anchors(path):
    return {slug(heading) for heading in re.findall(r"^#+ (.+)$", prose(path.read_text()), re.MULTILINE)}


PAGES = [PROJECT / "README.md", *sorted(DOCS.glob("*.md"))]


@pytest.mark.parametrize("path", PAGES, ids=lambda path: path.name)
def test_every_relative_link_leads_to_a_file_and_heading_that_exist(path):
    broken = []
    for target in LINK.findall(prose(path.read_text())):
        if re.match(r"[a-z]+:", target):
            continue
        file, _, anchor = target.partition("#")
        linked = (path.parent / file).resolve() if file else path
        if not linked.exists() or (anchor and anchor not in anchors(linked)):
            broken.append(target)
    assert not broken


def test_the_readme_links_every_page_of_docs():
    linked = {Path(target.partition("#")[0]).name for target in LINK.findall(prose(page("../README.md")))}
    assert {path.name for path in DOCS.glob("*.md")} <= linked


# --- the walk through the API, run as written ---------------------------------------------------------------


def the_walk():
    """The commands of docs/api-walk.md, in order, as a user would paste them.
    A command with a `...` placeholder (a token only a mail carries) is shown, not run."""
    lines = [line[4:] for line in page("api-walk.md").splitlines() if line.startswith("    ")]
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
