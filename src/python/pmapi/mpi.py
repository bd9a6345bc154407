# SPDX-License-Identifier: MIT
"""pmapi under MPI (mpi4py): a count gathered across ranks into the summary libpmapi-mpi prints
(docs/mpi.md): per event the sum, the minimum and maximum with their ranks, the mean and the
imbalance (max / mean). mpi4py is imported on first use; it is not a dependency of pmapi."""

from typing import List, NamedTuple, Optional

from . import _pmapi


class EventSummary(NamedTuple):
    event: str
    counted_ranks: int
    sum: int
    min: int
    min_rank: int
    max: int
    max_rank: int
    mean: float
    imbalance: float


class Summary(NamedTuple):
    """The cross-rank summary, on the root rank: the banner's text and its rows."""

    text: str
    events: List[EventSummary]
    ranks: int


def summary(counter, comm=None, root: int = 0, title: str = "PMAPI-PY") -> Optional[Summary]:
    """Gathers ``counter``'s counts (the same events on every rank) from every rank of ``comm``
    (MPI.COMM_WORLD by default) to ``root``, which gets the Summary; the other ranks get None.
    A collective call: every rank must make it."""
    try:
        from mpi4py import MPI
    except ImportError as missing:
        raise ImportError(
            "pmapi.mpi needs mpi4py, which is not installed "
            "(apt install python3-mpi4py, or pip install mpi4py)") from missing
    comm = comm if comm is not None else MPI.COMM_WORLD
    mine = (comm.Get_rank(), MPI.Get_processor_name(), float(counter.elapsed), True,
            [int(c) for c in counter.counts])
    gathered = comm.gather((list(counter.names), mine), root=root)
    if comm.Get_rank() != root:
        return None
    names = gathered[0][0]
    for rank_names, (rank, *_rest) in gathered:
        if rank_names != names:
            raise ValueError(f"rank {rank} counted {rank_names}, rank {gathered[0][1][0]} {names}: "
                             "every rank must count the same events")
    ranks = sorted((r for _, r in gathered), key=lambda r: r[0])
    return Summary(_pmapi._mpi_banner(names, ranks, title),
                   [EventSummary(*row) for row in _pmapi._mpi_stats(names, ranks)], len(ranks))
