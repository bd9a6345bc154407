# SPDX-License-Identifier: MIT
# The checks the installed-tools scripts share (sourced, after `set -euo pipefail`):
#   . "$(dirname "$0")/checks.sh" NAME
# gives $work (a scratch directory named after NAME, removed at exit), fail and check (which
# count failures in $failures), skip (exit 77: the section cannot run here, the reason printed;
# 77 is the SKIP_RETURN_CODE of tests/tools/CMakeLists.txt), random_n, wait_status and
# have_tracefs.
work=$(mktemp -d "${TMPDIR:-/tmp}/$1.XXXXXX")
trap 'rm -rf "$work"' EXIT
failures=0

fail() {
  echo "FAIL: $*" >&2
  failures=$((failures + 1))
}
check() {  # check DESCRIPTION TEST...
  local what=$1
  shift
  if "$@"; then echo "ok: $what"; else fail "$what"; fi
}
skip() {  # skip REASON
  echo "SKIP: $*"
  exit 77
}
# A count nobody could hard-code: 1000..1999, different every run.
random_n() { echo $((1000 + RANDOM % 1000)); }
# wait_status PID: waits for a background job and sets $status to its exit status (128 + N
# when signal N ended it), which `set -e` would otherwise turn into the script's own exit.
wait_status() {
  status=0
  wait "$1" || status=$?
}
have_tracefs() {
  [[ -d /sys/kernel/tracing/events/syscalls || -d /sys/kernel/debug/tracing/events/syscalls ]]
}
