#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# scripts/bench refuses a repetition count that gives no medians (issue 26, item 21) with a
# usage message and exit 2, before it builds or runs anything: PMAPI_BENCH_BUILD names a tree
# that does not exist, so a check made too late fails otherwise (or would build for minutes).
#   bench_usage.sh SOURCE_DIR
set -uo pipefail
bench=$1/scripts/bench
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
failures=0
expect_refused() {  # expect_refused WHAT-THE-MESSAGE-SAYS ARG...
  local says=$1
  shift
  PMAPI_BENCH_BUILD=$scratch/no-such-build "$bench" "$@" >"$scratch/out" 2>"$scratch/err"
  local rc=$?
  if [[ $rc != 2 ]] || ! grep -qF -- "$says" "$scratch/err" ||
     ! grep -qF "usage: scripts/bench" "$scratch/err" || [[ -s $scratch/out ]] ||
     [[ -e $scratch/no-such-build ]]; then
    echo "FAIL: scripts/bench $*: exit $rc, stderr: $(cat "$scratch/err"), stdout: $(cat "$scratch/out")"
    failures=$((failures + 1))
  else
    echo "ok: scripts/bench $* -> exit 2: $(head -n 1 "$scratch/err")"
  fi
}
expect_refused "fewer than 2 repetitions (1)" 1
expect_refused "fewer than 2 repetitions (0)" 0
expect_refused "'x3' is not a number of repetitions" x3
expect_refused "'-1' is not a number of repetitions" -1
expect_refused "one argument at most, got 2" 3 4
((failures == 0)) && echo PASS
