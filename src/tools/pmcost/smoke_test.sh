#!/bin/sh
# SPDX-License-Identifier: MIT
# pmcost smoke test: a bad -n is a usage error; a short run prints every row (AIX's calls and
# the counting session's), and each timed row has min <= median <= p99 with a median between
# 1 ns and 1 s. The system-wide row may say "skipped: needs root or CAP_PERFMON" when
# not privileged.
set -eu
pmcost=$1
"$pmcost" --help | grep -q "Usage:"
# -n is a whole number that fits: anything else is a usage error (2) naming -n, before
# anything is measured, never an exception.
usage() {  # usage WORDS ARGS...: pmcost ARGS exits 2 and says WORDS
  words=$1
  shift
  status=0
  err=$("$pmcost" "$@" 2>&1 >/dev/null) || status=$?
  if [ "$status" -ne 2 ] || ! printf '%s' "$err" | grep -qF -- "$words"; then
    echo "FAIL: pmcost $* exited $status, not 2 saying '$words': $err"
    exit 1
  fi
}
usage "for -n" -n 99999999999999999999
usage "for -n" -n 1.5
usage "for -n" -n 0x10
# Under a memory limit too small for the call times: said, exit 2. (A sanitizer's runtime
# cannot start under such a limit: nothing to check there.)
# shellcheck disable=SC3045  # Debian's sh (dash) has ulimit -v
limited=$( (ulimit -v 2000000 && "$pmcost" -n 1000000000) 2>&1 >/dev/null) && status=0 || status=$?
case $limited in
  *Sanitizer*) ;;
  *)
    if [ "$status" -ne 2 ] || ! printf '%s' "$limited" | grep -qF -- "-n 1000000000: no memory"; then
      echo "FAIL: pmcost -n 1000000000 under a 2 GB limit exited $status: $limited"
      exit 1
    fi ;;
esac
out=$("$pmcost" -n 200)
printf '%s\n' "$out"
status=0
for row in "pm_get_data_mythread " "pm_start_mythread+pm_stop_mythread " \
           "pm_reset_data_mythread " "pm_set_program_mythread+pm_delete_program_mythread " \
           "pm_get_data (system-wide" "pm_session_read (1 software event) " \
           "pm_session_read (8 software events) " \
           "pm_session_start+pm_session_stop (8 software events) " "pm_initialize (fresh process"; do
  line=$(printf '%s\n' "$out" | grep -F -- "$row" || true)
  if [ -z "$line" ]; then
    echo "FAIL: no row '$row'"; status=1; continue
  fi
  case $line in
    *"skipped: needs root or CAP_PERFMON"*)
      [ "$(id -u)" -ne 0 ] && continue
      echo "FAIL: '$row' skipped although running as root"; status=1; continue ;;
    *skipped*) echo "FAIL: $line"; status=1; continue ;;
  esac
  # The last three fields are min, median and p99.
  if ! printf '%s\n' "$line" | awk '{ min = $(NF-2); med = $(NF-1); p99 = $NF;
        exit !(min > 0 && min <= med && med <= p99 && med >= 1 && med < 1e9) }'; then
    echo "FAIL: implausible numbers: $line"; status=1
  fi
done
exit $status
