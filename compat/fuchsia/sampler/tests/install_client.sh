#!/bin/sh
# SPDX-License-Identifier: MIT
# sampler.install_client: install the build into a scratch prefix, build the sampler example
# with nothing but `pkg-config zx-sampler`, run it, and run the installed pmsample (and find its
# man page): proves the headers, zx-sampler.pc, libzx_sampler.so and bin/pmsample agree.
# Usage: install_client.sh <build dir> <source dir> <libdir> <C compiler>
set -eu
build=$1 source=$2 libdir=$3 cc=$4
. "$source/tests/install/install_lib.sh"
install_into_scratch sampler-install "$build" "$libdir"
# shellcheck disable=SC2046 # pkg-config's output is meant to be split
"$cc" -std=c11 -Wall -Wextra -Werror "$source/compat/fuchsia/sampler/examples/sample_self.c" \
  $(pkg-config --cflags --libs zx-sampler) -Wl,-rpath,"$prefix/$libdir" -o "$prefix/sample_self"
"$prefix/sample_self"
test -f "$prefix/share/man/man1/pmsample.1"
"$prefix/bin/pmsample" -q -o "$prefix/t.fxt" -- /bin/sh -c 'i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done'
test -s "$prefix/t.fxt"
