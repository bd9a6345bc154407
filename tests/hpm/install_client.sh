#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs the current build into a scratch prefix and builds libhpm's
# examples against that tree only, the way docs/libhpm.md says: `pkg-config
# libhpm`, plus a run path to the prefix's libdir since it is no system
# directory, for the C one and the Fortran one (when a Fortran compiler is
# given).  Each is run without LD_LIBRARY_PATH, which would hide a library
# that cannot find its own dependencies (libhpm.so needs libpmapi.so: its
# $ORIGIN run path finds it), and must write its report.  Also checks the
# installed files.
#
# usage: install_client.sh BUILD_DIR SOURCE_DIR LIBDIR C_COMPILER [FORTRAN_COMPILER]
set -euo pipefail

build=$1 src=$2 libdir=$3 cc=$4 fc=${5:-}
. "$src/tests/install/install_lib.sh"
install_into_scratch hpm-install "$build" "$libdir"

step "install layout"
lib=$prefix/$libdir
for header in libhpm.h f_hpm.h f_hpm_8.h; do
  [[ -f $prefix/include/libpmapi/$header ]] || fail "no include/libpmapi/$header"
done
[[ -L $lib/libhpm.so ]] || fail "libhpm.so is not a symlink"
soname=$(readelf -d "$lib/libhpm.so" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
[[ $soname == libhpm.so.0 ]] || fail "SONAME is '$soname', expected libhpm.so.0"
[[ -f $lib/pkgconfig/libhpm.pc ]] || fail "no pkgconfig/libhpm.pc"

export PKG_CONFIG_PATH=$lib/pkgconfig
unset LD_LIBRARY_PATH
step "pkg-config metadata"
pc_libs=$(pkg-config --libs libhpm | xargs)
[[ $pc_libs == "-L$lib -lhpm -lpmapi" ]] || fail "Libs: '$pc_libs'"
pc_cflags=$(pkg-config --cflags libhpm | xargs)
[[ $pc_cflags == "-I$prefix/include/libpmapi" ]] || fail "Cflags: '$pc_cflags'"
pc_libdir=$(pkg-config --variable=libdir libhpm)
[[ $pc_libdir == "$lib" ]] || fail "libdir: '$pc_libdir'"
# The link docs/libhpm.md gives for a prefix outside the loader's search path.
rpath=-Wl,-rpath,$pc_libdir

# The examples count getppid: exact numbers to check in the report.
export HPM_EVENT_SET=syscalls:sys_enter_getppid,task-clock
check_report() {  # check_report DIR SECTION CALLS COUNT
  local json
  json=$(ls "$1"/perfhpm0.*.json) || fail "no report in $1"
  python3 - "$json" "$2" "$3" "$4" <<'PY' || fail "report $json"
import json, sys
report = json.load(open(sys.argv[1]))
section = [s for s in report["sections"] if s["id"] == int(sys.argv[2])][0]
got = (section["calls"], section["inclusive"]["syscalls:sys_enter_getppid"])
want = (int(sys.argv[3]), int(sys.argv[4]))
assert got == want, f"section {sys.argv[2]}: {got} != {want}"
PY
}

step "C example via pkg-config"
mkdir "$work/c"
# shellcheck disable=SC2046  # word splitting of pkg-config output is intended
run_logged "$work/cc.log" "$cc" -std=c99 -Wall -Wextra -pedantic -Werror \
  "$src/examples/hpm_sections.c" $(pkg-config --cflags --libs libhpm) "$rpath" -lpthread \
  -o "$work/c/hpm_sections"
[[ $(readelf -d "$work/c/hpm_sections") =~ NEEDED.*libhpm\.so\.0 ]] ||
  fail "the C example does not depend on libhpm.so.0"
(cd "$work/c" && ./hpm_sections >/dev/null) || fail "the C example did not run (log above)"
check_report "$work/c" 1 1 1300
check_report "$work/c" 7 4 1000

if [[ -n $fc ]]; then
  step "Fortran example via pkg-config"
  mkdir "$work/f"
  # shellcheck disable=SC2046
  run_logged "$work/fc.log" "$fc" -cpp -Wall -Werror "$src/examples/hpm_sections.f90" \
    $(pkg-config --cflags --libs libhpm) "$rpath" -o "$work/f/hpm_sections_f90"
  (cd "$work/f" && ./hpm_sections_f90 >/dev/null) || fail "the Fortran example did not run"
  check_report "$work/f" 2 3 0
fi

step "libhpm.so's run path"
# A client's own run path (DT_RUNPATH, what the linker writes by default) is
# not searched for libhpm's dependencies: libhpm must carry one to its directory.
runpath=$(readelf -d "$lib/libhpm.so" | sed -n 's/.*(R\(UN\)\{0,1\}PATH).*\[\(.*\)\]/\2/p')
[[ $runpath == "\$ORIGIN" ]] || fail "libhpm.so's run path is '$runpath', expected \$ORIGIN"

echo "hpm install client: all checks passed"
