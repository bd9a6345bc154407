#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# The pmapi Python package's cost over the C calls it makes (docs/performance.md, "Python"):
# a with-block around nothing on a counter made once, a whole pmapi.count(...) life, and a
# read of 8 events, each timed from Python and as the same C calls looped in C in this process
# (pmapi._pmapi._bench_c_calls), the two taking turns repetition by repetition (a shared
# machine's load drifts): the medians over the repetitions of the mean of many iterations, and
# the median of the pairs' differences, in wall time and in this thread's CPU time (which time
# spent waiting for a shared CPU does not stretch). The whole life is also compared with the C
# calls of one life made per call from a Python loop, which leaves the caches as a Python
# program does (and adds a call into the module).
#   python_bench.py BUILD_DIR [REPETITIONS]
import os
import statistics
import sys
import time

build = sys.argv[1]
repetitions = int(sys.argv[2]) if len(sys.argv) > 2 else 10
sys.path.insert(0, os.path.join(build, "src", "python"))
import pmapi  # noqa: E402

try:
    pmapi.count("syscalls:sys_enter_getppid")
    eight = ",".join(f"syscalls:sys_enter_{n}" for n in
                     ("getppid", "getpid", "getuid", "getgid", "geteuid", "getegid", "gettid", "getpgrp"))
except pmapi.Error:
    eight = ("task-clock,page-faults,context-switches,cpu-migrations,minor-faults,major-faults,"
             "alignment-faults,emulation-faults")


def python_ns(step, iterations):
    """Wall and CPU (this thread's) ns per iteration."""
    wall, cpu = time.perf_counter_ns(), time.thread_time_ns()
    for _ in range(iterations):
        step()
    return ((time.perf_counter_ns() - wall) / iterations,
            (time.thread_time_ns() - cpu) / iterations)


def c_ns(mode, events, iterations):
    cpu = time.thread_time_ns()
    wall = pmapi._pmapi._bench_c_calls(mode, events, iterations)
    return wall, (time.thread_time_ns() - cpu) / iterations


def compare(name, step, mode, events, iterations, target):
    """`mode`: the C calls looped in C, or a Python callable that makes them once."""
    c_side = (lambda: python_ns(mode, iterations)) if callable(mode) else (
        lambda: c_ns(mode, events, iterations))
    pairs = [(python_ns(step, iterations), c_side()) for _ in range(repetitions)]
    return (name, statistics.median(p[0] for p, _ in pairs),
            statistics.median(c[0] for _, c in pairs),
            statistics.median(p[0] - c[0] for p, c in pairs),
            statistics.median(p[1] - c[1] for p, c in pairs), target)


# Software events for the with-blocks: a tracepoint's descriptor takes the kernel milliseconds to
# close, which would drown a whole life's cost.
counter = pmapi.count("task-clock")


def enter_exit():
    with counter:
        pass


def life():
    with pmapi.count("task-clock"):
        pass


def c_life_once():
    pmapi._pmapi._bench_c_calls("life", "task-clock", 1)


reader = pmapi.count(eight)
reader.start()
rows = [
    compare("with c: pass (start, stop, read), task-clock", enter_exit, "enter_exit", "task-clock",
            20000, 2000),
    compare("with pmapi.count(...): pass, whole life, task-clock", life, "life", "task-clock",
            2000, 2000),
    # The same C calls, one life per call from this Python loop: the caches in the state a
    # Python program leaves them in, and a call into the module besides.
    compare("  the same, against one C life per Python call", life, c_life_once, "task-clock",
            2000, 2000),
    compare("c.read(), 8 events", reader.read, "read", eight, 20000, 1000),
]
reader.stop()
print(f"Python package (pmapi) over the C calls it makes; the read: 8 of {eight.split(',')[0]}...")
print(f"{'':52} {'Python ns':>10} {'C ns':>10} {'added':>8} {'CPU added':>10} {'target':>8}")
for name, py, c, added, cpu_added, target in rows:
    verdict = "" if added <= target else "  MISSED"
    print(f"{name:52} {py:>10.0f} {c:>10.0f} {added:>8.0f} {cpu_added:>10.0f} {target:>8}{verdict}")
