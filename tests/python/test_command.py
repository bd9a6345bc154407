# SPDX-License-Identifier: MIT
# pmapi.count_command: a child and everything it starts, from its exec to its exit.
import sys

import pytest

import pmapi
from conftest import needs_tracepoints

# A child that makes exact system calls in itself and in a grandchild.
GETPPID = "import os\nfor _ in range({}): os.getppid()\n"


@needs_tracepoints
def test_child_and_descendants_count_exactly():
    script = GETPPID.format(40) + (
        "import subprocess, sys\n"
        "subprocess.run([sys.executable, '-c', 'import os\\nfor _ in range(60): os.getppid()'])\n"
    )
    c = pmapi.count_command([sys.executable, "-c", script], events="syscalls:sys_enter_getppid")
    assert c.returncode == 0
    assert c.values["syscalls:sys_enter_getppid"] == 100
    assert not c.counting


def test_exit_status_and_signal():
    c = pmapi.count_command(["sh", "-c", "exit 3"], events="task-clock")
    assert c.returncode == 3
    c = pmapi.count_command(["sh", "-c", "kill -TERM $$"], events="task-clock")
    assert c.returncode == -15


def test_sort_a_file(tmp_path):
    data = tmp_path / "numbers"
    data.write_text("".join(f"{n}\n" for n in range(5000, 0, -1)))
    c = pmapi.count_command(["sort", "-n", "-o", str(tmp_path / "sorted"), str(data)],
                            events="pm_sw_basic")
    assert c.returncode == 0
    assert (tmp_path / "sorted").read_text().split()[:3] == ["1", "2", "3"]
    assert int(c.values["task-clock"]) > 0
    assert c.metrics and c.to_dict()["returncode"] == 0


def test_ctrl_c_ends_the_command():
    import os
    import signal
    import threading
    import time

    threading.Timer(0.2, os.kill, (os.getpid(), signal.SIGINT)).start()
    started = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        pmapi.count_command(["sleep", "30"], events="task-clock")
    assert time.monotonic() - started < 20
