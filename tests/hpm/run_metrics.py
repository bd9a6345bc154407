#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Runs one libhpm derived-metrics case: writes a site group table whose
formulas read the getppid and getpgid tracepoints, runs a program under it
(hpm_metrics, or a Fortran scenario) in a scratch directory, and checks the
metrics in both report files exactly.

  run_metrics.py CASE PROGRAM GROUP_HELPER

GROUP_HELPER (hpm_scenarios) tells the group's number: ids are never written
here. The JSON is read strictly: NaN or Infinity in it fails the case."""
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

# fail and expect as every libhpm case reports them (run_scenario.py, beside this file).
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from run_scenario import expect, fail  # noqa: E402

PPID = "syscalls:sys_enter_getppid"
PGID = "syscalls:sys_enter_getpgid"
GROUP = "pm_test_hpm_metrics"
TABLE = f"""# libhpm's derived-metrics test group
50300 | {GROUP} | getppid and getpgid | Test group for libhpm's derived metrics.
  events {PPID} {PGID}
  metric ppid_per_pgid = {PPID} / {PGID}
  metric total = {PPID} + {PGID}
  metric ppid_per_second = {PPID} / time
"""
METRICS = ["ppid_per_pgid", "total", "ppid_per_second"]


def strict_constant(name):
    fail(f"the JSON report holds {name}")


def run(program, work, env_extra, events_file=None):
    """Runs the program in `work`; returns (json report, text report, stderr)."""
    env = dict(os.environ)
    for name in ("HPM_EVENT_SET", "HPM_OUTPUT_NAME", "HPM_NUM_INST_PTS", "OMPI_COMM_WORLD_RANK",
                 "PMI_RANK", "PMIX_RANK", "MV2_COMM_WORLD_RANK", "MP_CHILD", "SLURM_PROCID"):
        env.pop(name, None)
    env.update(env_extra)
    run_dir = tempfile.mkdtemp(prefix="run.", dir=work)
    if events_file is not None:
        with open(os.path.join(run_dir, "libHPMevents"), "w") as f:
            f.write(events_file)
    proc = subprocess.run([program], cwd=run_dir, env=env, capture_output=True, text=True,
                          timeout=120)
    sys.stderr.write(proc.stderr)
    expect(proc.returncode == 0, f"{program} exited {proc.returncode}")
    expect("finished" in proc.stdout, "the program did not run to its end")
    texts = [p for p in glob.glob(os.path.join(run_dir, "perfhpm0.*")) if not p.endswith(".json")]
    expect(len(texts) == 1, f"one text report expected, found {texts}")
    with open(texts[0]) as f:
        text = f.read()
    with open(texts[0] + ".json") as f:
        report = json.load(f, parse_constant=strict_constant)
    expect(not re.search(r"\b(nan|inf|infinity)\b", text, re.IGNORECASE),
           "the text report has no nan or inf:\n" + text)
    return report, text, proc.stderr


def section(report, sid):
    found = [s for s in report["sections"] if s["id"] == sid]
    expect(len(found) == 1, f"section {sid}: {report['sections']}")
    return found[0]


def text_section(text, sid):
    """The lines of section `sid` in the text report."""
    parts = re.split(r"\n(?=Section \d+: )", text)
    found = [p for p in parts if p.startswith(f"Section {sid}: ")]
    expect(len(found) == 1, f"text section {sid}")
    return found[0]


def text_metric(text, sid, name):
    """(inclusive, exclusive) as printed for metric `name` of section `sid`."""
    lines = text_section(text, sid).splitlines()
    start = [i for i, l in enumerate(lines) if l.split()[:2] == ["Derived", "metric"]]
    expect(len(start) == 1, f"section {sid} has a derived-metric table")
    for line in lines[start[0] + 1:]:
        fields = line.split()
        if fields and fields[0] == name:
            expect(len(fields) == 3, f"metric line: {line!r}")
            return fields[1], fields[2]
    fail(f"section {sid} lacks metric {name}")


def expect_metric(report, text, sid, name, inclusive, exclusive):
    """Both reports give the metric exactly (None: no value, 'n/a' in the text)."""
    s = section(report, sid)
    got = (s["inclusive_metrics"][name], s["exclusive_metrics"][name])
    expect(got == (inclusive, exclusive), f"section {sid} {name}: JSON {got}")
    shown = tuple("n/a" if v is None else f"{v:.6g}" for v in (inclusive, exclusive))
    expect(text_metric(text, sid, name) == shown,
           f"section {sid} {name}: text {text_metric(text, sid, name)} != {shown}")


def expect_rate(report, text, sid):
    """ppid_per_second is the section's getppid count over its wall time."""
    s = section(report, sid)
    for kind, wall in (("inclusive", "wall_seconds"), ("exclusive", "exclusive_wall_seconds")):
        value, count = s[f"{kind}_metrics"]["ppid_per_second"], s[kind][PPID]
        if s[wall] == 0:
            expect(value is None, f"section {sid}: no time, no rate")
            continue
        expect(value is not None and abs(value * s[wall] - count) <= 1e-6 * max(count, 1),
               f"section {sid} {kind} rate {value} over {s[wall]} s != {count}")


