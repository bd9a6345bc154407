#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The reference documentation as a user finds it in an installed tree (docs/CMakeLists.txt):
#   names     every call an installed library exports, and every installed tool, has a man
#             page `man` finds by that name
#   warnings  groff and man format every page without a warning, and every option heading
#             outside NAME, SYNOPSIS and DESCRIPTION opens a tagged paragraph (.TP)
#   docs      docs/*.md are under <docdir>, and every document a page or a tool's --help names
#             is named by its installed path and is there
#   defaults  pmcount's --help and pmcount(1) name the same default events
#
# usage: installed_docs.sh SECTION PREFIX DOCDIR_CONFIGURED DOCDIR MANDIR LIBDIR BINDIR
#   PREFIX is the scratch prefix the build was installed into; DOCDIR_CONFIGURED the absolute
#   <docdir> the pages were configured with; DOCDIR, MANDIR, LIBDIR, BINDIR relative to PREFIX.
set -euo pipefail

section=$1 prefix=$(cd "$2" && pwd) docdir_configured=$3 docdir=$prefix/$4 mandir=$prefix/$5
libdir=$prefix/$6 bindir=$prefix/$7
failures=0
fail() {
  echo "FAIL: $*" >&2
  failures=$((failures + 1))
}
finish() {
  ((failures == 0)) || {
    echo "$failures failure(s)" >&2
    exit 1
  }
  echo "ok: $section"
}
[[ -d $mandir ]] || {
  echo "FAIL: no $mandir: was the build installed into $prefix?" >&2
  exit 1
}

# The page `man` shows for NAME, looking in this tree only.
page_of() { MANPATH=$mandir man -w "$1" 2>/dev/null; }

# Calls that replace another library's call of the same name (interposers): a page of that name
# would hide the other library's own, so they are described in the page named here instead.
declare -A interposer_page=(
  [pthread_create]=man3/pm_set_program.3        # new threads inherit _mythread programs
  [MPI_Init]=man3/pm_mpi_region_begin.3         # libpmapi-mpi's PMPI wrappers
  [MPI_Init_thread]=man3/pm_mpi_region_begin.3
  [MPI_Finalize]=man3/pm_mpi_region_begin.3
)

