#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The stable ABI of the shared libraries (docs/packaging.md, "ABI"):
#
#   abi_check.sh exports LIBRARY NODE[,NODE...] [CXX_PREFIX...]
#     Every symbol LIBRARY defines in its dynamic table carries one of the version nodes, and none
#     is C++ code unless its demangled name starts with one of the CXX_PREFIXes (a documented
#     C++ interface such as perfmon::Controller::): internal code and the standard library's
#     template instances stay hidden by the library's version script. A prefix written
#     NODE:PREFIX allows that C++ in NODE only: libpmapi's private node (PMAPI_PRIVATE:pmapi::),
#     which holds the engine calls of the compat libraries and is no part of the public ABI.
#
#   abi_check.sh baseline LIBRARY BASELINE_DIR
#     Compares LIBRARY with the baseline recorded for its soname, BASELINE_DIR/<soname>.abi
#     (abidw's XML), with abidiff. Fails on an incompatible change (a call or variable removed,
#     a type changed in a way existing clients see), and when there is no baseline for the
#     soname: an incompatible change must come with a new soname and a new baseline, both on
#     purpose. Compatible changes (calls added) pass, and are shown. libpmapi's private node is
#     left out of both sides (abi/private.suppr): it promises nothing across versions.
#
#   abi_check.sh update LIBRARY BASELINE_DIR
#     Records LIBRARY's ABI as the baseline of its soname: the deliberate step after a soname
#     change, or to take calls added since into the baseline.
#
# Needs nm and c++filt (binutils) and, for baseline and update, abidw and abidiff (Debian's
# abigail-tools); without them, or without debug information in LIBRARY, the baseline check
# exits 77, which ctest reports as skipped.
set -euo pipefail

mode=${1:-} library=${2:-}
usage() {
  sed -n '2,/^$/s/^# \{0,1\}//p' "$0" >&2
  exit 2
}
[[ -n $mode && -n $library ]] || usage
[[ -f $library ]] || {
  echo "abi_check: no library $library: build it first" >&2
  exit 1
}

soname_of() { readelf -d "$1" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p'; }

# abidw's options: only what the library exports, no source locations or build paths (which
# change with every edit and every build directory).
# A private version node's symbols (the engine calls libpmapi exports to the compat libraries) are
# no part of the ABI: suppressed.
suppressions=$(dirname "$0")/private.suppr
abidw_options=(--exported-interfaces-only --no-show-locs --no-corpus-path --no-comp-dir-path
  --suppressions "$suppressions")

need_abigail() {
  command -v abidw >/dev/null && command -v abidiff >/dev/null && return 0
  echo "abi_check: abidw and abidiff are missing: apt-get install abigail-tools" >&2
  exit 77
}

check_exports() {
  local node=$1
  shift
  local failures=0 symbol version name symbols
  # nm's status and words are kept: read through a pipe, a file nm cannot read (not ELF, no
  # dynamic symbols) would be a library with nothing wrong in it.
  if ! symbols=$(nm -D --defined-only --with-symbol-versions "$library" 2>/dev/null); then
    echo "FAIL: nm cannot read the dynamic symbols of $library:" \
      "$(nm -D "$library" 2>&1 >/dev/null || true)" >&2
    exit 1
  fi
  symbols=$(awk '$2 != "A" {print $3}' <<<"$symbols")
  if [[ -z $symbols ]]; then
    echo "FAIL: $library exports nothing: not the shared library that was meant?" >&2
    exit 1
  fi
  while read -r symbol; do
    name=${symbol%%@*}
    version=
    if [[ $symbol == *@* ]]; then
      version=${symbol#*@}
      version=${version#@}
    fi
    if [[ ,$node, != *",$version,"* ]]; then
      echo "FAIL: $name is exported without the version node $node (${version:-none}):" \
        "list it in the library's version script" >&2
      failures=$((failures + 1))
    fi
    if [[ $name == _Z* ]]; then
      local demangled allowed=0 prefix
      demangled=$(c++filt "$name")
      for prefix in "$@"; do
        if [[ $prefix =~ ^([A-Z][A-Z0-9_.]*):([^:].*)$ ]]; then  # NODE:PREFIX
          [[ $version == "${BASH_REMATCH[1]}" && $demangled == "${BASH_REMATCH[2]}"* ]] && allowed=1
        else
          [[ $demangled == "$prefix"* ]] && allowed=1
        fi
      done
      if ((!allowed)); then
        echo "FAIL: internal C++ symbol exported: $demangled: hide it with the version script" >&2
        failures=$((failures + 1))
      fi
    fi
  done <<<"$symbols"
  if ((failures)); then
    echo "abi_check: $failures unwanted export(s) in $library" >&2
    exit 1
  fi
  echo "ok: every export of $(basename "$library") is public and in $node"
}

check_baseline() {
  local dir=$1 soname baseline
  need_abigail
  soname=$(soname_of "$library")
  baseline=$dir/$soname.abi
  # The types come from the debug information: without it (a Release build) abidiff would
  # see every type as changed.
  # Read whole, not piped to grep -q: under pipefail, grep leaving early fails readelf (SIGPIPE).
  if [[ $(readelf -S "$library") != *.debug_info* ]]; then
    echo "abi_check: $library has no debug information (build with -g, e.g. RelWithDebInfo):" \
      "its ABI cannot be compared; skipped"
    exit 77
  fi
  if [[ ! -f $baseline ]]; then
    echo "FAIL: no ABI baseline for $soname ($baseline). After a deliberate soname change," \
      "record one: $0 update $library $dir (docs/packaging.md, \"ABI\")" >&2
    exit 1
  fi
  local report status=0
  current=$(mktemp "${TMPDIR:-/tmp}/abi_check.XXXXXX")
  trap 'rm -f "$current"' EXIT  # $current is global: the trap runs after the function
  abidw "${abidw_options[@]}" --out-file "$current" "$library"
  report=$(abidiff --no-show-locs --suppressions "$suppressions" "$baseline" "$current") ||
    status=$?
  # abidiff's status is a bit field: 1 error, 2 usage, 4 ABI change, 8 incompatible ABI change.
  if ((status & 3)); then
    echo "$report"
    echo "abi_check: abidiff failed on $baseline and $library (status $status)" >&2
    exit 1
  fi
  if ((status & 8)); then
    echo "$report"
    echo "FAIL: $soname changed incompatibly against $baseline. Undo the change, or make it" \
      "deliberately: raise the library's SOVERSION and record the new soname's baseline with" \
      "$0 update (docs/packaging.md, \"ABI\")" >&2
    exit 1
  fi
  if ((status & 4)); then
    echo "$report"
    echo "note: compatible changes against $baseline (above); take them into the baseline with" \
      "$0 update $library $dir"
  fi
  echo "ok: $soname keeps the ABI of $(basename "$baseline")"
}

update_baseline() {
  local dir=$1 soname
  need_abigail
  soname=$(soname_of "$library")
  mkdir -p "$dir"
  abidw "${abidw_options[@]}" --out-file "$dir/$soname.abi" "$library"
  echo "recorded $dir/$soname.abi"
}

case $mode in
  exports) (($# >= 3)) || usage; check_exports "${@:3}" ;;
  baseline) (($# == 3)) || usage; check_baseline "$3" ;;
  update) (($# == 3)) || usage; update_baseline "$3" ;;
  *) usage ;;
esac
