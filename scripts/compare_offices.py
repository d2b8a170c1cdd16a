"""Whether two offices answer the API alike: an office and its copy (`app.py copy-to`, SPEC §14), served side by side.

    .venv/bin/python scripts/compare_offices.py BASE_A BASE_B TOKEN [--token-b TOKEN] [--limit 10] [--records 3]
                                                [--workers 4] [--show 5]

BASE_A and BASE_B are the API's addresses (`http://127.0.0.1:8080/v1`); TOKEN an API key or session token valid on
both (a copy keeps the keys: one made before the move works on both), so both are asked as the same user. The
requests are a sample chosen from the OpenAPI document of A and the records A lists: for every collection its
default list, page 2, each documented sort both ways, a few filters on the values of a record (`eq`, `ne`,
`gte`/`lte`, `starts_with`, `contains`, `is_null`), `q` with words of a record's searched fields, `expand` of
every reference and `fields`; and single reads of a few records (`--records`), plain and expanded. Both offices
are asked each request in turn (`--workers` requests at a time); the answers (status and the parsed JSON body)
must be equal (a request one of them refuses as too costly, SPEC §2.3, is asked again alone after the rest, as
the read budget depends on the moment's load; one still refused is listed apart). It prints a diff for each
difference (the first `--show`), the requests asked and the time each office took (total, median, slowest), and
exits 1 when any differ. Serve both with `BAND_WORKER=off`, so that neither changes while they are compared.
"""

import argparse
import difflib
import json
import re
import statistics
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from concurrent.futures import ThreadPoolExecutor

OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))
# The filters asked of a record's field, in this order, as far as the field takes them.
OPERATORS = ("eq", "ne", "gte", "lte", "starts_with", "contains", "is_null")
RECORDS_SAMPLED = 3  # records of a list whose values filter and search, and which are read one by one (default)
WORD = re.compile(r"[^\W_]{3,}")
# Fields that the asking itself writes, at its own moment on each office (the asking key's `last_used_at`): left
# out of the answers compared, and neither filtered nor sorted by.
WRITTEN_BY_ASKING = {"last_used_at"}


class Office:
    """An office's API at `base`, asked as the holder of `token`."""

    def __init__(self, base, token, timeout=60):
        self.base, self.token, self.timeout = base.rstrip("/"), token, timeout
        self.seconds = []

    def get(self, path):
        """(status, parsed body) of GET `path` (a body that is not JSON as its text); the time it took is kept in
        `seconds`."""
        request = urllib.request.Request(self.base + path, headers={"Authorization": f"Bearer {self.token}"})
        started = time.perf_counter()
        try:
            with OPENER.open(request, timeout=self.timeout) as answer:
                status, body = answer.status, answer.read()
        except urllib.error.HTTPError as e:
            status, body = e.code, e.read()
        self.seconds.append(time.perf_counter() - started)
        try:
            return status, json.loads(body) if body else None
        except ValueError:  # not JSON (a proxy's error page): compared as text
            return status, body.decode(errors="replace")


# --- what to ask: from the OpenAPI document and the records of the first office --------------------------------


def collections(document):
    """{path: {parameter name: parameter}} of every list of a collection: a GET without path parameters that
    takes `sort`, and no required query parameter."""
    found = {}
    for path, operations in document["paths"].items():
        parameters = {p["name"]: p for p in (operations.get("get") or {}).get("parameters", []) if "name" in p}
        if "{" not in path and "sort" in parameters and not any(p.get("required") for p in parameters.values()):
            found[path] = parameters
    return found


def alternatives(parameter):
    """The names a comma-list parameter takes (`sort`, `fields`, `expand`), read from its pattern `^-?(a|b)(,...`."""
    first = re.match(r"\^(?:-\?)?\(((?:[^()\\]|\\.)*)\)", parameter["schema"]["pattern"])
    return [name.replace("\\", "") for name in first[1].split("|")] if first else []


