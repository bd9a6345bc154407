#!/bin/sh
# SPDX-License-Identifier: MIT
# install.perfmon_client: install the build into a scratch prefix, build the two examples
# (C with the cpuperf calls, C++ with the Controller) with nothing but `pkg-config perfmon`,
# run them, and run the installed cpuperf on a command and read its man page: proves the
# headers, perfmon.pc, libperfmon.so, bin/cpuperf and cpuperf.1 agree.
# Usage: install_client.sh <build dir> <source dir> <libdir> <C compiler> <C++ compiler>
set -eu
build=$1 source=$2 libdir=$3 cc=$4 cxx=$5
. "$source/tests/install/install_lib.sh"
install_into_scratch perfmon-install "$build" "$libdir"
examples=$source/compat/fuchsia/perfmon/examples
# shellcheck disable=SC2046 # pkg-config's output is meant to be split
"$cc" -std=c11 -Wall -Wextra -Werror "$examples/perfmon_trace.c" \
  $(pkg-config --cflags --libs perfmon) -Wl,-rpath,"$prefix/$libdir" -o "$prefix/perfmon_trace"
# shellcheck disable=SC2046
"$cxx" -std=c++17 -Wall -Wextra -Werror "$examples/perfmon_controller.cpp" \
  $(pkg-config --cflags --libs perfmon) -Wl,-rpath,"$prefix/$libdir" -o "$prefix/perfmon_controller"
"$prefix/perfmon_trace"
"$prefix/perfmon_controller"
"$prefix/bin/cpuperf" --output-prefix="$prefix/trace" -e linux:task-clock -- /bin/true
test -s "$prefix/trace.0.0.cpuperf"
test -s "$prefix/share/man/man1/cpuperf.1"
