"""The console's weight and speed (SPEC §12's Quality), in headless Chromium (Debian's, driven by Playwright) against
an office served from a copy of a database: the first load's compressed bytes (budget 250 KB), the API calls each
screen makes when first shown (budget 3), and the time until the agenda shows a month of the 100 000-gig office
(budget 1 s). Prints a table and exits non-zero when a budget is missed.

    .venv/bin/python scripts/console_bench.py [DB] [--runs 3]

DB defaults to the bench's cached office of 100 000 gigs (bench/cache/band-100000.db, built by bench_support as
scripts/bench.py builds it when missing). It is copied (SQLite's backup, consistent while another process uses
it), never changed; the copy is served with the worker off, so that only the console's requests are measured.
"""

import argparse
import json
import os
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from console_browser import browser, signed_in_context
from served import PROJECT, served

FIRST_LOAD_BUDGET_KB = 250
CALLS_BUDGET = 3
MONTH_BUDGET_S = 1.0
DESKTOP = {"width": 1280, "height": 800}
# The shell's own, made once a page load: who is signed in, and (for the office) whether My gigs is theirs too
SHELL_CALLS = ("/v1/me", "/v1/me/staff-member")
MONTH_SHOWN = ".gig-row, .empty, .month-grid td.day"
# The moment the month is in the page, taken by the page itself (asking for it afterwards over the DevTools protocol
# would add the round trips of a busy machine to the figure).
NOTE_WHEN_SHOWN = """
new MutationObserver((changes, observer) => {
  if (document.querySelector(SHOWN)) {
    window.monthShownAt = performance.now();
    observer.disconnect();
  }
}).observe(document, { childList: true, subtree: true });
""".replace("SHOWN", json.dumps(MONTH_SHOWN))

# A screen per line: its name and the path that shows it ({gig}: a gig of the busiest month). A screen the console
# does not have yet shows "Not found" and is reported as not built.
SCREENS = [
    ("agenda", "/agenda"),
    ("agenda, month grid", "/agenda?view=grid"),
    ("gig page", "/gigs/{gig}"),
    ("gig staffing", "/gigs/{gig}?tab=staffing"),
    ("staffing board", "/staffing"),
    ("people", "/people"),
    ("pay", "/pay"),
    ("records: venues", "/records/venues"),
]


def copy_database(source, target):
    """A consistent copy of `source` (read only, whoever else has it open)."""
    with sqlite3.connect(f"file:{source}?mode=ro", uri=True) as original, sqlite3.connect(target) as copy:
        original.backup(copy)


def cached_database():
    path = PROJECT / "bench" / "cache" / "band-100000.db"
    if not path.exists():
        from bench_support import database

        database(100000)
    return path


def busiest(db):
    """(month, gig id) of the month with the most gigs, and one of its gigs."""
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as connection:
        month = connection.execute(
            "SELECT substr(gig_date, 1, 7) AS m FROM gigs GROUP BY m ORDER BY count(*) DESC LIMIT 1"
        ).fetchone()[0]
        gig = connection.execute(
            "SELECT id FROM gigs WHERE gig_date LIKE ? ORDER BY open_role_count DESC LIMIT 1", (f"{month}-%",)
        ).fetchone()[0]
    return month, gig


class Visit:
    """One page of a fresh context (an empty cache, as a first visit): what it asked for, and of which size."""

    def __init__(self, chromium, key, origin):
        self.context = signed_in_context(chromium, key, DESKTOP)
        self.context.add_init_script(NOTE_WHEN_SHOWN)
        self.page = self.context.new_page()
        self.origin = origin
        self.finished = []
        self.page.on("requestfinished", lambda request: self.finished.append(request))

    def open(self, path, shown=MONTH_SHOWN):
        """The seconds from the navigation's start until the agenda's month is in the page."""
        self.page.goto(self.origin + path)
        self.page.locator(shown).first.wait_for(timeout=30000)
        return (self.page.evaluate("window.monthShownAt") or 0) / 1000

    def api_calls(self):
        paths = [request.url.removeprefix(self.origin).split("?")[0] for request in self.finished]
        return [path for path in paths if path.startswith("/v1/") and path not in SHELL_CALLS]

    def own_bytes(self):
        """The compressed bytes (body and headers) of everything but the API's answers."""
        own = [r for r in self.finished if not r.url.startswith(self.origin + "/v1/")]
        return sum(r.sizes()["responseBodySize"] + r.sizes()["responseHeadersSize"] for r in own)

    def close(self):
        self.context.close()


def first_load(chromium, key, origin):
    visit = Visit(chromium, key, origin)
    try:
        visit.open("/agenda")
        visit.page.wait_for_load_state("networkidle")
        return visit.own_bytes() / 1024
    finally:
        visit.close()