def filter_patterns(parameter):
    """The patterns of the keys the list's `filter` takes (`^filter\\[(a|b)\\]\\[(eq|ne)\\]$`)."""
    return [re.compile(pattern) for pattern in parameter["schema"].get("patternProperties", {})]


def searched_fields(parameter):
    """The fields `q` searches, as its description names them."""
    named = re.search(r"must begin a word of (.+?); case", parameter.get("description", ""))
    return [name.strip() for name in named[1].split(",")] if named else []


def query(path, **params):
    return f"{path}?{urllib.parse.urlencode(params, safe=',[]')}" if params else path


def filter_values(name, value, operator):
    """The value `operator` is asked with for a record whose field `name` holds `value` (None: not asked)."""
    if operator == "is_null":
        return "true" if value is None else "false"
    if value is None or isinstance(value, (dict, list)):
        return None
    if isinstance(value, bool):
        return "true" if value else "false" if operator in ("eq", "ne") else None
    if operator in ("starts_with", "contains"):
        if not isinstance(value, str) or not value.strip():
            return None
        return value[:3] if operator == "starts_with" else value[1:4]
    return str(value)


def filters_of(record, patterns):
    """A few filters on the values of `record`: each field with each operator its list takes (of OPERATORS)."""
    asked = []
    for name, value in record.items():
        if name in WRITTEN_BY_ASKING:
            continue
        for operator in OPERATORS:
            key = f"filter[{name}][{operator}]"
            if any(p.match(key) for p in patterns):
                given = filter_values(name, value, operator)
                if given is not None:
                    asked.append({key: given})
    return asked


def words_of(record, fields):
    """Searches made of the words of a record's searched fields: a word, its first three letters, two words."""
    words = [w for field in fields if isinstance(record.get(field), str) for w in WORD.findall(record[field])]
    if not words:
        return []
    return list(dict.fromkeys([words[0], words[0][:3], " ".join(words[:2]), words[-1].upper()]))


def list_requests(path, parameters, records, limit):
    """The sample of lists of one collection, given some of its records (as its default list gives them)."""
    asked = [path, query(path, limit=limit, offset=limit)]
    for key in (k for k in alternatives(parameters["sort"]) if k not in WRITTEN_BY_ASKING):
        asked += [query(path, sort=key, limit=limit), query(path, sort=f"-{key}", limit=limit)]
    if "expand" in parameters:
        references = alternatives(parameters["expand"])
        asked.append(query(path, expand=",".join(references), limit=limit))
        asked.append(query(path, expand=references[0], fields=f"{references[0]}_id,{references[0]}", limit=limit))
    fields = [name for name in alternatives(parameters["fields"]) if name != "id"]
    asked.append(query(path, fields=",".join(fields[:2]), sort="-id", limit=limit))
    patterns = filter_patterns(parameters["filter"]) if "filter" in parameters else []
    for record in records:
        asked += [query(path, **condition, limit=limit) for condition in filters_of(record, patterns)]
        if "q" in parameters:
            asked += [query(path, q=words, limit=limit) for words in words_of(record, searched_fields(parameters["q"]))]
    return list(dict.fromkeys(asked))


def read_requests(path, document, records):
    """Single reads of a few records, plain and with every reference expanded, where the collection has them."""
    single = document["paths"].get(f"{path}/{{id}}", {}).get("get")
    if not single:
        return []
    parameters = {p["name"]: p for p in single.get("parameters", []) if "name" in p}
    expand = ",".join(alternatives(parameters["expand"])) if "expand" in parameters else None
    asked = []
    for record in records:
        asked.append(f"{path}/{record['id']}")
        if expand:
            asked.append(query(f"{path}/{record['id']}", expand=expand))
    return asked


