"""The server CPU of the costliest requests a signed-in user can make (SPEC §2.3: at most 50 ms at 20 000 gigs).

.venv/bin/python scripts/request_cost.py [DB] [--repeat 5] [--budget MS] [--only TEXT]

DB is a demo office (default: the bench's cached one of 20 000 gigs, built by `scripts/bench_support.py` on first
use). Each request runs in-process through Flask's test client on a copy of DB, signed in as the demo's users;
its CPU time (time.process_time) is the median of the repeats after one unmeasured run, sorted costliest first.
"""

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scripts.bench_support import database

CEILING_MS = 50

# (who, path): who is a demo user's access role; the requests are what that user may make.
REQUESTS = [
    ("crew", "/gig-equipment?sort=gig.title&offset=139000&limit=200&expand=gig,equipment"),
    ("crew", "/gig-equipment?sort=-gig.title&offset=70000&limit=200&expand=gig,equipment"),
    ("crew", "/gig-equipment?sort=gig.title&limit=200&expand=gig,equipment"),
    ("crew", "/gig-equipment?filter[gig.title][contains]=e&sort=gig.gig_date&offset=100000&limit=200"),
    ("crew", "/gig-equipment?filter[gig.title][contains]=zzz"),
    ("crew", "/gig-equipment?sort=equipment.name&offset=100000&limit=200&expand=gig,equipment"),
    ("office", "/gig-roles?sort=gig.title&offset=200000&limit=200&expand=gig,role,staff_member"),
    ("office", "/gig-roles?sort=-gig.venue_id&offset=200000&limit=200&expand=gig,role,staff_member"),
    ("office", "/gig-roles?sort=staff_member.last_name&offset=100000&limit=200&expand=gig,role,staff_member"),
    ("office", "/gig-roles?filter[gig.title][contains]=a&filter[staff_member.last_name][contains]=e&limit=200"),
    ("office", "/gig-roles?filter[role.name][starts_with]=L&sort=gig.gig_date&offset=50000&limit=200"),
    ("office", "/gig-role-invitations?sort=gig_role.pay_cents&offset=50000&limit=200&expand=gig_role,staff_member"),
    ("office", "/gig-role-invitations?sort=staff_member.last_name&offset=50000&limit=200&expand=gig_role"),
    ("office", "/gig-role-invitations?sort=gig_role.call_time&offset=50000&limit=200&expand=gig_role"),
    ("office", "/gigs?sort=venue.name&offset=19000&limit=200&expand=venue,gig_status"),
    ("office", "/gigs?sort=title&offset=19800&limit=200&expand=venue,gig_status"),
    ("office", "/gigs?filter[title][contains]=e&sort=-title&offset=15000&limit=200"),
    ("office", "/gigs?filter[venue.city][contains]=e&sort=venue.city&offset=15000&limit=200"),
    ("office", "/gigs?q=hochzeit&limit=200&offset=5000"),
    ("office", "/gigs?q=ha&limit=200"),
    ("office", "/staff-members?q=an&limit=200"),
    ("office", "/gig-products?sort=gig.title&offset=30000&limit=200&expand=gig,product,ensemble"),
    ("office", "/gig-songs?sort=gig.title&offset=50000&limit=200&expand=gig,song"),
    ("office", "/gig-moments?sort=gig.title&offset=50000&limit=200&expand=gig"),
    ("office", "/pay-sheet?from=2000-01-01&to=2100-12-31"),
    ("office", "/pay-sheet?from=2000-01-01&to=2100-12-31&limit=200"),
    ("office", "/pay-sheet?from=2000-01-01&to=2100-12-31&limit=200&offset=1000"),
    ("office", "/pay-sheet?from=2026-01-01&to=2026-12-31"),
    ("office", "/pay-sheet?from=2026-06-01&to=2026-06-30"),
    ("office", "/gig-equipment?sort=gig.title&offset=69000&limit=200&expand=gig,equipment"),
    ("office", "/events?limit=200&offset=100000"),
    ("office", "/gig-role-invitations?filter[status]=pending&limit=200&expand=gig_role,staff_member"),
    ("office", "/gig-role-invitations?filter[status]=expired&limit=200"),
    ("office", "/calendar-url"),
    ("admin", "/gig-roles?sort=gig.title&offset=200000&limit=200&expand=gig,role,staff_member"),
    ("staff", "/me/gigs?filter[gig_date][gte]=2000-01-01&limit=200"),
    ("staff", "/me/invitations?limit=200"),
    ("staff", "/me/pay-sheet?from=2000-01-01&to=2100-12-31"),
    ("viewer", "/gigs?sort=venue.name&offset=19000&limit=200&expand=venue"),
    # issue 33: a viewer's deepest pages, sorts and `contains` filters through references
    ("viewer", "/gig-roles?limit=200&sort=gig.title,role.name&offset=50000"),
    ("viewer", "/gig-roles?sort=gig.notes,staff_member.notes&offset=100000"),
    ("viewer", "/gig-role-invitations?sort=gig_role.notes&filter[message][contains]=e"),
    ("viewer", "/gig-roles?filter[gig.notes][contains]=zz&filter[staff_member.notes][contains]=zz"),
    ("viewer", "/gig-roles?filter[gig.title][contains]=e&sort=-gig.notes"),
    ("viewer", "/pay-sheet?from=1900-01-01&to=2999-12-31&limit=200"),
    ("viewer", "/gigs?sort=venue.name,-title&expand=venue,gig_status,gig_type"),
]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("db", nargs="?", help="a demo office (default: the bench's of 20 000 gigs)")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--budget", type=int, default=None, help="BAND_QUERY_BUDGET_MS (default: the setting's)")
    parser.add_argument("--only", default="", help="only the requests whose path holds this text")
    parser.add_argument("--who", default="", help="only the requests of this demo user (viewer, say)")
    options = parser.parse_args()
    source = Path(options.db) if options.db else database(20000)
    with tempfile.TemporaryDirectory() as scratch:
        copy = Path(scratch) / "band.db"
        shutil.copy(source, copy)
        results = measure_all(copy, options)
    for cpu_ms, status, who, path in sorted(results, reverse=True):
        flag = "  OVER" if cpu_ms > CEILING_MS and status == 200 else ""
        print(f"{cpu_ms:7.1f} ms  {status}  {who:6}  {path}{flag}")


def measure_all(path, options):
    from app import create_app

    config = {"DB": str(path), "WORKER": "off"}
    if options.budget is not None:
        config["QUERY_BUDGET_MS"] = options.budget
    app = create_app(config)
    with app.app_context():
        tokens = demo_tokens()
    client = app.test_client()
    found = []
    for who, path in REQUESTS:
        if options.only in path and options.who in ("", who):
            headers = {"Authorization": f"Bearer {tokens[who]}"}
            found.append((*cost(client, "/v1" + path, headers, options.repeat), who, path))
    return found


def demo_tokens():
    """{access role: a session token of the demo's user holding it}."""
    from auth import digest, expiry, new_secret
    from models import Token, User

    tokens = {}
    for user in User.select().where(User.email.endswith("@band.example")):
        value = new_secret("bos_")
        hashed = digest(value)
        Token.create(user=user.id, kind="session", token_hash=hashed, prefix=value[:12], expires_at=expiry(days=1))
        tokens[user.roles[0]] = value
    return tokens


def cost(client, path, headers, repeat):
    """(median CPU ms, status) of GET `path`."""
    client.get(path, headers=headers)
    spent, status = [], None
    for _ in range(repeat):
        started = time.process_time()
        status = client.get(path, headers=headers).status_code
        spent.append((time.process_time() - started) * 1000)
    return statistics.median(spent), status


if __name__ == "__main__":
    main()
