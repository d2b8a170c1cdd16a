"""What one invoice's PDF costs (SPEC §15: at most 300 ms and 40 MB more peak memory on these machines): each case
in a fresh Python process of its own, which loads what the first document loads (WeasyPrint, Babel, factur-x: the
time and memory that takes), renders the invoice once (cold: Pango's and the fonts' first use), then RENDERS times
more (warm), and reports the wall time of each, the peak of
Python's own allocations during one warm render (tracemalloc), the process's CPU time of each (the figure a busy
shared machine distorts least), and the growth of the process's peak resident memory
(ru_maxrss) from before the first render to after the last.

.venv/bin/python scripts/document_cost.py [--renders 20]
"""

import argparse
import json
import resource
import statistics
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT))

CASES = {
    "invoice to a couple (EPC QR code)": "INVOICE",
    "invoice to a company (EPC QR code, logo, Factur-X)": "E_INVOICE",
}


def peak_mb():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def measure(name, renders):
    """The figures of one case, in this process (run fresh for each case)."""
    from tests.support import documents

    before, started = peak_mb(), time.perf_counter()
    from documents import invoice_pdf, pdfs  # noqa: F401 (what the first document loads: WeasyPrint, Babel, factur-x)

    import_ms, import_mb = (time.perf_counter() - started) * 1000, peak_mb() - before
    invoice = getattr(documents, name)
    before = peak_mb()
    started = time.perf_counter()
    size = len(invoice_pdf(invoice))
    cold_ms = (time.perf_counter() - started) * 1000
    warm, cpu = [], []
    for _ in range(renders):
        started, cpu_started = time.perf_counter(), time.process_time()
        invoice_pdf(invoice)
        warm.append((time.perf_counter() - started) * 1000)
        cpu.append((time.process_time() - cpu_started) * 1000)
    tracemalloc.start()
    invoice_pdf(invoice)
    traced_mb = tracemalloc.get_traced_memory()[1] / 2**20
    tracemalloc.stop()
    return {
        "import_ms": import_ms,
        "import_mb": import_mb,
        "bytes": size,
        "cold_ms": cold_ms,
        "warm_median_ms": statistics.median(warm),
        "warm_max_ms": max(warm),
        "warm_cpu_median_ms": statistics.median(cpu),
        "traced_peak_mb": traced_mb,
        "rss_growth_mb": peak_mb() - before,
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--renders", type=int, default=20)
    parser.add_argument("--case", help=argparse.SUPPRESS)
    arguments = parser.parse_args()
    if arguments.case:
        print(json.dumps(measure(arguments.case, arguments.renders)))
        return
    load = Path("/proc/loadavg").read_text().split()[:3]
    print(f"load average {' '.join(load)}; {arguments.renders} warm renders a case")
    for label, name in CASES.items():
        command = [sys.executable, __file__, "--case", name, "--renders", str(arguments.renders)]
        figures = json.loads(subprocess.run(command, check=True, capture_output=True, text=True).stdout)
        print(
            f"{label}: {figures['bytes'] / 1024:.0f} KB; the libraries loaded in {figures['import_ms']:.0f} ms, +"
            f"{figures['import_mb']:.0f} MB; first render {figures['cold_ms']:.0f} ms; warm median "
            f"{figures['warm_median_ms']:.0f} ms, max {figures['warm_max_ms']:.0f} ms, CPU median "
            f"{figures['warm_cpu_median_ms']:.0f} ms; peak memory +"
            f"{figures['rss_growth_mb']:.1f} MB resident (first render included), "
            f"{figures['traced_peak_mb']:.1f} MB of Python's allocations in a warm render"
        )


if __name__ == "__main__":
    main()
