#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Runs the installed pmcount and pmlist the way users do and checks what they print and how
# they exit. One section per ctest test (tests/tools/CMakeLists.txt); they share one installed prefix.
#
# usage: installed_tools.sh SECTION PREFIX WORKLOAD
#   SECTION   exact | exit | signals | attach | system | bad | pmlist | misc | unprivileged |
#             binaries
#   PREFIX    where the build was installed (tools.install does it)
#   WORKLOAD  tests/tools/workload.c built: getppid calls with exactly known counts
#
# Exit status: 0 passed, 1 a check failed, 77 the section cannot run here (ctest shows it
# skipped, with the reason this script prints: no tracefs, not root).
set -euo pipefail

section=$1 prefix=$2 workload=$3
pmcount=$prefix/bin/pmcount
pmlist=$prefix/bin/pmlist
. "$(dirname "$0")/checks.sh" pmcount-test

# The value of EVENT in pmcount's human table on stdin ("  1,234     event"), commas removed.
human_count() {
  awk -v ev="$1" '$NF == ev || $(NF) ~ "^"ev"$" {gsub(",", "", $1); print $1; exit}'
}
# The value of EVENT in -x, output (field 3 is the event).
csv_count() { awk -F, -v ev="$1" '$3 == ev {print $1; exit}'; }
json_count() {  # json_count EVENT < one JSON object per line: the last object's value
  python3 -c '
import json, sys
objs = [json.loads(l) for l in sys.stdin if l.strip()]
vals = [c["value"] for c in objs[-1]["counters"] if c["event"] == sys.argv[1]]
print(vals[0] if vals else "missing")' "$1"
}

# The id pmlist prints for EVENT (ids are the catalog's business: never hard-coded here).
event_id() { "$pmlist" "$1" | awk -v ev="$1" '$2 == ev {print $1; exit}'; }
group_id() { "$pmlist" --groups "$1" | awk -v g="$1" '$2 == g {print $1; exit}'; }

[[ -x $pmcount && -x $pmlist ]] || { echo "FAIL: $prefix/bin has no pmcount or pmlist" >&2; exit 1; }
# Every section but binaries (run paths, no counting) counts syscall tracepoints.
if [[ $section != binaries && $section != merge ]] && ! have_tracefs; then
  skip "no tracefs with syscall tracepoints that this user can read (scripts/setup-deps mounts it)"
fi
ev=syscalls:sys_enter_getppid

case $section in
final_interval)
  # The last -I interval when a tick reads the counters after the command exited but before
  # pmcount reaped it (issue 26: seen once in 150 runs). The shim ($4, late_reap.c) makes that
  # happen on every run: the interval after that tick is empty, and is not printed as a
  # "not counted" interval (percent_running 100) after the command's real last one.
  shim=$4
  for run in 1 2 3; do
    n=$(random_n)
    LD_PRELOAD=$shim "$pmcount" -I 10 --json -e $ev -- "$workload" getppid "$n" 2>"$work/json"
    check "run $run: the last interval counted, the intervals add up to $n, as does the total" \
      python3 - "$work/json" $ev "$n" <<'PY'
import json, sys
path, event, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
objects = [json.loads(line) for line in open(path) if line.strip()]
intervals = [o for o in objects if o.get("interval")]
final = [o for o in objects if not o.get("interval")]
cells = [c for o in intervals for c in o["counters"] if c["event"] == event]
# An interval in which the workload got no CPU (a loaded machine) is rightly "not counted";
# the last one holds its exit, so it ran.
counted = [c for c in cells if c["state"] == "counted"]
ok = (intervals and len(final) == 1 and cells and cells[-1]["state"] == "counted"
      and sum(c["value"] for c in counted) == n
      and [c["value"] for c in final[0]["counters"] if c["event"] == event] == [n])
if not ok:
    print(open(path).read())
sys.exit(0 if ok else 1)
PY
  done
  ;;

merge)
  # --merge of per-rank CSV files written here by hand (no counting): each rank once, every
  # count a 64-bit one, no sum that wraps; each refusal names the file (and the line).
  set +e
  csv() {  # csv FILE COUNT: one rank's file as `pmcount -x,` writes it
    printf '%s,,syscalls:sys_enter_getppid,1000,100.00,,\n' "$2" >"$1"
  }
  csv "$work/counts.0.csv" 1000
  csv "$work/counts.1.csv" 2000
  "$pmcount" --merge "$work/counts.0.csv" "$work/counts.1.csv" >"$work/out" 2>"$work/err"
  check "two ranks: exit 0" test $? = 0
  check "two ranks: the sum is 3000" grep -qE "^# $ev +3000 " "$work/out"
  # The same rank twice: counts.1.csv and counts.01.csv, or a file of an earlier run.
  csv "$work/counts.01.csv" 2000
  mkdir "$work/old" && csv "$work/old/counts.0.csv" 5
  for stale in "$work/counts.01.csv" "$work/old/counts.0.csv"; do
    "$pmcount" --merge "$work/counts.0.csv" "$work/counts.1.csv" "$stale" >"$work/out" \
      2>"$work/err"
    check "rank twice ($stale): 125" test $? = 125
    check "rank twice ($stale): names both files" \
      grep -qE "^pmcount: --merge: .*counts\.0?[01]\.csv and .*$stale.* are both rank [01] " \
      "$work/err"
    check "rank twice ($stale): no summary" test ! -s "$work/out"
  done
  # Counts a 64-bit signed sum cannot hold, and negative ones.
  expect_refused() {  # expect_refused WHAT TEXT-IN-MESSAGE FILE...
    local what=$1 says=$2
    shift 2
    "$pmcount" --merge "$@" >"$work/out" 2>"$work/err"
    check "$what: 125" test $? = 125
    check "$what: says '$says'" grep -qF -- "$says" "$work/err"
    check "$what: no summary" test ! -s "$work/out"
  }
  csv "$work/big.1.csv" 18446744073709551615
  expect_refused "a count past 2^63-1" \
    "$work/big.1.csv:1: the count of $ev '18446744073709551615' is past 9223372036854775807" \
    "$work/counts.0.csv" "$work/big.1.csv"
  csv "$work/negative.1.csv" -5
  expect_refused "a negative count" "$work/negative.1.csv:1: the count of $ev '-5' is negative" \
    "$work/counts.0.csv" "$work/negative.1.csv"
  csv "$work/half.0.csv" 5000000000000000000
  csv "$work/half.1.csv" 5000000000000000000
  expect_refused "a sum past 2^63-1" \
    "the sum of $ev over the ranks passes 9223372036854775807 at $work/half.1.csv:1 (rank 1)" \
    "$work/half.0.csv" "$work/half.1.csv"
  set -e
  ;;

