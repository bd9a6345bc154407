#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs the current build into a scratch prefix and builds a C client
# against that tree only, the three ways users do: pkg-config (shared),
# pkg-config --static (libpmapi.a), and find_package(pmapi).  Each client
# is run.  Also checks the install layout itself.
#
# usage: install_client.sh BUILD_DIR SOURCE_DIR LIBDIR C_COMPILER
set -euo pipefail

build=$1 src=$2 libdir=$3 cc=$4
client=$src/tests/install/install_client.c
cflags=(-std=c99 -Wall -Wextra -pedantic -Werror)
. "$src/tests/install/install_lib.sh"
install_into_scratch pmapi-install "$build" "$libdir"

step "install layout"
[[ -f $prefix/include/libpmapi/pmapi.h ]] || fail "no include/libpmapi/pmapi.h"
[[ ! -e $prefix/include/pmapi.h ]] || fail "include/pmapi.h would clash with other pmapi.h files"
lib=$prefix/$libdir
[[ -L $lib/libpmapi.so ]] || fail "libpmapi.so is not a symlink"
soname=$(readelf -d "$lib/libpmapi.so" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
[[ $soname == libpmapi.so.0 ]] || fail "SONAME is '$soname', expected libpmapi.so.0"
[[ -L $lib/$soname ]] || fail "no $soname symlink"
real=$(readlink -f "$lib/libpmapi.so")
[[ -f $real && ! -L $real && $(basename "$real") == libpmapi.so.0.* ]] ||
  fail "libpmapi.so resolves to $real"
[[ -f $lib/libpmapi.a ]] || fail "no libpmapi.a"
[[ -f $lib/pkgconfig/pmapi.pc ]] || fail "no pkgconfig/pmapi.pc"
[[ -f $lib/cmake/pmapi/pmapiConfig.cmake ]] || fail "no cmake/pmapi/pmapiConfig.cmake"

export PKG_CONFIG_PATH=$lib/pkgconfig
step "pkg-config metadata"
pc_cflags=$(pkg-config --cflags pmapi | xargs)  # xargs: trim pkg-config's padding
[[ $pc_cflags == "-I$prefix/include/libpmapi" ]] || fail "Cflags: '$pc_cflags'"
pc_libs=$(pkg-config --libs pmapi | xargs)
[[ $pc_libs == "-L$lib -lpmapi" ]] || fail "Libs: '$pc_libs'"

step "shared client via pkg-config"
# shellcheck disable=SC2046  # word splitting of pkg-config output is intended
# With a run path to the prefix, as for any library outside the loader's
# search path; no LD_LIBRARY_PATH, which would hide a missing one.
run_logged "$work/cc-shared.log" "$cc" "${cflags[@]}" "$client" \
  $(pkg-config --cflags --libs pmapi) "-Wl,-rpath,$(pkg-config --variable=libdir pmapi)" -ldl \
  -o "$work/client_shared"
readelf -d "$work/client_shared" | grep -q 'NEEDED.*libpmapi.so.0' ||
  fail "shared client does not depend on libpmapi.so.0"
env -u LD_LIBRARY_PATH "$work/client_shared" --dlsym "$prefix"

step "static client via pkg-config --static"
# -l:libpmapi.a picks the archive although libpmapi.so sits next to it;
# the rest (libpfm, hwloc, the C++ runtime) comes from Libs.private.
static_libs=$(pkg-config --static --libs pmapi)
static_libs=${static_libs/-lpmapi/-l:libpmapi.a}
# shellcheck disable=SC2046,SC2086
run_logged "$work/cc-static.log" "$cc" "${cflags[@]}" "$client" \
  $(pkg-config --cflags pmapi) $static_libs -o "$work/client_static"
if readelf -d "$work/client_static" | grep -q 'NEEDED.*libpmapi'; then
  fail "static client still depends on libpmapi.so"
fi
"$work/client_static"

step "find_package(pmapi) consumer"
run_logged "$work/consumer-configure.log" cmake -S "$src/tests/install/consumer" \
  -B "$work/consumer" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_C_COMPILER="$cc" \
  -DPMAPI_CLIENT_SOURCE="$client" -DCMAKE_C_FLAGS="${cflags[*]}"
run_logged "$work/consumer-build.log" cmake --build "$work/consumer"
# No LD_LIBRARY_PATH: CMake's build-tree RPATH must point at the prefix.
"$work/consumer/consumer_shared" --dlsym "$prefix"
if readelf -d "$work/consumer/consumer_static" | grep -q 'NEEDED.*libpmapi'; then
  fail "consumer_static depends on libpmapi.so"
fi
"$work/consumer/consumer_static"
# The other libraries, each through its find_package component's imported target.
for component in hpm pmc perfmon zx_sampler mpi; do
  if [[ $component == mpi && ! -e $work/consumer/consumer_mpi ]]; then
    echo "(no mpi component: this build has no libpmapi-mpi)"
    continue
  fi
  env -u LD_LIBRARY_PATH "$work/consumer/consumer_$component" || fail "consumer_$component"
done

echo "install client: all checks passed"
