"""The screenshots of docs/console.md: `app.py demo` served on a free port, each screen of SHOTS opened in
headless Chromium at a desktop's and a phone's width and saved as a small PNG in docs/screenshots/. A screen whose
route the console does not register yet (static/console/screens.js) is skipped, saying so.

    .venv/bin/python scripts/screenshots.py [--out docs/screenshots]
"""

import argparse
import collections
import datetime as dt
import json
import subprocess
import sys
import tempfile
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from console_browser import browser, signed_in_context
from served import PROJECT, app_command, served

OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # 127.0.0.1 whatever the proxy settings

WIDTHS = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
SCALE = 1  # device pixels per CSS pixel: sharp enough to read, small enough for a page of docs
SCREENS_JS = PROJECT / "static" / "console" / "screens.js"


def busiest_month(api):
    """The month of the coming year with the most demo gigs (the one with something to show)."""
    today = dt.date.today()
    last = (today + dt.timedelta(days=365)).isoformat()
    query = f"/gigs?filter[gig_date][gte]={today.isoformat()}&filter[gig_date][lte]={last}&limit=200&fields=gig_date"
    return collections.Counter(gig["gig_date"][:7] for gig in api(query)["data"]).most_common(1)[0][0]


def demo_gig(api):
    """An upcoming gig with open roles (one the staffing has work to do on)."""
    today = dt.date.today().isoformat()
    query = f"/gigs?filter[gig_date][gte]={today}&filter[open_role_count][gt]=0&sort=gig_date&limit=1&fields=id"
    return api(query)["data"][0]["id"]


# name, the route pattern the console must register (screens.js), the path shown, the user signed in, what is
# waited for before the picture. A screen is a line.
SHOTS = [
    ("agenda", "/agenda", lambda api: f"/agenda?month={busiest_month(api)}", "office@band.example", ".gig-row"),
    (
        "agenda-grid",
        "/agenda",
        lambda api: f"/agenda?month={busiest_month(api)}&view=grid",
        "office@band.example",
        "td",
    ),
    ("gig", "/gigs/:id", lambda api: f"/gigs/{demo_gig(api)}", "admin@band.example", "h1"),
    ("gig-staffing", "/gigs/:id", lambda api: f"/gigs/{demo_gig(api)}?tab=staffing", "admin@band.example", ".gig-role"),
    ("my", "/my", lambda api: "/my", "staff@band.example", ".my-card"),
    ("my-calendar", "/my/calendar", lambda api: "/my/calendar", "staff@band.example", "svg.qr-code"),
]


def registered(pattern):
    return f'"{pattern}"' in SCREENS_JS.read_text()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(PROJECT / "docs" / "screenshots"))
    out = Path(parser.parse_args().out)
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="band-shots-") as workdir:
        env_db = f"{workdir}/band.db"
        subprocess.run([sys.executable, "app.py", "demo", env_db], cwd=PROJECT, check=True, capture_output=True)
        with served(workdir) as (base, key), browser() as chromium:
            shoot_all(chromium, base, key, workdir, out)


def api_of(base, key):
    def get(path):
        request = urllib.request.Request(base + path, headers={"Authorization": f"Bearer {key}"})
        with OPENER.open(request, timeout=10) as answer:
            return json.loads(answer.read())

    return get


def shoot_all(chromium, base, admin_key, workdir, out):
    origin = base.removesuffix("/v1")
    env = {"BAND_DB": f"{workdir}/band.db", "BAND_MAIL_URL": f"file:{workdir}/mail"}
    keys = {}
    for name, pattern, path_of, email, ready in SHOTS:
        if not registered(pattern):
            print(f"{name}: skipped, the console has no screen at {pattern} yet")
            continue
        if email not in keys:
            keys[email] = app_command(env, "create-api-key", email, "--label", "screenshots")
        path = path_of(api_of(base, admin_key))
        for width, viewport in WIDTHS.items():
            file = out / f"{name}-{width}.png"
            shoot(chromium, keys[email], viewport, origin + path, ready, file)
            print(
                f"{name} ({width}): {file.relative_to(PROJECT) if file.is_relative_to(PROJECT) else file}, "
                f"{file.stat().st_size // 1024} KB"
            )


def shoot(chromium, token, viewport, url, ready, file):
    context = signed_in_context(chromium, token, viewport, device_scale_factor=SCALE)
    try:
        page = context.new_page()
        page.goto(url)
        page.locator(ready).first.wait_for(timeout=15000)
        page.wait_for_load_state("networkidle")
        page.screenshot(path=str(file), animations="disabled", caret="hide")
    finally:
        context.close()


if __name__ == "__main__":
    main()
