#!/bin/sh
# SPDX-License-Identifier: MIT
# install.netbsd_client: install the build into a scratch prefix, then build
# the NetBSD example with nothing but `pkg-config pmc` and run it, and run the
# installed pmc tool: proves the header, pmc.pc, libpmc.so and bin/pmc agree.
# Usage: install_client.sh <build dir> <source dir> <libdir> <C compiler>
set -eu
build=$1 source=$2 libdir=$3 cc=$4
. "$source/tests/install/install_lib.sh"
install_into_scratch netbsd-install "$build" "$libdir"
# shellcheck disable=SC2046 # pkg-config's output is meant to be split
"$cc" -Wall -Wextra -Werror "$source/compat/netbsd/examples/netbsd_count.c" \
  $(pkg-config --cflags --libs pmc) -Wl,-rpath,"$prefix/$libdir" -o "$prefix/netbsd_count"
"$prefix/netbsd_count"
"$prefix/bin/pmc" -c task-clock /bin/true