exact)
  n=$(random_n)
  # Human table, on stderr by default; the command's own stdout stays clean.
  "$pmcount" -e $ev -- "$workload" getppid "$n" >"$work/stdout" 2>"$work/human"
  check "human table counts exactly $n getppid calls" \
    test "$(human_count $ev <"$work/human")" = "$n"
  check "human table separates thousands" grep -q " ${n:0:1},${n:1} " "$work/human"
  check "nothing on the command's stdout" test ! -s "$work/stdout"
  "$pmcount" -x, -e $ev -- "$workload" getppid "$n" 2>"$work/csv"
  check "CSV counts exactly $n" test "$(csv_count $ev <"$work/csv")" = "$n"
  check "CSV line has perf stat's 7 fields" \
    test "$(awk -F, -v ev=$ev '$3 == ev {print NF}' "$work/csv")" = 7
  "$pmcount" --json -e $ev -- "$workload" getppid "$n" 2>"$work/json"
  check "JSON counts exactly $n" test "$(json_count $ev <"$work/json")" = "$n"
  "$pmcount" -o "$work/out" -x, -e $ev -- "$workload" getppid "$n" 2>"$work/stderr"
  check "-o writes the counts to the file" test "$(csv_count $ev <"$work/out")" = "$n"
  check "-o leaves stderr empty" test ! -s "$work/stderr"
  "$pmcount" -o - -x, -e $ev -- "$workload" getppid "$n" >"$work/stdout" 2>"$work/stderr"
  check "-o - writes the counts to stdout" test "$(csv_count $ev <"$work/stdout")" = "$n"
  # Everything the command starts is counted: processes and threads.
  "$pmcount" -x, -e $ev -- "$workload" children 4 "$n" 2>"$work/children"
  check "4 child processes x $n calls" test "$(csv_count $ev <"$work/children")" = $((4 * n))
  "$pmcount" -x, -e $ev -- "$workload" threads 3 "$n" 2>"$work/threads"
  check "3 threads x $n calls" test "$(csv_count $ev <"$work/threads")" = $((3 * n))
  # A shell in between is counted too. The shell makes getppid calls of its own (dash reads
  # its parent for $PPID): count an empty script first.
  "$pmcount" -x, -e $ev -- sh -c ":" 2>"$work/sh0"
  shell=$(csv_count $ev <"$work/sh0")
  "$pmcount" -x, -e $ev -- sh -c "\"$workload\" getppid $n; \"$workload\" getppid 1" 2>"$work/sh"
  check "through a shell: $shell + $n + 1" test "$(csv_count $ev <"$work/sh")" = $((shell + n + 1))
  # -r: every run the same exact count, so the spread is 0.
  "$pmcount" -r 3 -x, -e $ev -- "$workload" getppid "$n" 2>"$work/repeat"
  check "-r 3: mean $n" test "$(csv_count $ev <"$work/repeat")" = "$n"
  check "-r 3: spread 0.00%" grep -q ",$ev,0.00%," "$work/repeat"
  # The same workload under perf stat gives the same count.
  if command -v perf >/dev/null; then
    perf stat -x, -e $ev -- "$workload" getppid "$n" 2>"$work/perf"
    check "perf stat agrees" test "$(csv_count $ev <"$work/perf")" = "$(csv_count $ev <"$work/csv")"
  else
    echo "note: no perf here: the comparison with perf stat is not made"
  fi
  ;;