def calls_of_screens(chromium, key, origin, gig):
    """[(screen, API calls or None when the console has no such screen yet, the paths called)]."""
    found = []
    for name, path in SCREENS:
        visit = Visit(chromium, key, origin)
        try:
            visit.open(path.format(gig=gig), shown="main h1")
            visit.page.wait_for_load_state("networkidle")
            if visit.page.locator("main h1").first.inner_text() == "Not found":
                found.append((name, None, []))
            else:
                calls = visit.api_calls()
                found.append((name, len(calls), calls))
        finally:
            visit.close()
    return found


# The next month's link clicked in the page, and the time until its gigs replace the month's (taken in the page).
NEXT_MONTH = """([shown]) => new Promise((resolve) => {
  const heading = document.querySelector("main h1");
  const before = heading.textContent;
  const started = performance.now();
  new MutationObserver((changes, observer) => {
    if (heading.textContent !== before && document.querySelector(shown) && !document.querySelector(".loading")) {
      observer.disconnect();
      resolve((performance.now() - started) / 1000);
    }
  }).observe(document.querySelector("main"), { childList: true, subtree: true, characterData: true });
  document.querySelector('a[aria-label^="Next month"]').click();
})"""


def next_month(page):
    return page.evaluate(NEXT_MONTH, [MONTH_SHOWN])


def month_times(chromium, key, origin, path, runs):
    """Seconds until the month is shown: on a first visit (nothing cached), on going to the next month, and on opening
    the console again (its assets cached, as every day after the first)."""
    first, moves, again = [], [], []
    for _ in range(runs):
        visit = Visit(chromium, key, origin)
        try:
            first.append(visit.open(path))
            moves.append(next_month(visit.page))
            again.append(visit.open(path))
        finally:
            visit.close()
    return statistics.median(first), statistics.median(moves), statistics.median(again)


def report(load_kb, screens, months):
    missed = []
    print(f"{'measure':<58} {'figure':>10}  budget")
    print(f"{'first load of the console (compressed)':<58} {load_kb:>7.1f} KB  ≤ {FIRST_LOAD_BUDGET_KB} KB")
    if load_kb > FIRST_LOAD_BUDGET_KB:
        missed.append("first load")
    for name, count, calls in screens:
        figure = "not built" if count is None else f"{count} calls"
        print(f"{'API calls on first show: ' + name:<58} {figure:>10}  ≤ {CALLS_BUDGET}   {' '.join(calls)}")
        if count is not None and count > CALLS_BUDGET:
            missed.append(name)
    for label, (first, move, again) in months.items():
        print(f"{'agenda ' + label + ', first visit, until shown':<58} {first:>8.2f} s  ≤ {MONTH_BUDGET_S} s")
        print(f"{'agenda ' + label + ', then the next month':<58} {move:>8.2f} s  ≤ {MONTH_BUDGET_S} s")
        print(f"{'agenda ' + label + ', opened again (assets cached)':<58} {again:>8.2f} s  ≤ {MONTH_BUDGET_S} s")
        if max(first, move, again) > MONTH_BUDGET_S:
            missed.append(f"agenda {label}")
    return missed


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("db", nargs="?", help="the database to copy (default: the bench's 100 000 gigs)")
    parser.add_argument("--runs", type=int, default=3, help="visits per month measured (the median is shown)")
    options = parser.parse_args()
    source = Path(options.db) if options.db else cached_database()
    with tempfile.TemporaryDirectory(prefix="band-console-bench-") as workdir:
        started = time.monotonic()
        copy_database(source, f"{workdir}/band.db")
        print(f"copied {source} in {time.monotonic() - started:.0f} s", flush=True)
        month, gig = busiest(f"{workdir}/band.db")
        with served(workdir, threads=8, BAND_WORKER="off") as (base, key), browser() as chromium:
            origin = base.removesuffix("/v1")
            visit = Visit(chromium, key, origin)  # the server's first answers warm its caches, as a day's use has
            visit.open("/agenda")
            visit.close()
            load_kb = first_load(chromium, key, origin)
            screens = calls_of_screens(chromium, key, origin, gig)
            months = {
                "this month": month_times(chromium, key, origin, "/agenda", options.runs),
                f"{month} (busiest)": month_times(chromium, key, origin, f"/agenda?month={month}", options.runs),
                f"{month} grid": month_times(chromium, key, origin, f"/agenda?month={month}&view=grid", options.runs),
            }
    missed = report(load_kb, screens, months)
    print(
        "load average (1, 5, 15 min) at the end: {:.1f} {:.1f} {:.1f} on {} CPUs".format(
            *os.getloadavg(), os.cpu_count()
        )
    )
    if missed:
        print(f"missed: {', '.join(missed)}")
        sys.exit(1)


if __name__ == "__main__":
    main()
