#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# pmcount's accounting of what it counts: the descriptors it advises for a wildcard under a low
# `ulimit -n` (and that the advised limit then runs), the CPU times of attached targets (theirs,
# never the timing command's), and -M (a metric or a group, as perf stat -M).
#
# usage: pmcount_targets.sh SECTION PREFIX WORKLOAD
#   SECTION   fd_advice | attached_times | metrics
#   PREFIX    where the build was installed (tools.install does it)
#   WORKLOAD  tests/tools/workload.c built
#
# Exit status: 0 passed, 1 a check failed, 77 the section cannot run here (no tracefs, not root).
set -euo pipefail

section=$1 prefix=$2 workload=$3
pmcount=$prefix/bin/pmcount
. "$(dirname "$0")/checks.sh" pmcount-targets

# A process of four threads that sleeps until killed.
threaded_sleeper() {
  python3 -c 'import threading, time
for _ in range(3): threading.Thread(target=time.sleep, args=(600,), daemon=True).start()
time.sleep(600)' &
  sleeper=$!
  for _ in $(seq 100); do
    [[ $(ls "/proc/$sleeper/task" 2>/dev/null | wc -l) == 4 ]] && return 0
    sleep 0.05
  done
  fail "the sleeper never had 4 threads"
}

# advice_works WHAT PMCOUNT-ARGS...: under `ulimit -n 100` the pattern is refused with a limit to
# raise to, and under that limit the same command runs and counts.
advice_works() {
  local what=$1
  shift
  set +e
  (ulimit -n 100 && "$pmcount" "$@") >/dev/null 2>"$work/low"
  local rc=$?
  set -e
  check "$what, ulimit -n 100: usage error (exit 2, got $rc)" test $rc = 2
  local advised
  advised=$(sed -n 's/.*raise the limit (ulimit -n \([0-9]*\)).*/\1/p' "$work/low")
  if [[ -z $advised ]]; then
    fail "$what: no limit advised: $(cat "$work/low")"
    return
  fi
  echo "note: $what: advised ulimit -n $advised"
  set +e
  (ulimit -n "$advised" && "$pmcount" -x, -o "$work/out" "$@") 2>"$work/err"
  rc=$?
  set -e
  check "$what, ulimit -n $advised (advised): runs (exit 0, got $rc)" test $rc = 0
  check "... with no descriptor run out" bash -c "! grep -q 'file descriptors\|EMFILE' '$work/err'"
  check "... and counts" grep -q 'syscalls:sys_enter_' "$work/out"
}

case $section in
fd_advice)
  [[ $(id -u) == 0 ]] || skip "not root: tracepoints need tracefs, readable by root only here"
  have_tracefs || skip "no tracefs"
  # 30 to 60 events: more than a limit of 100 allows at two descriptors each.
  pattern='syscalls:sys_enter_[a-e]*'
  advice_works "a command" -e "$pattern" -- true
  threaded_sleeper
  advice_works "-p of a process of 4 threads" -e "$pattern" -p "$sleeper" -- true
  kill "$sleeper"
  ;;

attached_times)
  # The target sleeps all along: its CPU time over the count is none, whatever the command that
  # times the count uses (here a busy shell loop, tenths of a second).
  sleep 600 &
  target=$!
  "$pmcount" -p "$target" -e task-clock --json -o "$work/json" -- \
    sh -c 'i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done'
  check "-p PID -- busy loop: exit 0" test $? = 0
  times=$(python3 -c 'import json, sys
o = json.load(open(sys.argv[1]))
print(o.get("user_ns"), o.get("system_ns"))' "$work/json")
  check "... the sleeping target's user and system time, not the loop's (got $times)" \
    test "$times" = "0 0"
  "$pmcount" -p "$target" -e task-clock -- sh -c 'i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done' \
    2>"$work/human"
  check "... in the table too" grep -Eq '^ +0\.000000000 seconds user$' "$work/human"
  kill "$target"
  wait "$target" 2>/dev/null || true
  # A target that exits before the end: its times cannot be read, so none are printed.
  sleep 600 &
  target=$!
  "$pmcount" -p "$target" -e task-clock --json -o "$work/gone" -- \
    sh -c "kill $target; sleep 0.3"
  wait "$target" 2>/dev/null || true
  check "-p PID whose target is gone at the end: no user time claimed" \
    python3 -c 'import json, sys
o = json.load(open(sys.argv[1]))
sys.exit(0 if "user_ns" not in o or o["user_ns"] == 0 else 1)' "$work/gone"
  ;;

metrics)
  "$pmcount" -M CPUs_utilized -x, -- "$workload" getppid 10 2>"$work/one"
  check "-M CPUs_utilized: exit 0" test $? = 0
  check "... counts the group's task-clock" grep -q ',task-clock,' "$work/one"
  check "... prints the metric" grep -Eq '^,,,,,[0-9.]+,CPUs_utilized$' "$work/one"
  check "... and no other metric of its group" \
    bash -c "! grep -q 'context_switches_per_second\|page_faults_per_second' '$work/one'"
  "$pmcount" -M pm_sw_basic -x, -- true 2>"$work/group"
  check "-M pm_sw_basic: every metric of the group" \
    test "$(grep -cE '^,,,,,[0-9.]+,(CPUs_utilized|context_switches_per_second|page_faults_per_second)$' "$work/group")" = 3
  "$pmcount" -M CPUs_utilized --json -o "$work/json" -- true
  check "--json: the one metric" python3 -c 'import json, sys
o = json.load(open(sys.argv[1]))
sys.exit(0 if [m["name"] for m in o["metrics"]] == ["CPUs_utilized"] and o["group"] == "pm_sw_basic" else 1)' "$work/json"
  set +e
  "$pmcount" -M no_such_metric -- true 2>"$work/unknown"
  check "-M no_such_metric: usage error" test $? = 2
  check "... saying so" grep -q 'no metric or group of that name' "$work/unknown"
  "$pmcount" -M CPUs_utilized -e task-clock -- true 2>/dev/null
  check "-M with -e: usage error" test $? = 2
  set -e
  ;;

*)
  echo "unknown section $section" >&2
  exit 2
  ;;
esac

if ((failures)); then
  echo "$failures check(s) failed in section $section" >&2
  exit 1
fi
