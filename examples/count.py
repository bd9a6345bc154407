#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Counting from Python with the pmapi package (docs/python.md): a block of code, a function
over its calls, and a command with everything it starts, with a group's derived metrics."""
import os
import sys

import pmapi

# Tracepoints count exactly, but need a readable tracefs (root, usually).
try:
    pmapi.count("syscalls:sys_enter_getppid")
    events = "syscalls:sys_enter_getppid,page-faults:u,page-faults:k"
except pmapi.Error as refused:
    print(f"(no tracepoints here: {refused})", file=sys.stderr)
    events = "page-faults:u,page-faults:k,task-clock"

# A block: the calling thread, from the `with` to its end.
with pmapi.count(events) as block:
    for _ in range(1000):
        os.getppid()
    numbers = sorted(range(200000, 0, -1))
print("a block: 1000 os.getppid() calls and a sort")
for name, count in block.values.items():
    print(f"{int(count):>14,}  {name}")


# A function: counted on each call, added up.
@pmapi.counted(events)
def checksum(n):
    os.getppid()
    return sum(list(range(n)))


for n in (100000, 200000, 300000):
    checksum(n)
print(f"\nchecksum(): {checksum.counter.calls} calls")
for name, value in checksum.counter.values.items():
    print(f"{value:>14,}  {name}")

# A command and its descendants, with the software group and its formulas.
command = ["sh", "-c", "seq 100000 | sort -rn | md5sum > /dev/null"]
c = pmapi.count_command(command, events="pm_sw_basic")
print(f"\n{' '.join(command)}: exit status {c.returncode}, group {c.group}")
for name, count in c.values.items():
    print(f"{int(count):>14,}  {name}")
for name, value in c.metrics.items():
    print(f"{value:>14.3f}  {name}")
