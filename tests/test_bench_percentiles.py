"""The benchmark's write p99 over two servers (scripts/bench_two_servers.py) is the p99 of all their requests together,
merged from what each wrk wrote, not the larger or the mean of the two p99s."""

import importlib.util
import sys

from tests.support import PROJECT


def bench_two_servers():
    path = PROJECT / "scripts" / "bench_two_servers.py"
    spec = importlib.util.spec_from_file_location("bench_two_servers", path)
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, str(path.parent))  # its own imports (bench_support) are the scripts folder's
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(path.parent))
    return module


def test_a_slow_server_with_few_requests_weighs_by_its_requests(tmp_path):
    busy, idle = tmp_path / "busy", tmp_path / "idle"
    # what TAGGED_POST_TEAMS writes: the requests, then "percent latency-in-µs" lines
    busy.write_text("990\n50 5000\n99 10000\n99.5 15000\n100 20000\n")
    idle.write_text("10\n50 500000\n99 500000\n100 500000\n")
    module = bench_two_servers()
    runs = [module.read_percentiles(busy), module.read_percentiles(idle)]
    assert module.merged_percentile(runs, 99) == 20.0  # 990 of 1 000 answered within 20 ms
    assert module.merged_percentile(runs, 40) == 5.0  # 49.5 % within 5 ms
    assert module.merged_percentile(runs, 99.5) == 500.0