exit)
  set +e
  "$pmcount" -x, -e $ev -- "$workload" exit 7 2>"$work/out"
  check "the command's exit status (7)" test $? = 7
  check "counts printed for a failing command" test "$(csv_count $ev <"$work/out")" = 1
  "$pmcount" -e $ev -- "$workload" signal INT 2>"$work/out"
  check "killed by SIGINT: 130" test $? = 130
  check "says it was killed" grep -q "killed by SIGINT" "$work/out"
  check "counts still printed" test "$(human_count $ev <"$work/out")" = 1
  "$pmcount" -e $ev -- "$workload" signal SEGV 2>/dev/null
  check "killed by SIGSEGV: 139" test $? = 139
  "$pmcount" -e $ev -- no-such-command-here 2>"$work/out"
  check "command not found: 127" test $? = 127
  check "says so" grep -q "no-such-command-here.*command not found" "$work/out"
  check "and prints no counts" test "$(wc -l <"$work/out")" = 1
  "$pmcount" -e $ev -- /etc/passwd 2>"$work/out"
  check "not executable: 126" test $? = 126
  check "no counts for it" test "$(wc -l <"$work/out")" = 1
  # A status of 128 or more that the command chose is not a signal: -r runs it every time.
  "$pmcount" -r 5 -e $ev -- sh -c "echo run >>'$work/runs'; exit 200" 2>"$work/out"
  check "exit 200 under -r 5: status 200" test $? = 200
  check "exit 200 under -r 5: all 5 runs made" test "$(wc -l <"$work/runs")" = 5
  check "exit 200 under -r 5: the mean of 5 runs printed" grep -q "mean of 5 runs" "$work/out"
  check "exit 200: not reported as a signal" bash -c "! grep -q 'The command was' '$work/out'"
  # A command killed by a signal still ends the repetitions.
  rm -f "$work/runs"
  "$pmcount" -r 5 -e $ev -- sh -c "echo run >>'$work/runs'; kill -TERM \$\$" 2>"$work/out"
  check "killed under -r 5: 143" test $? = 143
  check "killed under -r 5: one run" test "$(wc -l <"$work/runs")" = 1
  check "killed under -r 5: says so" grep -q "The command was killed by SIGTERM" "$work/out"
  # -o that cannot be opened: 125 before the command starts (docs/pmcount.1, EXIT STATUS).
  "$pmcount" -o "$work/no/such/dir/counts" -e $ev -- touch "$work/ran" 2>"$work/out"
  check "-o unopenable: 125" test $? = 125
  check "-o unopenable: says why" grep -q "^pmcount: cannot write $work/no/such/dir/counts: " "$work/out"
  check "-o unopenable: the command never ran" test ! -e "$work/ran"
  # Another user's link at the -o path (in /tmp, say) is not followed: root's pmcount would
  # truncate whatever it names. Refused like an unopenable file; a link of one's own is fine.
  if [[ $(id -u) == 0 ]]; then
    echo precious >"$work/victim"
    ln -s "$work/victim" "$work/planted"
    chown -h 65534 "$work/planted"
    "$pmcount" -o "$work/planted" -x, -e $ev -- touch "$work/ran" 2>"$work/out"
    check "-o another user's link: 125" test $? = 125
    check "-o another user's link: says why" \
      grep -q "^pmcount: cannot write $work/planted: it is a symbolic link of user 65534" "$work/out"
    check "-o another user's link: the file it names is unchanged" \
      test "$(cat "$work/victim")" = precious
    check "-o another user's link: the command never ran" test ! -e "$work/ran"
    # Nor behind a link of one's own: every link on the way is checked.
    ln -s "$work/planted" "$work/own-to-planted"
    "$pmcount" -o "$work/own-to-planted" -x, -e $ev -- touch "$work/ran" 2>"$work/out"
    check "-o one's link to another user's link: 125" test $? = 125
    check "-o one's link to another user's link: the file is unchanged" \
      test "$(cat "$work/victim")" = precious
    ln -s "$work/own-target" "$work/own-link"
    n=$(random_n)
    "$pmcount" -o "$work/own-link" -x, -e $ev -- "$workload" getppid "$n" 2>"$work/out"
    check "-o a link of one's own is followed" test "$(csv_count $ev <"$work/own-target")" = "$n"
  fi
  # The counts cannot be written after the command ran: its status stays, a message says so.
  "$pmcount" -o /dev/full -e $ev -- "$workload" exit 7 2>"$work/out"
  check "-o /dev/full: the command's status (7)" test $? = 7
  check "-o /dev/full: says the counts were lost" \
    grep -q "^pmcount: cannot write the counts to /dev/full: No space left on device" "$work/out"
  "$pmcount" -o /dev/full -I 10 -x, -e $ev -- "$workload" spin 50 2>"$work/out"
  check "-o /dev/full with -I: the command's status (0)" test $? = 0
  check "-o /dev/full with -I: one message" test "$(grep -c "cannot write" "$work/out")" = 1
  set -e
  ;;

signals)
  for sig in INT TERM; do
    n=$(random_n)
    mkfifo "$work/ready.$sig"
    "$pmcount" -x, -o "$work/counts.$sig" -e $ev -- "$workload" wait-signal "$n" \
      >"$work/ready.$sig" &
    pid=$!
    read -r line <"$work/ready.$sig"  # the workload made its calls and waits
    kill -$sig $pid
    wait_status $pid
    # The workload's handler makes one more call and exits 3: proof it got the signal.
    check "SIG$sig passed on: the command's status 3" test $status = 3
    check "SIG$sig: counts so far printed ($n + 1)" \
      test "$(csv_count $ev <"$work/counts.$sig")" = $((n + 1))
  done
  # A command without a handler dies of the signal; pmcount reports 128 + 15 and its counts.
  mkfifo "$work/ready.sleep"
  "$pmcount" -x, -o "$work/counts.sleep" -e $ev -- sh -c 'echo ready; exec sleep 30' \
    >"$work/ready.sleep" &
  pid=$!
  read -r line <"$work/ready.sleep"
  kill -TERM $pid
  wait_status $pid
  check "SIGTERM kills sleep: 143" test $status = 143
  check "its counts printed" grep -Eq "^[0-9]+,,$ev," "$work/counts.sleep"
  ;;

