#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""libhpm's exclusive wall time, exactly: a section's exclusive time is its inclusive time less
its nested sections' inclusive time (to the nanosecond the JSON report prints), and a section
with nothing nested has exclusive = inclusive. Runs the `nested` scenario of hpm_scenarios:
section 1 around three entries of section 2.

  check_exclusive_wall.py HPM_SCENARIOS"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from run_scenario import TWO_EVENTS, expect, fail, run, section  # noqa: E402


def ns(seconds):
    return round(seconds * 1e9)


def main():
    if len(sys.argv) != 2:
        fail(__doc__)
    report, text, _ = run(sys.argv[1], ["nested"], {"HPM_EVENT_SET": TWO_EVENTS})
    outer, inner = section(report, 1), section(report, 2)
    expect(ns(inner["wall_seconds"]) > 0, f"inner section took no time: {inner}")
    expect(ns(inner["exclusive_wall_seconds"]) == ns(inner["wall_seconds"]),
           f"inner: nothing nested, exclusive {inner['exclusive_wall_seconds']} != inclusive "
           f"{inner['wall_seconds']}")
    expect(ns(outer["exclusive_wall_seconds"]) ==
           ns(outer["wall_seconds"]) - ns(inner["wall_seconds"]),
           f"outer: exclusive {outer['exclusive_wall_seconds']} != inclusive "
           f"{outer['wall_seconds']} - nested {inner['wall_seconds']}")
    # The text report says the same, to its microseconds.
    lines = re.findall(r"Wall time:\s+([0-9.]+) s inclusive, ([0-9.]+) s exclusive", text)
    expect(len(lines) == 2, f"two 'Wall time' lines in the text report: {lines}")
    exclusive = float(lines[0][1])
    expect(abs(exclusive - (outer["wall_seconds"] - inner["wall_seconds"])) < 2e-6,
           f"text report, section 1: {lines[0]}")
    print("exclusive wall time: passed")


if __name__ == "__main__":
    main()
