# SPDX-License-Identifier: MIT
"""Prints the benchmark table: median per call, and ratios to the raw kernel
path and to PAPI measured in the same run (Google Benchmark JSON in argv[1]).
A row whose ratio breaks its target says MISSED."""
import json
import sys

RAW_TARGET = 1.10  # every hot call at most 1.10x the raw kernel path
READ_TARGET = 1.05  # the self-monitoring read, at 1..8 events (issue 16)
PAPI_TARGET = 1.00  # and no slower than PAPI
TRACEPOINT_SET_DELETE_TARGET_NS = 0.1e6  # tracepoint set+delete, absolute (issue 16)

# (row label, libpmapi benchmark, raw benchmark, PAPI benchmark, target vs raw)
ROWS = [
    ("read, 4 events (pm_get_data_mythread)", "BM_Read_Pmapi", "BM_Read_Raw", "BM_Read_Papi",
     READ_TARGET),
    ("start+stop (pm_start/stop_mythread)", "BM_StartStop_Pmapi", "BM_StartStop_Raw",
     "BM_StartStop_Papi", RAW_TARGET),
    # libhpm's section against the pm_*_mythread pair it replaces (docs/libhpm.md): the
    # "raw kernel" column holds that pair here.
    ("hpmStart+hpmStop vs pm_start/stop_mythread", "BM_HpmStartStop", "BM_StartStop_Pmapi", None,
     1.20),
    ("reset (pm_reset_data_mythread)", "BM_Reset_Pmapi", "BM_Reset_Raw", "BM_Reset_Papi",
     RAW_TARGET),
    ("system-wide read, all CPUs (pm_get_data)", "BM_SystemRead_Pmapi", "BM_SystemRead_Raw", None,
     RAW_TARGET),
    ("system-wide _cpu loop (pm_get_data_cpu)", "BM_SystemCpuLoop_Pmapi", "BM_SystemRead_Raw", None,
     RAW_TARGET),
    ("set+delete (pm_set/delete_program_mythread)", "BM_SetDelete_Pmapi", "BM_SetDelete_Raw", None,
     None),
    ("group read, 8 members alive (pm_get_data_mygroup)", "BM_GroupRead_Pmapi", "BM_GroupRead_Raw",
     None, RAW_TARGET),
    ("group read vs the same descriptors by hand", "BM_GroupRead_Pmapi",
     "BM_GroupRead_RawSameDescriptors", None, RAW_TARGET),
    ("cold init, no cache (first process of a boot)", "BM_ColdInit_PmapiNoCache", None,
     "BM_ColdInit_Papi", None),
    # What the kernel alone takes of that (reading available_events, the first per-thread
    # perf_event_open), for scale: no target.
    ("cold init, no cache: the kernel's share alone", "BM_ColdInit_KernelFloor", None,
     "BM_ColdInit_Papi", None),
    ("cold init (pm_initialize vs PAPI_library_init)", "BM_ColdInit_Pmapi", None, "BM_ColdInit_Papi",
     None),
]
ROWS += [(f"read, {n} event{'s' if n > 1 else ''} (pm_get_data_mythread)", f"BM_ReadN_Pmapi/{n}",
          f"BM_ReadN_Raw/{n}", f"BM_ReadN_Papi/{n}", READ_TARGET) for n in range(1, 9)]
ROWS += [(f"read in {t} thread{'s' if t > 1 else ''} at once, per read",
          f"BM_ThreadRead_Pmapi/real_time/threads:{t}", f"BM_ThreadRead_Raw/real_time/threads:{t}",
          None, RAW_TARGET) for t in (1, 2, 4, 8, 16)]
# User-space reads (fake pages: no PMU here) against read(2); tracepoint set+delete, whose
# target is absolute (<= 0.1 ms), against the kernel with and without the tracepoint held.
ROWS += [(f"user-space read, {n} event{'s' if n > 1 else ''}, fake page, vs read(2)",
          f"BM_PageRead_Fake/{n}", f"BM_ReadN_Raw/{n}", None, None) for n in (1, 4, 8)]
# The tracepoint rows' target is absolute (ABSOLUTE below); the ratios are for scale.
ROWS += [("tracepoint set+delete (target <= 0.1 ms) vs open+close by hand",
          "BM_TracepointSetDelete_Pmapi", "BM_TracepointSetDelete_Raw", None, None),
         ("tracepoint set+delete vs by hand with the tracepoint held open",
          "BM_TracepointSetDelete_Pmapi", "BM_TracepointSetDelete_RawHeld", None, None)]
# A counting session's read of N tracepoints (a descriptor each) against one read(2) per
# descriptor by hand (tests/bench/session_bench.cpp).
ROWS += [(f"session read, {n} tracepoint{'s' if n > 1 else ''} (pm_session_read) vs read(2) each",
          f"BM_SessionRead_Pmapi/{n}", f"BM_SessionRead_Raw/{n}", None, READ_TARGET)
         for n in (1, 8, 64, 360)]
