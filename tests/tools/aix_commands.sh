#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Runs the installed hpmcount, hpmstat, pmlist and pmcycles the way AIX scripts do: command
# lines from IBM's command reference (its examples) and from job scripts, each checked for its
# exit status and for the lines a parser reads, exact where a tracepoint counts
# (syscalls:sys_enter_getppid: N calls, N counts), through a site group table as sites have.
#
# usage: aix_commands.sh SECTION PREFIX WORKLOAD
#   SECTION   hpmcount | hpmstat | pmlist | pmcycles
#   PREFIX    where the build was installed (tools.install does it)
#   WORKLOAD  tests/tools/workload.c built
#
# Exit status: 0 passed, 1 a check failed, 77 the section cannot run here.
set -euo pipefail

section=$1 prefix=$2 workload=$3
bin=$prefix/bin
. "$(dirname "$0")/checks.sh" aix-commands
# The value a script reads from an AIX report line: what follows the last ':' on the first
# line containing LABEL, blanks trimmed.
value() { awk -v label="$1" 'index($0, label) {n = split($0, f, ":"); v = f[n]; gsub(/^ +| +$/, "", v); print v; exit}'; }
for tool in hpmcount hpmstat pmlist pmcycles; do
  [[ -x $bin/$tool ]] || { echo "FAIL: $bin has no $tool" >&2; exit 1; }
done
ev=syscalls:sys_enter_getppid
# Ten tracepoints, more than one AIX program's 8 counters: a session counts them all.
ten=$ev
for call in getpid gettid getuid geteuid getgid getegid getpgrp getcwd getsid; do
  ten+=,syscalls:sys_enter_$call
done

# A site's group table, as $PMAPI_GROUPS_DIR adds it: getppid entries and CPU time.
mkdir "$work/site"
cat >"$work/site/site.grp" <<'GRP'
50000 | pm_site_getppid | getppid calls | Entries to getppid, with the counted thread's CPU time.
  events syscalls:sys_enter_getppid task-clock
  metric getppid_per_second = syscalls:sys_enter_getppid / time
  metric getppid_per_cpu_second = syscalls:sys_enter_getppid / (task-clock / 1e9)
GRP