attach)
  # perf's -p and -t: a running workload that made its N calls, then waits for a signal and
  # makes exactly one more. Only that one is counted; pmcount ends when the target exits.
  start_target() {  # start_target NAME: the workload waiting, its pid in $target
    mkfifo "$work/ready.$1"
    "$workload" wait-signal "$(random_n)" >"$work/ready.$1" &
    target=$!
    read -r line <"$work/ready.$1"
  }
  for how in -p -t --pid=; do
    start_target "$how"
    if [[ $how == *= ]]; then args=("$how$target"); else args=("$how" "$target"); fi
    "$pmcount" -x, "${args[@]}" -e $ev 2>"$work/attach" &
    counter=$!
    sleep 0.3  # attached by then (the counts say so if not)
    kill -INT $target
    wait $target || true
    wait_status $counter
    check "$how: ends when its target exits, exit 0" test $status = 0
    check "$how: counts only the call made after attaching (1)" \
      test "$(csv_count $ev <"$work/attach")" = 1
  done
  start_target per-thread
  "$pmcount" -x, -p $target --per-thread -e $ev 2>"$work/attach" &
  counter=$!
  sleep 0.3
  kill -INT $target
  wait $target || true
  wait $counter || true
  check "--per-thread: a line per thread, labelled as perf does (comm-tid)" \
    grep -qE "^pmcount_workloa-$target,1,,$ev," "$work/attach"
  # A thread's name is the counted program's to set: an escape sequence in it is printed
  # visibly, never sent to the terminal.
  # (The kernel names a process after the file it executes: a link of that name.)
  escaped="$work/x"$'\033'"]0;owned"$'\007'
  ln -s "$workload" "$escaped"
  workload=$escaped start_target escaped
  "$pmcount" -p $target --per-thread -e $ev 2>"$work/attach" &
  counter=$!
  sleep 0.3
  kill -INT $target
  wait $target || true
  wait $counter || true
  check "--per-thread: a name's escape sequence is printed escaped" \
    grep -qF 'x\x1b]0;owned\x07-'"$target" "$work/attach"
  check "... and no control character reaches the terminal" \
    test "$(tr -d -c '\001-\010\016-\037' <"$work/attach" | wc -c)" = 0
  # Until SIGINT to pmcount (the target still runs), and --duration.
  start_target sigint
  "$pmcount" -p $target -e $ev 2>"$work/attach" &
  counter=$!
  sleep 0.3
  kill -INT $counter
  wait_status $counter
  check "-p until ^C: exit 0" test $status = 0
  check "-p until ^C: the table says what was counted" \
    grep -q "Counts for process $target\$" "$work/attach"
  SECONDS=0
  "$pmcount" -p $target -e $ev --duration 0.3 2>"$work/attach"
  check "-p --duration 0.3: exit 0 within seconds" test $? = 0 -a $SECONDS -lt 5
  "$pmcount" -x, -p $target -e $ev,task-clock -- sleep 0.2 2>"$work/attach"
  check "-p with a command: the command only times the count (sleep is not counted)" \
    grep -q "^<not counted>,msec,task-clock," "$work/attach"
  kill -TERM $target
  wait $target || true
  # -D: counting starts MS after the command; the calls before are left out.
  "$pmcount" -x, -D 200 -e $ev -- sh -c "\"$workload\" getppid 50; sleep 0.5; \"$workload\" getppid 7" \
    2>"$work/delay"
  check "-D 200: only the 7 calls after the delay" test "$(csv_count $ev <"$work/delay")" = 7
  # --interval-count: N intervals, then the command is ended as perf stat ends it.
  SECONDS=0
  set +e
  "$pmcount" -x, -I 100 --interval-count 2 -e task-clock -- "$workload" spin 3000 2>"$work/count"
  status=$?
  set -e
  check "--interval-count 2: exit 0, the command ended early" test $status = 0 -a $SECONDS -lt 3
  check "--interval-count 2: exactly 2 intervals" \
    test "$(grep -c 'task-clock' "$work/count")" = 2
  set +e
  "$pmcount" -p 4194000 -e $ev 2>"$work/err"
  check "-p of no process: usage error that says so" \
    test $? = 2 -a "$(head -1 "$work/err")" = "pmcount: no process 4194000 to count (-p): has it exited?"
  "$pmcount" -a -t 2 -e $ev 2>"$work/err"
  check "-a -t 2: a usage error pointing to --duration" \
    test $? = 2 -a "$(head -1 "$work/err")" = "pmcount: -t and -a cannot be combined: -t takes thread ids now, as in perf stat; for a duration in seconds, use --duration"
  set -e
  ;;

system)
  if [[ $(id -u) != 0 ]]; then skip "-a needs root"; fi
  n=$(random_n)
  online=$(cat /sys/devices/system/cpu/online)
  cpus=$(python3 -c '
import sys
out = []
for item in sys.argv[1].split(","):
    a, _, b = item.partition("-")
    out += range(int(a), int(b or a) + 1)
print(" ".join(map(str, out)))' "$online")
  "$pmcount" -a -A -x, -e $ev,task-clock -- "$workload" getppid "$n" 2>"$work/percpu"
  for cpu in $cpus; do
    check "-a -A: a line for CPU$cpu" grep -q "^CPU$cpu,[0-9]*,,$ev," "$work/percpu"
  done
  sum=$(awk -F, -v ev=$ev '$4 == ev {s += $2} END {print s}' "$work/percpu")
  # Other processes could call getppid meanwhile (other tests): at least n.
  check "-a -A: the CPUs' sum ($sum) >= $n" test "$sum" -ge "$n"
  "$pmcount" -a --per-core -x, -e task-clock --duration 0.1 2>"$work/core"
  check "--per-core: label and CPU count" grep -Eq '^S[0-9]+-C[0-9]+,[0-9]+,[0-9]+\.[0-9][0-9],msec,task-clock,' "$work/core"
  "$pmcount" -a --per-socket -e task-clock --duration 0.1 2>"$work/socket"
  check "--per-socket: S0 line" grep -Eq '^S0 +[0-9]+ +[0-9,]+ ns +task-clock' "$work/socket"
  "$pmcount" -a -A --stats -e task-clock --duration 0.1 2>"$work/stats"
  check "--stats: sum/min/max/avg header" grep -Eq 'sum +min +max +avg' "$work/stats"
  first=$(echo $cpus | cut -d' ' -f1)
  "$pmcount" -a -C "$first" -A --json -e task-clock --duration 0.1 2>"$work/one.json"
  check "-C $first: only that CPU, in JSON" python3 -c '
import json, sys
o = json.loads(open(sys.argv[1]).read().splitlines()[-1])
cpus = {c["cpu"] for c in o["counters"]}
sys.exit(0 if cpus == {int(sys.argv[2])} and o["system_wide"] else 1)' "$work/one.json" "$first"
  ;;

bad)
  marker=$work/ran
  bad_cases=(
    "-e no_such_event_xyz"
    "-e task-clok"
    "-e task-clock,,page-faults"
    "-T 10 -e task-clock:u,page-faults:k -e task-clock"
    "-e a,b,c,d,e,f,g,h,i"
    "-g no_such_group"
    "-a -C 0-x"
    "-a -C 4000"
    "-I abc"
    "-I 5"
    "-r 0"
    "-x , --json"
    "--no-such-option"
    "-A"
  )
  for args in "${bad_cases[@]}"; do
    set +e
    # shellcheck disable=SC2086  # the cases are word lists
    "$pmcount" $args -- touch "$marker" >"$work/stdout" 2>"$work/stderr"
    status=$?
    set -e
    check "'$args': usage error (2)" test $status = 2
    check "'$args': a pmcount: message" grep -q "^pmcount: " "$work/stderr"
    check "'$args': nothing but the message" test "$(wc -l <"$work/stderr")" -le 2 -a ! -s "$work/stdout"
    check "'$args': the command never ran" test ! -e "$marker"
  done
  set +e
  "$pmcount" >/dev/null 2>"$work/stderr"
  check "no command without -a: usage error" test $? = 2
  grep -q "no command" "$work/stderr" || fail "no command: says so"
  "$pmcount" -e task-clok -- true 2>"$work/stderr"
  check "unknown event names the closest: task-clock" grep -q "did you mean task-clock" "$work/stderr"
  "$pmcount" -e getppid -- true 2>"$work/stderr"
  check "a part of a name finds the tracepoint" grep -q "$ev" "$work/stderr"
  "$pmcount" -g pm_sw_basik -- true 2>"$work/stderr"
  check "unknown group names the closest" grep -q "pm_sw_basic" "$work/stderr"
  set -e
  ;;

