#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Finding events as people search for them: pmlist's words and wildcards, its "did you mean"
# and exit status, the countable events first, descriptions wrapped on a terminal only; and
# pmcount -e with wildcards, exact where the pattern names one tracepoint, bounded where it
# names more than can be opened. One section per ctest test (tests/tools.cmake).
#
# usage: event_search.sh SECTION PREFIX WORKLOAD
#   SECTION   pmlist | pmcount
#   PREFIX    where the build was installed (tools.install does it)
#   WORKLOAD  tests/tools/workload.c built: getppid calls with exactly known counts
#
# Exit status: 0 passed, 1 a check failed, 77 the section cannot run here (no tracefs).
set -euo pipefail

section=$1 prefix=$2 workload=$3
pmcount=$prefix/bin/pmcount
pmlist=$prefix/bin/pmlist
. "$(dirname "$0")/checks.sh" event-search-test
# The event names of pmlist's table on stdin (rows: id, name, status, ...).
names() { awk '$1 ~ /^[0-9]+$/ && $3 ~ /^(verified|caveat|unverified)$/ {print $2}'; }
# The value of EVENT in pmcount -x, output.
csv_count() { awk -F, -v ev="$1" '$3 == ev {print $1; exit}'; }

have_tracefs || skip "no tracefs with syscall tracepoints that this user can read"
ev=syscalls:sys_enter_getppid

case $section in
pmlist)
  # Several words, all of which must match, in any order and any case, as arguments or in one.
  "$pmlist" syscalls getppid enter >"$work/words"
  check "three words: only $ev" test "$(names <"$work/words")" = "$ev"
  "$pmlist" ENTER GetPpid syscalls >"$work/reordered"
  check "the same words reordered, in other cases: the same listing" cmp -s "$work/words" "$work/reordered"
  "$pmlist" "getppid enter" >"$work/quoted"
  check "two words in one argument: the same event" test "$(names <"$work/quoted")" = "$ev"
  # Wildcards over names, the whole name or after its subsystem.
  "$pmlist" 'syscalls:sys_enter_getpp*' >"$work/glob"
  check "'syscalls:sys_enter_getpp*': $ev alone" test "$(names <"$work/glob")" = "$ev"
  "$pmlist" 'SYS_ENTER_GETPP?D' >"$work/glob2"
  check "'SYS_ENTER_GETPP?D' (after the subsystem, any case): $ev alone" test "$(names <"$work/glob2")" = "$ev"
  "$pmlist" 'syscalls:sys_[e]nter_*' >"$work/enter"
  total=$(ls /sys/kernel/tracing/events/syscalls 2>/dev/null | grep -c '^sys_enter_' || true)
  [[ $total -gt 0 ]] || total=$(ls /sys/kernel/debug/tracing/events/syscalls | grep -c '^sys_enter_')
  check "'syscalls:sys_[e]nter_*': every sys_enter_ tracepoint tracefs has ($total)" \
    test "$(names <"$work/enter" | grep -c '^syscalls:sys_enter_')" = "$total"
  check "... and nothing else" test "$(names <"$work/enter" | wc -l)" = "$total"
  # Countable first: no verified or caveat row after the first unverified one.
  "$pmlist" >"$work/all"
  check "countable events first" awk '
    $1 ~ /^[0-9]+$/ && $3 == "unverified" {seen = 1}
    $1 ~ /^[0-9]+$/ && seen && ($3 == "verified" || $3 == "caveat") {exit 1}' "$work/all"
  # Nothing matches: nothing on standard output, the reason on standard error, exit 1.
  set +e
  "$pmlist" getppdi >"$work/stdout" 2>"$work/stderr"
  check "a typo: exit 1" test $? = 1
  check "... nothing on standard output" test ! -s "$work/stdout"
  check "... did you mean getppid" grep -q "^pmlist: no event matches 'getppdi'.*did you mean getppid" "$work/stderr"
  "$pmlist" instructions retird >/dev/null 2>"$work/stderr"
  check "two words, one mistyped: exit 1" test $? = 1
  check "... names the word, suggests 'retired'" grep -q "contains 'retird'; did you mean retired" "$work/stderr"
  "$pmlist" 'syscalls:sys_entr_*' >/dev/null 2>"$work/stderr"
  check "a mistyped pattern: exit 1" test $? = 1
  check "... suggests the pattern corrected" grep -q "did you mean syscalls:sys_enter_\*?" "$work/stderr"
  "$pmlist" getppid task-clock >/dev/null 2>"$work/stderr"
  check "words that match apart, not together: exit 1" test $? = 1
  check "... says each matches alone" grep -q "each word matches alone.*leave a word out" "$work/stderr"
  "$pmlist" --status unverified $ev >/dev/null 2>"$work/stderr"
  check "a filter leaving the match out: exit 1" test $? = 1
  check "... says the event is there without it" grep -q "1 event does without them: $ev (verified)" "$work/stderr"
  "$pmlist" --json zzzqqqxx >"$work/stdout" 2>/dev/null
  check "--json, nothing matches: exit 1" test $? = 1
  check "... and no document" test ! -s "$work/stdout"
  "$pmlist" --groups zzzqqqxx >/dev/null 2>&1
  check "--groups, nothing matches: exit 1" test $? = 1
  set -e
  # Not a terminal: one line per event whatever COLUMNS says (what scripts parse).
  COLUMNS=40 "$pmlist" retired instructions >"$work/narrow"
  "$pmlist" retired instructions >"$work/plain"
  check "COLUMNS in a pipe: no wrapping" cmp -s "$work/narrow" "$work/plain"
  check "... one line per event" test "$(($(wc -l <"$work/plain") - 3))" = "$(tail -1 "$work/plain" | awk '{print $1}')"
  # A terminal (script(1) gives one): descriptions wrapped to COLUMNS, every word kept.
  if command -v script >/dev/null; then
    COLUMNS=60 script -qec "$pmlist getppid" /dev/null | tr -d '\r' >"$work/tty"
    check "terminal, COLUMNS=60: no line wider than 60" awk 'length($0) > 60 {exit 1}' "$work/tty"
    check "... the description's words all there" \
      bash -c "tr -s ' \n' ' ' <'$work/tty' | grep -q 'Kernel tracepoint $ev: counts the times the kernel passes it.'"
    check "... both events" test "$(names <"$work/tty" | sort | tr '\n' ' ')" = "$ev syscalls:sys_exit_getppid "
    COLUMNS=60 script -qec "$pmlist --no-wrap getppid" /dev/null | tr -d '\r' >"$work/tty_nowrap"
    check "terminal with --no-wrap: one line per event, as in a pipe" \
      cmp -s "$work/tty_nowrap" <("$pmlist" getppid)
  else
    echo "note: no script(1): the terminal checks are not made"
  fi
  ;;