case $section in
hpmcount)
  have_tracefs || skip "no tracefs with syscall tracepoints (scripts/setup-deps mounts it)"
  # The issue's own line: hpmcount -g pm_sw_basic ls.
  "$bin/hpmcount" -g pm_sw_basic ls / >"$work/ls" 2>"$work/ls.err"
  check "hpmcount -g pm_sw_basic ls: exit 0" test $? = 0
  check "ls's own output comes first" grep -qx "usr" "$work/ls"
  check "workload context line" grep -Eq "^ Workload context: ls \(pid:[0-9]+\)$" "$work/ls"
  check "wall clock header" grep -Eq "^ Execution time \(wall clock time\): [0-9]+\.[0-9]{6} seconds$" "$work/ls"
  check "resource usage block" grep -qx " ########  Resource Usage Statistics  ########" "$work/ls"
  check "user time line" grep -Eq "^ Total amount of time in user mode +: [0-9]+\.[0-9]{6} seconds$" "$work/ls"
  check "a field Linux does not keep says so" \
    grep -Eq "^ Number of times process was swapped out +: not kept by Linux$" "$work/ls"
  check "end of resource block" grep -qx " #######  End of Resource Statistics  ########" "$work/ls"
  check "counting mode: user (AIX's default)" grep -qx " Counting mode: user" "$work/ls"
  # Switches and migrations happen in kernel mode: their 0 in user mode is explained, beside a
  # resource block that counts every switch.
  check "a note says why context-switches count 0 in user mode, and names -k" \
    grep -Eq "^ Note: context-switches, cpu-migrations: 0 in user mode.*; -k counts kernel mode too$" "$work/ls"
  "$bin/hpmcount" -k -g pm_sw_basic true >"$work/k"
  check "with -k, no such note" bash -c "! grep -q '0 in user mode' '$work/k'"
  faults=$(value "page-faults (Page faults)" <"$work/ls")
  check "page-faults counted ($faults)" test "$faults" -gt 0
  check "derived metric group" grep -qx "  Derived metric group: pm_sw_basic" "$work/ls"
  check "a derived metric with a value" test -n "$(value CPUs_utilized <"$work/ls")"
  check "nothing on stderr" test ! -s "$work/ls.err"

  # Exact counts through a site group: N getppid calls, N counts, by name and by AIX's
  # environment variables and libHPM_events file.
  export PMAPI_GROUPS_DIR=$work/site
  n=$(random_n)
  "$bin/hpmcount" -g pm_site_getppid "$workload" getppid "$n" >"$work/site.out"
  check "-g site group: $ev is $n" test "$(value "$ev" <"$work/site.out")" = "$n"
  check "-g site group: its metric" test -n "$(value getppid_per_cpu_second <"$work/site.out")"
  n=$(random_n)
  HPM_EVENT_GROUP=pm_site_getppid "$bin/hpmcount" "$workload" getppid "$n" >"$work/env.out"
  check "HPM_EVENT_GROUP: $ev is $n" test "$(value "$ev" <"$work/env.out")" = "$n"
  n=$(random_n)
  HPM_EVENT_SET=pm_site_getppid "$bin/hpmcount" "$workload" getppid "$n" >"$work/set.out"
  check "HPM_EVENT_SET with a group name: $ev is $n" test "$(value "$ev" <"$work/set.out")" = "$n"
  n=$(random_n)
  (cd "$work" && printf '# our site group\npm_site_getppid\n' >libHPM_events &&
    HPM_EVENT_GROUP=pm_sw_basic "$bin/hpmcount" "$workload" getppid "$n" >"$work/file.out")
  check "libHPM_events wins over the variables: $ev is $n" \
    test "$(value "$ev" <"$work/file.out")" = "$n"
  rm -f "$work/libHPM_events"
  n=$(random_n)
  "$bin/hpmcount" -e $ev,task-clock "$workload" getppid "$n" >"$work/e.out"
  check "-e: $ev is $n" test "$(value "$ev" <"$work/e.out")" = "$n"
  # One set counts through the counting session: an -e list past one program's 8 counters,
  # every tracepoint exact, and one event in two modes.
  n=$(random_n)
  status=0
  "$bin/hpmcount" -e "$ten" "$workload" getppid "$n" >"$work/ten.out" 2>"$work/ten.err" || status=$?
  check "-e 10 tracepoints (more than 8 counters): exit 0" test "$status" = 0
  check "-e 10 tracepoints: $ev is $n" test "$(value "$ev" <"$work/ten.out")" = "$n"
  check "-e 10 tracepoints: a line for each" \
    test "$(grep -c "^  syscalls:sys_enter_[a-z]* .*: *[0-9]*$" "$work/ten.out")" = 10
  check "-e 10 tracepoints: nothing on stderr" test ! -s "$work/ten.err"
  status=0
  "$bin/hpmcount" -e page-faults:u,page-faults:k "$workload" getppid 1 >"$work/uk.out" 2>&1 || status=$?
  check "-e page-faults:u,page-faults:k: exit 0" test "$status" = 0
  check "... counting mode per-event" grep -qx " Counting mode: per-event" "$work/uk.out"
  check "... page-faults:u counted" test "$(value "page-faults:u" <"$work/uk.out")" -gt 0
  check "... page-faults:k has its own line" grep -q "^  page-faults:k .*: *[0-9][0-9]*$" "$work/uk.out"
  n=$(random_n)
  "$bin/hpmcount" -k -x -D getppid_per_second -g pm_site_getppid "$workload" getppid "$n" >"$work/x.out"
  check "-k: counting mode user+kernel" grep -qx " Counting mode: user+kernel" "$work/x.out"
  check "-k: $ev is $n" test "$(value "$ev" <"$work/x.out")" = "$n"
  check "-x: the formula shown" grep -q "formula: syscalls:sys_enter_getppid / time" "$work/x.out"
  check "-D: only the metric asked for" test "$(grep -c getppid_per_cpu_second "$work/x.out")" = 0
  # -o: AIX names the file <file>_<MP_CHILD or 0000>.<pid>.
  n=$(random_n)
  (cd "$work" && "$bin/hpmcount" -o run -g pm_site_getppid "$workload" getppid "$n" >"$work/o.stdout")
  files=("$work"/run_0000.*)
  check "-o run: one file run_0000.<pid>" test -f "${files[0]}"
  check "-o: the report is in the file" test "$(value "$ev" <"${files[0]}")" = "$n"
  check "-o: nothing of the report on stdout" test ! -s "$work/o.stdout"
  (cd "$work" && MP_CHILD=5 "$bin/hpmcount" -o task -g pm_site_getppid "$workload" getppid 1 >/dev/null)
  check "-o with MP_CHILD=5: task_0005.<pid>" compgen -G "$work/task_0005.*" >/dev/null
  # Lines from public job scripts: the events chosen by the environment, -o naming the file,
  # the HPM Toolkit's -n (nothing on stdout) glued to -a and -o, a loop over groups appending.
  n=$(random_n)
  (cd "$work" && HPM_EVENT_GROUP=pm_site_getppid "$bin/hpmcount" -o data_hpm "$workload" getppid "$n" >/dev/null)
  files=("$work"/data_hpm_0000.*)
  check "hpmcount -o data_hpm: $ev is $n in ${files[0]##*/}" test "$(value "$ev" <"${files[0]}")" = "$n"
  # HPM_LOG_DIR: a copy of the report in <dir>/hpm_log.<pid>, with -n too.
  mkdir "$work/logs"
  n=$(random_n)
  HPM_LOG_DIR=$work/logs "$bin/hpmcount" -n -g pm_site_getppid "$workload" getppid "$n" >"$work/log.stdout"
  files=("$work"/logs/hpm_log.*)
  check "HPM_LOG_DIR: $ev is $n in logs/${files[0]##*/}" test "$(value "$ev" <"${files[0]}")" = "$n"
  check "-n: nothing on stdout" test ! -s "$work/log.stdout"
  # -a under POE: each task leaves its counts in HPM_LOG_DIR, the last one writes the sum to
  # hpm_log.<MP_PARTITION>; the tasks end together here, and exactly one sums.
  mkdir "$work/job"
  total=0
  pids=()
  for task in 0 1 2; do
    n=$(random_n)
    total=$((total + n))
    HPM_LOG_DIR=$work/job MP_CHILD=$task MP_PROCS=3 MP_PARTITION=part42 \
      "$bin/hpmcount" -a -g pm_site_getppid "$workload" getppid "$n" >/dev/null 2>"$work/a$task.err" &
    pids+=($!)
  done
  for pid in "${pids[@]}"; do wait "$pid"; done
  check "-a: the aggregate's $ev is the tasks' sum ($total)" \
    test "$(value "$ev" <"$work/job/hpm_log.part42")" = "$total"
  check "-a: over 3 tasks" grep -qx " Aggregate of 3 tasks (job part42)" "$work/job/hpm_log.part42"
  check "-a: no task complained" test ! -s "$work/a0.err" -a ! -s "$work/a1.err" -a ! -s "$work/a2.err"
  # The same job name again: the earlier run's claim is there, so no sum is written, and the
  # task says so rather than leave the old aggregate to be read as this run's.
  status=0
  HPM_LOG_DIR=$work/job MP_CHILD=0 MP_PROCS=1 MP_PARTITION=part42 \
    "$bin/hpmcount" -a -g pm_site_getppid "$workload" getppid 1 >/dev/null 2>"$work/again.err" || status=$?
  check "-a with a job name used twice: the command's status" test "$status" = 0
  check "-a with a job name used twice: said on stderr" grep -q \
    "^hpmcount: -a: $work/job/hpm_log.part42.claim is there already, from another run of job part42.*no aggregate written" \
    "$work/again.err"
  check "... and the earlier aggregate is left as it was" \
    grep -qx " Aggregate of 3 tasks (job part42)" "$work/job/hpm_log.part42"
  "$bin/hpmcount" -a -g pm_site_getppid "$workload" getppid 1 >/dev/null 2>"$work/a.err"
  check "-a outside a job: said, the command's status kept" \
    grep -q "^hpmcount: -a: HPM_LOG_DIR names no directory the tasks share" "$work/a.err"
  mkdir "$work/prof"
  n=$(random_n)
  (cd "$work" && HPM_EVENT_GROUP=pm_site_getppid "$bin/hpmcount" -nao prof/hpm "$workload" getppid "$n" >"$work/nao.stdout" 2>"$work/nao.err")
  files=("$work"/prof/hpm_0000.*)
  check "hpmcount -nao prof/hpm: $ev is $n in prof/${files[0]##*/}" test "$(value "$ev" <"${files[0]}")" = "$n"
  check "-n: nothing on stdout" test ! -s "$work/nao.stdout"
  for group in pm_sw_basic 7; do
    echo "group = $group" >>"$work/loop.out"
    "$bin/hpmcount" -g $group -H sleep 0.1 >>"$work/loop.out"
  done
  check "a loop over groups: two reports appended" \
    test "$(grep -c "^ Execution time (wall clock time)" "$work/loop.out")" = 2
  check "... each with its derived metrics" test "$(grep -c "Derived metric group: pm_sw_basic" "$work/loop.out")" = 2
  # Multiplexing: a comma list of groups, each reported with its set and duration.
  "$bin/hpmcount" -d -g pm_sw_basic,pm_site_getppid "$workload" spin 300 >"$work/mx.out"
  check "multiplexed: Set 1 and Set 2" grep -qx " Set: 2" "$work/mx.out"
  check "multiplexed: a counting duration per set" \
    test "$(grep -Ec "^ Counting duration: [0-9.]+ seconds$" "$work/mx.out")" = 2
  # -s 0, every set: the groups countable here, multiplexed (none of a PMU's on a VM).
  "$bin/hpmcount" -s 0 "$workload" spin 200 >"$work/s0.out"
  check "-s 0: pm_sw_basic among the sets" grep -qx " Group: pm_sw_basic" "$work/s0.out"
  check "-s 0: no set the kernel cannot count" bash -c "! grep -q 'not counted' '$work/s0.out'"
  # Exit statuses: the command's, 126/127 when it cannot run, 2 for a bad command line.
  set +e
  "$bin/hpmcount" -g pm_sw_basic "$workload" exit 3 >/dev/null
  check "the command's exit status (3)" test $? = 3
  "$bin/hpmcount" -g pm_sw_basic "$workload" signal TERM >/dev/null 2>&1
  check "killed by SIGTERM: 143" test $? = 143
  "$bin/hpmcount" -g pm_sw_basic no-such-command-here >/dev/null 2>"$work/err"
  check "command not found: 127" test $? = 127
  check "command not found: said so" grep -q "^hpmcount: cannot run 'no-such-command-here': command not found" "$work/err"
  # A reader that leaves the pipe early costs the report, not the command's status.
  "$bin/hpmcount" -g pm_sw_basic sh -c 'echo first; sleep 0.2; exit 4' 2>"$work/err" | head -1 >/dev/null
  check "hpmcount ... | head -1: the command's status (4)" test "${PIPESTATUS[0]}" = 4
  check "... and the lost report said on stderr" grep -q "^hpmcount: cannot write standard output: " "$work/err"
  # IBM's example (POWER's metric group): a clear usage error here.
  "$bin/hpmcount" -m cpi_breakdown ls >/dev/null 2>"$work/err"
  check "hpmcount -m cpi_breakdown ls: usage error 2" test $? = 2
  check "... naming the group and pmlist" grep -q "unknown group 'cpi_breakdown' (pmlist -g -1 lists the groups)" "$work/err"
  # A mistyped group, on the command line and in AIX's variable: the group it is close to.
  "$bin/hpmcount" -g pm_sw_basc true >/dev/null 2>"$work/err"
  check "hpmcount -g pm_sw_basc: usage error 2" test $? = 2
  check "... did you mean pm_sw_basic" \
    grep -q "^hpmcount: unknown group 'pm_sw_basc'; did you mean pm_sw_basic" "$work/err"
  HPM_EVENT_SET=pm_sw_basc "$bin/hpmcount" true >/dev/null 2>"$work/err"
  check "HPM_EVENT_SET=pm_sw_basc: usage error 2" test $? = 2
  check "... did you mean pm_sw_basic" \
    grep -q "^hpmcount: HPM_EVENT_SET: unknown group 'pm_sw_basc'; did you mean pm_sw_basic" "$work/err"
  "$bin/hpmcount" -o "$work/no/such/dir/run" -g pm_sw_basic "$workload" exit 3 >/dev/null 2>"$work/err"
  check "-o into a missing directory: 125, the command not run" test $? = 125
  check "... said so" grep -q "^hpmcount: cannot write $work/no/such/dir/run_0000\.[0-9]*: " "$work/err"
  HPM_EVENT_SET=", ," "$bin/hpmcount" true >/dev/null 2>"$work/err"
  check "HPM_EVENT_SET naming nothing: usage error 2" test $? = 2
  check "... said so" grep -q "^hpmcount: HPM_EVENT_SET: names no group or event" "$work/err"
  "$bin/hpmcount" -g pm_sw_basic >/dev/null 2>"$work/err"
  check "no command: 2" test $? = 2
  "$bin/hpmcount" -H -b purr -g pm_sw_basic true >"$work/h.out" 2>&1
  check "-H -b purr: runs" test $? = 0
  check "-H: a line says Linux has no hypervisor mode apart" grep -q "^ Note: -H: Linux counts no hypervisor mode" "$work/h.out"
  check "-b purr: a line says it is the wall clock" grep -q "^ Note: -b purr: Linux has no purr register" "$work/h.out"
  set -e
  ;;

