#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""pmcount -x and -j against perf stat -x, and perf stat -j on the same commands, field by field.

usage: pmcount_perf_compat.py SECTION PREFIX WORKLOAD
  SECTION   csv | json | schema
  PREFIX    where the build was installed (tools.install does it)
  WORKLOAD  tests/tools/workload.c built: getppid calls with exactly known counts

A script written for `perf stat -x,` or `perf stat -j` must parse pmcount's output: same number
of fields, the event name, unit and metric unit in the same places, the same JSON keys in the
same order. Values may differ (two runs never count the same time), except the getppid calls,
which both count exactly. Exit status: 0 passed, 1 a check failed, 77 cannot run here (no
perf, no tracefs, not root).
"""
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True  # importing checks.py must leave no __pycache__ in the source tree
from checks import check, finish, skip  # noqa: E402

section, prefix, workload = sys.argv[1:4]
pmcount = os.path.join(prefix, "bin", "pmcount")
GETPPID = "syscalls:sys_enter_getppid"
EVENTS = "task-clock,context-switches,page-faults," + GETPPID


def run(tool, args):
    """The counts a tool writes on stderr (both write there by default)."""
    result = subprocess.run(tool + args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            text=True, timeout=60)
    if result.returncode != 0:
        check("%s %s exits 0" % (tool[0], " ".join(args)), False, result.stderr)
    return [l for l in result.stderr.splitlines() if l.strip() and not l.startswith("pmcount: note")]


def perf_and_pmcount(args):
    return run(["perf", "stat"], args), run([pmcount], args)


if not shutil.which("perf"):
    skip("no perf here")
if os.geteuid() != 0:
    skip("perf and pmcount count tracepoints as root here")
if not os.path.isdir("/sys/kernel/tracing/events/syscalls") and not os.path.isdir(
        "/sys/kernel/debug/tracing/events/syscalls"):
    skip("no syscalls tracepoints (tracefs)")
n = str(random.randint(1000, 1999))
command = ["--", workload, "getppid", n]


def rate(unit):
    return "/sec" if unit.endswith("/sec") else unit


def compare_csv(what, args, event_field, interval=False):
    """Line for line: field count, event, unit, metric presence and unit; getppid exact."""
    perf, ours = perf_and_pmcount(args)
    check("%s: as many lines as perf (%d)" % (what, len(perf)), len(perf) == len(ours),
          "perf:\n" + "\n".join(perf) + "\npmcount:\n" + "\n".join(ours))
    for p_line, o_line in zip(perf, ours):
        p, o = p_line.split(","), o_line.split(",")
        if len(p) != len(o):
            check("%s: %d fields like perf" % (what, len(p)), False, p_line + "\n  " + o_line)
            continue
        e = event_field
        # A rate's prefix (K/sec, M/sec) depends on the value, which may differ.
        same = (p[e] == o[e] and p[e - 1] == o[e - 1] and rate(p[-1]) == rate(o[-1]) and
                (p[-2] == "") == (o[-2] == ""))
        check("%s: %s: unit, event and metric unit in perf's fields" % (what, p[e]), same,
              "perf:    " + p_line + "\n  pmcount: " + o_line)
        if not interval:  # CPU0, S0 and its CPU count, comm-tid: the same row labels
            check("%s: %s: perf's row label %r" % (what, p[e], p[:e - 2]), p[:e - 2] == o[:e - 2],
                  "perf:    " + p_line + "\n  pmcount: " + o_line)
        if p[e] == GETPPID and not interval:
            check("%s: both count %s getppid calls" % (what, n), p[e - 2] == o[e - 2] == n,
                  p_line + "\n  " + o_line)
        if p[e] == "task-clock" and o[e - 2][0] != "<":
            decimals = o[e - 2].split(".")
            check("%s: task-clock in msec with 2 decimals" % what,
                  len(decimals) == 2 and len(decimals[1]) == 2, o_line)
        if interval:
            check("%s: the time field as perf writes it (16 columns)" % what,
                  len(o[0]) == len(p[0]) == 16 and o[0].strip()[0].isdigit(), o_line)
    return perf, ours


def spinning_target():
    """A running workload to attach to with -p (perf and pmcount both), for a few seconds."""
    return subprocess.Popen([workload, "spin", "4000"], stdout=subprocess.DEVNULL)


def section_csv():
    target = spinning_target()
    try:
        attach = ["-p", str(target.pid), "-e", "task-clock,page-faults", "--", "sleep", "0.2"]
        compare_csv("-x, -p", ["-x,"] + attach, 2)
        compare_csv("-x, -p --per-thread", ["-x,", "--per-thread"] + attach, 3)
    finally:
        target.kill()
        target.wait()
    compare_csv("-x,", ["-x,", "-e", EVENTS] + command, 2)
    compare_csv("-x, -r 3", ["-x,", "-r", "3", "-e", EVENTS] + command, 2)
    compare_csv("-x, -a -A", ["-x,", "-a", "-A", "-e", "task-clock,page-faults"] + command, 3)
    compare_csv("-x, -a --per-socket",
                ["-x,", "-a", "--per-socket", "-e", "task-clock,page-faults"] + command, 4)
    # No task-clock: perf leaves the rate's fields empty.
    compare_csv("-x, without a clock", ["-x,", "-e", "page-faults," + GETPPID] + command, 2)
    spin = ["--", workload, "spin", "250"]
    perf, ours = compare_csv("-x, -I 100", ["-x,", "-I", "100", "-e", "task-clock"] + spin, 3,
                             interval=True)
    check("-I: no summary line without --summary", not any("summary" in l for l in ours),
          "\n".join(ours))
    ours = run([pmcount], ["-x,", "-I", "100", "--summary", "-e", "task-clock"] + spin)
    perf = run(["perf", "stat"], ["-x,", "-I", "100", "--summary", "-e", "task-clock"] + spin)
    p_summary = [l for l in perf if "summary" in l]
    o_summary = [l for l in ours if "summary" in l]
    check("-I --summary: one summary line, as perf's", len(o_summary) == len(p_summary) == 1 and
          o_summary[0].split(",")[0] == p_summary[0].split(",")[0] and
          len(o_summary[0].split(",")) == len(p_summary[0].split(",")), "\n".join(ours))


def json_lines(lines, who):
    objects = []
    for line in lines:
        try:
            objects.append(json.loads(line))
        except ValueError:
            check("%s: every line is JSON" % who, False, line)
    return objects


def compare_json(what, args):
    perf, ours = perf_and_pmcount(args)
    perf, ours = json_lines(perf, "perf"), json_lines(ours, "pmcount")
    check("%s: as many objects as perf (%d)" % (what, len(perf)), len(perf) == len(ours),
          "%r\n%r" % (perf, ours))
    for p, o in zip(perf, ours):
        # perf 6.1 writes "(null)" for a metric unit it has none for; pmcount writes "".
        if p.get("metric-unit") == "(null)":
            p["metric-unit"] = ""
        check("%s: %s: perf's keys in perf's order" % (what, p.get("event")),
              list(p) == list(o), "perf: %r\n  pmcount: %r" % (list(p), list(o)))
        for key in ("event", "unit", "metric-unit"):
            same = rate(str(p.get(key))) == rate(str(o.get(key)))
            check("%s: %s: the same %s" % (what, p.get("event"), key), same,
                  "perf %r, pmcount %r" % (p.get(key), o.get(key)))
        for key in p:
            check("%s: %s: %s has perf's type" % (what, p.get("event"), key),
                  type(p[key]) is type(o.get(key)), "perf %r, pmcount %r" % (p[key], o.get(key)))
        if p.get("event") == GETPPID and "interval" not in p:
            check("%s: both count %s getppid calls" % (what, n),
                  float(p["counter-value"]) == float(o["counter-value"]) == float(n))


def section_json():
    target = spinning_target()
    try:
        compare_json("-j -p --per-thread", ["-j", "--per-thread", "-p", str(target.pid), "-e",
                                            "task-clock", "--", "sleep", "0.2"])
    finally:
        target.kill()
        target.wait()
    compare_json("-j", ["-j", "-e", EVENTS] + command)
    compare_json("-j -r 2", ["-j", "-r", "2", "-e", EVENTS] + command)
    compare_json("-j -a -A", ["-j", "-a", "-A", "-e", "task-clock"] + command)
    compare_json("-j -a --per-socket", ["-j", "-a", "--per-socket", "-e", "task-clock"] + command)


def section_schema():
    """pmcount's own JSON (--json) against the schema installed beside the docs."""
    try:
        import jsonschema
    except ImportError:
        skip("python3-jsonschema is not installed")
    found = [os.path.join(root, f) for root, _, files in os.walk(os.path.join(prefix, "share"))
             for f in files if f == "pmcount-json.schema.json"]
    check("the schema is installed", len(found) == 1, repr(found))
    if not found:
        return
    schema = json.load(open(found[0]))
    jsonschema.Draft202012Validator.check_schema(schema)
    spin = ["--", workload, "spin", "120"]
    for args in (["--json", "-e", EVENTS] + command, ["--json", "-r", "2", "-e", EVENTS] + command,
                 ["--json", "-I", "50", "-e", "task-clock"] + spin,
                 ["--json", "-a", "-A", "--stats", "-e", "task-clock"] + command,
                 ["--json", "-a", "--per-core", "-e", "task-clock"] + command,
                 ["--json", "-T", "10", "-e", "task-clock", "-e", GETPPID] + spin):
        objects = json_lines(run([pmcount], args), "pmcount --json")
        errors = [e.message for o in objects
                  for e in jsonschema.Draft202012Validator(schema).iter_errors(o)]
        check("pmcount %s: valid under the schema" % " ".join(args[:args.index("--")]),
              objects and not errors, "\n  ".join(errors[:5]))
    # The schema is not a formality: it refuses what pmcount never writes.
    bad = {"command": [], "counters": [{"event": "x", "value": "12"}]}
    check("the schema refuses a count given as a string",
          not jsonschema.Draft202012Validator(schema).is_valid(bad))


{"csv": section_csv, "json": section_json, "schema": section_schema}[section]()
finish()