# The names a user would look up for LIBRARY's exported symbols: C symbols as they are, C++
# members by their class ("perfmon::Controller"). Left out: version nodes, the C++ runtime's
# template instances (std::, __gnu_cxx::) a library may carry as weak symbols, and libpmapi's
# private node (the engine calls of the compat libraries, no user's to call).
# pmapi_mpi:: is libpmapi-mpi's internal C++ code, exported only because that library has no
# version script yet: listed here so that the day it is hidden this exception can go.
exported_names() {
  nm -D --defined-only --with-symbol-versions "$1" |
    awk '$2 != "A" && $3 !~ /@PMAPI_PRIVATE$/ {sub(/@.*/, "", $3); print $3}' |
    while read -r symbol; do
      if [[ $symbol == _Z* ]]; then
        # The namespace as mangled: St is std::, then a length and a name.
        [[ $symbol =~ ^_ZZ?N?[KVR]*(St|9__gnu_cxx|9pmapi_mpi) ]] && continue
        local cxx
        cxx=$(c++filt "$symbol")
        cxx=${cxx%%(*}
        echo "${cxx%::*}"
      else
        echo "$symbol"
      fi
    done | sort -u
}

check_names() {
  local lib name page count=0
  for lib in "$libdir"/lib*.so; do
    while read -r name; do
      count=$((count + 1))
      if [[ -n ${interposer_page[$name]:-} ]]; then
        page=$mandir/${interposer_page[$name]}
        grep -q "$name" "$page" || fail "$(basename "$lib"): $name is not described in $page"
        continue
      fi
      page_of "$name" >/dev/null || fail "$(basename "$lib") exports $name, which has no man page"
    done < <(exported_names "$lib")
  done
  ((count > 250)) || fail "only $count exported names were found in $libdir: libraries missing?"
  for tool in "$bindir"/*; do
    page=$(page_of "$(basename "$tool")") || {
      fail "the tool $(basename "$tool") has no man page"
      continue
    }
    [[ $page == "$mandir/man1/"* ]] || fail "$(basename "$tool")'s page is $page, not in section 1"
  done
  echo "checked $count exported names"
}

# Pages that are one ".so" line are links to a page checked on its own.
real_pages() {
  local page
  for page in "$mandir"/man*/*; do
    [[ $(head -c 4 "$page") == ".so " ]] || echo "$page"
  done
}

check_warnings() {
  local page out
  while read -r page; do
    out=$(groff -man -ww -z "$page" 2>&1) || fail "groff failed on $page"
    [[ -z $out ]] || fail "groff -ww on $page: $out"
    out=$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings=w -l "$page" 2>&1 >/dev/null) ||
      fail "man failed on $page"
    [[ -z $out ]] || fail "man --warnings on $page: $out"
    # An option's heading line without its .TP runs into the paragraph above: groff says
    # nothing, the reader finds no heading.
    out=$(awk '/^\.SH/ {body = ($0 !~ /NAME|SYNOPSIS|DESCRIPTION/)}
               body && prev !~ /^\.(TP|TQ)/ && /^\.B[IR]? +\\-/ {print NR ": " $0}
               {prev = $0}' "$page")
    [[ -z $out ]] || fail "$page: an option heading without .TP: $out"
  done < <(real_pages)
}

check_docs() {
  [[ $docdir_configured == */share/doc/libpmapi ]] ||
    fail "the docs are configured for $docdir_configured, not .../share/doc/libpmapi"
  local doc page
  for doc in counting.md errors.md tools.md porting.md catalog.md events/README.md \
    groups/README.md; do
    [[ -f $docdir/$doc ]] || fail "$docdir/$doc is not installed"
  done
  # Every path under the configured docdir a page or a --help names must be installed.
  {
    while read -r page; do
      if grep -Eq '(^|[^/a-z])docs/[a-z_]+\.md' "$page"; then
        fail "$page names a document by its source path: $(grep -Eo 'docs/[a-z_]+\.md' "$page" | head -1)"
      fi
      grep -Eo "$docdir_configured/[A-Za-z_/.]+\.md" "$page" | sed "s|^|$page |" || true
    done < <(real_pages)
    for tool in pmcount pmlist; do
      out=$("$bindir/$tool" --help)
      if grep -Eq '(^|[^/a-z])docs/[a-z_]+\.md' <<<"$out"; then
        fail "$tool --help names a document by its source path"
      fi
      grep -Eo "$docdir_configured/[A-Za-z_/.]+\.md" <<<"$out" | sed "s|^|$tool-help |" || true
    done
  } >"$prefix/named-docs.txt"
  [[ -s $prefix/named-docs.txt ]] || fail "no page names an installed document"
  local where named
  while read -r where named; do
    [[ -f $docdir/${named#"$docdir_configured"/} ]] || fail "$where names $named, not installed"
  done <"$prefix/named-docs.txt"
  echo "checked $(wc -l <"$prefix/named-docs.txt") references to installed documents"
}

# The events named in pmcount's default sentence on standard input, in order (perf's names).
default_events() {
  tr '\n' ' ' |
    grep -Eo 'task-clock|context-switches|cpu-migrations|page-faults|cycles|instructions|branch-misses|branches' |
    tr '\n' ' '
}

check_defaults() {
  local expected="task-clock context-switches cpu-migrations page-faults cycles instructions branches branch-misses "
  local help man
  help=$("$bindir/pmcount" --help | sed -n '/Default:/,/PMU\./p' | default_events)
  man=$(sed -n '/^Without \\fB\\-e/,/^\.PP/p' "$mandir/man1/pmcount.1" | sed 's/\\-/-/g' |
    default_events)
  [[ $help == "$expected" ]] || fail "pmcount --help gives the defaults as '$help', not '$expected'"
  [[ $man == "$expected" ]] || fail "pmcount(1) gives the defaults as '$man', not '$expected'"
}

case $section in
  names) check_names ;;
  warnings) check_warnings ;;
  docs) check_docs ;;
  defaults) check_defaults ;;
  *)
    echo "usage: $0 names|warnings|docs|defaults PREFIX DOCDIR_CONFIGURED DOCDIR MANDIR LIBDIR BINDIR" >&2
    exit 2
    ;;
esac
finish
