"""The screenshots of the first day (SPEC §12.1, docs/console.md): a fresh office served on a free port, its
checklist on the empty agenda, each step's guided form, Add musician, Add contact, the New gig form with what the
client booked and a staff member who can be let sign in, at 1280 px and 360 px wide, saved as small PNGs in
docs/screenshots/. It fails when a page is wider than the screen at 360 px.

    .venv/bin/python scripts/first_day_screenshots.py [--out docs/screenshots]
"""

import argparse
import json
import sys
import tempfile
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from console_browser import browser, signed_in_context
from served import PROJECT, served

OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # 127.0.0.1 whatever the proxy settings
WIDTHS = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 360, "height": 780}}

# name, the path shown, what is waited for before the picture; in the order taken (the office grows between)
BEFORE = [
    ("first-day-office", "/first-day/office", "#office-zone"),
    ("first-day-product", "/first-day/product", "#product-price"),
]
AFTER = [
    ("first-day-checklist", "/agenda", ".first-day"),
    ("first-day-ensemble", "/first-day/ensemble", "#role-0-name"),
    ("add-musician", "/people/musicians/new", "label.check"),
    ("add-contact", "/people/contacts/new", "#contact-company"),
    ("new-gig", "/gigs/new", "fieldset.booked"),
    ("people", "/people", ".add-people"),
]


def caller(base, key):
    def call(method, path, body=None):
        data = None if body is None else json.dumps(body).encode()
        headers = {"Authorization": f"Bearer {key}", "Content-Type": "application/json"}
        request = urllib.request.Request(base + path, data=data, method=method, headers=headers)
        with OPENER.open(request, timeout=10) as answer:
            return json.loads(answer.read())["data"]

    return call


def set_up_half(call):
    """The office, a product with its price and an ensemble with a role and its rate: three steps of five done."""
    call("PATCH", "/office", {"name": "Die Hochzeitsband", "time_zone": "Europe/Vienna", "currency": "EUR"})
    product = call("POST", "/products", {"name": "Reception"})
    call("POST", "/prices", {"product_id": product["id"], "amount_cents": 450000, "currency": "EUR"})
    ensemble = call("POST", "/ensembles", {"name": "Full band"})
    call("POST", "/product-ensembles", {"product_id": product["id"], "ensemble_id": ensemble["id"], "is_default": True})
    for name in ("Lead vocals", "Guitar"):
        role = call("POST", "/roles", {"name": name})
        call("POST", "/ensemble-roles", {"ensemble_id": ensemble["id"], "role_id": role["id"]})
        call("POST", "/rates", {"role_id": role["id"], "amount_cents": 45000, "currency": "EUR"})


def shoot(chromium, token, origin, shots, out):
    overflowing = []
    for name, path, ready in shots:
        for width, viewport in WIDTHS.items():
            context = signed_in_context(chromium, token, viewport)
            try:
                page = context.new_page()
                page.goto(origin + path)
                page.locator(ready).first.wait_for(timeout=15000)
                page.wait_for_load_state("networkidle")
                file = out / f"{name}-{width}.png"
                page.screenshot(path=str(file), full_page=True, animations="disabled", caret="hide")
                wide = page.evaluate("document.documentElement.scrollWidth")
                print(f"{name} ({viewport['width']} px): {file.name}, {file.stat().st_size // 1024} KB, {wide} px wide")
                if wide > viewport["width"]:
                    overflowing.append(f"{name} at {viewport['width']} px: {wide} px wide")
            finally:
                context.close()
    return overflowing


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(PROJECT / "docs" / "screenshots"))
    out = Path(parser.parse_args().out)
    out.mkdir(parents=True, exist_ok=True)
    with (
        tempfile.TemporaryDirectory(prefix="band-shots-") as workdir,
        served(workdir) as (base, key),
        browser() as chromium,
    ):
        origin = base.removesuffix("/v1")
        overflowing = shoot(chromium, key, origin, BEFORE, out)
        call = caller(base, key)
        set_up_half(call)
        overflowing += shoot(chromium, key, origin, AFTER, out)
        mia = {"first_name": "Mia", "last_name": "Berger", "email": "mia@example.com"}
        page = f"/people/staff-members/{call('POST', '/staff-members', mia)['id']}"
        overflowing += shoot(chromium, key, origin, [("staff-member-sign-in", page, "#sign-in-heading")], out)
    if overflowing:
        raise SystemExit("wider than the screen: " + "; ".join(overflowing))


if __name__ == "__main__":
    main()
