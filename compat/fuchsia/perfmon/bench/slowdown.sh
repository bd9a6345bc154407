#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A workload's slowdown under cpuperf against its slowdown under `perf record` with the same
# event and period, measured in one run, interleaved, as the median of N runs of each
# (docs/performance.md, "perfmon"). The workload makes CALLS getppid calls (default 3,000,000,
# about a second here: long enough that the tools' start-up does not decide the ratios).
#   compat/fuchsia/perfmon/bench/slowdown.sh [build dir] [runs]   (default build, 5)
set -euo pipefail
build=${1:-build}
runs=${2:-5}
calls=${CALLS:-3000000}
dir=$build/compat/fuchsia/perfmon
work=("$dir/perfmon_getppid_calls" "$calls")
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
command -v perf >/dev/null || { echo "slowdown: perf is not installed" >&2; exit 1; }

declare -A cases=(
  [base]=""
  [perf_clock]="perf record -q -o $scratch/perf.data -e cpu-clock -c 100000 --"
  [cpuperf_clock]="$dir/cpuperf --quiet --output-prefix=$scratch/c -e linux:cpu-clock@100000 --"
  [perf_tp]="perf record -q -o $scratch/perf.data -e syscalls:sys_enter_getppid -c 1 --"
  [cpuperf_tp]="$dir/cpuperf --quiet --output-prefix=$scratch/c --buffer-size-mb=256 -e tracepoint:syscalls:sys_enter_getppid@1 --"
)
order=(base perf_clock cpuperf_clock perf_tp cpuperf_tp)
declare -A times
for ((i = 0; i < runs; ++i)); do
  for name in "${order[@]}"; do
    start=$(date +%s%N)
    # shellcheck disable=SC2086 # the prefix is a word list
    ${cases[$name]} "${work[@]}" >/dev/null 2>&1
    end=$(date +%s%N)
    times[$name]+="$(( (end - start) / 1000 )) "
  done
done
median() { tr ' ' '\n' | grep . | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
base=$(median <<<"${times[base]}")
# Every tool kept every sample? cpuperf says so in its tallies (a full buffer is noted).
"$dir/cpuperf" --output-prefix="$scratch/check" --buffer-size-mb=256 \
  -e tracepoint:syscalls:sys_enter_getppid@1 -- "${work[@]}" | grep -q 'buffer full' &&
  echo "slowdown: cpuperf's buffer filled: the tracepoint row is not comparable" >&2
printf '%-14s %12s %10s\n' case "median (us)" slowdown
for name in "${order[@]}"; do
  m=$(median <<<"${times[$name]}")
  printf '%-14s %12d %9.2fx\n' "$name" "$m" "$(echo "$m / $base" | bc -l)"
done
