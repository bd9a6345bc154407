# SPDX-License-Identifier: MIT
"""The checks the installed-tools Python scripts share, as checks.sh does for the shell ones.

check() prints ok/FAIL and counts the failures, skip() exits 77 (the section cannot run here,
the reason printed; the SKIP_RETURN_CODE of tests/tools/CMakeLists.txt), and finish() exits 1
when a check failed, 0 otherwise.
"""

import sys

failures = 0


def check(what, ok, detail=""):
    global failures
    if ok:
        print("ok: " + what)
    else:
        failures += 1
        print("FAIL: %s%s" % (what, "\n  " + detail if detail else ""), file=sys.stderr)


def skip(reason):
    print("SKIP: " + reason)
    sys.exit(77)


def finish():
    sys.exit(1 if failures else 0)
