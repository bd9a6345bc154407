# SPDX-License-Identifier: MIT
"""The catalog: events and groups found by pmlist's search rule, and the CPUs' topology."""

from typing import List, NamedTuple, Optional, Tuple

from . import _pmapi


class Event(NamedTuple):
    """An event of the catalog, as ``pmlist`` lists it."""

    id: int
    name: str
    long_name: str
    description: str
    countable: bool  #: False when the catalog knows it cannot count here
    not_countable: str  #: then why, in a few words


class Metric(NamedTuple):
    name: str
    formula: str
    unit: str


class Group(NamedTuple):
    """A group of events (``pmlist -g``) with its derived metrics."""

    id: int
    name: str
    long_name: str
    description: str
    events: Tuple[str, ...]
    metrics: Tuple[Metric, ...]


class Cpu(NamedTuple):
    """Where a dense CPU id sits (pmapi_topology.h); -1 where hwloc could not say."""

    cpu: int
    lcpu: int  #: the Linux CPU number
    core: int
    package: int
    numa_node: int


def events(search: Optional[str] = None) -> List[Event]:
    """The events whose texts match ``search`` by pmlist's rule: blank-separated words, each
    matched ignoring case; a word with ``*``, ``?`` or ``[`` is a pattern over the name, any
    other must occur in the name, long name or description. None lists every event."""
    return [Event(*e) for e in _pmapi._events(search or "")]


def groups(search: Optional[str] = None) -> List[Group]:
    """The groups (``pmlist -g``) matching ``search`` by the same rule, with members and formulas."""
    return [
        Group(g[0], g[1], g[2], g[3], tuple(g[4]), tuple(Metric(*m) for m in g[5]))
        for g in _pmapi._groups(search or "")
    ]


def cpus() -> List[Cpu]:
    """Every CPU the library numbers, in its dense order, with core, package and NUMA node."""
    return [Cpu(*_pmapi._cpu_topology(i)) for i in range(_pmapi.cpu_count())]
