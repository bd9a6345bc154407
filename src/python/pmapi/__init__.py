# SPDX-License-Identifier: MIT
"""pmapi: count events of a block of Python code, a function, a child process or every CPU
with libpmapi's counting session (docs/python.md).

    import pmapi
    with pmapi.count("syscalls:sys_enter_getppid,page-faults") as c:
        work()
    print(c.values)          # {'syscalls:sys_enter_getppid': Count(...), ...}

Events are written as pmcount -e and pm_session_add_events take them (modifiers, wildcards), or
name one group (pmlist -g), whose formulas then appear in ``c.metrics``.
"""

import functools
import threading
from typing import Any, Callable, Dict, Iterable, List, NamedTuple, Optional, Sequence

from . import _results
from ._catalog import Cpu, Event, Group, Metric, cpus, events, groups
from ._errors import (
    Error,
    InvalidArgumentError,
    InvalidEventError,
    NoHardwareError,
    NoSuchProcessError,
    NotSchedulableError,
    PrivilegeError,
    TooManyFilesError,
)
from ._pmapi import Count, Session, cpu_count

__all__ = [
    "Count", "Counter", "CpuCounts", "Cpu", "Event", "Group", "Metric", "Session",
    "count", "counted", "count_command", "events", "groups", "cpus", "cpu_count",
    "Error", "InvalidArgumentError", "InvalidEventError", "NoHardwareError",
    "NoSuchProcessError", "NotSchedulableError", "PrivilegeError", "TooManyFilesError",
]


class CpuCounts(NamedTuple):
    """The counts on one CPU of a system-wide count, with where that CPU sits."""

    cpu: int
    lcpu: int
    core: int
    package: int
    numa_node: int
    values: Dict[str, Count]


class Counter(Session):
    """A counting session with its results: ``values``, ``metrics``, ``per_cpu()``,
    ``sample()`` for intervals, ``to_dict()`` and ``to_dataframe()``."""

    # Counter(events=None, scope="thread", cpus=None) is Session's constructor itself (cpus:
    # any iterable of ints): a Python __init__ would cost every count(...) a frame. What
    # sample() keeps is made by its first call.

    #: The exit status of count_command's command (negative: the signal that ended it).
    returncode: Optional[int] = None
    _rows: Optional[List[Dict[str, Any]]] = None
    _last: Optional[List[int]] = None
    _last_time = 0.0

    def sample(self) -> Dict[str, Any]:
        """Records a row: the counts since the previous sample (or the start), with the time
        of its end and its length in seconds. Returns the row."""
        now = self.read()
        time = self.elapsed
        last = self._last or [0] * len(now)
        row: Dict[str, Any] = {"time": time, "interval": time - self._last_time}
        for name, value, before in zip(self.names, now, last):
            row[name] = value - before
        if self._rows is None:
            self._rows = []
        self._rows.append(row)
        self._last, self._last_time = now, time
        return row

    @property
    def intervals(self) -> List[Dict[str, Any]]:
        """The rows sample() recorded."""
        return list(self._rows or ())

    def per_cpu(self) -> List[CpuCounts]:
        """The counts of each CPU (scope="system"), by dense CPU id, with core, package, node."""
        return [CpuCounts(*where, values) for where, values in self._per_cpu()]

    def to_dict(self) -> Dict[str, Any]:
        """Everything as plain data: events, group and metrics, elapsed seconds, intervals, and
        per CPU for a system-wide count."""
        result: Dict[str, Any] = {
            "scope": self.scope,
            "group": self.group,
            "elapsed": self.elapsed,
            "events": {name: _results.count_dict(c) for name, c in self.values.items()},
            "metrics": dict(self.metrics),
            "intervals": self.intervals,
        }
        if self.scope == "system":
            result["per_cpu"] = [
                {**cpu._asdict(), "values": {n: _results.count_dict(c) for n, c in cpu.values.items()}}
                for cpu in self.per_cpu()
            ]
        if self.returncode is not None:
            result["returncode"] = self.returncode
        return result

    def to_dataframe(self, intervals: bool = False):
        """A pandas DataFrame: one row per event (value, raw, enabled, running, scaled), or with
        intervals=True one row per sample(). Needs pandas (not a dependency of pmapi)."""
        if intervals:
            return _results.intervals_frame(self.intervals, self.names)
        return _results.events_frame(self.values)


def count(events: Optional[str] = None, *, scope: str = "thread",
          cpus: Optional[Iterable[int]] = None) -> Counter:
    """A Counter to use as ``with pmapi.count(...) as c:``; counting runs inside the block.

    events: a comma-separated list (each with its modifiers, wildcards expand) or one group's
    name; None for the default group. scope: "thread" (the calling thread), "process" (this
    process and the threads and children it creates from the start on), "system" (everything
    on ``cpus``, all by default; root or CAP_PERFMON)."""
    return Counter(events, scope, cpus)


def count_command(argv: Sequence[str], events: Optional[str] = None) -> Counter:
    """Runs ``argv`` and counts it and every process and thread it starts, from its exec to its
    exit. Returns the stopped Counter, with the command's exit status in ``returncode``."""
    counter = Counter(events, "none")
    counter.returncode = counter._run_command([str(a) for a in argv])
    return counter


class Accumulated:
    """What a @counted function counted over its calls, summed over the threads that called it."""

    def __init__(self, events: Optional[str]):
        self._events = events
        self._local = threading.local()
        self._lock = threading.Lock()
        self._sessions: List[Counter] = []
        self.calls = 0
        # Made now so that a bad event list fails at the decoration; a session counts the
        # thread that first starts it, so the first thread to call takes this one.
        self._spare: Optional[Counter] = Counter(events, "thread")

    def _enter(self) -> Counter:
        local = self._local
        session = getattr(local, "session", None)
        if session is None:
            with self._lock:
                session, self._spare = self._spare, None
            if session is None:
                session = Counter(self._events, "thread")
            local.session, local.depth = session, 0
            with self._lock:
                self._sessions.append(session)
        if local.depth == 0:
            session.start()
        local.depth += 1
        return session

    def _leave(self, session: Counter) -> None:
        local = self._local
        local.depth -= 1
        if local.depth == 0:
            session.stop()
            with self._lock:
                self.calls += 1

    @property
    def values(self) -> Dict[str, int]:
        """Event name -> the sum of its counts over every call."""
        totals: Dict[str, int] = {}
        with self._lock:
            sessions = list(self._sessions)
        for session in sessions:
            for name, value in zip(session.names, (int(c) for c in session.counts)):
                totals[name] = totals.get(name, 0) + value
        return totals

    def to_dict(self) -> Dict[str, Any]:
        return {"calls": self.calls, "events": self.values}


def counted(events: Optional[str] = None) -> Callable[[Callable], Callable]:
    """A decorator that counts each call of the function on the thread that makes it and adds
    the counts up: ``f.counter.values`` (a dict of ints) and ``f.counter.calls``. A recursive
    call is counted once, in its outermost call."""

    def decorate(function: Callable) -> Callable:
        accumulated = Accumulated(events)

        @functools.wraps(function)
        def wrapper(*args, **kwargs):
            session = accumulated._enter()
            try:
                return function(*args, **kwargs)
            finally:
                accumulated._leave(session)

        wrapper.counter = accumulated  # type: ignore[attr-defined]
        return wrapper

    return decorate