pmlist)
  "$pmlist" >"$work/all"
  check "pmlist: processor line first" grep -q "^processor: " <(head -1 "$work/all")
  check "pmlist: $ev verified, all counters" grep -Eq "^ *[0-9]+ +$ev +verified +0-7 " "$work/all"
  check "pmlist: task-clock listed" grep -Eq "^ *[0-9]+ +task-clock +verified" "$work/all"
  total=$(tail -1 "$work/all" | awk '{print $1}')
  rows=$(($(wc -l <"$work/all") - 3))
  check "pmlist: the count line matches the rows ($rows)" test "$total" = "$rows"
  "$pmlist" -s unverified >"$work/unverified"
  check "-s unverified: no verified rows" bash -c "! awk 'NR > 2 && \$3 == \"verified\"' '$work/unverified' | grep -q ."
  "$pmlist" --source tracepoint getppid >"$work/tp"
  check "--source tracepoint + pattern: only tracepoints" \
    bash -c "awk 'NR > 2 && NF > 3 && \$2 !~ /^[a-z_0-9]+:[a-z_0-9]+\$/' '$work/tp' | wc -l | grep -qx 0"
  check "... and the getppid ones" grep -q "$ev" "$work/tp"
  "$pmlist" -v task-clock >"$work/verbose"
  check "-v: the encoding" grep -q "perf::PERF_COUNT_SW_TASK_CLOCK -> type=1 config=0x1" "$work/verbose"
  "$pmlist" -g >"$work/groups"
  check "-g: pm_sw_basic with its members" grep -q "events  0:task-clock 1:context-switches" "$work/groups"
  check "-g: its metric formula" grep -q "metric  CPUs_utilized = task-clock / (time \* 1e9)" "$work/groups"
  "$pmlist" --json >"$work/all.json"
  check "--json: as many events as the table" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(0 if len(d["events"]) == int(sys.argv[2]) and d["processor"] else 1)' "$work/all.json" "$total"
  "$pmlist" -g --json >"$work/groups.json"
  check "-g --json parses, with metrics" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
g = [x for x in d["groups"] if x["name"] == "pm_sw_basic"][0]
sys.exit(0 if g["metrics"] and g["events"][0] == "task-clock" else 1)' "$work/groups.json"
  set +e
  "$pmlist" --status bogus >/dev/null 2>&1
  check "bad status: usage error" test $? = 2
  # Options that describe events only are refused with -g, not silently ignored.
  "$pmlist" -g --source tracepoint >"$work/stdout" 2>"$work/stderr"
  check "-g --source: usage error" test $? = 2
  check "-g --source: says --source does not apply to groups" \
    grep -q "^pmlist: --source .* does not apply to -g" "$work/stderr"
  check "-g --source: no listing" test ! -s "$work/stdout"
  "$pmlist" -g -v >"$work/stdout" 2>"$work/stderr"
  check "-g -v: usage error" test $? = 2
  check "-g -v: says -v does not apply to groups" grep -q "^pmlist: -v .* does not apply to -g" "$work/stderr"
  set -e
  ;;

