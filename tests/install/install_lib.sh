# SPDX-License-Identifier: MIT
# What every installed-tree test starts with (sourced, POSIX sh; tests/install, tests/hpm,
# compat/*/tests):
#   . "$source/tests/install/install_lib.sh"
#   install_into_scratch NAME BUILD_DIR LIBDIR
# installs BUILD_DIR into $prefix, inside a scratch directory $work removed at exit, and points
# PKG_CONFIG_PATH at the prefix's pkg-config files; step, fail and run_logged report.

step() { echo "== $*"; }
fail() {
  echo "FAIL: $*" >&2
  exit 1
}
run_logged() {  # run_logged LOG CMD...: quiet on success, the log on failure
  log=$1
  shift
  "$@" >"$log" 2>&1 || {
    cat "$log" >&2
    fail "$*"
  }
}
install_into_scratch() {  # install_into_scratch NAME BUILD_DIR LIBDIR
  work=$(mktemp -d "${TMPDIR:-/tmp}/$1.XXXXXX")
  trap 'rm -rf "$work"' EXIT
  prefix=$work/prefix
  PKG_CONFIG_PATH=$prefix/$3/pkgconfig
  export PKG_CONFIG_PATH
  step "cmake --install into $prefix"
  run_logged "$work/install.log" cmake --install "$2" --prefix "$prefix"
}
