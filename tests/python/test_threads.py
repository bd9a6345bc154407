# SPDX-License-Identifier: MIT
# The calling thread alone, or the process with the threads it creates; the GIL released
# around a session of many events.
import os
import threading

import pmapi
from conftest import needs_tracepoints


def _getppid(n):
    for _ in range(n):
        os.getppid()


@needs_tracepoints
def test_thread_scope_counts_the_calling_thread_only():
    with pmapi.count("syscalls:sys_enter_getppid") as c:
        other = threading.Thread(target=_getppid, args=(50,))
        other.start()
        other.join()
        _getppid(7)
    assert c.values["syscalls:sys_enter_getppid"] == 7


@needs_tracepoints
def test_process_scope_counts_threads_created_inside():
    with pmapi.count("syscalls:sys_enter_getppid", scope="process") as c:
        workers = [threading.Thread(target=_getppid, args=(25,)) for _ in range(3)]
        for w in workers:
            w.start()
        for w in workers:
            w.join()
        _getppid(5)
    assert c.values["syscalls:sys_enter_getppid"] == 3 * 25 + 5


@needs_tracepoints
def test_many_events_release_the_gil_and_still_count_exactly():
    # Enough descriptors that start, stop and read run without the GIL (software events, whose
    # descriptors close at once, unlike tracepoints'); a second thread runs Python meanwhile.
    software = ["task-clock", "page-faults", "context-switches", "cpu-migrations", "minor-faults",
                "major-faults", "alignment-faults", "emulation-faults"]
    events = ",".join(f"{e}{m}" for e in software for m in ("", ":u", ":k", ":uk"))
    done = threading.Event()
    spins = []

    def spin():
        n = 0
        while not done.is_set():
            n += 1
        spins.append(n)

    spinner = threading.Thread(target=spin)
    spinner.start()
    try:
        with pmapi.count(events + ",syscalls:sys_enter_getppid") as c:
            _getppid(11)
        c.close()
    finally:
        done.set()
        spinner.join()
    assert len(c.names) == 33
    assert c.values["syscalls:sys_enter_getppid"] == 11
    assert spins and spins[0] > 0


@needs_tracepoints
def test_sessions_in_threads_are_independent():
    results = {}

    def own(n):
        with pmapi.count("syscalls:sys_enter_getppid") as c:
            _getppid(n)
        results[n] = int(c.values["syscalls:sys_enter_getppid"])

    threads = [threading.Thread(target=own, args=(n,)) for n in (3, 30, 300)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == {3: 3, 30: 30, 300: 300}
