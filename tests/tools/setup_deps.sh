#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# scripts/main installs what the demonstration builds and runs and nothing more; the test
# tools (the browser that renders the pictures, the peers, the ABI checker, ...) come with
# scripts/test's full setup. Reads the lists only (--print): nothing is installed.
#   setup_deps.sh SOURCE_DIR
set -uo pipefail
source=$1
failures=0
fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}
main=$("$source/scripts/setup-deps" --main --print) || fail "setup-deps --main --print: exit $?"
all=$("$source/scripts/setup-deps" --print) || fail "setup-deps --print: exit $?"
for needed in cmake libpfm4-dev libhwloc-dev libgtest-dev libbenchmark-dev openmpi-bin \
  libdw-dev python3; do
  grep -qx "$needed" <<<"$main" || fail "the main list lacks $needed (scripts/main builds with it)"
done
for test_only in chromium golang-go abigail-tools linux-perf papi-tools clang gfortran man-db; do
  grep -qx "$test_only" <<<"$main" && fail "the main list installs $test_only, which only tests use"
  grep -qx "$test_only" <<<"$all" || fail "the full list lacks $test_only"
done
while read -r package; do
  grep -qx "$package" <<<"$all" || fail "$package is in the main list but not in the full one"
done <<<"$main"
grep -q '^scripts/setup-deps --main$' "$source/scripts/main" ||
  fail "scripts/main does not install with setup-deps --main"
grep -q '^scripts/setup-deps$' "$source/scripts/test" ||
  fail "scripts/test does not install the full list"
"$source/scripts/setup-deps" --bogus >/dev/null 2>&1
[[ $? == 2 ]] || fail "setup-deps --bogus: not a usage error (2)"
((failures == 0)) || exit 1
echo "setup-deps: the main job's list and the tests' list: ok"
