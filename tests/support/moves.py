"""An office moved to PostgreSQL as a user moves it (SPEC §14): `app.py copy-to` run on a SQLite office, an empty
database to move it into, and the copy served."""

import os
import subprocess
import sys

from tests.support import PROJECT, postgresql
from tests.support.served import ServedOffice, Service


def copy_to(url, source):
    """`app.py copy-to url` run on the SQLite office at `source`, as a user runs it; its completed process."""
    env = {**{k: v for k, v in os.environ.items() if not k.startswith("BAND_")}, "BAND_DB": str(source)}
    return subprocess.run(
        [sys.executable, "app.py", "copy-to", url], cwd=PROJECT, env=env, capture_output=True, text=True, timeout=300
    )


def empty_database(tmp_path):
    """A new, empty PostgreSQL database, the folder `tmp_path/target` its own (as the served offices' are)."""
    (tmp_path / "target").mkdir()
    return postgresql.location(tmp_path / "target")


def served_copy(tmp_path, key, **env):
    """The copy in tmp_path/target served, spoken to with the API key made on the source before the copy."""
    office = ServedOffice.__new__(ServedOffice)  # not its __init__: that would make a user and a key there
    office.service, office.key = Service(tmp_path / "target", **env).start(), key
    return office
