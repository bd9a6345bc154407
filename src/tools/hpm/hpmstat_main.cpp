// SPDX-License-Identifier: MIT
// hpmstat: counts the whole machine by intervals as AIX's hpmstat does (docs/man/hpmstat.1).
#include "hpm_main.h"

int main(int argc, char **argv) { return aix::HpmMain(aix::Tool::kHpmstat, argc, argv); }