NO_TARGET = {"BM_ColdInit_KernelFloor"}  # rows shown for scale
ABSOLUTE = {("BM_TracepointSetDelete_Pmapi", "BM_TracepointSetDelete_Raw"):
                TRACEPOINT_SET_DELETE_TARGET_NS}
# A row whose baseline leaves out kernel work the call cannot do without says so with the
# measurement of that work, taken in the same run: (our benchmark, raw baseline) -> (floor
# benchmark, what it is). Such a miss is the kernel's share when the library's own cost over
# the floor keeps the target.
FLOORS = {
    ("BM_GroupRead_Pmapi", "BM_GroupRead_Raw"):
        ("BM_GroupRead_RawSameDescriptors",
         "the same descriptors by hand (the member-counting event and the caller's context)"),
}
# A miss against a peer whose whole call takes about what the kernel alone takes of ours says
# so with that share, measured in the same run: (ours, peer) -> (floor benchmark, what it is).
PEER_FLOORS = {
    ("BM_ColdInit_PmapiNoCache", "BM_ColdInit_Papi"):
        ("BM_ColdInit_KernelFloor",
         "reading available_events and the first perf_event_open"),
}
# (event, pmcount, perf stat, raw-syscall baseline): tests/bench/tool_bench.cpp.
TOOL_ROWS = [(event, f"BM_Tool_Pmcount/{name}/real_time", f"BM_Tool_PerfStat/{name}/real_time",
              f"BM_Tool_Raw/{name}/real_time")
             for event, name in (("task-clock", "task_clock"),
                                 ("syscalls:sys_enter_getsid", "tracepoint"))]
TOOL_TARGET = 0.5  # pmcount at most half perf stat's time
SESSION_TOOL_TARGET = 1.0  # 360 tracepoints: wall and CPU at most perf stat's
# Set-up cost is not a hot call: no target, the ratio is shown for scale.
SET_SIZES = (1, 2, 4, 8)


def load(path):
    """Median real time in ns and the counters of each benchmark run name."""
    with open(path) as f:
        data = json.load(f)
    times, counters = {}, {}
    # A benchmark that skipped itself (SkipWithError) has no median; keep its
    # reason so that an empty column says why (PAPI disabled on this machine).
    load.errors = {}
    # Each benchmark's coefficient of variation over the repetitions (stddev / mean).
    load.spread = {}
    for bench in data["benchmarks"]:
        if bench.get("error_occurred"):
            name = bench.get("run_name", bench["name"])
            load.errors[name] = load.errors[name.split("/")[0]] = bench.get("error_message", "")
            continue
        if bench.get("aggregate_name") == "cv":
            load.spread[bench["run_name"]] = bench["real_time"]
            load.spread.setdefault(bench["run_name"].split("/")[0], bench["real_time"])
        if bench.get("aggregate_name") != "median":
            continue
        name = bench["run_name"]
        scale = {"ns": 1.0, "us": 1e3, "ms": 1e6}[bench["time_unit"]]
        times[name] = bench["real_time"] * scale
        counters[name] = bench
        # Unparametrized benchmarks are also known by their bare name
        # (BM_ColdInit_Pmapi/manual_time as BM_ColdInit_Pmapi).
        times.setdefault(name.split("/")[0], times[name])
    return data.get("context", {}), times, counters


NOTES = {}  # reason -> benchmarks whose cell is n/a for it


def pretty(ns):
    if ns >= 1e6:
        return f"{ns / 1e6:.2f} ms"
    if ns >= 1e3:
        return f"{ns / 1e3:.2f} us"
    return f"{ns:.0f} ns"


def row(m, label, ours, raw, papi, target):
    if ours not in m:
        return f"| {label} | skipped | | | | | |"
    cells = [label, pretty(m[ours])]
    verdicts = []
    for peer, limit, what in ((raw, target, "raw"), (papi, PAPI_TARGET, "PAPI")):
        if peer and peer in m:
            ratio = m[ours] / m[peer]
            cells += [pretty(m[peer]), f"{ratio:.2f}"]
            if (limit is not None and ours not in NO_TARGET and
                    (what == "raw" or target is not None or raw is None)):
                verdicts.append("met" if ratio <= limit else missed(ours, peer, what, limit, m))
        elif peer and peer in load.errors:
            cells += ["n/a", ""]
            NOTES.setdefault(f"{what}: {load.errors[peer]}", []).append(peer)
        else:
            cells += ["", ""]
    limit = ABSOLUTE.get((ours, raw))
    if limit is not None:
        verdicts.append(f"met (<= {pretty(limit)})" if m[ours] <= limit else
                        f"MISSED (> {pretty(limit)})")
    cells.append(", ".join(verdicts))
    return "| " + " | ".join(cells) + " |"


