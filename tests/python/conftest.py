# SPDX-License-Identifier: MIT
# Shared by the pmapi package's tests: whether tracepoints can be counted here (tracefs
# readable), for the tests that count system calls exactly.
import os

import pytest

import pmapi


def _tracepoints_countable() -> bool:
    try:
        pmapi.count("syscalls:sys_enter_getppid")
    except pmapi.Error:
        return False
    return True


needs_tracepoints = pytest.mark.skipif(
    not _tracepoints_countable(), reason="tracepoints are not readable here (tracefs, root)"
)
needs_root = pytest.mark.skipif(os.geteuid() != 0, reason="system-wide counting needs root")
