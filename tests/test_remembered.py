"""Answers remembered until the database changes (remembered.py): kept, forgotten on any commit, on their moment
and past their size, and of a burst of requests for one answer only one works it out."""

import datetime as dt
import linecache
import sys
import threading

from models import Team, timestamp
from remembered import Remembered
from tests.support import wait_for


def answer(text, until=None):
    calls = []

    def work_out():
        calls.append(text)
        return text, until

    return work_out, calls


def test_an_answer_is_kept_until_anything_is_committed(app):
    memory = Remembered(max_bytes=1024)
    work_out, calls = answer("first")
    assert memory.get("key", work_out) == memory.get("key", work_out) == "first"
    assert calls == ["first"]
    Team.create(name="Horns")  # a commit on the app's connection, which the memory does not read with
    assert memory.get("key", work_out) == "first" and calls == ["first", "first"]


def test_an_answer_is_kept_until_its_moment(app):
    memory = Remembered(max_bytes=1024)
    soon = timestamp(dt.datetime.now(dt.UTC) + dt.timedelta(seconds=0.5))
    work_out, calls = answer("pending", until=soon)
    memory.get("key", work_out)
    wait_for(lambda: memory.get("key", work_out) and len(calls) == 2, timeout=5)


def test_the_oldest_answers_go_past_the_size(app):
    memory = Remembered(max_bytes=10)
    first, first_calls = answer("123456")
    second, _ = answer("abcdef")
    memory.get("first", first)
    memory.get("second", second)
    memory.get("first", first)
    assert first_calls == ["123456", "123456"]
    nothing = Remembered(max_bytes=0)
    memory.get("x", first)
    nothing.get("x", first)
    nothing.get("x", first)
    assert len(first_calls) == 5


def waiting_for_its_turn(thread):
    """Whether `thread` waits in Remembered.get for another thread's answer (at `with turn:`)."""
    frame = sys._current_frames().get(thread.ident)
    while frame is not None and frame.f_code is not Remembered.get.__code__:
        frame = frame.f_back
    return frame is not None and linecache.getline(frame.f_code.co_filename, frame.f_lineno).strip() == "with turn:"


def test_of_a_burst_for_one_answer_one_works_it_out_and_the_others_wait_for_it(app):
    memory = Remembered(max_bytes=1024)
    release, results, calls = threading.Event(), [], []

    def slow():
        calls.append("slow")
        release.wait(10)
        return "worked out once", None

    def ask():
        results.append(memory.get("page", slow))

    first = threading.Thread(target=ask)
    first.start()
    wait_for(lambda: calls)
    others = [threading.Thread(target=ask) for _ in range(3)]
    for thread in others:
        thread.start()
    wait_for(lambda: all(waiting_for_its_turn(thread) for thread in others))
    release.set()
    for thread in (first, *others):
        thread.join(10)
    assert results == ["worked out once"] * 4 and calls == ["slow"]
