#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# abi_check.sh on a small library of its own, built three ways, for the outcomes that matter:
# a call added passes (and is shown), a call removed fails, and a new soname without its own
# baseline fails; a call left out of the version node, internal C++ exported (unless it is in
# the private node its prefix names), a file nm cannot read or an object that exports nothing
# fails the exports check.
#
# usage: abi_check_test.sh C_COMPILER CXX_COMPILER
set -euo pipefail
cc=$1 cxx=$2
check=$(dirname "$0")/abi_check.sh
work=$(mktemp -d "${TMPDIR:-/tmp}/abi_check_test.XXXXXX")
trap 'rm -rf "$work"' EXIT
fail() {
  echo "FAIL: $*" >&2
  exit 1
}

# build SONAME CALLS...: a library whose version node LIBT_1 holds the named calls.
build() {
  local soname=$1 call source=$work/t.c
  shift
  : >"$source"
  for call in "$@"; do echo "int $call(int x) { return x + 1; }" >>"$source"; done
  printf 'LIBT_1 { global: %s; local: *; };\n' "$(IFS=';'; echo "$*")" >"$work/t.map"
  "$cc" -g -shared -fPIC -o "$work/$soname" "$source" "-Wl,-soname,$soname" \
    "-Wl,--version-script=$work/t.map"
}
expect() {  # expect STATUS WORDS CMD...: CMD exits STATUS and its output has WORDS
  local want=$1 words=$2 out status=0
  shift 2
  out=$("$@" 2>&1) || status=$?
  [[ $status == "$want" ]] || fail "$* exited $status, not $want: $out"
  [[ $out == *"$words"* ]] || fail "$* did not say '$words': $out"
}

# Exports: a call outside the node, and C++ code, are refused.
echo 'int t_open(int x) { return x; } int t_stray(int x) { return x; }' >"$work/u.c"
echo 'LIBT_1 { global: t_open; }; ' >"$work/u.map"
"$cc" -shared -fPIC -o "$work/libu.so" "$work/u.c" "-Wl,--version-script=$work/u.map"
expect 1 "t_stray is exported without the version node LIBT_1" \
  "$check" exports "$work/libu.so" LIBT_1
# A call added in a later node: exported in it, which the check must be told of.
echo 'int t_open(int x) { return x; } int t_added(int x) { return x; }' >"$work/w.c"
printf 'LIBT_1 { global: t_open; local: *; };\nLIBT_2 { global: t_added; } LIBT_1;\n' >"$work/w.map"
"$cc" -shared -fPIC -o "$work/libw.so" "$work/w.c" "-Wl,--version-script=$work/w.map"
expect 0 "is public and in LIBT_1,LIBT_2" "$check" exports "$work/libw.so" LIBT_1,LIBT_2
expect 1 "t_added is exported without the version node LIBT_1 (LIBT_2)" \
  "$check" exports "$work/libw.so" LIBT_1
echo 'namespace inner { int helper(int x) { return x; } }' >"$work/v.cpp"
echo 'LIBT_1 { global: *; };' >"$work/v.map"
"$cxx" -shared -fPIC -o "$work/libv.so" "$work/v.cpp" "-Wl,--version-script=$work/v.map"
expect 1 "internal C++ symbol exported: inner::helper(int)" \
  "$check" exports "$work/libv.so" LIBT_1
expect 0 "is public" "$check" exports "$work/libv.so" LIBT_1 inner::
# A file nm cannot read, and an object that exports nothing, fail: they are no library whose
# exports were checked.
expect 1 "nm cannot read the dynamic symbols of /etc/passwd" "$check" exports /etc/passwd LIBT_1
echo 'static int nothing;' >"$work/n.c"
"$cc" -c -o "$work/n.o" "$work/n.c"
expect 1 "exports nothing" "$check" exports "$work/n.o" LIBT_1

# A private node: its C++ passes when the prefix names that node, and only there.
echo 'namespace inner { int helper(int x) { return x; } } extern "C" int t_open(int x) { return x; }' \
  >"$work/p.cpp"
printf 'LIBT_1 { global: t_open; local: *; };\nLIBT_PRIVATE { global: extern "C++" { inner::*; }; };\n' \
  >"$work/p.map"
"$cxx" -shared -fPIC -o "$work/libp.so" "$work/p.cpp" "-Wl,--version-script=$work/p.map"
expect 0 "is public and in LIBT_1,LIBT_PRIVATE" \
  "$check" exports "$work/libp.so" LIBT_1,LIBT_PRIVATE LIBT_PRIVATE:inner::
expect 1 "internal C++ symbol exported: inner::helper(int)" \
  "$check" exports "$work/libv.so" LIBT_1 LIBT_PRIVATE:inner::

# The baseline checks need abigail's tools.
command -v abidw >/dev/null || {
  echo "abidw missing (apt-get install abigail-tools): the baseline checks skipped"
  exit 77
}

build libt.so.1 t_open t_close
"$check" update "$work/libt.so.1" "$work/abi" >/dev/null
expect 0 "keeps the ABI" "$check" baseline "$work/libt.so.1" "$work/abi"
expect 0 "is public and in LIBT_1" "$check" exports "$work/libt.so.1" LIBT_1
expect 0 "is public and in LIBT_0,LIBT_1" "$check" exports "$work/libt.so.1" LIBT_0,LIBT_1

build libt.so.1 t_open t_close t_read
expect 0 "compatible changes" "$check" baseline "$work/libt.so.1" "$work/abi"

build libt.so.1 t_open
expect 1 "changed incompatibly" "$check" baseline "$work/libt.so.1" "$work/abi"

build libt.so.2 t_open
expect 1 "no ABI baseline for libt.so.2" "$check" baseline "$work/libt.so.2" "$work/abi"

echo "abi_check: all outcomes as expected"
