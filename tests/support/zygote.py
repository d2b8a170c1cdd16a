"""Processes of `python app.py …` (and `python -m module …`) started by forking one that has imported the project
already: a zygote, as Chromium and Android start theirs. Each is a process of its own that runs the command as a
fresh interpreter would (its arguments, environment, folder, output files and exit status), less the ~0.5 CPU-s a
fresh interpreter spends importing the project: a run of the suite starts some 250 (served offices, their commands,
the demo).

One zygote a test process and a dialect (the dialect is chosen as the project is imported: dialects/__init__.py), made
when first asked, ended with the test process. It is this module run as `python -m tests.support.zygote`: it reads
requests, one JSON line each, forks a child for each and answers its pid, then the exit status of each child once it
has ended (a child ends through the interpreter's own ending, as `python` does). What
differs from a fresh interpreter: the children of one zygote share its hash seed (PYTHONHASHSEED's), so a set of
strings iterates in the same order in each."""

import contextlib
import io
import json
import os
import runpy
import select
import signal
import subprocess
import sys
import tempfile
import threading
import time

from dialects import dialect_name
from tests.support import PROJECT

# --- the test process's side ---


class Launched:
    """A process a zygote started: what the tests use of subprocess.Popen."""

    def __init__(self, zygote, pid, args):
        self.zygote, self.pid, self.args = zygote, pid, args

    @property
    def returncode(self):
        return self.zygote.wait_for_exit(self.pid, 0)

    def poll(self):
        return self.returncode

    def wait(self, timeout=None):
        code = self.zygote.wait_for_exit(self.pid, timeout)
        if code is None:
            raise subprocess.TimeoutExpired(self.args, timeout)
        return code

    def send_signal(self, number):
        if self.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, number)

    def terminate(self):
        self.send_signal(signal.SIGTERM)

    def kill(self):
        self.send_signal(signal.SIGKILL)


class Zygote:
    """A zygote process for the dialect of `location` (a BAND_DB), and what it said of its children."""

    def __init__(self, location):
        environment = {name: value for name, value in os.environ.items() if not name.startswith("BAND_")}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tests.support.zygote"],
            cwd=PROJECT,
            env={**environment, "BAND_DB": location},
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
        )
        self.asking = threading.Lock()  # one request and its answer at a time
        self.changed = threading.Condition()
        self.started = []  # pids, in the order of the requests
        self.ended = {}  # pid -> exit status
        self.gone = False  # the zygote ended (and its children with it)
        threading.Thread(target=self.listen, name="zygote", daemon=True).start()

    def listen(self):
        for line in self.proc.stdout:
            said = json.loads(line)
            with self.changed:
                if "started" in said:
                    self.started.append(said["started"])
                else:
                    self.ended[said["pid"]] = said["exit"]
                self.changed.notify_all()
        with self.changed:  # the zygote is gone: so are its children
            self.gone = True
            self.changed.notify_all()

    def fork(self, argv, env, cwd, stdout, stderr):
        """A child running `python *argv` with `env` in `cwd`, its output written to the files `stdout` and `stderr`
        (paths; the same path for both writes both to one file)."""
        request = {"argv": argv, "env": env, "cwd": str(cwd), "stdout": str(stdout), "stderr": str(stderr)}
        with self.asking:
            self.proc.stdin.write(json.dumps(request).encode() + b"\n")
            self.proc.stdin.flush()
            with self.changed:
                self.changed.wait_for(lambda: self.started or self.gone)
                if self.gone:
                    raise RuntimeError("the zygote ended")
                return Launched(self, self.started.pop(0), argv)

    def wait_for_exit(self, pid, timeout):
        """The exit status of the child `pid` once it ended within `timeout` seconds (0: as it is now), else None."""
        with self.changed:
            self.changed.wait_for(lambda: pid in self.ended or self.gone, timeout)
            return self.ended.get(pid)


ZYGOTES = {}  # dialect name -> its Zygote
MAKING = threading.Lock()


def zygote_for(env):
    """The process's zygote for the dialect of env's BAND_DB."""
    location = env.get("BAND_DB", "")
    with MAKING:
        name = dialect_name(location)
        if name not in ZYGOTES or ZYGOTES[name].proc.poll() is not None:
            ZYGOTES[name] = Zygote(location)
        return ZYGOTES[name]


