#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The licence as a reader and Debian's tools find it: LICENSE at the top (MIT, the project's
# authors), debian/copyright in the machine-readable format with the same text, and every
# source file marked with its SPDX identifier (scripts/spdx --check).
#   licence.sh SOURCE_DIR
set -uo pipefail
source=$1
failures=0
fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}

license=$source/LICENSE copyright=$source/debian/copyright
[[ -f $license ]] || fail "no LICENSE at the top of the tree"
grep -qx "MIT License" "$license" || fail "LICENSE is not the MIT licence"
grep -qx "Copyright (c) 2026 The libpmapi authors" "$license" ||
  fail "LICENSE does not name the copyright holders"

# DEP-5: the format line, one paragraph for every file, the licence's text as a stand-alone
# paragraph whose lines are LICENSE's permission text (Debian calls MIT "Expat").
head -1 "$copyright" | grep -qx "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/" ||
  fail "debian/copyright is not in the machine-readable format"
grep -qx "Files: \*" "$copyright" || fail "debian/copyright has no 'Files: *' paragraph"
grep -qx "Copyright: 2026 The libpmapi authors" "$copyright" ||
  fail "debian/copyright does not name the copyright holders as LICENSE does"
[[ $(grep -c "^License: Expat$" "$copyright") == 2 ]] ||
  fail "debian/copyright: 'License: Expat' for the files and as the licence's own paragraph"
grep -qi "pending\|not yet chosen" "$copyright" && fail "debian/copyright still has a placeholder"
text_of_license=$(sed -n '/^Permission is hereby granted/,$p' "$license" | sed 's/^$/./')
text_of_copyright=$(awk '/^License: Expat$/ {n++; next} n == 2 && /^ / {sub(/^ /, ""); print}' \
  "$copyright")
[[ $text_of_license == "$text_of_copyright" ]] ||
  fail "debian/copyright's Expat text differs from LICENSE's"

if git -C "$source" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  "$source/scripts/spdx" --check || fail "source files without their SPDX identifier (above): run scripts/spdx"
else
  echo "note: not a git checkout: the SPDX identifiers are not checked"
fi
((failures == 0)) || exit 1
echo "licence: ok"