pmcount)
  # A pattern naming one tracepoint counts exactly, as the name would.
  n=$(random_n)
  "$pmcount" -x, -e 'syscalls:sys_enter_getpp*' -- "$workload" getppid "$n" 2>"$work/exact"
  check "-e 'syscalls:sys_enter_getpp*': exactly $n" test "$(csv_count $ev <"$work/exact")" = "$n"
  check "... one event counted" test "$(grep -c ',syscalls:' "$work/exact")" = 1
  n=$(random_n)
  "$pmcount" -x, -e 'sys_enter_getpp?d:u' -- "$workload" getppid "$n" 2>"$work/exact_u"
  check "-e 'sys_enter_getpp?d:u': the modifier kept, exactly $n" test "$(csv_count $ev:u <"$work/exact_u")" = "$n"
  # A pattern matching an event also named outright: counted once.
  n=$(random_n)
  "$pmcount" -x, -e "$ev" -e 'syscalls:sys_enter_getpp*' -- "$workload" getppid "$n" 2>"$work/twice"
  check "a name and a pattern for the same event: counted once, exactly $n" \
    test "$(grep -c ",$ev," "$work/twice")-$(csv_count $ev <"$work/twice")" = "1-$n"
  # pmcount -e PATTERN counts what pmlist PATTERN lists as countable.
  "$pmlist" -s verified,caveat 'syscalls:sys_enter_get*' | names | sort >"$work/listed"
  "$pmcount" -x, -e 'syscalls:sys_enter_get*' -- true 2>"$work/many"
  awk -F, '$3 ~ /^syscalls:/ {print $3}' "$work/many" | sort >"$work/counted"
  check "-e 'syscalls:sys_enter_get*' counts what pmlist lists ($(wc -l <"$work/listed") events)" \
    cmp -s "$work/listed" "$work/counted"
  check "... more than 8 of them, each counted on its own: none <not counted>, no note of turns" \
    bash -c "! grep -q 'not counted\|take turns' '$work/many'"
  set +e
  "$pmcount" -e 'syscalls:sys_entr_*' -- true 2>"$work/typo"
  check "a pattern nothing matches: usage error" test $? = 2
  check "... with the pattern corrected" grep -q "no event matches 'syscalls:sys_entr_\*'; did you mean syscalls:sys_enter_\*?" "$work/typo"
  # No bound but the descriptors (the 360 entry tracepoints: tools.vs_perf.glob).
  get=$(wc -l <"$work/listed")
  (ulimit -n 40; "$pmcount" -e 'syscalls:sys_enter_get*' -- touch "$work/ran") 2>"$work/fds"
  check "past the file descriptor limit: usage error" test $? = 2
  check "... naming the count and ulimit -n" grep -q "makes $get events to count, which takes $get file descriptors (1 for each event: one on the command).*(ulimit -n is 40): narrow the pattern, or raise the limit" "$work/fds"
  check "... the command not run" test ! -e "$work/ran"
  "$pmcount" -T 10 -e 'syscalls:sys_enter_get*' -e task-clock -- true 2>"$work/set"
  check "-T with a pattern filling a set past 8: usage error" test $? = 2
  check "... saying a set holds at most 8" grep -q "puts $get events in event set 1, and a set holds at most 8" "$work/set"
  if [[ $("$pmlist" -s unverified PM_INST_CMPL 2>/dev/null) == *PM_INST_CMPL* ]]; then
    "$pmcount" -e 'PM_INST_CMP*' -- true 2>"$work/uncountable"
    check "a pattern matching only uncountable events: usage error" test $? = 2
    check "... saying why" grep -q "'PM_INST_CMP\*' matches 1 event, none countable here (PM_INST_CMPL: " "$work/uncountable"
  fi
  set -e
  ;;

*)
  echo "unknown section '$section'" >&2
  exit 2
  ;;
esac

if ((failures > 0)); then
  echo "$failures check(s) failed" >&2
  exit 1
fi
echo "all checks passed"