hpmstat)
  if [[ $(id -u) != 0 ]]; then skip "hpmstat counts the whole machine: root only, as on AIX"; fi
  have_tracefs || skip "no tracefs with syscall tracepoints"
  # The issue's own line: hpmstat -g pm_sw_basic 1 2.
  "$bin/hpmstat" -g pm_sw_basic 1 2 >"$work/stat" 2>"$work/stat.err"
  check "hpmstat -g pm_sw_basic 1 2: exit 0" test $? = 0
  check "two reports" test "$(grep -c "^ Execution time (wall clock time): " "$work/stat")" = 2
  check "each about a second" \
    awk '/Execution time/ {if ($6 < 0.9 || $6 > 1.5) bad = 1} END {exit bad}' "$work/stat"
  check "counting mode user+kernel (hpmstat's default)" \
    test "$(grep -c "^ Counting mode: user+kernel$" "$work/stat")" = 2
  check "task-clock of the whole machine in each" \
    test "$(grep -c "^  task-clock (Task clock) *: *[0-9]" "$work/stat")" = 2
  check "derived metrics in each" test "$(grep -c "Derived metric group: pm_sw_basic" "$work/stat")" = 2
  check "no resource usage block (no command)" test "$(grep -c "Resource Usage" "$work/stat")" = 0
  # IBM's example: hpmstat -s 7 (a set number; on Linux a set is a group, 7 is pm_sw_basic).
  "$bin/hpmstat" -s 7 >"$work/s7"
  check "hpmstat -s 7: one report of pm_sw_basic" grep -qx "  Derived metric group: pm_sw_basic" "$work/s7"
  # The whole machine's getppid calls over an interval: at least the workload's.
  export PMAPI_GROUPS_DIR=$work/site
  n=$(random_n)
  "$bin/hpmstat" -T -g pm_site_getppid 2 1 >"$work/site.stat" &
  stat_pid=$!
  sleep 0.5
  "$workload" getppid "$n"
  wait $stat_pid
  got=$(value "$ev" <"$work/site.stat")
  check "-g site group: $ev ($got) >= $n" test "$got" -ge "$n"
  check "-T: a time stamp line" grep -Eq "^ Time stamp: [0-9]+\.[0-9]{6}$" "$work/site.stat"
  # One set counts through a session on every CPU: 10 tracepoints, past 8 counters.
  n=$(random_n)
  "$bin/hpmstat" -e "$ten" 2 1 >"$work/ten.stat" 2>"$work/ten.err" &
  stat_pid=$!
  sleep 0.5
  "$workload" getppid "$n"
  status=0
  wait $stat_pid || status=$?
  check "-e 10 tracepoints (more than 8 counters): exit 0" test "$status" = 0
  got=$(value "$ev" <"$work/ten.stat")
  check "-e 10 tracepoints: $ev ($got) >= $n" test "${got:-0}" -ge "$n"
  check "-e 10 tracepoints: a line for each" \
    test "$(grep -c "^  syscalls:sys_enter_[a-z]* .*: *[0-9]*$" "$work/ten.stat")" = 10
  # IBM's multiplexing example, on groups this machine has: -s 7,8 -d.
  "$bin/hpmstat" -d -s 7,8 1 1 >"$work/mx"
  check "-s 7,8: two sets" test "$(grep -c "^ Set: " "$work/mx")" = 2
  set +e
  "$bin/hpmstat" 0 >/dev/null 2>"$work/err"
  check "interval 0: usage error 2" test $? = 2
  "$bin/hpmstat" -@ mywpar 1 1 >/dev/null 2>"$work/err"
  check "-@ WPAR: 2, Linux has none" test $? = 2
  check "-@: said so" grep -q "Linux has no workload partitions" "$work/err"
  "$bin/hpmstat" -r -g pm_sw_basic 1 1 >"$work/r"
  check "-r: runs, with a line saying Linux has no run latch" grep -q "^ Note: -r: Linux has no run latch" "$work/r"
  # Root only, as on AIX: anyone else gets 125 and the reason, and no report.
  if command -v setpriv >/dev/null &&
    (($(cat /proc/sys/kernel/perf_event_paranoid) >= 1)); then
    env -u PMAPI_GROUPS_DIR setpriv --reuid=nobody --regid=nogroup --clear-groups -- "$bin/hpmstat" 1 1 \
      >"$work/nobody.out" 2>"$work/nobody.err"
    check "as nobody: 125" test $? = 125
    check "as nobody: says root or CAP_PERFMON is needed" grep -q "needs root or CAP_PERFMON" "$work/nobody.err"
    check "as nobody: no report" test ! -s "$work/nobody.out"
  fi
  # -U: microseconds, until interrupted, no derived metrics; the options after the interval.
  timeout --preserve-status -s INT 1 "$bin/hpmstat" -U 200000 -g pm_sw_basic >"$work/U"
  check "-U 200000 stopped after 1 s: exit 0" test $? = 0
  check "-U: reports every 0.2 s" test "$(grep -c "^ Execution time" "$work/U")" -ge 3
  check "-U: no derived metrics" test "$(grep -c "Derived metric" "$work/U")" = 0
  # Interrupted: the partial interval is reported, the exit is clean.
  "$bin/hpmstat" -g pm_sw_basic 10 5 >"$work/int" &
  stat_pid=$!
  sleep 0.5
  kill -INT $stat_pid
  wait $stat_pid
  check "SIGINT: exit 0" test $? = 0
  check "SIGINT: one partial report" test "$(grep -c "Execution time" "$work/int")" = 1
  set -e
  ;;

