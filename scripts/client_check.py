"""A generated client works: openapi-python-client makes a Python client of the running service's
/v1/openapi.json, and the client is used against that service (waitress, a temporary database, an admin
API key) for a create, a list with an `in` filter, an attachment upload and its download.

    .venv/bin/python scripts/client_check.py

Exits non-zero when the generator warns about anything or a step fails.
"""

import datetime
import importlib
import io
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from served import served

PACKAGE = "band_office_client"  # the generator's name for a client of the API titled "Band Office"
CONTENT = bytes(range(256)) * 64  # every byte value, so nothing can pass as text on the way


class CheckFailed(Exception):
    pass


def check(condition, message):
    if not condition:
        raise CheckFailed(message)


def generate(url, workdir):
    """The client package generated from `url`, or CheckFailed with whatever the generator said."""
    bin_dir = Path(sys.executable).parent  # ruff, which the generator formats its code with, is installed here
    command = [
        str(bin_dir / "openapi-python-client"),
        *("generate", "--url", url, "--meta", "none", "--fail-on-warning"),
        *("--output-path", str(workdir / PACKAGE)),
    ]
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}"}
    result = subprocess.run(command, env=env, capture_output=True, text=True, timeout=300)
    said = [line for line in (result.stdout + result.stderr).splitlines() if line and not line.startswith("Generating")]
    check(result.returncode == 0 and not said, "openapi-python-client warned:\n" + "\n".join(said))
    sys.path.insert(0, str(workdir))
    return importlib.import_module(PACKAGE)


def use(base_url, key):
    """The three steps, through the generated client only."""
    from band_office_client import AuthenticatedClient
    from band_office_client.api.catalog import create_teams, list_teams
    from band_office_client.api.gigs import create_attachments, create_gigs, gigs_attachment_content
    from band_office_client.models import Attachment, CreateAttachmentsBody, Gig, GigCreate, Team, TeamCreate
    from band_office_client.types import File

    client = AuthenticatedClient(base_url=base_url, token=key, raise_on_unexpected_status=True)

    teams = []
    for name in ("Strings", "Horns", "Lights"):
        answer = create_teams.sync_detailed(client=client, body=TeamCreate(name=name))
        check(answer.status_code == 201 and isinstance(answer.parsed.data, Team), f"create a team: {answer.content}")
        teams.append(answer.parsed.data)
    print("create: three teams", flush=True)

    wanted = [teams[0].id, teams[2].id]
    listed = list_teams.sync_detailed(client=client, filteridin=wanted)
    check(listed.status_code == 200, f"list with filter[id][in]: {listed.status_code} {listed.content}")
    check(all(isinstance(team, Team) for team in listed.parsed.data), "list: the records are not read as whole")
    check({team.id for team in listed.parsed.data} == set(wanted), f"list with an `in` filter: {listed.content}")
    check(listed.parsed.meta.total == 2, f"list: meta.total {listed.parsed.meta.total}")
    print("list: filter[id][in] with two ids answers those two", flush=True)

    gig = create_gigs.sync(client=client, body=GigCreate(gig_date=datetime.date(2027, 6, 12), title="Wedding"))
    check(isinstance(gig.data, Gig), f"create a gig: {gig}")
    upload = File(payload=io.BytesIO(CONTENT), file_name="stage plan.bin", mime_type="application/octet-stream")
    created = create_attachments.sync_detailed(
        client=client, body=CreateAttachmentsBody(file=upload, gig_id=gig.data.id)
    )
    check(created.status_code == 201 and isinstance(created.parsed.data, Attachment), f"upload: {created.content}")
    check(created.parsed.data.size_bytes == len(CONTENT), f"upload: {created.parsed.data.size_bytes} bytes stored")
    download = gigs_attachment_content.sync_detailed(client=client, id=created.parsed.data.id)
    check(download.status_code == 200 and isinstance(download.parsed, File), f"download: {download.status_code}")
    check(download.parsed.payload.read() == CONTENT, "download: the bytes differ from those uploaded")
    print(f"upload and download: {len(CONTENT)} bytes, the same", flush=True)


def main():
    workdir = Path(tempfile.mkdtemp(prefix="band-client-"))
    with served(workdir, threads=4) as (base_url, key):
        try:
            generate(f"{base_url}/openapi.json", workdir)
            print("generate: no warnings", flush=True)
            use(base_url, key)
        except CheckFailed as e:
            sys.exit(f"client check failed: {e}")


if __name__ == "__main__":
    main()
