# SPDX-License-Identifier: MIT
# pmapi.count around a block: exact system-call counts, groups with their formulas, results.
import math
import operator
import os

import pytest

import pmapi
from conftest import needs_tracepoints


@needs_tracepoints
@pytest.mark.parametrize("calls", [0, 1, 1000])
def test_getppid_counts_exactly(calls):
    with pmapi.count("syscalls:sys_enter_getppid") as c:
        for _ in range(calls):
            os.getppid()
    value = c.values["syscalls:sys_enter_getppid"]
    assert value == calls
    assert int(value) == calls
    assert not value.scaled
    assert value.raw == calls
    assert value.enabled > 0 and value.running == value.enabled


@needs_tracepoints
def test_wildcard_and_modifiers_are_the_sessions():
    with pmapi.count("syscalls:sys_enter_getpp*,page-faults:u,page-faults:k") as c:
        os.getppid()
    assert c.names == ["syscalls:sys_enter_getppid", "page-faults:u", "page-faults:k"]
    assert c.values["syscalls:sys_enter_getppid"] == 1


@needs_tracepoints
def test_start_and_stop_accumulate_and_reset_clears():
    c = pmapi.count("syscalls:sys_enter_getppid")
    for _ in range(3):
        with c:
            os.getppid()
        os.getppid()  # between blocks: not counted
    assert c.values["syscalls:sys_enter_getppid"] == 3
    c.reset()
    assert c.values["syscalls:sys_enter_getppid"] == 0


@needs_tracepoints
def test_read_while_counting():
    with pmapi.count("syscalls:sys_enter_getppid") as c:
        os.getppid()
        first = c.read()
        os.getppid()
        os.getppid()
        assert c.read() == [first[0] + 2]
        assert c.counting
    assert not c.counting


def test_a_group_gives_its_members_and_formulas():
    with pmapi.count("pm_sw_basic") as c:
        sum(range(100000))
    assert c.group == "pm_sw_basic"
    assert c.names == ["task-clock", "context-switches", "cpu-migrations", "page-faults"]
    assert int(c.values["task-clock"]) > 0
    assert set(c.metrics) == {"CPUs_utilized", "context_switches_per_second", "page_faults_per_second"}
    assert 0 < c.metrics["CPUs_utilized"] <= 1.5
    assert c.elapsed > 0


def test_no_events_is_the_default_group():
    with pmapi.count() as c:
        pass
    assert c.group in ("pm_basic", "pm_sw_basic")
    assert c.metrics  # the default group has formulas


def test_a_list_has_no_metrics():
    with pmapi.count("task-clock") as c:
        pass
    assert c.group is None and c.metrics == {}


@needs_tracepoints
def test_samples_are_intervals():
    with pmapi.count("syscalls:sys_enter_getppid") as c:
        for calls in (2, 0, 5):
            for _ in range(calls):
                os.getppid()
            c.sample()
    rows = c.intervals
    assert [r["syscalls:sys_enter_getppid"] for r in rows] == [2, 0, 5]
    assert all(r["interval"] >= 0 for r in rows)
    assert rows[-1]["time"] >= rows[0]["time"]


@needs_tracepoints
def test_to_dict():
    with pmapi.count("syscalls:sys_enter_getppid") as c:
        os.getppid()
    d = c.to_dict()
    assert d["events"]["syscalls:sys_enter_getppid"]["value"] == 1
    assert d["events"]["syscalls:sys_enter_getppid"]["scaled"] is False
    assert d["scope"] == "thread" and d["group"] is None and d["intervals"] == []


def test_count_repr_and_arithmetic():
    with pmapi.count("task-clock") as c:
        pass
    value = c.values["task-clock"]
    assert repr(value).startswith("Count(")
    assert math.isclose(float(value), int(value))
    assert operator.index(value) == int(value) == value.value


@needs_tracepoints
def test_close_keeps_the_counts():
    with pmapi.count("syscalls:sys_enter_getppid") as c:
        os.getppid()
    c.close()
    c.close()
    assert c.values["syscalls:sys_enter_getppid"] == 1
    with pytest.raises(ValueError, match="closed"):
        c.start()