def missed(ours, peer, what, limit, m):
    """A miss, with the kernel floor that proves it when the same run measured one, or the
    measurement's own spread when the miss is smaller than it."""
    floor = FLOORS.get((ours, peer))
    if floor and floor[0] in m and m[ours] / m[floor[0]] <= limit:
        return (f"MISSED vs {what} (> {limit:.2f}) by the kernel's share: {floor[1]} cost "
                f"{m[floor[0]] / m[peer]:.2f}x alone, the library {m[ours] / m[floor[0]]:.2f}x "
                f"over them")
    share = PEER_FLOORS.get((ours, peer))
    if share and share[0] in m:
        left = m[peer] - m[share[0]]
        return (f"MISSED vs {what} (> {limit:.2f}); the kernel's share alone, {share[1]}, "
                f"is {m[share[0]] / m[peer]:.2f}x {what}'s whole call, leaving "
                f"{pretty(max(left, 0))} for building the catalog (docs/performance.md)")
    # Two medians that differ by less than the repetitions' spread of either are the same
    # within what this run can tell apart.
    spread = load.spread.get(ours, 0) + load.spread.get(peer, 0)
    if spread and m[ours] / m[peer] <= limit * (1 + spread):
        return f"within noise (> {limit:.2f} by less than the runs' spread, {100 * spread:.0f}%)"
    return f"MISSED vs {what} (> {limit:.2f})"


def main():
    context, m, counters = load(sys.argv[1])
    lines = [row(m, *spec) for spec in ROWS]
    # Said above the table, so that an empty column is never read as a result.
    if NOTES:
        print("n/a cells (the peer could not run here, in its own words):")
        for reason, names in NOTES.items():
            print(f"  {reason} ({len(names)} benchmarks)")
        print()
    print("| call | libpmapi | raw kernel | x raw | PAPI | x PAPI | target |")
    print("|---|---:|---:|---:|---:|---:|---|")
    for line in lines:
        print(line)

    print()
    print("System-wide set+delete (pm_set_program + pm_delete_program), per descriptor "
          "(events x CPUs); set-up, so no target:")
    print()
    print("| events | descriptors | libpmapi total | per descriptor | raw total | per descriptor "
          "| x raw |")
    print("|---:|---:|---:|---:|---:|---:|---:|")
    for n in SET_SIZES:
        ours, raw = f"BM_SystemSetDelete_Pmapi/{n}", f"BM_SystemSetDelete_Raw/{n}"
        if ours not in m:
            print(f"| {n} | | skipped | | | | |")
            continue
        descriptors = counters[ours].get("descriptors", 0) or 1
        cells = [str(n), f"{descriptors:.0f}", pretty(m[ours]), pretty(m[ours] / descriptors)]
        if raw in m:
            cells += [pretty(m[raw]), pretty(m[raw] / descriptors), f"{m[ours] / m[raw]:.2f}"]
        else:
            cells += ["", "", ""]
        print("| " + " | ".join(cells) + " |")
    print()
    print("Tools, `<tool> -e <event> -- true`, wall time per run (fork to reaping):")
    print()
    print("| event | pmcount | perf stat | raw syscalls | x perf stat | x raw | target |")
    print("|---|---:|---:|---:|---:|---:|---|")
    for event, ours, peer, raw in TOOL_ROWS:
        cells = [event] + [pretty(m[b]) if b in m else "skipped" for b in (ours, peer, raw)]
        cells += [f"{m[ours] / m[b]:.2f}" if ours in m and b in m else "" for b in (peer, raw)]
        ratio = m[ours] / m[peer] if ours in m and peer in m else None
        floor = m[raw] / m[peer] if raw in m and peer in m else None
        if ratio is None:
            verdict = ""
        elif ratio <= TOOL_TARGET:
            verdict = "met"
        elif floor is not None and floor > TOOL_TARGET:
            verdict = (f"MISSED vs perf stat (> {TOOL_TARGET}): kernel floor, the raw-syscall "
                       f"tool alone is {floor:.2f}x perf stat")
        else:
            verdict = f"MISSED vs perf stat (> {TOOL_TARGET})"
        cells.append(verdict)
        print("| " + " | ".join(cells) + " |")
    print()
    print("The counting session's case, `<tool> -e 'syscalls:sys_enter_*' -- true` (every "
          "system call's entry tracepoint), per run:")
    print()
    print("| | pmcount | perf stat | x perf stat | target |")
    print("|---|---:|---:|---:|---|")
    ours, peer = (next((n for n in counters if n.startswith(f"BM_Tool_{tool}/all_syscall_entries")),
                       None) for tool in ("Pmcount", "PerfStat"))
    wall = [m[n] if n else None for n in (ours, peer)]
    cpu = [counters[n].get("cpu_ms", 0) * 1e6 if n else None for n in (ours, peer)]
    for label, (a, b) in (("wall", wall), ("CPU (user + system)", cpu)):
        cells = [label] + [pretty(v) if v is not None else "skipped" for v in (a, b)]
        ratio = a / b if a is not None and b else None
        cells.append(f"{ratio:.2f}" if ratio is not None else "")
        cells.append("" if ratio is None else "met" if ratio <= SESSION_TOOL_TARGET
                     else f"MISSED (> {SESSION_TOOL_TARGET})")
        print("| " + " | ".join(cells) + " |")
    if context:
        print()
        print(f"{context.get('num_cpus', '?')} CPUs at {context.get('mhz_per_cpu', '?')} MHz, "
              f"load average {context.get('load_avg', '?')}, {context.get('date', '')}")


main()
