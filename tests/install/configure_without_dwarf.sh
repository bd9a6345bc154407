#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The project configures on a machine without libdw, libelf and zlib (the from-source list of
# README.md does not require them): the Fuchsia parts that need them are left out, and
# configuring says so and names the packages.
#
# usage: configure_without_dwarf.sh SOURCE_DIR
# Only hwloc is left visible to pkg-config, and find_package(ZLIB) is disabled.
set -euo pipefail

source=$1
work=$(mktemp -d "${TMPDIR:-/tmp}/configure-without-dwarf.XXXXXX")
trap 'rm -rf "$work"' EXIT
fail() {
  echo "FAIL: $*" >&2
  exit 1
}

# A pkg-config directory with hwloc and what it requires, nothing else.
mkdir "$work/pc"
pcdir=$(pkg-config --variable pcfiledir hwloc)
cp "$pcdir/hwloc.pc" "$work/pc/"
for module in $(pkg-config --print-requires --print-requires-private hwloc | awk '{print $1}'); do
  found=$(pkg-config --variable pcfiledir "$module" 2>/dev/null) || continue
  cp "$found/$module.pc" "$work/pc/"
done
PKG_CONFIG_LIBDIR=$work/pc pkg-config --exists libdw && fail "libdw is still visible"

status=0
PKG_CONFIG_LIBDIR=$work/pc PKG_CONFIG_PATH='' \
  cmake -S "$source" -B "$work/build" -DPMAPI_BUILD_TESTS=OFF -DPMAPI_BUILD_BENCHMARKS=OFF \
  -DCMAKE_DISABLE_FIND_PACKAGE_ZLIB=ON -DCMAKE_DISABLE_FIND_PACKAGE_MPI=ON \
  >"$work/configure.log" 2>&1 || status=$?
if ((status != 0)); then
  cat "$work/configure.log" >&2
  fail "configuring without libdw, libelf and zlib failed ($status)"
fi
grep -q "Not built: Fuchsia's perfmon and sampler" "$work/configure.log" ||
  fail "configuring did not say what is left out: $(cat "$work/configure.log")"
grep -q "libdw-dev libelf-dev zlib1g-dev" "$work/configure.log" ||
  fail "configuring did not name the packages"
grep -q "Generating done" "$work/configure.log" || fail "no build files were generated"
echo "configure without libdw, libelf and zlib: ok"
