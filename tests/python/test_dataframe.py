# SPDX-License-Identifier: MIT
# to_dataframe: with pandas when installed, a clear ImportError when not.
import os
import sys

import pytest

import pmapi
from conftest import needs_tracepoints


@needs_tracepoints
def test_events_and_intervals_frames():
    pandas = pytest.importorskip("pandas")
    with pmapi.count("syscalls:sys_enter_getppid,task-clock") as c:
        for calls in (3, 4):
            for _ in range(calls):
                os.getppid()
            c.sample()
    events = c.to_dataframe()
    assert isinstance(events, pandas.DataFrame)
    assert events.loc["syscalls:sys_enter_getppid", "value"] == 7
    assert list(events.columns) == ["value", "raw", "enabled", "running", "scaled"]
    rows = c.to_dataframe(intervals=True)
    assert list(rows["syscalls:sys_enter_getppid"]) == [3, 4]
    assert rows.index.name == "time"


def test_without_pandas_the_error_says_so(monkeypatch):
    monkeypatch.setitem(sys.modules, "pandas", None)  # import pandas now fails
    with pmapi.count("task-clock") as c:
        pass
    with pytest.raises(ImportError, match="needs pandas"):
        c.to_dataframe()
