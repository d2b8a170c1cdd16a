"""The test's app served by waitress in a thread of the test process (8 threads, on the test's database), and calls
to it from many threads released together: what two clients at once do to one office."""

import json
import threading
from concurrent.futures import ThreadPoolExecutor

from waitress import create_server, wasyncore

from tests.support.served import answer_of
from tests.support.waiting import SLOW_MACHINE_SECONDS

# How long the server's loop waits on its sockets before it looks whether it is to stop: an answer ready wakes it
# at once (waitress pulls its trigger), so this is only how soon `close` is seen.
LOOK_SECONDS = 0.05


class Live:
    """The app served by waitress on a free port, in a thread of this process."""

    def __init__(self, app, token):
        self.server = create_server(app, host="127.0.0.1", port=0, threads=8)
        self.base = f"http://127.0.0.1:{self.server.effective_port}/v1"
        self.token = token
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self.serve, daemon=True)
        self.thread.start()

    def serve(self):
        """waitress's loop, a round at a time until `close`, then its sockets closed by this thread, the one that
        watches them. `close` only sets an event: woken through waitress's trigger instead, a teardown now and then
        found the trigger's pipe closed (EBADF)."""
        while not self.stopping.is_set():
            wasyncore.loop(timeout=LOOK_SECONDS, map=self.server._map, count=1)
        wasyncore.close_all(self.server._map)

    def call(self, method, path, body=None):
        """(status, parsed body) of one request with the test's token."""
        data = None if body is None else json.dumps(body).encode()
        headers = {"Authorization": f"Bearer {self.token}", "Content-Type": "application/json"}
        status, _, answer = answer_of(self.base + path, method, data, headers)
        return status, json.loads(answer or b"null")

    def close(self):
        """Stopped, its sockets closed and its threads ended before the next test serves (and opens sockets)."""
        self.stopping.set()
        self.thread.join(SLOW_MACHINE_SECONDS)
        assert not self.thread.is_alive(), "the served app's loop did not end"
        self.server.task_dispatcher.shutdown(timeout=SLOW_MACHINE_SECONDS)


def at_once(calls, workers=16):
    """Run the calls from `workers` threads released together; their results in order."""
    barrier = threading.Barrier(min(workers, len(calls)))

    def run(call):
        if calls.index(call) < barrier.parties:
            barrier.wait()
        return call()

    with ThreadPoolExecutor(workers) as pool:
        return list(pool.map(run, calls))
