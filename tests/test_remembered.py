"""Answers remembered until the database changes (storage/remembered.py): kept, forgotten on any commit, on their moment
and past their size, and of a burst of requests for one answer only one works it out."""

import datetime as dt
import linecache
import sys
import threading

from dialects import dialect
from models import Team, timestamp
from storage.remembered import ENTRY_BYTES, Remembered
from tests.support.waiting import wait_for


def answer(text, until=None):
    calls = []

    def work_out():
        calls.append(text)
        return text, until

    return work_out, calls


def test_an_answer_is_kept_until_anything_is_committed(app):
    def scenario(memory):
        work_out, calls = answer("first")
        return [memory.get("key", work_out), memory.get("key", work_out)], calls, memory, work_out

    answers, calls, memory, work_out = while_the_database_stays(scenario, max_bytes=1024)
    assert answers == ["first", "first"] and calls == ["first"]
    Team.create(name="Horns")  # a commit on the app's connection, which the memory does not read with
    assert memory.get("key", work_out) == "first" and calls == ["first", "first"]


def test_an_answer_is_kept_until_its_moment(app):
    def scenario(memory):
        moment = dt.datetime.now(dt.UTC) + dt.timedelta(seconds=2)
        work_out, calls = answer("pending", until=timestamp(moment))
        memory.get("key", work_out)
        memory.get("key", work_out)
        in_time = dt.datetime.now(dt.UTC) < moment  # a busy machine may take the whole moment between the two
        return calls, memory, work_out, in_time

    for _ in range(5):
        calls, memory, work_out, in_time = while_the_database_stays(scenario, max_bytes=1024)
        if in_time:
            break
    assert in_time and calls == ["pending"]
    wait_for(lambda: memory.get("key", work_out) and len(calls) == 2, timeout=10)


def while_the_database_stays(scenario, tries=20, max_bytes=2 * (ENTRY_BYTES + 6)):
    """`scenario(memory)` run on a new memory until the database's version stayed the same all through it, and its
    result. On PostgreSQL the version is the server's snapshot, which the other tests' databases on the one test
    server move too (and the copies made ahead for the next tests): a run they cut into proves nothing either way."""
    for _ in range(tries):
        memory = Remembered(max_bytes=max_bytes)  # by default, room for two answers of six characters
        before = memory.watch.version()
        result = scenario(memory)
        if memory.watch.version() == before:
            return result
    raise AssertionError(f"the database changed under each of {tries} runs")


def test_the_oldest_answers_go_past_the_size(app):
    def scenario(memory):
        works = {name: answer(name * 6) for name in "abc"}
        for name in "abac":  # "a" again is remembered; "c" is one too many, and the oldest ("a") goes
            memory.get(name, works[name][0])
        for name in "ba":
            memory.get(name, works[name][0])
        return [len(works[name][1]) for name in "abc"]

    assert while_the_database_stays(scenario) == [2, 1, 1]


def test_a_size_of_nothing_remembers_nothing(app):
    memory = Remembered(max_bytes=0)
    work_out, calls = answer("again")
    for _ in range(3):
        memory.get("key", work_out)
    assert len(calls) == 3


def test_long_keys_cost_no_more_than_short_ones(app):
    memory = Remembered(max_bytes=64 * 1024)
    for number in range(2000):
        memory.get(("page", number, "filter[title][in]=" + "x" * 10_000), answer("[]")[0])
    assert memory.size <= 64 * 1024 and len(memory.answers) == 64 * 1024 // (ENTRY_BYTES + 2)
    assert all(len(key) == 32 for key in memory.answers)


def waiting_for_its_turn(thread):
    """Whether `thread` waits in Remembered.get for another thread's answer (at `with turn:`)."""
    frame = sys._current_frames().get(thread.ident)
    while frame is not None and frame.f_code is not Remembered.get.__code__:
        frame = frame.f_back
    return frame is not None and linecache.getline(frame.f_code.co_filename, frame.f_lineno).strip() == "with turn:"


def test_of_a_burst_for_one_answer_one_works_it_out_and_the_others_wait_for_it(app):
    def scenario(memory):
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
        while_waiting = list(calls)
        release.set()
        for thread in (first, *others):
            thread.join(10)
        return results, while_waiting, calls

    # while one works it out, the others wait for it, whatever the database does meanwhile
    memory = Remembered(max_bytes=1024)
    results, while_waiting, _ = scenario(memory)
    assert results == ["worked out once"] * 4 and while_waiting == ["slow"]
    # and, the database unchanged, they take its answer rather than working it out again: proven where the version
    # is the database's own; PostgreSQL's snapshot moves with every other test's database on the server, and this
    # scenario waits for threads, too long to find it still under a busy suite
    if dialect.NAME == "sqlite":
        assert while_the_database_stays(scenario, max_bytes=1024) == (["worked out once"] * 4, ["slow"], ["slow"])
