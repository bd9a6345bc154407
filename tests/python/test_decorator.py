# SPDX-License-Identifier: MIT
# @pmapi.counted: counts added up over the calls, on each calling thread.
import os
import threading

import pytest

import pmapi
from conftest import needs_tracepoints


@needs_tracepoints
def test_counts_accumulate_per_call():
    @pmapi.counted("syscalls:sys_enter_getppid")
    def work(n):
        for _ in range(n):
            os.getppid()
        return n

    assert work(3) == 3
    os.getppid()  # outside the function: not counted
    work(4)
    assert work.counter.calls == 2
    assert work.counter.values == {"syscalls:sys_enter_getppid": 7}
    assert work.__name__ == "work"


@needs_tracepoints
def test_recursion_is_counted_once():
    @pmapi.counted("syscalls:sys_enter_getppid")
    def down(n):
        os.getppid()
        if n:
            down(n - 1)

    down(4)
    assert work_total(down) == 5
    assert down.counter.calls == 1


def work_total(function):
    return function.counter.values["syscalls:sys_enter_getppid"]


@needs_tracepoints
def test_calls_from_threads_add_up():
    @pmapi.counted("syscalls:sys_enter_getppid")
    def work(n):
        for _ in range(n):
            os.getppid()

    threads = [threading.Thread(target=work, args=(10 * (i + 1),)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    work(1)
    assert work_total(work) == 10 + 20 + 30 + 40 + 1
    assert work.counter.calls == 5


def test_bad_events_fail_at_decoration():
    with pytest.raises(pmapi.InvalidEventError):

        @pmapi.counted("no-such-event-anywhere")
        def never():
            pass


def test_exceptions_pass_through_and_stop_counting():
    @pmapi.counted("task-clock")
    def boom():
        raise KeyError("x")

    with pytest.raises(KeyError):
        boom()
    assert boom.counter.calls == 1
