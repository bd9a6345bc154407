# SPDX-License-Identifier: MIT
# pmapi.mpi.summary under a real mpirun of 3 ranks: rank r makes 100 * (r + 1) getppid calls,
# rank 0 gets the cross-rank summary libpmapi-mpi prints.
import os
import shutil
import subprocess
import sys

import pytest

import pmapi
from conftest import needs_tracepoints

RANKS = """
import os, pmapi, pmapi.mpi
from mpi4py import MPI
rank = MPI.COMM_WORLD.Get_rank()
with pmapi.count("syscalls:sys_enter_getppid") as c:
    for _ in range(100 * (rank + 1)):
        os.getppid()
s = pmapi.mpi.summary(c)
if rank == 0:
    print(s.text)
    e = s.events[0]
    print("ROW", e.event, e.counted_ranks, e.sum, e.min, e.min_rank, e.max, e.max_rank)
else:
    assert s is None
"""


@needs_tracepoints
def test_summary_across_ranks():
    pytest.importorskip("mpi4py")
    if not shutil.which("mpirun"):
        pytest.skip("no mpirun")
    env = dict(os.environ, OMPI_MCA_plm_rsh_agent="", OMPI_ALLOW_RUN_AS_ROOT="1",
               OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    run = subprocess.run(["mpirun", "--oversubscribe", "-np", "3", sys.executable, "-c", RANKS],
                         env=env, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert "ROW syscalls:sys_enter_getppid 3 600 100 0 300 2" in run.stdout
    assert "PMAPI-PY" in run.stdout and "ranks : 3" in run.stdout


def test_without_mpi4py_the_error_says_so(monkeypatch):
    import pmapi.mpi

    monkeypatch.setitem(sys.modules, "mpi4py", None)
    with pmapi.count("task-clock") as c:
        pass
    with pytest.raises(ImportError, match="needs mpi4py"):
        pmapi.mpi.summary(c)


def test_banner_from_given_ranks():
    text = pmapi._pmapi._mpi_banner(["e"], [(0, "h", 1.0, True, [10]), (1, "h", 1.0, True, [30])],
                                    "T")
    assert "ranks : 2" in text and "e" in text
    stats = pmapi._pmapi._mpi_stats(["e"], [(0, "h", 1.0, True, [10]), (1, "h", 1.0, True, [30])])
    assert stats[0][:7] == ("e", 2, 40, 10, 0, 30, 1)
    with pytest.raises(ValueError, match="2 values for 1 events"):
        pmapi._pmapi._mpi_stats(["e"], [(0, "h", 1.0, True, [1, 2])])