def sample(office, limit, records=RECORDS_SAMPLED):
    """Every request to compare, chosen from `office`'s document and `records` records of each list."""
    status, document = office.get("/openapi.json")
    if status != 200:
        raise SystemExit(f"{office.base}/openapi.json answered {status}")
    asked = []
    for path, parameters in collections(document).items():
        status, page = office.get(path)
        listed = page["data"] if status == 200 else []
        spread = listed[:: max(1, len(listed) // records)][:records]  # the first, then spread over the page
        asked += list_requests(path, parameters, spread, limit) + read_requests(path, document, spread)
    return asked


# --- asking both and comparing -------------------------------------------------------------------------------


def without_asking(value):
    """`value` without the fields WRITTEN_BY_ASKING, at any depth."""
    if isinstance(value, dict):
        return {k: without_asking(v) for k, v in value.items() if k not in WRITTEN_BY_ASKING}
    if isinstance(value, list):
        return [without_asking(v) for v in value]
    return value


def refused(answer):
    """Whether an answer is the read budget's refusal (SPEC §2.3): it depends on the moment's load, not the data."""
    status, body = answer
    return status == 400 and isinstance(body, dict) and body.get("error", {}).get("code") == "query_too_costly"


def difference(path, first, second):
    """None when the answers are equal, else a unified diff of them (status and body, keys in their order);
    REFUSED when either office refused the request as too costly."""
    first, second = [(status, without_asking(body)) for status, body in (first, second)]
    if first == second:
        return None
    if refused(first) or refused(second):
        return REFUSED
    texts = [
        json.dumps({"status": s, "body": b}, indent=1, ensure_ascii=False).splitlines() for s, b in (first, second)
    ]
    return f"GET {path}\n" + "\n".join(difflib.unified_diff(*texts, "first", "second", lineterm="", n=2))


REFUSED = "refused"


def compare(first, second, paths, workers=4):
    """The differences (diffs) of the two offices' answers to `paths`, each asked of both in turn, `workers`
    requests at a time, and the requests refused as too costly by one of them (and answered by the other) even
    when asked again, one at a time, after the rest."""

    def compared(path):
        return path, difference(path, first.get(path), second.get(path))

    with ThreadPoolExecutor(workers) as pool:
        found = dict(pool.map(compared, paths))
    found.update(compared(path) for path in [p for p, d in found.items() if d == REFUSED])
    return [d for d in found.values() if d not in (None, REFUSED)], [p for p, d in found.items() if d == REFUSED]


def timing(office):
    seconds = office.seconds
    return (
        f"{office.base}: {len(seconds)} requests, {sum(seconds):.1f} s in all, median "
        f"{statistics.median(seconds) * 1000:.1f} ms, slowest {max(seconds) * 1000:.0f} ms"
    )


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("first", help="the API's address of the first office (the source): http://HOST:PORT/v1")
    parser.add_argument("second", help="the API's address of the second office (the copy)")
    parser.add_argument("token", help="an API key or session token, of the same user on both")
    parser.add_argument("--token-b", help="the token on the second office, when it is another")
    parser.add_argument("--limit", type=int, default=10, help="records per list asked (default 10)")
    parser.add_argument(
        "--records",
        type=int,
        default=RECORDS_SAMPLED,
        help=f"records of each list filtered on, searched for and read (default {RECORDS_SAMPLED})",
    )
    parser.add_argument("--workers", type=int, default=4, help="requests asked at a time (default 4)")
    parser.add_argument("--show", type=int, default=5, help="differences printed in full (default 5)")
    args = parser.parse_args(argv)
    first, second = Office(args.first, args.token), Office(args.second, args.token_b or args.token)
    paths = sample(first, args.limit, args.records)
    first.seconds.clear()
    started = time.monotonic()
    differences, refusals = compare(first, second, paths, args.workers)
    for diff in differences[: args.show]:
        print(diff, end="\n\n")
    took = time.monotonic() - started
    print(f"{len(paths)} requests compared in {took:.0f} s: {len(differences)} answered differently")
    print(f"{len(refusals)} refused as too costly by one office only, asked again alone (SPEC §2.3)")
    for path in refusals[: args.show]:
        print(f"  refused: GET {path}")
    print(timing(first))
    print(timing(second))
    return 1 if differences else 0


if __name__ == "__main__":
    sys.exit(main())