misc)
  "$pmcount" --help >"$work/help"
  check "pmcount --help" grep -q "^Usage: pmcount" "$work/help"
  # perf's software events that libpfm4 does not name count like the others; on x86 the kernel
  # counts no alignment or emulation faults, and dummy and bpf-output never count.
  "$pmcount" -x, -e alignment-faults,emulation-faults,dummy,bpf-output -- "$workload" getppid 1 \
    2>"$work/sw"
  check "perf's other software events: counted (exit 0)" test $? = 0
  for ev_sw in alignment-faults emulation-faults dummy bpf-output; do
    check "$ev_sw: a count" grep -Eq "^[0-9]+,,$ev_sw," "$work/sw"
  done
  for ev_sw in dummy bpf-output; do
    check "$ev_sw: counts 0" grep -Eq "^0,,$ev_sw," "$work/sw"
  done
  if [[ $(uname -m) == x86_64 ]]; then
    check "alignment-faults: 0 on x86" grep -Eq "^0,,alignment-faults," "$work/sw"
  fi
  "$pmlist" --help >"$work/help"
  check "pmlist --help" grep -q "^Usage: pmlist" "$work/help"
  for page in pmcount pmlist; do
    check "man page $page.1 installed" test -s "$prefix/share/man/man1/$page.1"
  done
  # The default events: software ones with a note when the PMU is missing.
  "$pmcount" -x, -- "$workload" getppid 1 2>"$work/default"
  if [[ $("$pmlist" -s unverified PM_CYC) == *"no hardware PMU"* ]]; then
    check "default: a note about the missing PMU" grep -q "note: no hardware PMU" "$work/default"
    check "default: task-clock counted, in msec with perf's metric" \
      grep -Eq '^[0-9]+\.[0-9][0-9],msec,task-clock,[0-9]+,100.00,[0-9.]+,CPUs utilized$' "$work/default"
  else
    check "default: cycles counted" grep -Eq '^[0-9]+,,PM_CYC,' "$work/default"
  fi
  # -I: deltas with increasing timestamps; the totals only with --summary, as perf does.
  # A second of spinning for three intervals: a loaded machine delays the timer, never by 700 ms.
  "$pmcount" -I 100 -x, -e task-clock -- "$workload" spin 1000 2>"$work/interval"
  check "-I 100 over 1000 ms: at least 3 intervals" \
    test "$(grep -Ec '^ *[0-9]+\.[0-9]{9},[0-9]+\.[0-9][0-9],msec,task-clock' "$work/interval")" -ge 3
  check "-I: timestamps increase" bash -c "awk -F, '{if (\$1 + 0 <= last) exit 1; last = \$1 + 0}' '$work/interval'"
  check "-I: no summary line without --summary" bash -c "! grep -q summary '$work/interval'"
  "$pmcount" -I 100 --summary -x, -e task-clock -- "$workload" spin 150 2>"$work/interval"
  check "-I --summary: a summary line last" bash -c "tail -1 '$work/interval' | grep -q '^ *summary,'"
  # Under a launcher without -o, ranks share a terminal: every table line says its rank, and
  # --json's objects carry it; with -o each rank has its own file, unlabelled.
  OMPI_COMM_WORLD_RANK=3 "$pmcount" -e $ev -- "$workload" getppid 5 2>"$work/rank"
  check "MPI rank 3: every line labelled [rank 3]" bash -c "! grep -qv '^\[rank 3\]' '$work/rank'"
  check "MPI rank 3: the count is there" grep -qE '^\[rank 3\] +5 +'"$ev"'$' "$work/rank"
  PMI_RANK=1 "$pmcount" --json -e $ev -- "$workload" getppid 5 2>"$work/rank.json"
  check "MPI rank 1: --json says \"rank\":\"1\"" grep -q '^{"rank":"1","command"' "$work/rank.json"
  OMPI_COMM_WORLD_RANK=3 "$pmcount" -o "$work/rank.out" -e $ev -- "$workload" getppid 5
  check "MPI rank 3 with -o: no label in its own file" bash -c "! grep -q rank '$work/rank.out'"
  # A group and its metrics.
  n=$(random_n)
  "$pmcount" -g pm_syscalls -x, -- "$workload" getppid "$n" 2>"$work/group"
  check "-g pm_syscalls: raw_syscalls:sys_enter >= $n" \
    test "$(csv_count raw_syscalls:sys_enter <"$work/group")" -ge "$n"
  check "-g pm_syscalls: a metric line" grep -Eq '^,,,,,[0-9.]+,syscalls_per_second$' "$work/group"
  # A kernel PMU that refuses exclude bits counts in the default (both) mode.
  if [[ $("$pmlist" --source sysfs) == *"msr/tsc"* ]]; then
    "$pmcount" -x, -e msr/tsc,task-clock -- "$workload" spin 20 2>"$work/msr"
    check "msr/tsc counts with user+kernel" test "$(csv_count msr/tsc <"$work/msr")" -gt 0
    # With -u the kernel refuses msr/tsc: the program fails as a whole, pmcount tries each
    # event alone and counts the others.
    "$pmcount" -u -x, -e msr/tsc,task-clock -- "$workload" spin 20 2>"$work/msr-u"
    check "-u: msr/tsc <not supported>" grep -q '^<not supported>,,msr/tsc,' "$work/msr-u"
    check "-u: task-clock still counted" grep -Eq '^[0-9]+\.[0-9][0-9],msec,task-clock,' "$work/msr-u"
  else
    echo "note: no msr/tsc here: the exclude-bits checks are not made"
  fi
  # A group by id; JSON intervals, one object per line.
  gid=$(group_id pm_sw_basic)
  "$pmcount" -g "$gid" -x, -- "$workload" getppid 1 2>"$work/group_by_id"
  check "-g $gid is pm_sw_basic" grep -q ",CPUs_utilized$" "$work/group_by_id"
  # An event by the id pmlist prints (pmlist --help says pmcount -e takes them).
  n=$(random_n)
  id=$(event_id $ev)
  "$pmcount" -x, -e "$id" -- "$workload" getppid "$n" 2>"$work/by_id" || true
  check "-e $id ($ev): exactly $n, under the event's name" \
    test "$(csv_count $ev <"$work/by_id")" = "$n"
  set +e
  "$pmcount" -e 999999999 -- true 2>"$work/no_id"
  check "-e with an id nobody has: usage error" test $? = 2
  check "... that says so" grep -q "no event has the id 999999999" "$work/no_id"
  set -e
  "$pmcount" -I 100 --json -e task-clock -- "$workload" spin 250 2>"$work/interval.json"
  check "-I --json: interval objects, then the totals" python3 -c '
