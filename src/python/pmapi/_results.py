# SPDX-License-Identifier: MIT
"""Counts as plain data: dicts for JSON and the like, pandas frames when pandas is installed."""

from typing import Any, Dict, List


def count_dict(count) -> Dict[str, Any]:
    return {
        "value": count.value,
        "raw": count.raw,
        "enabled": count.enabled,
        "running": count.running,
        "scaled": count.scaled,
    }


def pandas():
    """pandas, imported on first use: it is not a dependency of pmapi."""
    try:
        import pandas as module
    except ImportError as missing:
        raise ImportError(
            "to_dataframe() needs pandas, which is not installed "
            "(apt install python3-pandas, or pip install pandas)"
        ) from missing
    return module


def events_frame(values: Dict[str, Any]):
    """One row per event: value, raw, enabled, running, scaled."""
    rows = {name: count_dict(count) for name, count in values.items()}
    frame = pandas().DataFrame.from_dict(
        rows, orient="index", columns=["value", "raw", "enabled", "running", "scaled"]
    )
    frame.index.name = "event"
    return frame


def intervals_frame(rows: List[Dict[str, Any]], names: List[str]):
    """One row per interval: its end (seconds from the start), its length, each event's count."""
    frame = pandas().DataFrame(rows, columns=["time", "interval"] + list(names))
    return frame.set_index("time")
