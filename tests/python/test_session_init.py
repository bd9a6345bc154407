# SPDX-License-Identifier: MIT
# pmapi.Session's constructor (and so Counter's and count's): its arguments by position and by
# name, what it refuses, group names in any case, sessions made one after another, and the
# names of the events, asked of the library on first use.
import pytest

import pmapi
from conftest import needs_root


def test_arguments_by_position_and_by_name():
    assert pmapi.Session("task-clock", "thread").names == ["task-clock"]
    assert pmapi.Counter(events="task-clock", scope="process").scope == "process"
    assert pmapi.Counter(None).group in ("pm_basic", "pm_sw_basic")


def test_refused_arguments_say_which():
    with pytest.raises(TypeError, match="events must be a str"):
        pmapi.Counter(42)
    with pytest.raises(TypeError, match="scope must be a str"):
        pmapi.Counter("task-clock", None)
    with pytest.raises(TypeError, match="unexpected keyword argument 'event'"):
        pmapi.Counter(event="task-clock")
    with pytest.raises(TypeError, match="multiple values for argument 'events'"):
        pmapi.Counter("task-clock", events="task-clock")
    with pytest.raises(TypeError, match="at most 3 arguments"):
        pmapi.Session("task-clock", "system", [0], 1)
    with pytest.raises(TypeError, match="cpus must be an iterable of ints"):
        pmapi.count("task-clock", scope="system", cpus=5)
    with pytest.raises(TypeError):
        pmapi.count("task-clock", scope="system", cpus=["0"])


def test_a_second_init_changes_nothing():
    c = pmapi.Counter("task-clock")
    c.__init__("page-faults")
    assert c.names == ["task-clock"]
    with c:
        pass
    assert int(c.values["task-clock"]) > 0


def test_a_subclass_without_init_fails_cleanly():
    class Bare(pmapi.Session):
        def __init__(self):
            pass

    with pytest.raises(TypeError, match="__init__"):
        Bare()


def test_a_group_name_in_any_case_is_the_group():
    for name in ("pm_sw_basic", "PM_SW_BASIC", "Pm_Sw_Basic"):
        c = pmapi.count(name)
        assert c.group == "pm_sw_basic"
        assert c.names == ["task-clock", "context-switches", "cpu-migrations", "page-faults"]


def test_sessions_made_one_after_another_keep_their_own_events():
    counters = [pmapi.count(e) for e in ("task-clock", "pm_sw_basic", "page-faults", "task-clock")]
    assert [c.names for c in counters] == [
        ["task-clock"],
        ["task-clock", "context-switches", "cpu-migrations", "page-faults"],
        ["page-faults"],
        ["task-clock"],
    ]
    assert [c.group for c in counters] == [None, "pm_sw_basic", None, None]


@needs_root
def test_cpus_from_any_iterable():
    assert pmapi.count("task-clock", scope="system", cpus=(0,)).cpus == [0]
    assert pmapi.count("task-clock", scope="system", cpus={0}).cpus == [0]
    assert pmapi.count("task-clock", scope="system", cpus=(c for c in [0])).cpus == [0]


def test_names_are_there_after_close_without_having_been_asked_before():
    c = pmapi.count("task-clock,page-faults:u")
    with c:
        pass
    c.close()
    assert c.names == ["task-clock", "page-faults:u"]
    assert list(c.values) == ["task-clock", "page-faults:u"]


def test_a_wildcard_gives_as_many_counts_as_names():
    c = pmapi.count("*-faults")
    assert len(c.names) >= 2
    with c:
        pass
    assert len(c.read()) == len(c.names) == len(c.values)
