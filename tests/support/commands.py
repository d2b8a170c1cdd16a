"""Commands of app.py run one after another in one process, each as `python app.py …` runs it (its arguments,
its output, its exit status): a test's set-up of a served office (a first admin, their key) in one process, not two
(a process costs half a second of CPU, mostly imports; hundreds of set-ups in a run of the suite).

    python -m tests.support.commands '[["create-user", "ops@example.com", "--name", "Ops"], [...]]'

prints, as JSON, [{"output": …, "exit_code": …}, …], one per command."""

import json
import sys

from app import create_app


def main():
    runner = create_app().test_cli_runner()
    results = []
    for args in json.loads(sys.argv[1]):
        result = runner.invoke(args=args)
        results.append({"output": result.output, "exit_code": result.exit_code})
        if result.exit_code:
            break
    print(json.dumps(results))


if __name__ == "__main__":
    main()
