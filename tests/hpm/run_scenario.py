#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Runs one libhpm test case: a scenario program (hpm_scenarios, or a Fortran
one) in a scratch directory, then checks its exit, its stderr and both report
files (perfhpm<task>.<pid> and .json).

  run_scenario.py CASE PROGRAM [GROUP_HELPER]

GROUP_HELPER (hpm_scenarios) tells group numbers and members: the catalog's
ids are never written here."""
import glob
import json
import os
import subprocess
import sys
import tempfile

GETPPID = "syscalls:sys_enter_getppid"
TWO_EVENTS = GETPPID + ",task-clock"


def fail(message):
    print("FAIL: " + message, file=sys.stderr)
    sys.exit(1)


def expect(cond, message):
    if not cond:
        fail(message)


def run_all(program, args, env=None, events_file=None, expect_exit=0, timeout=120):
    """Runs the program in a fresh directory; returns ([(report json, text)], stderr), one
    pair per process that wrote a report, checked for consistency."""
    with tempfile.TemporaryDirectory(prefix="hpm-test.") as work:
        full_env = dict(os.environ)
        full_env.pop("HPM_EVENT_SET", None)
        for name in ("HPM_OUTPUT_NAME", "HPM_NUM_INST_PTS", "OMPI_COMM_WORLD_RANK", "PMI_RANK",
                     "PMIX_RANK", "MV2_COMM_WORLD_RANK", "MP_CHILD", "SLURM_PROCID"):
            full_env.pop(name, None)
        full_env.update(env or {})
        if callable(events_file):
            events_file(os.path.join(work, "libHPMevents"))
        elif events_file is not None:
            with open(os.path.join(work, "libHPMevents"), "w") as f:
                f.write(events_file)
        try:
            proc = subprocess.run([program] + args, cwd=work, env=full_env, capture_output=True,
                                  text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            fail(f"{program} {args} still running after {timeout} s")
        sys.stderr.write(proc.stderr)
        expect(proc.returncode == expect_exit,
               f"{program} {args} exited {proc.returncode}, expected {expect_exit}")
        expect("finished" in proc.stdout, "the program did not run to its end")
        texts = sorted(p for p in glob.glob(os.path.join(work, "perfhpm*")) if not p.endswith(".json"))
        reports = []
        for text_path in texts:
            with open(text_path) as f:
                text = f.read()
            with open(text_path + ".json") as f:
                report = json.load(f)  # well formed, or this raises
            expect(os.path.basename(text_path) == f"perfhpm{report['task']}.{report['pid']}",
                   f"report name {text_path}")
            check_consistent(report, text)
            reports.append((report, text))
        return reports, proc.stderr


def run(program, args, env=None, events_file=None, expect_exit=0, task=0, timeout=120):
    """Runs the program in a fresh directory; returns (report json, text, stderr)."""
    reports, stderr = run_all(program, args, env, events_file, expect_exit, timeout)
    expect(len(reports) == 1, f"one text report expected, found {len(reports)}")
    report, text = reports[0]
    expect(report["task"] == task, f"report of task {report['task']}, expected {task}")
    return report, text, stderr


def check_consistent(report, text):
    """The text and the JSON say the same things; every field is present."""
    for key in ("program", "task", "pid", "event_source", "event_set", "events", "wall_seconds",
                "sections", "bad_use"):
        expect(key in report, f"report lacks '{key}'")
    expect(str(report["pid"]) in text.splitlines()[0], "text report's first line names the pid")
    for s in report["sections"]:
        expect(f"Section {s['id']}: {s['label']}" in text, f"text report lacks section {s['id']}")
        expect(set(s["inclusive"]) == set(report["events"]), "inclusive counts per event")
        for name, count in s["exclusive"].items():
            expect(count <= s["inclusive"][name], f"section {s['id']}: exclusive > inclusive")


def section(report, sid):
    found = [s for s in report["sections"] if s["id"] == sid]
    expect(len(found) == 1, f"section {sid} in the report: {report['sections']}")
    return found[0]


def counts(report, sid, event=GETPPID):
    s = section(report, sid)
    return s["calls"], s["inclusive"][event], s["exclusive"][event]


def message_once(stderr, words):
    lines = [l for l in stderr.splitlines() if l.startswith("libhpm:") and words in l]
    expect(len(lines) == 1, f"one libhpm message with '{words}', got {lines}")


def bad_use(report, key, n):
    expect(report["bad_use"].get(key) == n, f"bad_use {key} = {report['bad_use'].get(key)}, expected {n}")
    for other, value in report["bad_use"].items():
        expect(other == key or value == 0, f"bad_use {other} = {value}, expected 0")


def nested_checks(report):
    expect(counts(report, 1) == (1, 1300, 1000), f"outer: {counts(report, 1)}")
    expect(counts(report, 2) == (3, 300, 300), f"inner: {counts(report, 2)}")
    outer, inner = section(report, 1), section(report, 2)
    expect(outer["label"] == "outer" and inner["label"] == "inner", "labels")
    expect(0 < outer["start_line"] < outer["stop_line"], "outer's lines")
    expect(outer["wall_seconds"] >= inner["wall_seconds"] >= 0, "wall times nest")


def case(name, program, helper):
    env = {"HPM_EVENT_SET": TWO_EVENTS}
    if name == "nested":
        report, text, _ = run(program, ["nested"], env)
        nested_checks(report)
        expect(section(report, 1)["file"].endswith("hpm_scenarios.c"), "file recorded")
        expect(report["events"] == [GETPPID, "task-clock"], report["events"])
        expect(report["event_source"] == "HPM_EVENT_SET", report["event_source"])
        bad_use(report, "unbalanced", 0)
    elif name in ("threads", "threads_early"):
        report, _, _ = run(program, [name], env)
        expect(counts(report, 7) == (4, 1000, 1000), f"section 7: {counts(report, 7)}")
        expect(section(report, 7)["threaded"], "section 7 is threaded")
    elif name == "get_counters":
        run(program, ["get_counters"], env)
    elif name == "fortran":
        report, _, _ = run(program, [], env)
        nested_checks(report)
        expect(counts(report, 7) == (4, 1000, 1000), f"section 7: {counts(report, 7)}")
        expect(report["program"] == "hpm_fortran", report["program"])
    elif name == "fortran_8":
        report, _, _ = run(program, [], env)
        nested_checks(report)
        expect(section(report, 1)["file"].endswith("hpm_fortran_8.F90"), "file recorded")
    elif name == "fortran_noheader":
        report, _, _ = run(program, [], env)
        expect(counts(report, 1) == (1, 1300, 1000), f"outer: {counts(report, 1)}")
        expect(counts(report, 2) == (3, 300, 300), f"inner: {counts(report, 2)}")
        expect(section(report, 2)["label"] == "inner", "Fortran blanks dropped from the label")
        expect(report["program"] == "hpm_fortran_noheader", report["program"])
    elif name == "mpi_rank":
        # Under an MPI launcher the rank names the task; the taskID given is kept.
        report, _, _ = run(program, ["ten_calls"], dict(env, PMI_RANK="3"), task=3)
        expect(report["task"] == 3 and report["requested_task"] == 0, "task from PMI_RANK")
        report, _, _ = run(program, ["ten_calls"], dict(env, OMPI_COMM_WORLD_RANK="12"), task=12)
        expect(report["task"] == 12, "task from OMPI_COMM_WORLD_RANK")
    elif name == "event_set_names":
        report, _, _ = run(program, ["ten_calls"], {"HPM_EVENT_SET": "task-clock, " + GETPPID})
        expect(report["events"] == ["task-clock", GETPPID], report["events"])
        expect(counts(report, 1, GETPPID) == (1, 10, 10), "ten calls")
    elif name in ("event_set_group_number", "event_set_group_name"):
        out = subprocess.run([helper, "group", "pm_sw_basic"], capture_output=True, text=True,
                             check=True).stdout.split()
        number, members = out[0], out[1:]
        value = number if name.endswith("number") else "pm_sw_basic"
        report, _, _ = run(program, ["ten_calls"], {"HPM_EVENT_SET": value})
        expect(report["event_source"] == "HPM_EVENT_SET", report["event_source"])
        expect(report["event_set"] == f"group pm_sw_basic ({number})", report["event_set"])
        expect(report["events"] == members, f"{report['events']} != {members}")
        expect(members == ["task-clock", "context-switches", "cpu-migrations", "page-faults"],
               f"pm_sw_basic's members (groups/software.grp): {members}")
        expect(section(report, 1)["inclusive"]["task-clock"] > 0, "task-clock counted")
    elif name == "event_set_file":
        report, _, _ = run(program, ["ten_calls"], {},
                           events_file=f"# the events, one a line\n{GETPPID}\ntask-clock\n")
        expect(report["event_source"] == "libHPMevents", report["event_source"])
        expect(counts(report, 1) == (1, 10, 10), "ten calls")
        # HPM_EVENT_SET wins over the file.
        report, _, _ = run(program, ["ten_calls"], {"HPM_EVENT_SET": "task-clock"},
                           events_file=GETPPID + "\n")
        expect(report["events"] == ["task-clock"], report["events"])
    elif name == "event_set_group_in_list":
        # A group with other events: libhpm counts a group or a list; the message says so and
        # lists the group's events (it called the group unknown).
        number = subprocess.run([helper, "group", "pm_sw_basic"], capture_output=True, text=True,
                                check=True).stdout.split()[0]
        why = ("and a group cannot be combined with other events; "
               "name the group alone or list its events (task-clock,context-switches,"
               "cpu-migrations,page-faults); counting the defaults instead")
        for env_value, file_text, shown in (
                ("pm_sw_basic,task-clock", None, "HPM_EVENT_SET 'pm_sw_basic,task-clock'"),
                (f"task-clock {number}", None, f"HPM_EVENT_SET 'task-clock {number}'"),
                (None, "task-clock\npm_sw_basic\n", "libHPMevents 'task-clock pm_sw_basic'")):
            report, _, stderr = run(program, ["ten_calls"],
                                    {"HPM_EVENT_SET": env_value} if env_value else {},
                                    events_file=file_text)
            named = (f"'{number}' is the group pm_sw_basic" if env_value and number in env_value
                     else "'pm_sw_basic' is a group")
            message_once(stderr, f"libhpm: {shown}: {named}, {why}")
            expect(report["event_source"] == "defaults", report["event_source"])
    elif name == "event_set_file_fifo":
        # Opening a FIFO for reading blocks until a writer comes: hpmInit must not open it.
        report, _, stderr = run(program, ["ten_calls"], {}, events_file=os.mkfifo, timeout=20)
        message_once(stderr, "libHPMevents (in the working directory) is a FIFO, not a regular "
                     "file; counting the defaults instead")
        expect(report["event_source"] == "defaults", report["event_source"])
        expect(section(report, 1)["calls"] == 1, "the section is still there")
    elif name == "event_set_file_nul":
        # A NUL byte cut the request short in the message; now it is refused with its line.
        report, _, stderr = run(program, ["ten_calls"], {},
                                events_file=f"# events\ntask-clock\n{GETPPID}\0junk\n")
        message_once(stderr, "libhpm: libHPMevents:3: holds a NUL byte; the file must be text: "
                     "group or event names separated by commas, blanks or lines; counting the "
                     "defaults instead")
        expect(report["event_source"] == "defaults", report["event_source"])
        expect(section(report, 1)["calls"] == 1, "the section is still there")
    elif name == "event_set_bad":
        for env_value, file_text, source in (("no_such_event", None, "HPM_EVENT_SET"),
                                             ("99999999", None, "HPM_EVENT_SET"),
                                             (None, "bogus_event\ntask-clock\n",
                                              "libHPMevents 'bogus_event task-clock'")):
            report, _, stderr = run(program, ["ten_calls"],
                                    {"HPM_EVENT_SET": env_value} if env_value else {},
                                    events_file=file_text)
            message_once(stderr, source)
            expect("counting the defaults instead" in stderr, stderr)
            expect(report["event_source"] == "defaults", report["event_source"])
            expect(report["events"], "the defaults count something")
            expect(section(report, 1)["calls"] == 1, "the section is still there")
    elif name == "fork_child":
        # The child is programmed afresh at its first call after the fork (libpmapi dropped
        # its copy of the context) and reports what it counted; the parent's counts are its own.
        reports, stderr = run_all(program, ["fork_child"], env)
        expect(len(reports) == 2, f"a report from the parent and one from the child: {reports}")
        expect(not [l for l in stderr.splitlines() if l.startswith("libhpm:")], "no message")
        by_sections = {tuple(s["id"] for s in r["sections"]): r for r, _ in reports}
        expect(set(by_sections) == {(1,), (1, 2)}, f"sections {list(by_sections)}")
        parent, child = by_sections[(1,)], by_sections[(1, 2)]
        expect(parent["pid"] != child["pid"], "two processes")
        expect(counts(parent, 1) == (1, 200, 200), f"parent's section 1: {counts(parent, 1)}")
        expect(counts(child, 2) == (1, 5000, 5000), f"child's section 2: {counts(child, 2)}")
        expect(counts(child, 1) == (1, 5000, 0), f"child's section 1: {counts(child, 1)}")
        bad_use(parent, "unbalanced", 0)
        bad_use(child, "unbalanced", 0)
    elif name == "stop_without_start":
        report, _, stderr = run(program, [name], env)
        message_once(stderr, "not started")
        bad_use(report, "stop_without_start", 2)
        expect(counts(report, 1) == (1, 10, 10), "the good section")
    elif name == "unbalanced":
        report, _, stderr = run(program, [name], env)
        message_once(stderr, "nested sections are still open")
        bad_use(report, "unbalanced", 1)
        expect(counts(report, 1) == (1, 100, 0), f"outer {counts(report, 1)}")
        expect(counts(report, 2) == (1, 100, 100), f"inner {counts(report, 2)}")
    elif name == "out_of_range":
        report, _, stderr = run(program, [name], env)
        message_once(stderr, "out of range")
        bad_use(report, "id_out_of_range", 4)
        expect(counts(report, 100) == (1, 10, 10), "section 100")
        expect(counts(report, 0) == (1, 0, 0), "section 0")
    elif name == "more_sections":
        report, _, _ = run(program, [name], dict(env, HPM_NUM_INST_PTS="200"))
        expect(counts(report, 200) == (1, 10, 10), "section 200")
        bad_use(report, "id_out_of_range", 2)  # start and stop of 201
    elif name == "terminate_twice":
        report, _, stderr = run(program, [name], env)
        message_once(stderr, "hpmTerminate without a run")
        expect(counts(report, 1) == (1, 10, 10), "the report of the run")
    elif name == "before_init":
        report, _, stderr = run(program, [name], env)
        message_once(stderr, "before hpmInit")
        expect(counts(report, 1) == (1, 10, 10), "only the section inside the run")
        expect(section(report, 1)["label"] == "late", "label of the run's section")
    elif name == "init_twice":
        report, _, stderr = run(program, [name], env)
        message_once(stderr, "hpmInit called again")
        bad_use(report, "init_twice", 1)
        expect(report["program"] == "init_twice", "the first hpmInit holds")
        expect(counts(report, 1) == (1, 10, 10), "section 1")
    elif name == "init_race":
        report, _, stderr = run(program, [name], env)
        message_once(stderr, "hpmInit called again")
        bad_use(report, "init_twice", 7)
        ids = sorted(s["id"] for s in report["sections"])
        expect(ids == list(range(1, 9)), f"every racer's section in the one run: {ids}")
        for sid in ids:
            expect(counts(report, sid) == (1, 100, 100), f"section {sid}: {counts(report, sid)}")
    elif name == "started_twice":
        report, _, stderr = run(program, [name], env)
        message_once(stderr, "open already")
        bad_use(report, "started_twice", 1)
        expect(counts(report, 1) == (1, 30, 30), f"counted once: {counts(report, 1)}")
    elif name == "open_at_terminate":
        report, _, stderr = run(program, [name], env)
        message_once(stderr, "still open at hpmTerminate")
        bad_use(report, "open_at_terminate", 1)
        expect(counts(report, 1) == (1, 10, 0), f"outer {counts(report, 1)}")
        expect(counts(report, 2) == (1, 10, 10), f"inner {counts(report, 2)}")
    else:
        fail(f"no case {name}")
    print(f"case {name}: passed")


if __name__ == "__main__":
    if len(sys.argv) not in (3, 4):
        fail(__doc__)
    case(sys.argv[1], sys.argv[2], sys.argv[3] if len(sys.argv) == 4 else sys.argv[2])
