"""Contract fuzzing: schemathesis against the real service (waitress, a temporary database, an admin API key).

    .venv/bin/python scripts/fuzz.py [--max-examples N] [--seed N] [schemathesis options...]

Every check runs. The exit status is schemathesis's: 0 when no server error, no answer outside the
document and no schema violation was found. Two operations are left out because they would end the run's
own authentication: POST /auth/signout and DELETE /api-keys/{key_id} revoke the bearer they are called with.
The settings are scripts/schemathesis.toml's, with the hooks of scripts/fuzz_hooks.py.
"""

import argparse
import json
import subprocess
import sys
import tempfile
import urllib.request
from pathlib import Path

from served import PROJECT, logged_errors, served


def link_a_staff_member(base_url, key):
    """The fuzzing user is a musician too, so that their own work under /me answers (for a user no staff member
    is linked to it is 404 whatever the request)."""

    def call(method, path, body=None):
        headers = {"Authorization": f"Bearer {key}", "Content-Type": "application/json"}
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(base_url + path, data=data, method=method, headers=headers)
        with urllib.request.urlopen(request, timeout=10) as answer:
            return json.load(answer)["data"]

    user = call("GET", "/me")
    call("POST", "/staff-members", {"first_name": "Fuzz", "last_name": "Player", "user_id": user["id"]})


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-examples", type=int, default=5)
    parser.add_argument("--seed", type=int, default=20261123, help="the same cases on every run (CI)")
    options, extra = parser.parse_known_args()
    workdir = tempfile.mkdtemp(prefix="band-fuzz-")
    rates = {
        "BAND_AUTH_RATE_LIMIT": "100000/minute",
        "BAND_INQUIRY_RATE": "100000/hour",
        "BAND_CLIENT_RATE": "100000/minute",
    }
    with served(workdir, threads=8, **rates) as (base_url, key):
        link_a_staff_member(base_url, key)
        command = [
            str(Path(sys.executable).with_name("schemathesis")),
            "--config-file",
            str(PROJECT / "scripts" / "schemathesis.toml"),
            "run",
            f"{base_url}/openapi.json",
            "--header",
            f"Authorization: Bearer {key}",
            "--checks",
            "all",
            "--max-examples",
            str(options.max_examples),
            "--seed",
            str(options.seed),
            "--workers",
            "1",  # threads trip CPython 3.11.7's ast recursion check inside hypothesis
            "--request-timeout",
            "10",
            "--exclude-path",
            "/auth/signout",
            "--exclude-path",
            "/api-keys/{key_id}",
            *extra,
        ]
        status = subprocess.run(command, cwd=PROJECT).returncode
    errors = logged_errors(workdir)
    if errors:
        print("the server logged errors:", *errors[:20], sep="\n")
        status = status or 1
    sys.exit(status)


if __name__ == "__main__":
    main()