def start(argv, env, cwd, output):
    """`python *argv` started, stdout and stderr written to the file `output`: a Popen-like Launched."""
    return zygote_for(env).fork(argv, env, cwd, output, output)


def run(argv, env, cwd, timeout):
    """`python *argv` run to its end, as subprocess.run(…, capture_output=True, text=True, timeout=timeout) does."""
    with tempfile.TemporaryDirectory(prefix="zygote-") as folder:
        out, err = os.path.join(folder, "stdout"), os.path.join(folder, "stderr")
        child = zygote_for(env).fork(argv, env, cwd, out, err)
        try:
            code = child.wait(timeout)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()
            raise
        with open(out, encoding="utf-8", errors="replace") as o, open(err, encoding="utf-8", errors="replace") as e:
            return subprocess.CompletedProcess(argv, code, o.read(), e.read())


# --- the zygote's side ---

OUTPUT_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_APPEND  # after what the test process wrote there, if anything


def become(request):
    """In a forked child: run the request's command as `python` would, and end as it ends (SystemExit, an uncaught
    error, or its end), through the interpreter's own ending: threads joined, atexit's functions run, files and
    databases closed (a SQLite database left open keeps its last writes in its -wal file)."""
    os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
    out = os.open(request["stdout"], OUTPUT_FLAGS, 0o644)
    err = out if request["stderr"] == request["stdout"] else os.open(request["stderr"], OUTPUT_FLAGS, 0o644)
    os.dup2(out, 1)
    os.dup2(err, 2)
    os.closerange(3, max(out, err) + 1)
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"])
    time.tzset()
    unbuffered = bool(os.environ.get("PYTHONUNBUFFERED"))
    sys.stdin = io.TextIOWrapper(open(0, "rb", closefd=False), encoding="utf-8")  # noqa: SIM115
    stdout = open(1, "wb", buffering=0 if unbuffered else -1, closefd=False)  # noqa: SIM115
    sys.stdout = io.TextIOWrapper(stdout, encoding="utf-8", write_through=unbuffered)
    stderr = open(2, "wb", buffering=0, closefd=False)  # noqa: SIM115
    sys.stderr = io.TextIOWrapper(stderr, encoding="utf-8", errors="backslashreplace", line_buffering=True)
    argv = request["argv"]
    if argv[0] == "-m":
        sys.argv = [argv[1], *argv[2:]]
        runpy.run_module(argv[1], run_name="__main__", alter_sys=True)
    else:
        sys.argv = list(argv)
        runpy.run_path(argv[0], run_name="__main__")
    sys.exit(0)


def serve_forks():
    """The zygote: fork a child for each request read on stdin, answer its pid, and the exit status of each child
    that ends; at the end of stdin (the test process gone), end every child still running, then itself."""
    import app  # noqa: F401 (what every child imports: the project, with the dialect BAND_DB names)
    import tests.support.commands  # noqa: F401

    wake_read, wake_write = os.pipe()
    for end in (wake_read, wake_write):
        os.set_blocking(end, False)
    signal.set_wakeup_fd(wake_write)
    signal.signal(signal.SIGCHLD, lambda *_: None)
    children, pending = set(), b""

    def say(message):
        os.write(1, json.dumps(message).encode() + b"\n")

    def reap():
        while children:
            pid, status = os.waitpid(-1, os.WNOHANG)
            if pid == 0:
                return
            children.discard(pid)
            say({"pid": pid, "exit": os.waitstatus_to_exitcode(status)})

    while True:
        ready, _, _ = select.select([0, wake_read], [], [])
        if wake_read in ready:
            with contextlib.suppress(BlockingIOError):
                while os.read(wake_read, 512):
                    pass
            reap()
        if 0 not in ready:
            continue
        chunk = os.read(0, 1 << 16)
        if not chunk:
            break
        pending += chunk
        while b"\n" in pending:
            line, pending = pending.split(b"\n", 1)
            pid = os.fork()
            if pid == 0:
                signal.set_wakeup_fd(-1)
                signal.signal(signal.SIGCHLD, signal.SIG_DFL)
                for end in (wake_read, wake_write):
                    os.close(end)
                become(json.loads(line))
            children.add(pid)
            say({"started": pid})
    for pid in children:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)


if __name__ == "__main__":
    serve_forks()
