# SPDX-License-Identifier: MIT
# scope="system": per-CPU counts by dense CPU, with core, package and NUMA node.
import os

import pmapi
from conftest import needs_root, needs_tracepoints


@needs_root
@needs_tracepoints
def test_per_cpu_sums_to_the_total():
    with pmapi.count("syscalls:sys_enter_getppid,task-clock", scope="system") as c:
        for _ in range(200):
            os.getppid()
    rows = c.per_cpu()
    assert [r.cpu for r in rows] == list(range(pmapi.cpu_count()))
    assert all(r.core >= -1 and r.package >= -1 and r.numa_node >= -1 for r in rows)
    total = c.values["syscalls:sys_enter_getppid"]
    assert int(total) >= 200  # every task on every CPU: this one and any other
    assert sum(int(r.values["syscalls:sys_enter_getppid"]) for r in rows) == int(total)
    d = c.to_dict()
    assert len(d["per_cpu"]) == len(rows) and "values" in d["per_cpu"][0]


@needs_root
def test_a_list_of_cpus():
    with pmapi.count("task-clock", scope="system", cpus=[0]) as c:
        pass
    assert c.cpus == [0]
    assert [r.cpu for r in c.per_cpu()] == [0]
