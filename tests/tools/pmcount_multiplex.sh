#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# pmcount -T (multiplexed event sets) run as users run it: exact tracepoint counts split over
# the sets, the estimates and time fractions in every output format, system-wide, and the
# command lines it refuses.
#
# usage: pmcount_multiplex.sh SECTION PREFIX MX_WORKLOAD
#   SECTION      counts | system | auto | bad
#                (auto: more than 8 events without -T, counted by the session, no sets)
#   PREFIX       where the build was installed (tools.install does it)
#   MX_WORKLOAD  tests/tools/mx_workload.c built: N getppid calls in the middle of a slice
#
# Exit status: 0 passed, 1 a check failed, 77 the section cannot run here.
set -euo pipefail

section=$1 prefix=$2 workload=$3
pmcount=$prefix/bin/pmcount
. "$(dirname "$0")/checks.sh" pmcount-mx-test

ev=syscalls:sys_enter_getppid
# 200 ms slices: the workload's calls are 100 ms away from any switch.
slice=200
busy=900
n=$((1000 + RANDOM % 1000))
sets=(-e $ev -e "$ev,task-clock")

[[ -x $pmcount ]] || { echo "FAIL: no $pmcount" >&2; exit 1; }
if [[ $section != bad ]] &&
  ! [[ -d /sys/kernel/tracing/events/syscalls || -d /sys/kernel/debug/tracing/events/syscalls ]]; then
  skip "no syscall tracepoints in tracefs"
fi

# Checks one JSON report (the last line of $1): each set's getppid raw counts, fractions and
# estimates. MODE exact: the raw counts add up to N; at-least: to N or more (system-wide,
# other processes' calls count too).
check_json() {  # check_json FILE MODE N
  python3 - "$@" <<'PY'
import json, sys
path, mode, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
report = [json.loads(l) for l in open(path) if l.strip()][-1]
problems = []
mx = report.get("multiplex", {})
if mx.get("sets") != 2 or mx.get("slice_ms") != 200:
    problems.append("multiplex header %r" % mx)
if not isinstance(mx.get("rounds"), int) or mx["rounds"] < 1:
    problems.append("rounds %r (the workload runs several slices)" % mx.get("rounds"))
fractions = {}
raw_sum = 0
for c in report["counters"]:
    if c["state"] != "counted":
        problems.append("%s in set %s: %s" % (c["event"], c.get("set"), c["state"]))
        continue
    f = c["fraction"]
    if not 0 < f <= 1:
        problems.append("fraction %r out of (0,1]" % f)
    fractions.setdefault(c["set"], f)
    if abs(fractions[c["set"]] - f) > 1e-12:
        problems.append("set %d's events disagree on its fraction" % c["set"])
    est = c["raw_value"] / f
    if abs(c["value"] - est) > max(1.0, 1e-9 * est):
        problems.append("estimate %r is not raw %r / fraction %r" % (c["value"], c["raw_value"], f))
    if c["value"] < c["raw_value"]:
        problems.append("estimate below the raw count")
    if c["event"] == "syscalls:sys_enter_getppid":
        raw_sum += c["raw_value"]
if sorted(fractions) != [1, 2]:
    problems.append("sets seen: %r" % sorted(fractions))
if abs(sum(fractions.values()) - 1) > 1e-9:
    problems.append("fractions add up to %r" % sum(fractions.values()))
if mode == "exact" and raw_sum != n:
    problems.append("raw getppid counts add up to %d, not %d" % (raw_sum, n))
if mode == "at-least" and raw_sum < n:
    problems.append("raw getppid counts add up to %d, fewer than %d" % (raw_sum, n))
for p in problems:
    print("  " + p)
sys.exit(1 if problems else 0)
PY
}

case $section in
counts)
  "$pmcount" -T $slice "${sets[@]}" --json -- "$workload" $slice "$n" $busy 2>"$work/json"
  check "JSON: getppid split over 2 sets adds up to exactly $n; fractions and estimates agree" \
    check_json "$work/json" exact "$n"

  "$pmcount" -T $slice "${sets[@]}" -x, -- "$workload" $slice "$n" $busy 2>"$work/csv"
  # perf's fields: value (the estimate), unit, event, run-time (the set's), running% (its
  # share), metric-value, metric-unit; the raw counts are in --json.
  check "CSV: 3 event lines of perf's 7 fields" \
    test "$(awk -F, 'NF == 7 && $3 != ""' "$work/csv" | wc -l)" = 3
  check "CSV: the getppid lines' running shares add up to 100%" awk -F, -v ev=$ev '
    $3 == ev {p += $5; n++; if ($5 <= 0 || $5 >= 100) bad = 1}
    END {exit !(n == 2 && !bad && p > 99.97 && p < 100.03)}' "$work/csv"
  check "CSV: each estimate is the set's count scaled up (at least $n in all)" awk -F, -v ev=$ev -v n=$n '
    $3 == ev {s += $1} END {exit !(s >= n)}' "$work/csv"

  "$pmcount" -T $slice "${sets[@]}" -- "$workload" $slice "$n" $busy 2>"$work/human"
  check "human: the heading says 2 sets at $slice ms" \
    grep -q "2 event sets multiplexed at $slice ms" "$work/human"
  check "human: getppid raw counts add up to exactly $n" test "$(
    grep -o "scaled up from [0-9,]* counted" "$work/human" | head -2 | tr -d , |
      awk '{s += $4} END {print s}')" = "$n"
  check "human: each line names its set, its share and the raw count under the estimate" \
    test "$(grep -cE '\[set [12]\]  \([0-9.]+%\)  scaled up from [0-9,]+ counted$' \
      "$work/human")" = 3

  # -I: every interval line carries sets too, and the intervals' raw counts add up to N.
  "$pmcount" -T $slice -I 100 "${sets[@]}" --json -- "$workload" $slice "$n" $busy 2>"$work/ijson"
  check "-I: interval lines' raw getppid counts add up to exactly $n" python3 -c '
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
total = sum(c["raw_value"] or 0 for l in lines if l.get("interval")
            for c in l["counters"] if c["event"] == "syscalls:sys_enter_getppid")