pmlist)
  # The issue's own line: pmlist -g -1, every group.
  "$bin/pmlist" -g -1 >"$work/g"
  check "pmlist -g -1: pm_sw_basic as group 7" grep -qx "Group #7: pm_sw_basic" "$work/g"
  check "pmlist -g -1: its members on counters 1.." grep -Eq "^  Counter 1, event [0-9]+: task-clock \(Task clock\)$" "$work/g"
  groups=$("$bin/pmlist" -s | awk -F: '/^Number of groups/ {gsub(/ /, "", $2); print $2}')
  check "pmlist -g -1 lists as many groups as -s says ($groups)" \
    test "$(grep -c "^Group #" "$work/g")" = "$groups"
  "$bin/pmlist" -g pm_sw_basic -o c >"$work/csv"
  check "-g NAME -o c: a CSV header and one row" test "$(wc -l <"$work/csv")" = 2
  check "-o c: the members" grep -q "task-clock context-switches cpu-migrations page-faults" "$work/csv"
  "$bin/pmlist" -e task-clock >"$work/e"
  check "-e task-clock: its counters" grep -Eq "^  Counters +: 1(,[0-9]+)*$" "$work/e"
  "$bin/pmlist" -c 1,task-clock >"$work/c"
  check "-c 1,task-clock: one line" test "$(wc -l <"$work/c")" = 1
  PMAPI_GROUPS_DIR=$work/site "$bin/pmlist" -m pm_site_getppid >"$work/m"
  check "-m GROUP: its metric formulas" grep -q "getppid_per_second *syscalls:sys_enter_getppid / time" "$work/m"
  "$bin/pmlist" -D -1 >"$work/d"
  check "-D -1: the derived metrics header" grep -qx "Derived metrics supported:" "$work/d"
  # As AIX prints them: each metric once, with its description.
  check "-D -1: IPC once" test "$(grep -c '^ *IPC ' "$work/d")" = 1
  check "-D -1: IPC with its description" grep -Eqx "        IPC +Instructions per cycle" "$work/d"
  check "-D -1: CPUs_utilized with its description" \
    grep -Eqx "        CPUs_utilized +CPUs used on average" "$work/d"
  PMAPI_GROUPS_DIR=$work/site "$bin/pmlist" -D -1 >"$work/d-site"
  check "-D -1: a site metric without a description shows its formula" \
    grep -Eqx "        getppid_per_second +syscalls:sys_enter_getppid / time" "$work/d-site"
  # Today's forms: -s LIST, -g alone, and the long options.
  "$bin/pmlist" -s verified task-clock >"$work/old"
  check "-s verified PATTERN: today's table" grep -Eq "^ +[0-9]+  task-clock +verified" "$work/old"
  "$bin/pmlist" --groups pm_sw >"$work/old"
  check "--groups PATTERN: today's table" grep -Eq "^ +7  pm_sw_basic" "$work/old"
  set +e
  # IBM's example names POWER5: on Linux only this machine's processor is known.
  "$bin/pmlist" -D -1 -p POWER5 >/dev/null 2>"$work/err"
  check "pmlist -D -1 -p POWER5: exit 1" test $? = 1
  check "... naming this machine's processor" grep -q "^pmlist: -p POWER5: pmlist on Linux knows this machine's processor only" "$work/err"
  "$bin/pmlist" -g no_such_group >/dev/null 2>"$work/err"
  check "-g unknown: exit 1" test $? = 1
  "$bin/pmlist" -g pm_sw_basc >/dev/null 2>"$work/err"
  check "-g mistyped: exit 1" test $? = 1
  check "-g mistyped: did you mean the group" \
    grep -q "^pmlist: no group is named pm_sw_basc here; did you mean pm_sw_basic" "$work/err"
  "$bin/pmlist" -s PM_CYC >/dev/null 2>"$work/err"
  check "-s with a pattern: usage error 2" test $? = 2
  set -e
  ;;

