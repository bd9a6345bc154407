# SPDX-License-Identifier: MIT
# pmapi.events and pmapi.groups: pmlist's search rule.
import pmapi
from conftest import needs_tracepoints


def test_words_match_name_or_description():
    found = pmapi.events(search="page faults")
    names = [e.name for e in found]
    assert "page-faults" in names
    assert all(isinstance(e, pmapi.Event) for e in found)
    fault = found[names.index("page-faults")]
    assert fault.countable and fault.not_countable == ""
    assert fault.description


def test_every_word_must_match():
    assert pmapi.events(search="page faults zzzqqq") == []


@needs_tracepoints
def test_a_pattern_matches_after_the_subsystem():
    names = [e.name for e in pmapi.events(search="sys_enter_getpp*")]
    assert names == ["syscalls:sys_enter_getppid"]


def test_every_event_without_a_search():
    assert len(pmapi.events()) > len(pmapi.events(search="page"))


def test_groups_with_members_and_formulas():
    groups = {g.name: g for g in pmapi.groups()}
    basic = groups["pm_sw_basic"]
    assert basic.events == ("task-clock", "context-switches", "cpu-migrations", "page-faults")
    assert [m.name for m in basic.metrics][0] == "CPUs_utilized"
    assert "task-clock" in basic.metrics[0].formula
    assert [g.name for g in pmapi.groups(search="pm_sw_b*")] == ["pm_sw_basic"]
    assert pmapi.groups(search="nothing-like-this-group") == []


def test_cpus():
    cpus = pmapi.cpus()
    assert len(cpus) == pmapi.cpu_count() >= 1
    assert [c.cpu for c in cpus] == list(range(len(cpus)))
    assert all(c.lcpu >= 0 for c in cpus)