def expect_group_metrics(report, text):
    expect([m["name"] for m in report["metrics"]] == METRICS, f"metrics {report['metrics']}")
    expect(report["metrics"][0]["formula"] == f"{PPID} / {PGID}", report["metrics"][0])
    expect([m["uses_time"] for m in report["metrics"]] == [False, False, True], "uses_time")
    expect(all(m["unit"] == "" for m in report["metrics"]), "no units in the table")
    expect(f"  ppid_per_pgid = {PPID} / {PGID}\n" in text, "the text lists the formulas")
    # The members on counters 0 and 1; libhpm shows the lists' filler once more (docs/libhpm.md).
    expect(report["events"][:2] == [PPID, PGID], f"events {report['events']}")


def c_program_checks(report, text):
    """hpm_metrics.c's sections (see its comment)."""
    expect_group_metrics(report, text)
    s1 = section(report, 1)
    expect((s1["inclusive"][PPID], s1["inclusive"][PGID]) == (1300, 50), f"outer {s1}")
    expect((s1["exclusive"][PPID], s1["exclusive"][PGID]) == (1000, 50), f"outer {s1}")
    expect_metric(report, text, 1, "ppid_per_pgid", 26, 20)
    expect_metric(report, text, 1, "total", 1350, 1050)
    # Inner: no getpgid call, so the ratio divides by zero.
    expect_metric(report, text, 2, "ppid_per_pgid", None, None)
    expect_metric(report, text, 2, "total", 300, 300)
    # Empty: 0 / 0.
    expect_metric(report, text, 3, "ppid_per_pgid", None, None)
    expect_metric(report, text, 3, "total", 0, 0)
    for sid in (1, 2, 3):
        expect_rate(report, text, sid)


def group_number(helper, env):
    out = subprocess.run([helper, "group", GROUP], capture_output=True, text=True, check=True,
                         env=dict(os.environ, **env)).stdout.split()
    expect(out[1:3] == [PPID, PGID], f"the helper sees the site group: {out}")
    return out[0]


def case(name, program, helper):
    with tempfile.TemporaryDirectory(prefix="hpm-metrics.") as work:
        groups = os.path.join(work, "groups")
        os.mkdir(groups)
        with open(os.path.join(groups, "site.grp"), "w") as f:
            f.write(TABLE)
        env = {"PMAPI_GROUPS_DIR": groups}
        if name == "group_name":
            report, text, _ = run(program, work, dict(env, HPM_EVENT_SET=GROUP))
            expect(report["event_set"].startswith(f"group {GROUP} ("), report["event_set"])
            c_program_checks(report, text)
        elif name == "group_number":
            number = group_number(helper, env)
            report, text, _ = run(program, work, dict(env, HPM_EVENT_SET=number))
            expect(report["event_set"] == f"group {GROUP} ({number})", report["event_set"])
            c_program_checks(report, text)
        elif name == "events_file":
            report, text, _ = run(program, work, env, events_file=f"# a group\n{GROUP}\n")
            expect(report["event_source"] == "libHPMevents", report["event_source"])
            c_program_checks(report, text)
        elif name == "event_list":
            # The same two events as a list of our extension: counts, no metrics.
            report, text, _ = run(program, work, dict(env, HPM_EVENT_SET=f"{PPID},{PGID}"))
            expect(report["metrics"] == [], f"no metrics for a list: {report['metrics']}")
            expect(section(report, 1)["inclusive"][PPID] == 1300, "counted")
            expect(section(report, 1)["inclusive_metrics"] == {}, "no section metrics")
            expect("Derived metric" not in text, "no metric table in the text")
        elif name == "fortran":
            # The Fortran nested sections make getppid calls only: every ratio divides by zero.
            report, text, _ = run(program, work, dict(env, HPM_EVENT_SET=GROUP))
            expect_group_metrics(report, text)
            expect_metric(report, text, 1, "ppid_per_pgid", None, None)
            expect_metric(report, text, 1, "total", 1300, 1000)
            expect_metric(report, text, 2, "total", 300, 300)
            expect_rate(report, text, 1)
        else:
            fail(f"no case {name}")
    print(f"case {name}: passed")


if __name__ == "__main__":
    if len(sys.argv) != 4:
        fail(__doc__)
    case(sys.argv[1], sys.argv[2], sys.argv[3])