pmcycles)
  "$bin/pmcycles" >"$work/c"
  check "pmcycles: one line" grep -Eqx "This machine runs at [0-9]+ MHz" "$work/c"
  mhz=$(awk '{print $5}' "$work/c")
  expected=$(awk -F: '/^cpu MHz/ {printf "%d\n", $2 + 0.5; exit}' /proc/cpuinfo)
  if [[ -z $expected ]]; then
    expected=$(awk '{printf "%d\n", $1 / 1000 + 0.5}' /sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq 2>/dev/null || true)
  fi
  if [[ -r /sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq ]]; then
    expected=$(awk '{printf "%d\n", $1 / 1000 + 0.5}' /sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq)
  fi
  check "pmcycles: $mhz MHz is the nominal clock ($expected)" test "$mhz" = "$expected"
  "$bin/pmcycles" -m >"$work/m"
  online=$(python3 -c '
import sys
n = 0
for item in open("/sys/devices/system/cpu/online").read().strip().split(","):
    a, _, b = item.partition("-")
    n += int(b or a) - int(a) + 1
print(n)')
  check "pmcycles -m: a line per online CPU ($online)" \
    test "$(grep -Ec "^CPU [0-9]+ runs at [0-9]+ MHz$" "$work/m")" = "$online"
  "$bin/pmcycles" -M >"$work/M"
  check "pmcycles -M: the measured line" grep -Eq "^The measured frequency" "$work/M"
  set +e
  "$bin/pmcycles" -z >/dev/null 2>&1
  check "pmcycles -z: usage error 2" test $? = 2
  set -e
  ;;
*)
  echo "unknown section $section" >&2
  exit 1
  ;;
esac

if [[ $failures -gt 0 ]]; then
  echo "$failures check(s) failed" >&2
  exit 1
fi