import json, sys
objs = [json.loads(l) for l in open(sys.argv[1])]
ok = len(objs) >= 3 and all(o.get("interval") for o in objs[:-1]) and "command" in objs[-1]
sys.exit(0 if ok else 1)' "$work/interval.json"
  # -a without a command stops at SIGINT and still prints.
  if [[ $(id -u) == 0 ]]; then
    "$pmcount" -a -x, -o "$work/all" -e task-clock &
    pid=$!
    sleep 0.3
    kill -INT $pid
    wait_status $pid
    check "-a until SIGINT: exit 0" test $status = 0
    check "-a until SIGINT: counts printed" grep -Eq '^[0-9]+\.[0-9][0-9],msec,task-clock,' "$work/all"
  else
    echo "note: not root: -a until SIGINT is not checked"
  fi
  # Under strace -f tracing is refused: the child stops itself before exec instead.
  if command -v strace >/dev/null; then
    n=$(random_n)
    strace -f -o /dev/null "$pmcount" -x, -e $ev -- "$workload" getppid "$n" 2>"$work/strace"
    check "under strace -f: still exactly $n" test "$(csv_count $ev <"$work/strace")" = "$n"
  else
    echo "note: no strace here: the fallback stop is not checked"
  fi
  # The command sees the environment pmcount was given: adding a libpfm4 string changes none.
  mkdir "$work/no-tables"
  PMAPI_EVENTS_DIR="$work/no-tables" "$pmcount" -o "$work/env.counts" \
    -e perf::PERF_COUNT_HW_CACHE_L1D:READ:MISS -- \
    sh -c 'echo "${PMAPI_EVENTS_DIR-unset} ${PMAPI_NO_CACHE-unset}"' >"$work/env"
  check "the command's PMAPI_EVENTS_DIR and PMAPI_NO_CACHE as given" \
    test "$(cat "$work/env")" = "$work/no-tables unset"
  # A libpfm4 string with attributes is accepted (counted or <not supported> here).
  "$pmcount" -x, -e perf::PERF_COUNT_HW_CACHE_L1D:READ:MISS -- true 2>"$work/pfm"
  check "libpfm4 string with attributes accepted" \
    grep -Eq '^([0-9]+|<not supported>),,perf::PERF_COUNT_HW_CACHE_L1D:READ:MISS,' "$work/pfm"
  # ... with a relative PMAPI_EVENTS_DIR holding a table of the user's.
  mkdir "$work/site"
  echo "# A site table with no records: only its being read matters." >"$work/site/site.tbl"
  n=$(random_n)
  set +e
  (cd "$work" && PMAPI_EVENTS_DIR=site "$pmcount" -x, \
    -e perf::PERF_COUNT_HW_CACHE_L1D:READ:MISS,$ev -- "$workload" getppid "$n" 2>"$work/rel")
  check "relative PMAPI_EVENTS_DIR + libpfm4 string: exit 0" test $? = 0
  set -e
  check "relative PMAPI_EVENTS_DIR + libpfm4 string: exactly $n" \
    test "$(csv_count $ev <"$work/rel")" = "$n"
  ;;

unprivileged)
  # perf_event_paranoid 2 lets a user count their own processes in user mode only.
  if [[ $(id -u) != 0 ]] || ! command -v setpriv >/dev/null; then
    skip "needs root and setpriv to drop to nobody"
  fi
  paranoid=$(cat /proc/sys/kernel/perf_event_paranoid)
  if ((paranoid < 2)); then skip "perf_event_paranoid is $paranoid (this section wants >= 2)"; fi
  chmod 755 "$work"
  cp "$workload" "$work/workload"
  as_nobody() { setpriv --reuid=nobody --regid=nogroup --clear-groups -- "$@"; }
  set +e
  as_nobody "$pmcount" -x, -e task-clock,page-faults -- "$work/workload" getppid 10 \
    2>"$work/user"
  check "nobody: counts its own command" test $? = 0
  check "nobody: a note that only user mode is counted" \
    grep -q "note: counting user mode only: kernel.perf_event_paranoid is $paranoid" "$work/user"
  check "nobody: task-clock counted" grep -Eq '^[0-9]+\.[0-9][0-9],msec,task-clock,' "$work/user"
  as_nobody "$pmcount" -a -e task-clock --duration 0.1 2>"$work/all"
  check "nobody: -a refused (125)" test $? = 125
  check "nobody: -a says why" grep -q "lack of privilege" "$work/all"
  as_nobody "$pmcount" -k -e task-clock -- "$work/workload" getppid 1 2>"$work/kernel"
  check "nobody: -k refused (125)" test $? = 125
  check "nobody: -k prints no counts" test "$(wc -l <"$work/kernel")" = 1
  # A tracepoint that nobody cannot see: the message says why instead of suggesting names.
  if ! as_nobody test -r /sys/kernel/tracing/events; then
    as_nobody "$pmcount" -e $ev -- "$work/workload" getppid 1 2>"$work/tracefs"
    check "nobody: a tracepoint is a usage error (2)" test $? = 2
    check "nobody: says tracefs is readable by root only" \
      grep -q "^pmcount: unknown event '$ev': .*tracefs (/sys/kernel/tracing) is readable by root only" \
      "$work/tracefs"
    check "nobody: no 'similar name' advice" bash -c "! grep -q 'similar name' '$work/tracefs'"
    # pmlist's search for a tracepoint's word says the same, and how root opens tracefs.
    as_nobody "$pmlist" getppid >"$work/pmlist-out" 2>"$work/pmlist-tracefs"
    check "nobody: pmlist getppid finds nothing (1)" test $? = 1
    check "nobody: pmlist says tracepoints are hidden from this user" \
      grep -q "^pmlist: no event matches 'getppid' among the events this user can see (tracepoints cannot be seen by this user: tracefs (/sys/kernel/tracing) is readable by root only" \
      "$work/pmlist-tracefs"
    check "nobody: pmlist names the command that gives access" \
      grep -q "mount -o remount,gid=GROUP,mode=0750 /sys/kernel/tracing" "$work/pmlist-tracefs"
  else
    echo "note: nobody can read tracefs here; the tracefs message is not checked"
  fi
  set -e
  ;;