sys.exit(0 if total == int(sys.argv[2]) and len(lines) > 2 else 1)' "$work/ijson" "$n"
  ;;
system)
  [[ $(id -u) = 0 ]] || skip "system-wide counting needs root"
  "$pmcount" -a -T $slice "${sets[@]}" --json -- "$workload" $slice "$n" $busy 2>"$work/json"
  check "-a: fractions and estimates agree; at least $n getppid calls over the sets" \
    check_json "$work/json" at-least "$n"
  "$pmcount" -a -A -T $slice "${sets[@]}" -x, -- "$workload" $slice "$n" $busy 2>"$work/percpu"
  check "-a -A: per-CPU lines in perf's fields, with the set's running share" \
    grep -qE "^CPU[0-9]+,[0-9]+,,$ev,[0-9]+,[0-9]{1,2}\.[0-9]{2},[0-9.]*,[^,]*$" "$work/percpu"
  ;;
auto)
  # More events than one program's 8 counters, without -T: the counting session gives each
  # software event and tracepoint descriptors of its own, so none takes turns and every count
  # is exact, as perf stat counts them.
  ten=task-clock,context-switches,cpu-migrations,page-faults,minor-faults,major-faults
  ten+=,cpu-clock,syscalls:sys_enter_getpid,syscalls:sys_enter_gettid,$ev
  status=0
  "$pmcount" -e $ten -- "$workload" 10 "$n" 300 2>"$work/human" || status=$?
  check "10 events: counted (exit 0), not refused" test $status = 0
  check "10 events: no note of turns, no share beside a count" \
    bash -c "! grep -q 'take turns\|%)' '$work/human'"
  "$pmcount" -x, -e $ten -- "$workload" 10 "$n" 300 2>"$work/csv"
  check "-x,: 10 lines of perf's 7 fields, each counted all the time (100.00)" awk -F, '
    NF == 7 && $3 != "" {lines++; if ($5 != "100.00") bad = 1}
    END {exit !(lines == 10 && !bad)}' "$work/csv"
  check "-x,: getppid exactly $n" awk -F, -v ev=$ev -v n=$n '$3 == ev {found = ($1 == n)} END {exit !found}' \
    "$work/csv"
  "$pmcount" --json -e $ten -- "$workload" 10 "$n" 300 2>"$work/json"
  check "--json: no multiplex header, no sets, every counter counted" python3 -c '
import json, sys
report = [json.loads(l) for l in open(sys.argv[1]) if l.strip()][-1]
ok = "multiplex" not in report and len(report["counters"]) == 10
ok = ok and all(c["state"] == "counted" and c.get("set") is None for c in report["counters"])
sys.exit(0 if ok else 1)' "$work/json"
  status=0
  "$pmcount" -r 2 -x, -e $ten -- "$workload" 10 "$n" 300 2>"$work/repeat" || status=$?
  check "-r 2 with 10 events: runs (exit 0), getppid's mean exactly $n" bash -c "test $status = 0 &&
    awk -F, -v ev=$ev -v n=$n '\$3 == ev {found = (\$1 == n)} END {exit !found}' '$work/repeat'"
  ;;
bad)
  expect_usage() {  # expect_usage DESCRIPTION PATTERN ARGS...
    local what=$1 pattern=$2
    shift 2
    local status=0
    "$pmcount" "$@" -- true 2>"$work/err" || status=$?
    check "$what: exit 2" test $status = 2
    check "$what: says '$pattern'" grep -q -- "$pattern" "$work/err"
  }
  expect_usage "one set" "give at least two -e lists or -g groups" -T 10 -e $ev
  expect_usage "no set" "give at least two" -T 10
  expect_usage "zero slice" "bad slice '0' for -T: give whole milliseconds, at least 1" \
    -T 0 "${sets[@]}"
  expect_usage "negative slice" "bad slice '-5' for -T" -T -5 "${sets[@]}"
  expect_usage "not a number" "bad slice '10ms' for --multiplex" --multiplex=10ms "${sets[@]}"
  many=()
  for ((i = 0; i < 65; ++i)); do many+=(-e task-clock); done
  expect_usage "65 sets" "65 event sets given to -T; at most 64" -T 10 "${many[@]}"
  expect_usage "-r" "-r and -T cannot be combined" -T 10 -r 2 "${sets[@]}"
  expect_usage "unknown event in set 2" "event set 2: " -T 10 -e $ev -e no-such-event-here
  expect_usage "two -g without -T" "only one -g group" -g pm_basic -g pm_basic
  ;;
*)
  echo "unknown section $section" >&2
  exit 1
  ;;
esac

if ((failures)); then
  echo "$failures check(s) failed" >&2
  exit 1
fi