binaries)
  # Every installed binary runs from the installed tree under a non-system prefix, with no
  # LD_LIBRARY_PATH, and finds the project's libraries in that tree: in the prefix as
  # installed, and in a copy elsewhere (a run path relative to $ORIGIN, not to the build).
  expected=(cpuperf hpmcount hpmstat pmc pmcost pmcount pmcycles pmlist pmsample)
  installed=()
  for bin in "$prefix"/bin/*; do installed+=("$(basename "$bin")"); done
  check "bin/ holds exactly ${expected[*]} (got: ${installed[*]})" \
    test "${installed[*]}" = "${expected[*]}"
  # The package that ships them says what it holds: each tool is named in its description.
  control=$(dirname "$0")/../../debian/control
  awk '/^Package: pmapi-tools$/ {on = 1; next} /^Package:/ {on = 0} on && /^(Description:| )/' \
    "$control" >"$work/tools-description"
  for name in "${expected[@]}"; do
    check "debian/control: the pmapi-tools description names $name" \
      grep -qw -- "$name" "$work/tools-description"
  done
  cp -a "$prefix" "$work/moved"
  for tree in "$prefix" "$work/moved"; do
    for name in "${expected[@]}"; do
      bin=$tree/bin/$name
      env -u LD_LIBRARY_PATH ldd "$bin" >"$work/ldd" 2>&1 || true
      check "$bin: every library found" bash -c "! grep -q 'not found' '$work/ldd'"
      # The project's own shared libraries must come from this tree, not from elsewhere.
      while read -r lib _ path _; do
        case $lib in
        libpmapi.so* | libpmc.so* | libzx_sampler.so* | libperfmon.so*)
          check "$bin: $lib from $tree" test "${path#"$tree"/}" != "$path"
          ;;
        esac
      done <"$work/ldd"
    done
    set +e
    env -u LD_LIBRARY_PATH "$tree/bin/pmcost" --help >"$work/out" 2>&1
    check "$tree/bin/pmcost --help runs (0)" test $? = 0
    env -u LD_LIBRARY_PATH "$tree/bin/pmcount" --help >"$work/out" 2>&1
    check "$tree/bin/pmcount --help runs (0)" test $? = 0
    env -u LD_LIBRARY_PATH "$tree/bin/pmlist" task-clock >"$work/out" 2>&1
    check "$tree/bin/pmlist runs (0)" test $? = 0
    env -u LD_LIBRARY_PATH "$tree/bin/pmc" list task-clock >"$work/out" 2>&1
    check "$tree/bin/pmc list runs (0)" test $? = 0
    set -e
  done
  pmc=$prefix/bin/pmc
  if have_tracefs; then
    n=$(random_n)
    "$pmc" -c $ev "$workload" getppid "$n" >"$work/pmc"
    check "pmc -c $ev: exactly $n in each mode" test "$(cat "$work/pmc")" = "$ev: user $n kernel $n"
  fi
  # An event id beyond pmc_evid_t's range is refused as such, not truncated into another id.
  set +e
  "$pmc" -c 999999999999 true 2>"$work/out"
  check "pmc -c 999999999999: exit 2 (usage)" test $? = 2
  check "pmc -c 999999999999: out of range" grep -q "^pmc: event id 999999999999 is out of range" "$work/out"
  check "pmc -c 999999999999: not 'No such device'" bash -c "! grep -q 'No such device' '$work/out'"
  "$pmc" -c 2147483647 true 2>"$work/out"
  check "pmc -c with an id nobody has: exit 2 (usage)" test $? = 2
  check "pmc -c with an id nobody has: says so" grep -q "^pmc: no event has the id 2147483647" "$work/out"
  "$pmc" -c 12abc true 2>"$work/out"
  check "pmc -c 12abc: exit 2 (usage)" test $? = 2
  # The nine tools answer alike: --help (0, on stdout), --version (0, one line, pmcount's
  # version), and a usage error in the kit's two lines (2). pmc keeps NetBSD's -h (the list).
  version=$("$prefix/bin/pmcount" --version)
  version=${version##* }
  for name in "${expected[@]}"; do
    bin=$prefix/bin/$name
    "$bin" --help >"$work/help" 2>"$work/help.err"
    check "$name --help: exit 0" test $? = 0
    check "$name --help: the usage on stdout, nothing on stderr" \
      bash -c "[[ -s '$work/help' && ! -s '$work/help.err' ]]"
    "$bin" --version >"$work/version" 2>&1
    check "$name --version: exit 0" test $? = 0
    check "$name --version: '$name (libpmapi) $version'" \
      test "$(cat "$work/version")" = "$name (libpmapi) $version"
    "$bin" --no-such-option >"$work/usage" 2>"$work/usage.err"
    check "$name --no-such-option: exit 2" test $? = 2
    check "$name --no-such-option: two lines, '$name: ...' then where the usage is" \
      bash -c "[[ \$(wc -l <'$work/usage.err') == 2 && \$(head -1 '$work/usage.err') == '$name: '* &&
                 \$(tail -1 '$work/usage.err') == \"Try '$name --help' for more information.\" ]]"
    check "$name --no-such-option: nothing on stdout" test ! -s "$work/usage"
  done
  "$pmc" -c 12abc true 2>"$work/out"
  check "pmc -c 12abc: the kit's wording" grep -qx "Try 'pmc --help' for more information." "$work/out"
  "$pmc" -h >"$work/out"
  check "pmc -h: NetBSD's list" grep -q "^Supported performance counter events:" "$work/out"
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
